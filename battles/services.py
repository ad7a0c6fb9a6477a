"""Battle use cases: create, act, undo, apply, verify. Each user action is one transaction.

Locking contract (the order of kingdoms.transactions: campaign → kingdoms → forces →
battle): an action or an undo locks only the battle row and checks the `seq` the client saw;
a stale click gets `StaleBoard` (HTTP 409 with the current board), so two people clicking at
once never apply the same action twice. An undo locks it first (`SELECT … FOR NO KEY
UPDATE`); an action writes in one statement whose conditional `UPDATE` of the version it
read takes the same lock (`battle_act`, `ACT_SQL`). Setting a battle up
locks the campaign, then the forces it takes; applying the results locks the campaign, the
kingdoms, the forces, and the battle row last (`apply_begin`, `apply_lock`).
"""

import copy
import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.db.models import FilteredRelation, Q
from django.db.models.signals import post_save
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from kingdoms.access import access_campaign
from kingdoms.models import Membership
from kingdoms.transactions import Contention, write_statement, write_transaction
from warfare import seeds
from warfare.compiled import CompiledQuery, prepared_cursor
from warfare.engine.battle.protocol import (
    MAX_FORCED,
    Command,
    Rejected,
    SetupError,
    command_dice,
    forced_commands,
    replay,
)
from warfare.engine.battle.registry import get_battle_system
from warfare.meanwhile import statement_meanwhile

from .models import Battle, BattleCommand, BattleEvent, BattleStatus, remember_state
from .plugins import plugin_for

#: The mark of a command the board sent by itself (`forced_commands`) in its stored JSON;
#: `Command.from_dict` ignores it, so replay is the same as without it.
FORCED = "forced"
GM_ONLY_COMMANDS = {"gm_correction"}


class StaleBoard(Exception):
    """The board changed since the client drew it (HTTP 409)."""

    def __init__(self, battle: Battle):
        super().__init__("stale board")
        self.battle = battle


NOT_ALLOWED = gettext_lazy("The rules do not allow that.")


def problem_messages(battle: Battle, problems) -> list[str]:
    """The engine's refusals as sentences, worded by the battle's rule system (its plugin's
    `problem_message`, else its `problem_texts`)."""
    plugin = plugin_for(battle.system)
    if plugin.problem_message is not None:
        return [plugin.problem_message(problem) for problem in problems]
    messages = []
    for problem in problems:
        template = plugin.problem_texts.get(problem.code) or NOT_ALLOWED
        try:
            messages.append(str(template) % dict(problem.params))
        except (KeyError, TypeError, ValueError):
            messages.append(str(template))
    return messages


def _refuse(problems, battle: Battle) -> None:
    """Refuse with the problems as sentences (the battle's rule system's texts)."""
    problems = list(problems)
    if problems:
        raise ValidationError(problem_messages(battle, problems), code="rules")


def state_round(state) -> int:
    """The round (GURPS 3e: the day) a battle state is in (0: D&D 5e's deployment)."""
    for name in ("round", "day"):
        value = getattr(state, name, None)
        if isinstance(value, int):
            return value
    return 1


def event_round(params: Mapping[str, Any], current: int) -> int:
    """The round an event happened in: the one it names ("round", GURPS 3e "day": a round
    or day that begins, ends or is fought), else `current`, the round of the events before
    it. Each event names its own round, so a command that ends round 1 and begins round 2
    logs its first events in round 1 and the rest in round 2."""
    for key in ("round", "day"):
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return current


def _event_rows(battle: Battle, command: BattleCommand | None, events, round_: int):
    """The rows of a command's events; `round_`: the round the command was given in."""
    rows = []
    for event in events:
        params = dict(getattr(event, "params", {}) or {})
        round_ = event_round(params, round_)
        rows.append(BattleEvent(battle=battle, command=command, round=round_, code=event.code,
                                params=params))  # fmt: skip
    return rows


class SetupCaptured(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised by `battle_start` inside `capturing_setup()`: a system's set-up got as far as a
    valid engine setup, which is all a forecast needs; the transaction rolls back, nothing is
    saved."""

    def __init__(self, campaign, setup: dict):
        super().__init__("setup captured")
        self.campaign = campaign
        self.setup = setup


_CAPTURING: ContextVar[bool] = ContextVar("capturing_setup", default=False)


@contextmanager
def capturing_setup() -> Iterator[None]:
    """Inside it, `battle_start` raises `SetupCaptured` with the engine setup instead of
    saving a battle (a forecast from the set-up page runs each rule system's own set-up)."""
    token = _CAPTURING.set(True)
    try:
        yield
    finally:
        _CAPTURING.reset(token)


def _capture_setup(campaign, setup: dict) -> None:
    if _CAPTURING.get():
        raise SetupCaptured(campaign, setup)


def battle_start(
    *, user, campaign, name: str, setup: dict, players_may_act: bool, problem_messages
) -> Battle:
    """Start a battle of the campaign's rule system from an engine `setup` (any system):
    draw the seed, let the engine roll the start, save the battle and its opening events.
    A setup the engine refuses is a ValidationError of `problem_messages(problems)`.
    Call it inside the caller's transaction, after its own checks."""
    seed = seeds.new_seed(62)
    system = get_battle_system(campaign.rule_system)
    try:
        state = system.start(setup, seed)
    except SetupError as error:
        raise ValidationError(problem_messages(error.problems), code="rules") from None
    _capture_setup(campaign, setup)
    battle = Battle.objects.create(
        campaign=campaign,
        name=name,
        system=campaign.rule_system,
        setup=setup,
        seed=seed,
        snapshot=state.to_dict(),
        players_may_act=players_may_act,
        created_by=user,
    )
    events = system.start_events(state)
    BattleEvent.objects.bulk_create(_event_rows(battle, None, events, state_round(state)))
    _auto_sides_start(battle, user)
    return battle


def _auto_sides_start(battle: Battle, user) -> None:
    """The auto sides asked for around the set-up (battles.autoplay.auto_sides_at_start):
    stored on the battle, and played at once if the board waits for them."""
    from .autoplay import auto_sides_wanted, battle_sides  # a cycle: autoplay plays through here

    wanted = [side for side in auto_sides_wanted() if side in battle_sides(battle)]
    if wanted:
        battle.auto_sides = wanted
        battle.save(update_fields=["auto_sides"])
        _auto_sides_reply(battle, user)


def actor_factions(battle: Battle) -> dict[str, int | None]:
    """{actor on the board: the faction commanding it}, by the battle's rule system."""
    return plugin_for(battle.system).actor_factions(battle)


def may_command(membership: Membership, battle: Battle, actor: str | None) -> bool:
    """The GM always; a player, when the GM lets players act, for an actor of their faction,
    or as the rule system's plugin decides (`may_command`: a PC played by one member)."""
    if membership.is_gm:
        return True
    if not battle.players_may_act or actor is None:
        return False
    plugin = plugin_for(battle.system)
    if plugin.may_command is not None:
        return plugin.may_command(membership, battle, actor)
    return (
        membership.faction_id is not None
        and actor_factions(battle).get(actor) == membership.faction_id
    )


def _lock(
    user,
    campaign_id: int,
    battle_id: int,
    *,
    gm: bool = False,
    membership=None,
    battle: Battle | None = None,
):
    """The member and the battle row locked (`SELECT … FOR NO KEY UPDATE`).

    A caller that has read them already (the board's views, to build their forms) passes
    them: the membership is then not read again, and the lock reads only the battle's
    version (`seq`, `updated_at`) — when it is the one read, the row with its JSON is the one
    the caller holds (every save moves `updated_at`); otherwise the row is read again."""
    if (
        membership is None
        or membership.user_id != user.pk
        or (membership.campaign_id != campaign_id)
    ):
        membership = access_campaign(user, campaign_id, gm=gm)
    elif gm and not membership.is_gm:
        raise PermissionDenied(_("Only the campaign's game masters can do this."))
    rows = Battle.objects.select_for_update(no_key=True).filter(
        campaign=membership.campaign_id, pk=battle_id
    )
    if battle is not None and battle.pk == battle_id:
        locked = rows.values_list("seq", "updated_at").first()
        if locked is None:
            raise Http404
        if locked == (battle.seq, battle.updated_at):
            return membership, battle
    battle = get_object_or_404(rows)
    battle.campaign = membership.campaign
    return membership, battle


def apply_begin(user, campaign_id: int, battle_id: int) -> Battle:
    """Writing a battle's results (any rule system), step 1 of the lock order: the campaign
    locked (GM only), the battle read but not locked yet — its setup, which never changes,
    names the rows to lock next (kingdoms, then forces)."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    return get_object_or_404(Battle, campaign=membership.campaign, pk=battle_id)


def apply_lock(battle: Battle, expected_seq: int) -> Battle:
    """Writing a battle's results, last step of the lock order: the battle row locked and
    checked — the board the GM saw (else `StaleBoard`), finished and not applied yet."""
    battle = Battle.objects.select_for_update(no_key=True).get(pk=battle.pk)
    if battle.seq != expected_seq:
        raise StaleBoard(battle)
    if battle.status != BattleStatus.FINISHED or not battle.outcome:
        raise ValidationError(_("Only a finished battle's results can be applied."))
    return battle


#: How many times an action is tried on a battle row that changed between its read and its
#: write with the same `seq` (another kind of change: the GM let players act, shared a
#: forecast) before the action gives up (`Contention`, "try again").
ACT_ATTEMPTS = 3


def _member_battle(*, user: int, campaign: int, battle: int):
    """The battle of the campaign with the user's membership (`member`), if they are one."""
    member = FilteredRelation(
        "campaign__memberships", condition=Q(campaign__memberships__user=user)
    )
    return (
        Battle.objects.annotate(member=member)
        .select_related("campaign", "member__faction")
        .filter(campaign_id=campaign, pk=battle, member__isnull=False)
        .order_by("pk")
    )


#: `access_battle`'s query, compiled once (building it took twice what PostgreSQL spends on it).
_MEMBER_BATTLE = CompiledQuery(_member_battle, "user", "campaign", "battle")


def access_battle(user, campaign_id: int, battle_id: int) -> tuple[Membership, Battle]:
    """(the user's membership of the campaign, the battle) in one query, the campaign (and
    the member's faction) read with them; a non-member, or a battle of another campaign or
    none, is a 404 (`kingdoms.access.access_campaign` reads the membership alone)."""
    if not user.is_authenticated:
        raise Http404
    battle = _MEMBER_BATTLE.first(user=user.pk, campaign=int(campaign_id), battle=int(battle_id))
    if battle is None:
        raise Http404
    membership = battle.member
    membership.campaign = battle.campaign
    del battle.member  # (the membership is the caller's, not the battle's)
    return membership, battle


@dataclass
class _Act:
    """One action's write: the battle's new values and the rows to insert."""

    battle: Battle  # as read; changed once the write is done (`_acted`)
    seq: int
    snapshot: dict
    state: Any  # the engine state of `snapshot`
    status: str
    outcome: dict | None
    commands: list[BattleCommand]
    events: list[BattleEvent]
    engine_events: list


def battle_act(
    *,
    user,
    campaign_id: int,
    battle_id: int,
    expected_seq: int,
    command: dict[str, Any],
    membership: Membership | None = None,
    battle: Battle | None = None,
    meanwhile: Callable[[Battle], None] | None = None,
) -> tuple[Battle, list]:
    """Apply one command (a war action, an end of turn, a GM correction) to the board: the
    new battle and the engine's events. `membership`, `battle`: as the caller read them (else
    read here in one query, `access_battle`), not read again. `meanwhile`: called with (a
    copy of) the battle as the write will leave it while the write is on its way to
    PostgreSQL, its statement waited for on a helper thread (`warfare.meanwhile`): the
    view draws its answer then (`rendering.Answer`). It is not called on other databases
    nor where sides play themselves (their replies are written in the same transaction);
    it may be called for a write that then finds the row changed (and again for the next).

    The command is checked and applied to the battle as read, then written in one statement
    (`_write_act`): the battle's changed columns, conditional on the version read (`seq` and
    `updated_at`; every save moves `updated_at`), its command rows and their events. That
    `UPDATE` takes the row's lock, so a second click on the same board waits for the first,
    finds the version gone and is stale (409). When the row changed meanwhile without a new
    command (same `seq`), it is read again and the command applied to it. A battle whose
    sides play themselves answers the command in the same transaction."""
    if (
        membership is None
        or battle is None
        or membership.user_id != user.pk
        or membership.campaign_id != campaign_id
        or battle.pk != battle_id
    ):
        membership, battle = access_battle(user, campaign_id, battle_id)
    for _attempt in range(ACT_ATTEMPTS):
        act = _act(user, membership, battle, expected_seq, command)
        if battle.auto_sides and act.status == BattleStatus.ACTIVE:
            written = _write_act_and_reply(act, user)
        else:
            written = _write_act(act, meanwhile)
        if written:
            return act.battle, act.engine_events
        battle = Battle.objects.filter(campaign_id=campaign_id, pk=battle_id).first()
        if battle is None:
            raise Http404
        battle.campaign = membership.campaign
    raise Contention(f"battle {battle_id}: its row changed at every attempt of an action")


def _act(user, membership: Membership, battle: Battle, expected_seq: int, command) -> _Act:
    """Check `command` on `battle` as read and apply it: what the action writes (nothing is
    written, `battle` is not changed)."""
    if battle.seq != expected_seq:
        raise StaleBoard(battle)
    if battle.status != BattleStatus.ACTIVE:
        raise ValidationError(_("This battle is over."))
    try:
        cmd = Command.from_dict(command)
    except (KeyError, TypeError, ValueError):
        raise ValidationError(_("That action was not understood.")) from None
    if cmd.kind in GM_ONLY_COMMANDS and not membership.is_gm:
        raise PermissionDenied(_("Only the GM corrects the board."))
    if not may_command(membership, battle, cmd.actor):
        raise PermissionDenied(_("You cannot act for this army."))
    system = get_battle_system(battle.system)
    state = battle.engine_state()  # (read once per snapshot: the board's forms read it too)
    seq = battle.seq
    dice = command_dice(battle.seed, seq, cmd.typed_dice)
    result = system.apply(state, cmd, dice)
    if isinstance(result, Rejected):
        _refuse(result.problems, battle)
    _refuse_unused_dice(battle, cmd, dice.typed_remaining)
    new_state, events = result
    row = BattleCommand(battle=battle, position=seq, command=cmd.to_dict(), actor=user)
    given = [(row, events, state_round(state))]  # each command row, its events, its round
    seq += 1
    # What the board does by itself next (Pathfinder: the end of a turn with no action
    # left), as ordinary commands after this one, marked "forced" for undo.
    for forced, after, more in forced_commands(system, new_state, battle.seed, seq):
        row = BattleCommand(battle=battle, position=seq, actor=user,
                            command={**forced.to_dict(), FORCED: True})  # fmt: skip
        given.append((row, more, state_round(new_state)))
        new_state, events = after, [*events, *more]
        seq += 1
    rows = []
    for row, more, round_ in given:
        rows += _event_rows(battle, row, more, round_)
    outcome = system.outcome(new_state)
    return _Act(
        battle=battle,
        seq=seq,
        snapshot=new_state.to_dict(),
        state=new_state,
        status=BattleStatus.ACTIVE if outcome is None else BattleStatus.FINISHED,
        outcome=battle.outcome if outcome is None else outcome.to_dict(),
        commands=[row for row, _more, _round in given],
        events=rows,
        engine_events=events,
    )


@write_transaction
def _write_act_and_reply(act: _Act, user) -> bool:
    """`_write_act`, and the sides that play themselves answer, in one transaction."""
    if not _write_act(act):
        return False
    _auto_sides_reply(act.battle, user)
    return True


#: The board action's write on PostgreSQL (`_write_act`): the battle row updated if it is
#: still the version read (which locks it), then its commands inserted for that row only, and
#: their events, each with the id of its command (matched by position). The rows are
#: inserted in the order given, so their ids (the log's order) follow it, as Django's
#: `bulk_create` relies on for the ids it returns; the ids come back (`_put_ids`).
ACT_SQL = """
WITH saved AS (
    UPDATE battles_battle
    SET snapshot = %(snapshot)s, seq = %(seq)s, status = %(status)s, outcome = %(outcome)s,
        autoplay_batch = NULL, updated_at = %(now)s
    WHERE id = %(battle)s AND seq = %(read_seq)s AND updated_at = %(read_at)s
    RETURNING id
), commands AS (
    INSERT INTO battles_battlecommand
        (battle_id, position, command, actor_id, created_at, undone_at, batch)
    SELECT saved.id, given.position, given.command, %(actor)s, %(now)s, NULL, NULL
    FROM saved, ROWS FROM (UNNEST(%(positions)s::integer[]),
                           jsonb_array_elements(%(commands)s::jsonb))
        AS given(position, command)
    ORDER BY given.position
    RETURNING id, position
), events AS (
    INSERT INTO battles_battleevent (battle_id, command_id, round, code, params, created_at)
    SELECT %(battle)s, commands.id, event.round, event.code, event.params, %(now)s
    FROM commands JOIN ROWS FROM (UNNEST(%(event_positions)s::integer[]),
                                  UNNEST(%(rounds)s::integer[]),
                                  UNNEST(%(codes)s::varchar[]),
                                  jsonb_array_elements(%(params)s::jsonb))
        WITH ORDINALITY AS event(position, round, code, params, n)
        ON event.position = commands.position
    ORDER BY event.n
    RETURNING id
)
SELECT (SELECT count(*) FROM saved),
       (SELECT array_agg(id ORDER BY position) FROM commands),
       (SELECT array_agg(id ORDER BY id) FROM events)
"""


@write_statement
def _write_act(act: _Act, meanwhile: Callable[[Battle], None] | None = None) -> bool:
    """Write the action if the battle row is still the version read: one statement on
    PostgreSQL (`ACT_SQL`), its own transaction outside the caller's, `meanwhile` (see
    `battle_act`) called while it runs; else a transaction of the same conditional `UPDATE`
    and the inserts (`_write_act_orm`). False: the row changed since it was read, nothing
    written. Then the battle is the new one, and saved as any save is (`post_save`: the
    live board's announcement)."""
    battle, now = act.battle, timezone.now()
    if connection.vendor != "postgresql":
        written = _write_act_orm(act, now)
    else:
        field = Battle._meta.get_field
        params = {
            "snapshot": field("snapshot").get_db_prep_save(act.snapshot, connection),
            "seq": act.seq,
            "status": act.status,
            "outcome": field("outcome").get_db_prep_save(act.outcome, connection),
            "now": now,
            "battle": battle.pk,
            "read_seq": battle.seq,
            "read_at": battle.updated_at,
            "actor": act.commands[0].actor_id,
            "positions": [row.position for row in act.commands],
            # (each list one JSON value: an array of JSON texts would be escaped element by
            # element, every quote of them, in Python)
            "commands": _json(BattleCommand, "command", [row.command for row in act.commands]),
            "event_positions": [row.command.position for row in act.events],
            "rounds": [row.round for row in act.events],
            "codes": [row.code for row in act.events],
            "params": _json(BattleEvent, "params", [row.params for row in act.events]),
        }
        if meanwhile is None:
            with prepared_cursor(connection) as cursor:
                cursor.execute(ACT_SQL, params)
                count, command_ids, event_ids = cursor.fetchone()
        else:
            provisional = copy.copy(battle)  # (the battle as read stays so until written)
            _new_values(provisional, act, now)
            row = statement_meanwhile(ACT_SQL, params, functools.partial(meanwhile, provisional))
            count, command_ids, event_ids = row
        written = count == 1
        if written:
            _put_ids(act, now, command_ids or [], event_ids or [])
    if written:
        _acted(act, now)
    return written


def _put_ids(act: _Act, now, command_ids: list[int], event_ids: list[int]) -> None:
    """The ids `ACT_SQL` gave the rows, on them as `bulk_create` puts them: the new board's
    log is drawn from these rows, not read again (`rendering.written_events`)."""
    for row, pk in zip(act.commands, command_ids, strict=True):
        row.pk, row.created_at = pk, now
    for row, pk in zip(act.events, event_ids, strict=True):
        row.pk, row.created_at = pk, now
        row.command = row.command  # its command's id, given only now (the object kept)


def _json(model, name: str, value):
    return model._meta.get_field(name).get_db_prep_save(value, connection)


def _write_act_orm(act: _Act, now) -> bool:
    """`ACT_SQL` with the ORM, for a database without data-modifying `WITH` (SQLite under
    `make run`): one transaction of the conditional `UPDATE`, then the inserts."""
    battle = act.battle
    with transaction.atomic():
        written = Battle.objects.filter(
            pk=battle.pk, seq=battle.seq, updated_at=battle.updated_at
        ).update(snapshot=act.snapshot, seq=act.seq, status=act.status, outcome=act.outcome,
                 autoplay_batch=None, updated_at=now)  # fmt: skip
        if not written:
            return False
        for row in act.commands:
            row.created_at = now
        BattleCommand.objects.bulk_create(act.commands)  # one INSERT
        BattleEvent.objects.bulk_create(act.events)
    return True


def _acted(act: _Act, now) -> None:
    """The battle as the action wrote it, announced as saved (`post_save`, as `save()`
    would send it: `battles.live.announce`)."""
    battle = act.battle
    changed = ["snapshot", "seq", "updated_at", "autoplay_batch"]
    if act.status != battle.status:
        changed += ["status", "outcome"]
    _new_values(battle, act, now)
    remember_state(battle, act.state)  # (the next request reads this version: not parsed)
    post_save.send(sender=Battle, instance=battle, created=False,
                   update_fields=frozenset(changed), raw=False, using=connection.alias)  # fmt: skip


def _new_values(battle: Battle, act: _Act, now) -> None:
    """`battle` given the values the action writes."""
    battle.snapshot, battle.seq, battle.status = act.snapshot, act.seq, act.status
    battle.outcome, battle.autoplay_batch, battle.updated_at = act.outcome, None, now
    # The board drawn next reads the new state: it is the one just computed (a state and
    # its read-back JSON are equal: tests/battles/test_act_write.py).
    battle.__dict__["_engine_state"] = (battle.snapshot, act.state)


def _auto_sides_reply(battle: Battle, user) -> None:
    """The sides set to auto play their turns when reached (battles.autoplay)."""
    if battle.auto_sides and battle.status == BattleStatus.ACTIVE:
        from .autoplay import play_auto_sides  # a cycle: autoplay plays through this module

        play_auto_sides(battle, user)


def _refuse_unused_dice(battle: Battle, cmd: Command, unused: tuple[int, ...]) -> None:
    """Refuse dice typed in that the command did not roll (a mistyped count would otherwise
    go unnoticed). Not for a system whose plugin says so (`refuse_unused_dice`: Pathfinder, where
    a command a reaction interrupts keeps the dice typed in with it for its own rolls after the
    answer), so they are not spent when it stops."""
    if not unused or not plugin_for(battle.system).refuse_unused_dice:
        return
    used = len(cmd.typed_dice or ()) - len(unused)
    if not used:
        raise ValidationError(
            _("This action rolls no dice: leave the dice rolled at the table empty."),
            code="dice_unused",
        )
    raise ValidationError(
        _("This action rolls %(used)s of the %(typed)s dice typed in; type in at most %(used)s.")
        % {"used": used, "typed": len(cmd.typed_dice or ())},
        code="dice_unused",
    )


def last_live_batch(battle: Battle):
    """The auto-play batch of the last live command (None: a person's, or none)."""
    return (
        battle.commands.filter(undone_at__isnull=True)
        .order_by("-position")
        .values_list("batch", flat=True)
        .first()
    )


def live_commands(battle: Battle) -> list[Command]:
    rows = battle.commands.filter(undone_at__isnull=True).order_by("position")
    return [Command.from_dict(row.command) for row in rows]


@write_transaction
def battle_undo(
    *,
    user,
    campaign_id: int,
    battle_id: int,
    expected_seq: int,
    membership: Membership | None = None,
    battle: Battle | None = None,
) -> Battle:
    """The GM takes back the last command: it stays in the log, marked undone; replay.
    `membership`, `battle`: as the caller read them (`_lock`).

    A command the board sent by itself (`FORCED`: Pathfinder's end of a turn with no action
    left) goes with the command that led to it: one undo takes back the last action and
    the end of turn that followed, so the board is back where the GM clicked."""
    _membership, battle = _lock(user, campaign_id, battle_id, gm=True, membership=membership,
                                battle=battle)  # fmt: skip
    if battle.seq != expected_seq:
        raise StaleBoard(battle)
    if battle.status == BattleStatus.APPLIED:
        raise ValidationError(_("The results of this battle were applied; it can't be undone."))
    taken = []
    live = battle.commands.filter(undone_at__isnull=True).order_by("-position")
    for row in live[: MAX_FORCED + 1]:
        taken.append(row)
        if not row.command.get(FORCED):
            break
    if not taken:
        raise ValidationError(_("Nothing to undo."))
    BattleCommand.objects.filter(pk__in=[row.pk for row in taken]).update(undone_at=timezone.now())
    system = get_battle_system(battle.system)
    state, _events = replay(system, battle.setup, battle.seed, live_commands(battle))
    battle.snapshot = state.to_dict()
    battle.seq -= len(taken)
    battle.autoplay_batch = last_live_batch(battle)
    battle.status = BattleStatus.ACTIVE
    battle.outcome = None
    battle.save(
        update_fields=["snapshot", "seq", "status", "outcome", "updated_at", "autoplay_batch"]
    )
    return battle


def battle_verify(battle: Battle) -> bool:
    """Does replaying the stored commands give exactly the stored snapshot?"""
    system = get_battle_system(battle.system)
    state, _events = replay(system, battle.setup, battle.seed, live_commands(battle))
    return state.to_dict() == battle.snapshot
