"""Battle use cases: create, act, undo, apply, verify. Each user action is one transaction.

Locking contract (the order of kingdoms.transactions: campaign → kingdoms → forces →
battle): an action or an undo locks only the battle row (`SELECT … FOR NO KEY UPDATE`) and
checks the `seq` the client saw; a stale click gets `StaleBoard` (HTTP 409 with the current
board), so two people clicking at once never apply the same action twice. Setting a battle up
locks the campaign, then the forces it takes; applying the results locks the campaign, the
kingdoms, the forces, and the battle row last (`apply_begin`, `apply_lock`).
"""

import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from kingdoms.access import access_campaign
from kingdoms.models import Controller, Membership, RuleSystem
from kingdoms.transactions import write_transaction
from warfare.engine.battle.protocol import (
    MAX_FORCED,
    Command,
    CommandDice,
    Rejected,
    SetupError,
    command_dice,
    derive_seed,
    forced_commands,
    replay,
)
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.activities.state import ArmyState
from warfare.engine.systems.pf2e.battle.aftermath import Aftermath, resolve_kingdom_check
from warfare.engine.systems.pf2e.battle.results import apply_changes, army_changes
from warfare.messages import problem_messages
from warfare.systems.pf2e.mapping import (
    apply_army_state,
    apply_kingdom_state,
    army_state,
    kingdom_state,
)
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry

from .holds import refuse_held
from .models import Battle, BattleCommand, BattleEvent, BattleStatus
from .plugins import plugin_for
from .problems import setup_problem_messages

SIDES = ("a", "b")
#: The mark of a command the board sent by itself (`forced_commands`) in its stored JSON;
#: `Command.from_dict` ignores it, so replay is the same as without it.
FORCED = "forced"
GM_ONLY_COMMANDS = {"gm_correction"}
#: §7.3: the tactics that let an army choose its starting position (the engine then checks
#: the initiative order and the swamp); "near" needs none.
START_TACTICS = {"distant": ("opening_salvo",), "engaged": ("ambush", "swamp_charge")}


class StaleBoard(Exception):
    """The board changed since the client drew it (HTTP 409)."""

    def __init__(self, battle: Battle):
        super().__init__("stale board")
        self.battle = battle


def _refuse(problems, battle: Battle | None = None) -> None:
    """Refuse with the problems as sentences (the battle's rule system's own texts first)."""
    problems = list(problems)
    if problems:
        plugin = plugin_for(battle.system) if battle is not None else None
        texts = plugin.problem_texts if plugin is not None else None
        raise ValidationError(problem_messages(problems, texts), code="rules")


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


def battle_setup(
    *,
    armies_by_side: dict[str, list[Army]],
    pcs_side: str | None,
    terrain,
    fortifications: dict[str, str] | None = None,
    inside: Iterable[int] = (),
    starts: dict[int, tuple[str, int | None]] | None = None,
    initiative_dice: Mapping[int, int] | None = None,
    auto_reactions: Mapping[str, bool] | None = None,
) -> dict:
    """The engine setup of a battle between persistent armies (their current state).

    `fortifications`: {side: §7.5 kind} (one per side, key "fort_<side>"); `inside`: the ids
    of armies garrisoned inside their side's fortification (fortified, §7.5); `starts`: {army
    id: ("near", None) | ("distant", None) | ("engaged", enemy army id)}, starting positions
    of Opening Salvo, Ambush or Swamp Charge (§7.3) chosen in advance — the engine checks the
    tactic and the initiative order; an army with such a tactic and no start here is offered
    the choice after initiative (the setup's "offer_starts");
    `initiative_dice`: {army id: d20 of its §7.3 Scouting check rolled at the table} (the
    others are rolled by the server; both are logged, with their source);
    `auto_reactions`: {side: False} for a side whose reactions are offered to whoever
    commands its armies instead of used automatically (§0.5; default automatic)."""
    fortifications = {side: kind for side, kind in (fortifications or {}).items() if kind}
    inside, starts = set(inside), starts or {}
    sides = []
    for side in SIDES:
        armies = armies_by_side.get(side, [])
        entries = []
        for army in armies:
            entry = {
                "army": {**army_state(army).to_dict(), "key": str(army.pk)},
                "name": army.name,
                "faction": army.faction_id,
                "garrisoned": bool(army.garrison) or army.pk in inside,
                "initiative_bonus": army.initiative_bonus,
            }
            if army.pk in inside:
                entry["fortification"] = f"fort_{side}"
            if army.pk in starts:
                start, target = starts[army.pk]
                entry["start"] = start
                entry["start_target"] = str(target) if target is not None else None
            entries.append(entry)
        sides.append(
            {
                "key": side,
                "name": ", ".join(dict.fromkeys(army.faction.name for army in armies)),
                "pcs_side": side == pcs_side,
                "auto_reactions": bool((auto_reactions or {}).get(side, True)),
                "kingdom_level": armies[0].faction.kingdom.level if armies else None,
                "armies": entries,
            }
        )
    # Each typed die to the roll it was typed for, never to a reaction it triggers.
    setup = {"sides": sides, "terrain": list(terrain), "offer_starts": True,
             "typed_dice_by_roll": True}  # fmt: skip
    if fortifications:
        setup["fortifications"] = [
            {"key": f"fort_{side}", "kind": kind, "side": side}
            for side, kind in sorted(fortifications.items())
        ]
    if initiative_dice:
        setup["initiative_dice"] = {str(pk): die for pk, die in initiative_dice.items()}
    return setup


@write_transaction
def battle_create(
    *,
    user,
    campaign_id: int,
    name: str,
    sides: dict[str, list[int]],
    pcs_side: str | None = None,
    terrain: tuple[str, ...] = (),
    players_may_act: bool = True,
    fortifications: dict[str, str] | None = None,
    inside: Iterable[int] = (),
    starts: dict[int, tuple[str, int | None]] | None = None,
    initiative_dice: Mapping[int, int] | None = None,
    auto_reactions: Mapping[str, bool | None] | None = None,
    reveal_checks: bool = False,
) -> Battle:
    """The GM sets two sides of the campaign's armies against each other (§7.1-7.5), with a
    fortification per side and the armies garrisoned inside it, starting positions their
    tactics allow chosen in advance (the others are offered to whoever commands the army
    after initiative) and the initiative dice rolled at the table (see `battle_setup`).
    Bad input, or a setup the engine refuses, is a ValidationError with one message per
    problem; nothing is saved.

    `auto_reactions` {side: True (used automatically) | False (offered) | None}: how each
    side's reactions are taken (§0.5). None (the default) = offered when players act for
    their own armies and a players' faction fights on that side (they decide), automatic
    otherwise (the GM's armies: nobody has to stop and click).

    `reveal_checks`: players see the enemy's check modifiers and DCs (default: their own
    armies' modifiers and every check's degree, `battles.visibility`).

    Locks the campaign, then the armies (primary-key order); an army already on an
    unfinished board is refused, naming the battle (`battles.holds`)."""
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
        .order_by("pk")
    }
    if set(armies) != set(wanted):
        raise ValidationError(_("Only active armies of this campaign can fight."))
    refuse_held(campaign.pk, [armies[pk] for pk in everyone])
    by_side = {side: [armies[pk] for pk in sides[side]] for side in SIDES}
    inside = set(inside)
    side_of = {pk: side for side in SIDES for pk in sides[side]}
    fortifications = {side: kind for side, kind in (fortifications or {}).items() if kind}
    if any(side_of.get(pk) not in fortifications for pk in inside):
        raise ValidationError(_("Only armies of a side with a fortification can be inside it."))
    for pk, (start, target) in (starts or {}).items():
        if pk not in side_of:
            raise ValidationError(
                _("A starting position was chosen for an army that does not fight.")
            )
        if (start == "engaged") != (target is not None):
            raise ValidationError(_("An army starts distant, or engaged with an enemy army."))
        if target is not None and side_of.get(target) in (None, side_of[pk]):
            raise ValidationError(_("An army can start engaged only with an enemy army."))
        if start != "near" and not set(START_TACTICS.get(start, ())) & set(
            armies[pk].tactics or ()
        ):
            raise ValidationError(
                _("%(army)s knows no tactic that lets it start there.") % {"army": armies[pk].name}
            )
    initiative_dice = dict(initiative_dice or {})
    if any(pk not in side_of for pk in initiative_dice):
        raise ValidationError(_("An initiative die was typed in for an army that does not fight."))
    chosen = dict(auto_reactions or {})
    automatic = {
        side: chosen[side]
        if chosen.get(side) is not None
        else not (
            players_may_act
            and any(a.faction.controlled_by == Controller.PLAYERS for a in by_side[side])
        )
        for side in SIDES
    }
    setup = battle_setup(armies_by_side=by_side, pcs_side=pcs_side, terrain=terrain,
                         fortifications=fortifications, inside=inside, starts=starts,
                         initiative_dice=initiative_dice, auto_reactions=automatic)  # fmt: skip
    if reveal_checks:
        setup["reveal_checks"] = True
    names = {str(army.pk): army.name for army in armies.values()}
    kinds = {f"fort_{side}": kind for side, kind in fortifications.items()}
    battle = battle_start(
        user=user,
        campaign=campaign,
        name=name,
        setup=setup,
        players_may_act=players_may_act,
        problem_messages=lambda problems: setup_problem_messages(problems, names, kinds),
    )
    Army.objects.filter(pk__in=armies).update(initiative_bonus=0)
    return battle


def battle_start(
    *, user, campaign, name: str, setup: dict, players_may_act: bool, problem_messages
) -> Battle:
    """Start a battle of the campaign's rule system from an engine `setup` (any system):
    draw the seed, let the engine roll the start, save the battle and its opening events.
    A setup the engine refuses is a ValidationError of `problem_messages(problems)`.
    Call it inside the caller's transaction, after its own checks."""
    seed = secrets.randbits(62)
    system = get_battle_system(campaign.rule_system)
    try:
        state = system.start(setup, seed)
    except SetupError as error:
        raise ValidationError(problem_messages(error.problems), code="rules") from None
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
    return battle


def army_factions(battle: Battle) -> dict[str, int]:
    """{army key on the board: faction id} from the setup."""
    return {
        str(entry["army"]["key"]): entry.get("faction")
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
    }


def actor_factions(battle: Battle) -> dict[str, int | None]:
    """{actor on the board: the faction commanding it}, by the battle's rule system."""
    plugin = plugin_for(battle.system)
    return plugin.actor_factions(battle) if plugin else army_factions(battle)


def may_command(membership: Membership, battle: Battle, actor: str | None) -> bool:
    """The GM always; a player, when the GM lets players act, for an actor of their faction,
    or as the rule system's plugin decides (`may_command`: a PC played by one member)."""
    if membership.is_gm:
        return True
    if not battle.players_may_act or actor is None:
        return False
    plugin = plugin_for(battle.system)
    if plugin is not None and plugin.may_command is not None:
        return plugin.may_command(membership, battle, actor)
    return (
        membership.faction_id is not None
        and actor_factions(battle).get(actor) == membership.faction_id
    )


def _lock(user, campaign_id: int, battle_id: int, *, gm: bool = False):
    membership = access_campaign(user, campaign_id, gm=gm)
    battle = get_object_or_404(
        Battle.objects.select_for_update(no_key=True), campaign=membership.campaign, pk=battle_id
    )
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


@write_transaction
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
    dice = command_dice(battle.seed, battle.seq, cmd.typed_dice)
    result = system.apply(state, cmd, dice)
    if isinstance(result, Rejected):
        _refuse(result.problems, battle)
    _refuse_unused_dice(battle, cmd, dice.typed_remaining)
    new_state, events = result
    row = BattleCommand.objects.create(
        battle=battle, position=battle.seq, command=cmd.to_dict(), actor=user
    )
    rows = _event_rows(battle, row, events, state_round(state))
    battle.seq += 1
    # What the board does by itself next (Pathfinder: the end of a turn with no action
    # left), as ordinary commands after this one, marked "forced" for undo.
    for forced, after, more in forced_commands(system, new_state, battle.seed, battle.seq):
        row = BattleCommand.objects.create(battle=battle, position=battle.seq, actor=user,
                                           command={**forced.to_dict(), FORCED: True})  # fmt: skip
        rows += _event_rows(battle, row, more, state_round(new_state))
        new_state, events = after, [*events, *more]
        battle.seq += 1
    BattleEvent.objects.bulk_create(rows)
    battle.snapshot = new_state.to_dict()
    outcome = system.outcome(new_state)
    if outcome is not None:
        battle.status = BattleStatus.FINISHED
        battle.outcome = outcome.to_dict()
    battle.save()
    return battle, events


def _refuse_unused_dice(battle: Battle, cmd: Command, unused: tuple[int, ...]) -> None:
    """Refuse dice typed in that the command did not roll (a mistyped count would otherwise
    go unnoticed). Not for Pathfinder (no plugin): a command a reaction interrupts keeps the
    dice typed in with it for its own rolls after the answer (each typed die goes to the roll
    it was typed for; the answer's to the reaction), so they are not spent when it stops."""
    if not unused or plugin_for(battle.system) is None:
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


def live_commands(battle: Battle) -> list[Command]:
    rows = battle.commands.filter(undone_at__isnull=True).order_by("position")
    return [Command.from_dict(row.command) for row in rows]


@write_transaction
def battle_undo(*, user, campaign_id: int, battle_id: int, expected_seq: int) -> Battle:
    """The GM takes back the last command: it stays in the log, marked undone; replay.

    A command the board sent by itself (`FORCED`: Pathfinder's end of a turn with no action
    left) goes with the command that led to it: one undo takes back the last action and
    the end of turn that followed, so the board is back where the GM clicked."""
    _membership, battle = _lock(user, campaign_id, battle_id, gm=True)
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
    battle.status = BattleStatus.ACTIVE
    battle.outcome = None
    battle.save()
    return battle


def battle_verify(battle: Battle) -> bool:
    """Does replaying the stored commands give exactly the stored snapshot?"""
    system = get_battle_system(battle.system)
    state, _events = replay(system, battle.setup, battle.seed, live_commands(battle))
    return state.to_dict() == battle.snapshot


def side_factions(battle: Battle) -> dict[str, set[int]]:
    """{side key: the faction ids of its armies} from the setup."""
    return {
        side["key"]: {
            entry.get("faction") for entry in side.get("armies", ()) if entry.get("faction")
        }
        for side in battle.setup["sides"]
    }


def aftermath_seed(battle: Battle, side: str) -> int:
    """The seed of a side's §7.6 dice: fixed by the battle, so sending the apply form again
    after a refusal rolls the same dice (no fishing for a better result)."""
    return derive_seed(battle.seed, f"aftermath:{side}:{battle.seq}")


def _army_log_rows(kingdom, events, rows_by_key, user) -> list[LogEntry]:
    entries = []
    for event in events:
        if event.code in ("battle.kingdom_check", "battle.aftermath_choice",
                          "battle.next_turn_effects"):  # fmt: skip
            continue  # the results entry carries the check; the next turn gets its own entry
        params = dict(event.params)
        army = rows_by_key.get(str(params.get("army"))) if "army" in params else None
        if army is not None:
            params["army"] = army.pk
            params["army_name"] = army.name
        entries.append(
            LogEntry(faction_id=kingdom.faction_id, army=army, turn=kingdom.turn,
                     code=event.code, data=params, actor=user)
        )  # fmt: skip
    return entries


@write_transaction
def battle_apply_results(
    *,
    user,
    campaign_id: int,
    battle_id: int,
    expected_seq: int,
    pc_encounter: Mapping[str, str | None] | None = None,
    choices: Mapping[str, str] | None = None,
    regain: Mapping[str, str | None] | None = None,
    typed_dice: Mapping[str, tuple[int | None, int | None]] | None = None,
) -> Battle:
    """The GM confirms a finished battle, all in one transaction:

    * the armies leave it as the board left them (HP, conditions, destroyed);
    * each side whose armies belong to one kingdom rolls the §7.6 kingdom check (Warfare on a
      victory, Defense on a defeat, vs its Control DC; `typed_dice` {side: (d20, d4)} typed in
      at the table, else the server rolls), improved or worsened one degree by the PCs' own
      fight (`pc_encounter` {side: "won" | "lost" | None}, §7.7), and its effects are written
      (`engine...battle.aftermath`): HP, weary or shaken (`choices` {army key: "weary" |
      "shaken"}, default weary), the damaged army of the players' choice (`regain` {side: army
      key}), Unrest; Fame/Infamy +1 and Unrest −1 "next Kingdom turn" go to the kingdom log as
      `battle.next_turn_effects` for the kingdom turn to apply;
    * each side's kingdom gains the XP of the enemies it defeated (§7.6).

    Each kingdom's log gets `battle.results_applied` with the check, then what it changed.

    Only what the battle changed is written (`engine...battle.results`), onto the armies as
    they are now: a Train Army taken meanwhile, the activities counted this turn or another
    battle's results stay. Locks: the campaign, the kingdoms, the armies (primary-key
    order), the battle.
    """
    battle = apply_begin(user, campaign_id, battle_id)
    factions = army_factions(battle)
    by_faction = side_factions(battle)
    kingdoms = {
        kingdom.faction_id: kingdom
        for kingdom in Kingdom.objects.select_for_update(no_key=True)
        .filter(faction_id__in={pk for ids in by_faction.values() for pk in ids})
        .order_by("pk")
    }
    armies = {
        str(army.pk): army
        for army in Army.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__kingdom")
        .filter(pk__in=[int(key) for key in factions if key.isdigit()],
                faction__campaign_id=battle.campaign_id)
        .order_by("pk")
    }  # fmt: skip
    battle = apply_lock(battle, expected_seq)
    pc_encounter, choices = pc_encounter or {}, choices or {}
    regain, typed_dice = regain or {}, typed_dice or {}
    details = battle.outcome["details"]
    before = {
        str(entry["army"]["key"]): ArmyState.from_dict(entry["army"])
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
    }
    states = {
        key: ArmyState.from_dict({**data, "key": key})
        for key, data in details["armies"].items()
        if key in armies and key in before
    }
    for key in details.get("destroyed", []):
        if key in states:
            states[key] = ArmyState.from_dict({**states[key].to_dict(), "status": "destroyed"})
    aftermaths: dict[str, Aftermath] = {}
    for side in battle.setup["sides"]:
        key = side["key"]
        ids = by_faction[key]
        check = (details.get("kingdom_checks") or {}).get(key)
        if len(ids) != 1 or next(iter(ids)) not in kingdoms or not check:
            continue
        kingdom = kingdoms[next(iter(ids))]
        own = [str(entry["army"]["key"]) for entry in side["armies"]]
        d20, d4 = (tuple(typed_dice.get(key) or ()) + (None, None))[:2]
        result = resolve_kingdom_check(
            result=check["result"],
            kingdom=kingdom_state(kingdom),
            armies=[states[k] for k in own if k in states],
            took_damage=check.get("took_damage", []),
            dice=CommandDice(aftermath_seed(battle, key)),
            typed_die=d20,
            typed_unrest=d4,
            pc_encounter=pc_encounter.get(key) or None,
            choices={k: v for k, v in choices.items() if k in own},
            regain=regain.get(key) or None,
        )
        if isinstance(result, list):
            names = {str(pk): army.name for pk, army in armies.items()}
            raise ValidationError(setup_problem_messages(result, names), code="rules")
        aftermaths[key] = result
        states.update({army.key: army for army in result.armies})
    for key, state in states.items():
        army = armies[key]
        changes = army_changes(before[key], state)
        apply_army_state(army, apply_changes(army_state(army), changes))
        army.fought_this_turn = True
        army.version += 1
        army.save()
    for side in battle.setup["sides"]:
        gained = (details.get("xp", {}).get(side["key"]) or {}).get("total") or 0
        aftermath = aftermaths.get(side["key"])
        for faction_id in sorted(by_faction[side["key"]]):
            kingdom = kingdoms.get(faction_id)
            if kingdom is None:
                continue
            if aftermath is not None:
                apply_kingdom_state(kingdom, aftermath.kingdom)
            kingdom.xp += gained
            kingdom.save()
            data = {
                "battle": battle.name,
                "xp": gained,
                "result": "victory" if side["key"] == battle.outcome["winner"] else "defeat",
            }
            if aftermath is not None:
                data.update(check=aftermath.check.to_dict(), degree=aftermath.degree.code,
                            pc_encounter=aftermath.pc_encounter)  # fmt: skip
            rows = [LogEntry(faction_id=faction_id, turn=kingdom.turn, actor=user,
                             code="battle.results_applied", data=data)]  # fmt: skip
            if aftermath is not None:
                rows += _army_log_rows(kingdom, aftermath.events, armies, user)
                if aftermath.next_turn:
                    rows.append(
                        LogEntry(faction_id=faction_id, turn=kingdom.turn, actor=user,
                                 code="battle.next_turn_effects",
                                 data={"battle": battle.name, "turn": kingdom.turn + 1,
                                       "pending": True, **aftermath.next_turn})
                    )  # fmt: skip
            LogEntry.objects.bulk_create(rows)
    battle.outcome = {
        **battle.outcome,
        "aftermath": {side: aftermath.to_dict() for side, aftermath in aftermaths.items()},
    }
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "outcome", "updated_at"])
    return battle
