"""Auto-play on a stored battle (issue 14): the policies' commands applied like clicks.

What the engine's policy (`system.suggest`, for an actor the board waits for:
`system.awaiting`) proposes is applied as ordinary commands, one by one, with the dice of
their positions (`command_dice(seed, position)`), exactly as `services.battle_act` would
apply them one click at a time: the log shows every die, undo takes them back one at a time
and replay gives the same board. The commands of one auto-play share a `batch` id, so
`battle_undo_autoplay` takes the whole batch back at once.

* `battle_autoplay(until="turn" | "round" | "battle", sides=…)`: the board buttons
  **Auto-play this turn**, **Resolve the round**, **Resolve the battle** (for one side or
  both), in one transaction, 409 on a stale seq. The GM plays any actor (and the GM's own
  steps when no side is named); a player only the actors they command (`may_command`): the
  auto-play stops where the board waits for somebody else.
* `play_auto_sides`: the sides set to auto at set-up (`Battle.auto_sides`) play their turns
  themselves when reached: after every human action (`services.battle_act`) and after the
  start, the service lets them act until a human is awaited (each run its own batch, logged
  as usual). An undo does not trigger them (the same dice would play the same moves again):
  the GM's **Auto-play this turn** does.

Bounded: one auto-play applies at most `MAX_COMMANDS` commands and plays at most
`MAX_ROUNDS` rounds (days) past the round it began in, so **Resolve the battle** always
ends; a battle still running then says so.
"""

import logging
import uuid
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone
from django.utils.translation import gettext as _

from kingdoms.models import Membership
from kingdoms.transactions import write_transaction
from warfare.engine.battle.autoplay import PolicyError, autoplay
from warfare.engine.battle.protocol import Waiting, command_dice, replay
from warfare.engine.battle.registry import get_battle_system

from . import services
from .models import Battle, BattleCommand, BattleEvent, BattleStatus

logger = logging.getLogger(__name__)
UNTIL = ("turn", "round", "battle")
SIDE_KEYS = ("a", "b")
MAX_ROUNDS = 50
MAX_COMMANDS = 5000


@dataclass(frozen=True)
class Played:
    """What one auto-play did: the battle after it, how many commands it applied, the batch
    id (None: none applied) and whether it stopped at the bound (`capped`)."""

    battle: Battle
    count: int
    batch: uuid.UUID | None
    capped: bool = False


# --- which sides play themselves ----------------------------------------------------------

_AUTO_SIDES: ContextVar[tuple[str, ...] | None] = ContextVar("auto_sides", default=None)


@contextmanager
def auto_sides_at_start(sides: Collection[str]) -> Iterator[None]:
    """Inside it, a battle started (`services.battle_start`, by any rule system's set-up)
    gets `sides` as its auto sides and lets them play at once if the board waits for them.
    The set-up page and the API's create wrap the system's own create with it, so no rule
    system's set-up has to know about auto-play."""
    token = _AUTO_SIDES.set(tuple(side for side in SIDE_KEYS if side in set(sides)))
    try:
        yield
    finally:
        _AUTO_SIDES.reset(token)


def auto_sides_wanted() -> tuple[str, ...]:
    """The auto sides asked for by the `auto_sides_at_start` around this call (or none)."""
    return _AUTO_SIDES.get() or ()


def parse_auto_sides(values: Any) -> tuple[str, ...]:
    """The auto sides of a set-up body or form (`["a", "b"]`); anything else is a 400."""
    if values in (None, "", []):
        return ()
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, list | tuple) or not all(v in SIDE_KEYS for v in values):
        raise ValidationError(_("auto_sides: a list of side keys (a, b)."))
    return tuple(side for side in SIDE_KEYS if side in values)


# --- the loop -------------------------------------------------------------------------------


def _steps(system, state, *, seed: int, position: int, until: str, plays: Callable) -> Iterator:
    """(command, state before, state after, events) of the policy's commands from `state`,
    while the board waits for an actor `plays(waiting)` accepts (the engine's `autoplay`
    with this board's limits); a command the engine rejects (a policy bug) ends it, keeping
    what was played."""
    steps = autoplay(
        system, state, lambda at: command_dice(seed, at), position=position, until=until,
        plays=plays, max_rounds=MAX_ROUNDS, max_commands=MAX_COMMANDS,
    )  # fmt: skip
    try:
        for step in steps:
            yield step.command, state, step.state, step.events
            state = step.state
    except PolicyError as error:
        logger.warning("auto-play: %s rejected %s", system.key, error.command.to_dict())


def _play(battle: Battle, user, plays: Callable, until: str) -> Played:
    """Apply the auto-played commands to the locked `battle` and save it (in the caller's
    transaction)."""
    system = get_battle_system(battle.system)
    state = system.state_from_dict(battle.snapshot)
    batch = uuid.uuid4()
    rows, events_of = [], []
    steps = _steps(system, state, seed=battle.seed, position=battle.seq, until=until, plays=plays)
    for command, before, after, events in steps:
        state = after
        rows.append(BattleCommand(battle=battle, position=battle.seq + len(rows),
                                  command=command.to_dict(), actor=user, batch=batch))  # fmt: skip
        events_of.append((events, services.state_round(before)))
    if not rows:
        return Played(battle, 0, None)
    BattleCommand.objects.bulk_create(rows)
    event_rows = []
    for row, (events, round_) in zip(rows, events_of, strict=True):
        event_rows += services._event_rows(battle, row, events, round_)
    BattleEvent.objects.bulk_create(event_rows)
    battle.snapshot = state.to_dict()
    battle.seq += len(rows)
    battle.autoplay_batch = batch
    outcome = system.outcome(state)
    if outcome is not None:
        battle.status = BattleStatus.FINISHED
        battle.outcome = outcome.to_dict()
    battle.save()
    capped = (
        outcome is None
        and until == "battle"
        and len(rows)
        and _still_playable(system, state, plays)
    )
    return Played(battle, len(rows), batch, bool(capped))


def _still_playable(system, state, plays: Callable) -> bool:
    return any(plays(w) for w in system.awaiting(state))


def battle_sides(battle: Battle) -> tuple[str, ...]:
    """The battle's side keys (a, b) as its setup names them."""
    sides = battle.setup.get("sides")
    keys = sides.keys() if isinstance(sides, dict) else [s.get("key") for s in sides or ()]
    return tuple(key for key in SIDE_KEYS if key in set(keys))


def _player_plays(membership: Membership, battle: Battle, sides: Collection[str] | None):
    def plays(waiting: Waiting) -> bool:
        if sides is not None and (waiting.actor is None or waiting.side not in sides):
            return False
        return services.may_command(membership, battle, waiting.actor)

    return plays


@write_transaction
def battle_autoplay(
    *,
    user,
    campaign_id: int,
    battle_id: int,
    expected_seq: int,
    until: str,
    sides: Collection[str] | None = None,
) -> Played:
    """Auto-play this turn / the round / the battle (`until`) for `sides` (None: both, and
    the GM's own steps for the GM), one transaction; see the module docstring. A stale seq is
    `StaleBoard` (409); a player may auto-play only their own actors (else 403); nothing to
    play for them is a 400."""
    membership, battle = services._lock(user, campaign_id, battle_id)
    if battle.seq != expected_seq:
        raise services.StaleBoard(battle)
    if battle.status != BattleStatus.ACTIVE:
        raise ValidationError(_("This battle is over."))
    if until not in UNTIL:
        raise ValidationError(_("Auto-play a turn, a round or the battle."))
    if sides is not None:
        sides = set(sides)
        if not sides or sides - set(battle_sides(battle)):
            raise ValidationError(_("Auto-play side a, side b or both."))
    if not membership.is_gm and not battle.players_may_act:
        raise PermissionDenied(_("Only the GM clicks on this board."))
    plays = _player_plays(membership, battle, sides)
    system = get_battle_system(battle.system)
    state = system.state_from_dict(battle.snapshot)
    played = _play(battle, user, plays, until)
    if not played.count:
        waiting = system.awaiting(state)
        if (
            not membership.is_gm
            and waiting
            and not any(services.may_command(membership, battle, w.actor) for w in waiting)
        ):
            raise PermissionDenied(_("You cannot act for this army."))
        raise ValidationError(_("Nothing to auto-play: the board waits for someone else."))
    play_auto_sides(played.battle, user)
    return played


def play_auto_sides(battle: Battle, user) -> Played:
    """Let the battle's auto sides act until a human is awaited (the locked `battle`, in the
    caller's transaction; nothing when it has none or they are not awaited). Their commands
    name no user (nobody clicked them; `user` is whoever's action led to them)."""
    if not battle.auto_sides or battle.status != BattleStatus.ACTIVE:
        return Played(battle, 0, None)
    auto = set(battle.auto_sides)

    def plays(waiting: Waiting) -> bool:
        return waiting.actor is not None and waiting.side in auto

    return _play(battle, None, plays, "battle")


def last_batch(battle: Battle) -> uuid.UUID | None:
    """The batch of the last live command, if an auto-play applied it (one query)."""
    return services.last_live_batch(battle)


@write_transaction
def battle_undo_autoplay(*, user, campaign_id: int, battle_id: int, expected_seq: int) -> Battle:
    """The GM takes back the last auto-play at once: every command of the last live
    command's batch stays in the log, marked undone; replay (like `battle_undo`, which takes
    them back one at a time)."""
    _membership, battle = services._lock(user, campaign_id, battle_id, gm=True)
    if battle.seq != expected_seq:
        raise services.StaleBoard(battle)
    if battle.status == BattleStatus.APPLIED:
        raise ValidationError(_("The results of this battle were applied; it can't be undone."))
    batch = last_batch(battle)
    if batch is None:
        raise ValidationError(_("The last action was not auto-played."))
    undone = battle.commands.filter(undone_at__isnull=True, batch=batch).update(
        undone_at=timezone.now()
    )
    system = get_battle_system(battle.system)
    commands = services.live_commands(battle)
    state, _events = replay(system, battle.setup, battle.seed, commands)
    battle.snapshot = state.to_dict()
    battle.seq -= undone
    battle.autoplay_batch = services.last_live_batch(battle)
    battle.status = BattleStatus.ACTIVE
    battle.outcome = None
    battle.save()
    return battle
