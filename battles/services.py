"""Battle use cases: create, act, undo, verify. Each user action is one transaction.

Locking contract: every write takes `SELECT … FOR NO KEY UPDATE` on the battle row first and
checks the `seq` the client saw; a stale click gets `StaleBoard` (HTTP 409 with the current
board), so two people clicking at once never apply the same action twice.
"""

import secrets
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from kingdoms.access import access_campaign
from kingdoms.models import Kingdom, Membership, RuleSystem
from warfare.engine.battle.protocol import Command, Rejected, SetupError, command_dice, replay
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.activities.state import ArmyState
from warfare.mapping import apply_army_state, army_state
from warfare.messages import problem_messages
from warfare.models import Army, ArmyStatus, LogEntry

from .models import Battle, BattleCommand, BattleEvent, BattleStatus

SIDES = ("a", "b")
GM_ONLY_COMMANDS = {"gm_correction"}


class StaleBoard(Exception):
    """The board changed since the client drew it (HTTP 409)."""

    def __init__(self, battle: Battle):
        super().__init__("stale board")
        self.battle = battle


def _refuse(problems) -> None:
    problems = list(problems)
    if problems:
        raise ValidationError(problem_messages(problems), code="rules")


def _event_rows(battle: Battle, command: BattleCommand | None, events, round_: int):
    return [
        BattleEvent(
            battle=battle,
            command=command,
            round=event.params.get("round", round_) if hasattr(event, "params") else round_,
            code=event.code,
            params=dict(event.params),
        )
        for event in events
    ]


def battle_setup(*, armies_by_side: dict[str, list[Army]], pcs_side: str | None, terrain) -> dict:
    """The engine setup of a battle between persistent armies (their current state)."""
    sides = []
    for side in SIDES:
        armies = armies_by_side.get(side, [])
        sides.append(
            {
                "key": side,
                "name": ", ".join(dict.fromkeys(army.faction.name for army in armies)),
                "pcs_side": side == pcs_side,
                "kingdom_level": armies[0].faction.kingdom.level if armies else None,
                "armies": [
                    {
                        "army": {**army_state(army).to_dict(), "key": str(army.pk)},
                        "name": army.name,
                        "faction": army.faction_id,
                        "garrisoned": bool(army.garrison),
                        "initiative_bonus": army.initiative_bonus,
                    }
                    for army in armies
                ],
            }
        )
    return {"sides": sides, "terrain": list(terrain)}


@transaction.atomic
def battle_create(
    *,
    user,
    campaign_id: int,
    name: str,
    sides: dict[str, list[int]],
    pcs_side: str | None = None,
    terrain: tuple[str, ...] = (),
    players_may_act: bool = True,
) -> Battle:
    """The GM sets two sides of the campaign's armies against each other (§7.1-7.3)."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    if campaign.rule_system != RuleSystem.PF2E:
        raise ValidationError(_("Battles are available for Pathfinder campaigns so far."))
    if set(sides) - set(SIDES) or not all(sides.get(side) for side in SIDES):
        raise ValidationError(_("Put at least one army on each side."))
    everyone = [pk for side in SIDES for pk in sides[side]]
    if len(everyone) != len(set(everyone)):
        raise ValidationError(_("An army can fight on one side only."))
    wanted = set(everyone)
    armies = {
        army.pk: army
        for army in Army.objects.active()
        .filter(faction__campaign=campaign, pk__in=wanted)
        .select_related("faction__kingdom")
        .select_for_update(no_key=True, of=("self",))
    }
    if set(armies) != set(wanted):
        raise ValidationError(_("Only active armies of this campaign can fight."))
    by_side = {side: [armies[pk] for pk in sides[side]] for side in SIDES}
    setup = battle_setup(armies_by_side=by_side, pcs_side=pcs_side, terrain=terrain)
    seed = secrets.randbits(62)
    system = get_battle_system(campaign.rule_system)
    try:
        state = system.start(setup, seed)
    except SetupError as error:
        _refuse(error.problems)
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
    BattleEvent.objects.bulk_create(_event_rows(battle, None, system.start_events(state), 1))
    Army.objects.filter(pk__in=armies).update(initiative_bonus=0)
    return battle


def army_factions(battle: Battle) -> dict[str, int]:
    """{army key on the board: faction id} from the setup."""
    return {
        str(entry["army"]["key"]): entry.get("faction")
        for side in battle.setup["sides"]
        for entry in side["armies"]
    }


def may_command(membership: Membership, battle: Battle, actor: str | None) -> bool:
    if membership.is_gm:
        return True
    return (
        battle.players_may_act
        and actor is not None
        and membership.faction_id is not None
        and army_factions(battle).get(actor) == membership.faction_id
    )


def _lock(user, campaign_id: int, battle_id: int, *, gm: bool = False):
    membership = access_campaign(user, campaign_id, gm=gm)
    battle = get_object_or_404(
        Battle.objects.select_for_update(no_key=True), campaign=membership.campaign, pk=battle_id
    )
    return membership, battle


@transaction.atomic
def battle_act(
    *, user, campaign_id: int, battle_id: int, expected_seq: int, command: dict[str, Any]
) -> tuple[Battle, list]:
    """Apply one command (a war action, an end of turn, a GM correction) to the board."""
    membership, battle = _lock(user, campaign_id, battle_id)
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
    state = system.state_from_dict(battle.snapshot)
    result = system.apply(state, cmd, command_dice(battle.seed, battle.seq, cmd.typed_dice))
    if isinstance(result, Rejected):
        _refuse(result.problems)
    new_state, events = result
    row = BattleCommand.objects.create(
        battle=battle, position=battle.seq, command=cmd.to_dict(), actor=user
    )
    BattleEvent.objects.bulk_create(_event_rows(battle, row, events, new_state.round))
    battle.snapshot = new_state.to_dict()
    battle.seq += 1
    outcome = system.outcome(new_state)
    if outcome is not None:
        battle.status = BattleStatus.FINISHED
        battle.outcome = outcome.to_dict()
    battle.save()
    return battle, events


def live_commands(battle: Battle) -> list[Command]:
    rows = battle.commands.filter(undone_at__isnull=True).order_by("position")
    return [Command.from_dict(row.command) for row in rows]


@transaction.atomic
def battle_undo(*, user, campaign_id: int, battle_id: int, expected_seq: int) -> Battle:
    """The GM takes back the last command: it stays in the log, marked undone; replay."""
    _membership, battle = _lock(user, campaign_id, battle_id, gm=True)
    if battle.seq != expected_seq:
        raise StaleBoard(battle)
    if battle.status == BattleStatus.APPLIED:
        raise ValidationError(_("The results of this battle were applied; it can't be undone."))
    last = battle.commands.filter(undone_at__isnull=True).order_by("-position").first()
    if last is None:
        raise ValidationError(_("Nothing to undo."))
    last.undone_at = timezone.now()
    last.save(update_fields=["undone_at"])
    system = get_battle_system(battle.system)
    state, _events = replay(system, battle.setup, battle.seed, live_commands(battle))
    battle.snapshot = state.to_dict()
    battle.seq -= 1
    battle.status = BattleStatus.ACTIVE
    battle.outcome = None
    battle.save()
    return battle


def battle_verify(battle: Battle) -> bool:
    """Does replaying the stored commands give exactly the stored snapshot?"""
    system = get_battle_system(battle.system)
    state, _events = replay(system, battle.setup, battle.seed, live_commands(battle))
    return state.to_dict() == battle.snapshot


@transaction.atomic
def battle_apply_results(*, user, campaign_id: int, battle_id: int, expected_seq: int) -> Battle:
    """The GM confirms a finished battle: the armies leave it as the board left them (HP,
    conditions, destroyed), and each side's kingdom gains the XP of the enemies it defeated
    (§7.6). The §7.6 Warfare/Defense kingdom check is rolled at the table for now."""
    _membership, battle = _lock(user, campaign_id, battle_id, gm=True)
    if battle.seq != expected_seq:
        raise StaleBoard(battle)
    if battle.status != BattleStatus.FINISHED or not battle.outcome:
        raise ValidationError(_("Only a finished battle's results can be applied."))
    details = battle.outcome["details"]
    factions = army_factions(battle)
    armies = {
        str(army.pk): army
        for army in Army.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__kingdom")
        .filter(pk__in=[int(key) for key in factions])
    }
    for key, data in details["armies"].items():
        army = armies.get(key)
        if army is None:
            continue
        apply_army_state(army, ArmyState.from_dict({**data, "key": army.pk}))
        army.fought_this_turn = True
        if key in details.get("destroyed", []):
            army.status = ArmyStatus.DESTROYED
        army.version += 1
        army.save()
    for side in battle.setup["sides"]:
        gained = (details.get("xp", {}).get(side["key"]) or {}).get("total") or 0
        faction_ids = {entry.get("faction") for entry in side["armies"]}
        for kingdom in Kingdom.objects.select_for_update(no_key=True).filter(
            faction_id__in=faction_ids
        ):
            kingdom.xp += gained
            kingdom.save(update_fields=["xp"])
            LogEntry.objects.create(
                faction_id=kingdom.faction_id,
                turn=kingdom.turn,
                code="battle.results_applied",
                data={
                    "battle": battle.name,
                    "xp": gained,
                    "result": "victory" if side["key"] == battle.outcome["winner"] else "defeat",
                },  # fmt: skip
                actor=user,
            )
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "updated_at"])
    return battle
