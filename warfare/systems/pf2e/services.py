"""Use cases for armies: one user action, one transaction, every change in the kingdom log."""

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.forces import ForceServices
from battles.holds import holding_battles, refuse_change
from kingdoms import services as kingdom_services
from kingdoms.access import access_campaign
from kingdoms.models import Campaign, Faction
from kingdoms.transactions import write_transaction
from warfare import seeds
from warfare.engine.dice import SeededDice
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.plan import gear_to_dict, plan_activity
from warfare.engine.systems.pf2e.activities.resolve import ActivityOutcome, resolve_activity
from warfare.engine.systems.pf2e.activities.upkeep import (
    TurnOutcome,
    receive_gear,
    start_kingdom_turn,
    transfer_gear,
)
from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    new_basic_spec,
    new_specialized_spec,
    stat_block,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import ArmyType as ArmyTypeKey
from warfare.engine.systems.pf2e.tactics import MANDATORY_TACTIC
from warfare.engine.systems.pf2e.validation import validate_army
from warfare.messages import problem_messages
from warfare.systems.pf2e.models import Kingdom

from .access import access_army
from .events import with_army_names
from .mapping import (
    ARMY_STATE_FIELDS,
    apply_army_state,
    apply_kingdom_state,
    army_spec,
    army_stat_block,
    army_state,
    kingdom_state,
)
from .models import Army, ArmyStatus, LogEntry, Recruitment, RecruitmentStep


class StaleEdit(kingdom_services.StaleEdit):
    """The army changed since the form was loaded (HTTP 409): `army` is the army now."""

    @property
    def army(self) -> Army:
        return self.instance


def _refuse(problems: list[Problem]) -> None:
    if problems:
        raise ValidationError(problem_messages(problems), code="rules")


def _log(army: Army | None, faction: Faction, code: str, actor, **data: Any) -> LogEntry:
    turn = faction.kingdom.turn if hasattr(faction, "kingdom") else 0
    return LogEntry.objects.create(
        faction=faction, army=army, turn=turn, code=code, data=data, actor=actor
    )


@write_transaction
def army_create(
    *,
    user,
    campaign_id: int,
    faction_id: int,
    name: str,
    army_type: str,
    specialized: str = "",
    level_override: int | None = None,
    tactics: tuple[str, ...] = (),
    hex: str = "",
    notes: str = "",
) -> Army:
    """A GM places an army directly (an enemy force, or a correction): no Recruit check.

    Locks (kingdoms.transactions): the campaign, then the faction's kingdom, so that two
    placements of one specialized army cannot both find the faction without it."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    faction = get_object_or_404(
        Faction.objects.select_related("kingdom"), campaign=membership.campaign, pk=faction_id
    )
    faction.kingdom = _lock_kingdom(faction)
    level = level_override or faction.kingdom.level
    if specialized:
        spec = new_specialized_spec(specialized, level)
    else:
        spec = new_basic_spec(army_type, level, tactics=tuple(tactics))
    others = Army.objects.active().filter(faction=faction).exclude(specialized="")
    _refuse(
        validate_army(
            spec,
            kingdom_level=None,
            magic_rank=None,
            faction_specialized_keys=tuple(others.values_list("specialized", flat=True)),
        )
    )
    army = _new_army(faction, spec, name=name, level_override=level_override, hex=hex, notes=notes)
    _log(army, faction, "army.placed", user, name=name, type=army.army_type, level=level)
    return army


def _new_army(faction: Faction, spec: ArmySpec, **fields: Any) -> Army:
    """A new army row at full HP with its spec's type, tactics, gear and potion doses."""
    block = stat_block(spec)
    army = Army(
        faction=faction,
        army_type=spec.type.value,
        specialized=spec.specialized or "",
        hp=block.max_hp.value,
        tactics=list(spec.tactics),
        gear=[gear_to_dict(choice) for choice in spec.gear],
        potion_doses=block.potion_doses,
        **fields,
    )
    army.full_clean()
    army.save()
    return army


@write_transaction
def army_adjust_condition(
    *, user, campaign_id: int, army_id: int, condition: str, delta: int, version: int
) -> Army:
    """The GM raises or lowers a condition by one (valued) or toggles it (unvalued)."""
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    if army.version != version:
        raise StaleEdit(army)
    refuse_change(campaign_id, [army])
    if condition not in CONDITIONS or delta not in (-1, 1):
        raise ValidationError("Unknown condition or change.", code="bad_condition")
    current = dict(army.conditions)
    info = CONDITIONS[condition]
    value = current.get(condition, 0) + delta
    if not info.valued:
        value = 1 if delta > 0 else 0
    if value <= 0:
        current.pop(condition, None)
    else:
        current[condition] = value
    army.conditions = current
    _refuse(validate_army(army_spec(army), kingdom_level=None, magic_rank=None))
    army.version += 1
    army.save(update_fields=["conditions", "version", "updated_at"])
    _log(army, army.faction, "army.condition_set", user, condition=condition, value=max(value, 0))
    return army


#: The GM edits an army (`army_id`): a stale form is a `StaleEdit` (409), an army on an
#: unfinished board is not edited (battles.holds, battles.forces). Placing an army is
#: `army_create` (a spec built and checked by the rules, the kingdom locked, a log entry).
_ARMIES = ForceServices(
    model=Army, noun="army", access=access_campaign, access_row=access_army, stale=StaleEdit,
    versioned=False,
)  # fmt: skip
army_update = _ARMIES.update


# --- Army activities (§4) and the kingdom turn (§10) -------------------------------------------


def _new_dice() -> tuple[int, SeededDice]:
    """Fresh dice for one action; the seed is logged so the roll can be replayed."""
    seed = seeds.new_seed(63)
    return seed, SeededDice(seed)


def _lock_kingdom(faction: Faction) -> Kingdom:
    """The faction's kingdom, locked (level 2 of the lock order, kingdoms.transactions)."""
    return (
        Kingdom.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__campaign")
        .get(faction=faction)
    )


def _lock_armies(ids, **filters: Any) -> dict[int, Army]:
    """{pk: army} of the armies `ids`, locked in primary-key order (level 3 of the lock order,
    after their kingdom: kingdoms.transactions)."""
    armies = (
        Army.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__kingdom", "faction__campaign")
        .filter(pk__in=set(ids), **filters)
        .order_by("pk")
    )
    return {army.pk: army for army in armies}


def _write_outcome(
    *, faction: Faction, user, army: Army | None, events, names=None, **data: Any
) -> None:
    """One log entry per engine event; the first carries the check and the dice seed.

    `names` ({army pk: name}) lets each entry keep the name of the army it speaks of.
    """
    turn = faction.kingdom.turn
    names = dict(names or {})
    if army is not None:
        names[army.pk] = army.name
    rows = []
    for index, event in enumerate(events):
        payload = with_army_names(event.code, dict(event.params), names)
        if index == 0:
            payload.update(data)
        rows.append(
            LogEntry(
                faction=faction, army=army, turn=turn, code=event.code, data=payload, actor=user
            )
        )
    LogEntry.objects.bulk_create(rows)


@write_transaction
def army_activity(
    *,
    user,
    campaign_id: int,
    army_id: int,
    activity: str,
    version: int,
    skill: str | None = None,
    options: dict[str, Any] | None = None,
    typed_die: int | None = None,
) -> ActivityOutcome:
    """Take one Army activity (§4.2-4.8) with one army: plan, roll (or a typed die), apply.
    Not while the army (or the army its gear goes to, or the enemy an Offensive Gambit may
    shake) is on an unfinished board: the encounter is played out first (§7.1, §10.1).

    Locks (kingdoms.transactions): the army's kingdom, then the armies the activity touches
    (the army, the one its gear goes to, the armies in its hex for an Offensive Gambit) in
    primary-key order. A stale `version` (the army changed since the page was drawn) raises
    StaleEdit; rules problems raise ValidationError and change nothing.
    """
    _membership, army = access_army(user, campaign_id, army_id, command=True)
    kingdom = _lock_kingdom(army.faction)
    locked = _activity_armies(army, activity, options, lock=True)
    army = locked[army.pk]
    if army.version != version:
        raise StaleEdit(army)
    plan, transfer_to = activity_plan(army, kingdom, activity, skill, options, armies=locked)
    options = options or {}
    shaken = locked.get(options.get("target")) if options.get("seek_advantage") else None
    refuse_change(campaign_id, [a for a in (army, transfer_to, shaken) if a is not None])
    if isinstance(plan, list):
        _refuse(plan)
    seed, dice = _new_dice()
    outcome = resolve_activity(plan, army_state(army), kingdom_state(kingdom), dice,
                               typed_die=typed_die)  # fmt: skip
    if isinstance(outcome, list):
        _refuse(outcome)
    if outcome.army is not None:
        apply_army_state(army, outcome.army)
    army.version += 1
    army.save()
    names = _apply_gambit(army, outcome, locked)
    apply_kingdom_state(kingdom, outcome.kingdom)
    kingdom.save()
    if transfer_to is not None and outcome.transferred_gear:
        received = receive_gear(army_state(transfer_to), outcome.transferred_gear)
        if isinstance(received, list):
            _refuse(received)
        apply_army_state(transfer_to, received)
        transfer_to.version += 1
        transfer_to.save()
    if transfer_to is not None:
        names = {**names, transfer_to.pk: transfer_to.name}
    _write_outcome(
        faction=army.faction,
        user=user,
        army=army,
        events=outcome.events,
        names=names,
        check=outcome.check.to_dict() if outcome.check else None,
        seed=seed,
        rolls=[roll.to_dict() for roll in dice.log],
    )
    return outcome


def _activity_armies(army: Army, activity: str, options, *, lock: bool) -> dict[int, Army]:
    """{pk: army} of the armies an activity reads or changes: the army, the one its gear goes
    to, the armies in its hex for an Offensive Gambit; `lock` locks them (primary-key order,
    kingdoms.transactions), else (a preview) they are only read."""
    options = options or {}
    wanted = {army.pk}
    if options.get("transfer_to"):
        wanted.add(options["transfer_to"])
    if activity == "offensive_gambit":
        wanted |= set(
            Army.objects.active()
            .filter(faction__campaign_id=army.faction.campaign_id, hex=army.hex)
            .values_list("pk", flat=True)
        )
    if lock:
        return _lock_armies(wanted)
    rows = Army.objects.select_related("faction__kingdom", "faction__campaign")
    return {**{other.pk: other for other in rows.filter(pk__in=wanted)}, army.pk: army}


def activity_plan(army: Army, kingdom: Kingdom, activity: str, skill, options, *, armies=None):
    """(the engine's plan or its problems, the army the gear goes to): the options completed
    from the database (the recipient's state, the armies in the hex for a gambit). `armies`:
    those `_activity_armies` locked (taking the activity); without them, a preview reads
    them only."""
    options = dict(options or {})
    if armies is None:
        armies = _activity_armies(army, activity, options, lock=False)
    transfer_to = None
    if options.get("transfer_to"):
        transfer_to = armies.get(options["transfer_to"])
        if transfer_to is None or not transfer_to.is_active:
            raise Http404
        if transfer_to.faction_id != army.faction_id:
            raise Http404
        options["transfer_to"] = army_state(transfer_to)
    if activity == "offensive_gambit":
        options.update(_gambit_options(army, options, armies))
    plan = plan_activity(activity, army_state(army), kingdom_state(kingdom), skill=skill,
                         options=options)  # fmt: skip
    return plan, transfer_to


def _in_hex(army: Army, armies: dict[int, Army]) -> list[Army]:
    """The active armies of the campaign in the army's hex, among `armies`."""
    return [
        other
        for other in armies.values()
        if other.is_active
        and other.hex == army.hex
        and other.faction.campaign_id == army.faction.campaign_id
    ]


def _gambit_options(army: Army, options: dict[str, Any], armies: dict[int, Army]) -> dict:
    """Offensive Gambit: armies in the same hex, and the Scouting DC to beat (§4.5)."""
    in_hex = _in_hex(army, armies)
    enemies = [other for other in in_hex if other.faction_id != army.faction_id]
    target = next((e for e in enemies if str(e.pk) == str(options.get("target"))), None)
    result: dict[str, Any] = {
        "enemy_armies": [enemy.pk for enemy in enemies],
        "own_armies": [other.pk for other in in_hex if other.faction_id == army.faction_id],
    }
    if options.get("seek_advantage") and target is not None:
        result["enemy_scouting_dc"] = army_stat_block(target).scouting.dc
        result["shaken_target"] = target.pk
    return result


def _apply_gambit(army: Army, outcome: ActivityOutcome, locked: dict[int, Army]) -> dict:
    """Offensive Gambit's effects on other armies (§4.5): initiative for the coming battle,
    and shaken 1 on one enemy army after a critical success. Returns {pk: name} of them.
    The armies were locked with the army (`locked`)."""
    keys = set(outcome.initiative_modifiers) | {effect["army"] for effect in outcome.enemy_effects}
    if not keys:
        return {}
    others = {key: locked[key] for key in keys if key in locked}
    others[army.pk] = army
    for key, bonus in outcome.initiative_modifiers.items():
        others[key].initiative_bonus = bonus
    for effect in outcome.enemy_effects:
        target = others[effect["army"]]
        current = target.conditions.get(effect["condition"], 0)
        target.conditions = {
            **target.conditions,
            effect["condition"]: max(current, effect["value"]),
        }
    for other in others.values():
        if other.pk != army.pk:
            other.version += 1
        other.save()
    return {other.pk: other.name for other in others.values()}


# --- Recruitment wizard (§3.1) ------------------------------------------------------------------


def _access_recruitment(user, campaign_id: int, recruitment_id: int) -> Recruitment:
    """The recruitment; only the GM and the faction's own players may run it.

    Locks (kingdoms.transactions): the faction's kingdom, then the recruitment: two steps of
    one kingdom's recruitments (two specialized armies finished at once) queue on the
    kingdom."""
    membership = access_campaign(user, campaign_id)
    recruitment = get_object_or_404(
        Recruitment.objects.select_related("faction"),
        faction__campaign=membership.campaign,
        pk=recruitment_id,
    )
    if not (membership.is_gm or membership.faction_id == recruitment.faction_id):
        raise Http404
    kingdom = _lock_kingdom(recruitment.faction)
    recruitment = (
        Recruitment.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__campaign", "army")
        .get(pk=recruitment.pk)
    )
    recruitment.faction.kingdom = kingdom
    return recruitment


def recruit_spec(recruitment: Recruitment, *, level: int, tactics=None) -> ArmySpec:
    if recruitment.specialized:
        return new_specialized_spec(recruitment.specialized, level)
    chosen = recruitment.tactics if tactics is None else tactics
    mandatory = MANDATORY_TACTIC.get(ArmyTypeKey(recruitment.army_type))
    return new_basic_spec(recruitment.army_type, level, tuple(t for t in chosen if t != mandatory))


def _faction_specialized(faction: Faction) -> tuple[str, ...]:
    armies = Army.objects.active().filter(faction=faction).exclude(specialized="")
    return tuple(armies.values_list("specialized", flat=True))


def recruit_blocked_problems(kingdom: Kingdom) -> list[Problem]:
    """§4.1: after a critical failure, no Recruit Army until the next Kingdom turn."""
    until = kingdom.recruit_blocked_until_turn
    if until is not None and kingdom.turn < until:
        return [Problem("recruit.blocked", {"until_turn": until})]
    return []


class RecruitmentInProgress(Exception):
    """The faction has a rolled recruitment not yet finished: it is resumed, not re-rolled."""

    def __init__(self, recruitment: Recruitment):
        super().__init__("recruitment in progress")
        self.recruitment = recruitment


@write_transaction
def recruitment_start(
    *, user, campaign_id: int, faction_id: int, army_type: str = "", specialized: str = ""
) -> Recruitment:
    """Step 1 (§3.1): choose the army. One recruitment is open per faction at a time: while
    one whose Recruit Army check was rolled is unfinished, RecruitmentInProgress names it (a
    second start must not roll again); one not yet rolled takes the new choice. Refused while
    a critical failure blocks Recruit Army (§4.1)."""
    membership = access_campaign(user, campaign_id)
    faction = get_object_or_404(Faction, campaign=membership.campaign, pk=faction_id)
    if not (membership.is_gm or membership.faction_id == faction.pk):
        raise PermissionDenied
    faction.kingdom = _lock_kingdom(faction)
    _refuse(recruit_blocked_problems(faction.kingdom))
    recruitment = None
    for open_one in Recruitment.objects.open().filter(faction=faction).select_for_update():
        if open_one.step != RecruitmentStep.ROLL:
            raise RecruitmentInProgress(open_one)
        recruitment = open_one
    if recruitment is None:
        recruitment = Recruitment(faction=faction, started_by=user)
    recruitment.army_type, recruitment.specialized = army_type, specialized
    if specialized:
        recruitment.army_type = SPECIALIZED_ARMIES[specialized].type.value
    spec = recruit_spec(recruitment, level=faction.kingdom.level)
    problems = [
        p
        for p in validate_army(
            spec,
            kingdom_level=faction.kingdom.level,
            magic_rank=None,
            faction_specialized_keys=_faction_specialized(faction),
        )
        if p.code not in DEFERRED_PROBLEMS
    ]
    _refuse(problems)
    recruitment.save()
    return recruitment


DEFERRED_PROBLEMS = {"tactic.none_known"}
"""Starting tactics are chosen after the Recruit Army check (§3.1 step 4)."""


@write_transaction
def recruitment_roll(
    *, user, campaign_id: int, recruitment_id: int, typed_die: int | None = None
) -> Recruitment:
    """Step 2: the Recruit Army check, once. A reload or a second click rolls nothing."""
    recruitment = _access_recruitment(user, campaign_id, recruitment_id)
    if recruitment.step != RecruitmentStep.ROLL:
        return recruitment
    kingdom = recruitment.faction.kingdom
    if not recruitment.specialized and not _settlement_hexes(recruitment.faction):
        raise ValidationError(NO_SETTLEMENT_HEX, code="no_settlement_hex")
    options: dict[str, Any] = {"hex": "-", "deferred": True}
    if recruitment.specialized:
        options["specialized"] = recruitment.specialized
    else:
        options["army_type"] = recruitment.army_type
    options["faction_specialized_keys"] = _faction_specialized(recruitment.faction)
    plan = plan_activity("recruit_army", None, kingdom_state(kingdom), options=options)
    if isinstance(plan, list):
        _refuse(plan)
    seed, dice = _new_dice()
    outcome = resolve_activity(plan, None, kingdom_state(kingdom), dice, typed_die=typed_die)
    if isinstance(outcome, list):
        _refuse(outcome)
    apply_kingdom_state(kingdom, outcome.kingdom)
    kingdom.save()
    recruitment.check_result = outcome.check.to_dict() if outcome.check else None
    if outcome.army is None:
        recruitment.step = RecruitmentStep.FAILED
    else:
        recruitment.efficient = "efficient" in outcome.army.conditions
        recruitment.step = (
            RecruitmentStep.PLACE if recruitment.specialized else RecruitmentStep.TACTICS
        )
        recruitment.tactics = list(outcome.army.spec.tactics)
    recruitment.save()
    _write_outcome(
        faction=recruitment.faction,
        user=user,
        army=None,
        events=[e for e in outcome.events if e.code != "army.recruited"],
        check=recruitment.check_result,
        seed=seed,
        rolls=[roll.to_dict() for roll in dice.log],
    )
    return recruitment


NO_SETTLEMENT_HEX = gettext_lazy(
    "A new basic army starts in a hex with one of your settlements, and none has a hex yet: "
    "add a settlement (or its hex) first."
)


def _settlement_hexes(faction: Faction) -> set[str]:
    return set(faction.settlements.exclude(hex="").values_list("hex", flat=True))


def _require_step(recruitment: Recruitment, *steps: str) -> None:
    if recruitment.step not in steps:
        raise ValidationError(_("This recruitment is past that step."), code="wrong_step")


@write_transaction
def recruitment_choose_tactics(
    *, user, campaign_id: int, recruitment_id: int, tactics: list[str]
) -> Recruitment:
    """Step 4: starting tactics (cavalry keep Overrun, siege Engines of War)."""
    recruitment = _access_recruitment(user, campaign_id, recruitment_id)
    _require_step(recruitment, RecruitmentStep.TACTICS, RecruitmentStep.PLACE,
                  RecruitmentStep.NAME)  # fmt: skip
    spec = recruit_spec(recruitment, level=recruitment.faction.kingdom.level, tactics=tactics)
    _refuse(validate_army(spec, kingdom_level=None, magic_rank=None))
    recruitment.tactics = list(spec.tactics)
    if recruitment.step == RecruitmentStep.TACTICS:
        recruitment.step = RecruitmentStep.PLACE
    recruitment.save()
    return recruitment


@write_transaction
def recruitment_place(*, user, campaign_id: int, recruitment_id: int, hex: str) -> Recruitment:
    """Step 5: a basic army starts in one of the kingdom's settlement hexes."""
    recruitment = _access_recruitment(user, campaign_id, recruitment_id)
    _require_step(recruitment, RecruitmentStep.PLACE, RecruitmentStep.NAME)
    hexes = _settlement_hexes(recruitment.faction)
    if not hex or (not recruitment.specialized and hex not in hexes):
        raise ValidationError(
            _("A new basic army starts in a hex with one of your settlements."), code="bad_hex"
        )
    recruitment.hex = hex
    recruitment.step = RecruitmentStep.NAME
    recruitment.save()
    return recruitment


@write_transaction
def recruitment_finish(*, user, campaign_id: int, recruitment_id: int, name: str) -> Army:
    """Step 7: name the army; only now does it exist. A repeated POST returns the same army."""
    recruitment = _access_recruitment(user, campaign_id, recruitment_id)
    if recruitment.step == RecruitmentStep.DONE and recruitment.army_id:
        return recruitment.army
    _require_step(recruitment, RecruitmentStep.NAME)
    faction = recruitment.faction
    spec = recruit_spec(recruitment, level=faction.kingdom.level)
    _refuse(
        validate_army(
            spec,
            kingdom_level=faction.kingdom.level,
            magic_rank=None,
            faction_specialized_keys=_faction_specialized(faction),
        )
    )
    army = _new_army(
        faction,
        spec,
        name=name.strip(),
        conditions={"efficient": 1} if recruitment.efficient else {},
        hex=recruitment.hex,
    )
    block = stat_block(spec)
    recruitment.army = army
    recruitment.step = RecruitmentStep.DONE
    recruitment.save()
    _log(army, faction, "army.recruited", user, name=army.name, type=army.army_type,
         level=spec.level, hex=army.hex, consumption=block.consumption.value)  # fmt: skip
    return army


# --- Kingdom turn (§10.1-10.2, §7.8) ------------------------------------------------------------


@write_transaction
def kingdom_turn_start(
    *,
    user,
    campaign_id: int,
    faction_id: int,
    expected_turn: int,
    pay_with: str,
    ruin: str | None = None,
    other_consumption: int = 0,
) -> TurnOutcome:
    """The GM starts the next kingdom turn: army upkeep, narrative war, Pay Consumption.

    `expected_turn` is the turn the GM's page showed: a second click (or a second GM) finds
    the turn already advanced and is refused with StaleTurn instead of paying twice.

    Locks (kingdoms.transactions): the campaign, the kingdom, then its armies in
    primary-key order.
    """
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    faction = get_object_or_404(Faction, campaign=membership.campaign, pk=faction_id)
    kingdom = _lock_kingdom(faction)
    if kingdom.turn != expected_turn:
        raise StaleTurn(kingdom)
    active = Army.objects.active().filter(faction=faction).values_list("pk", flat=True)
    armies = list(_lock_armies(active, status=ArmyStatus.ACTIVE).values())
    _refuse_turn_while_fighting(faction, armies)
    hexes = set(faction.settlements.exclude(hex="").values_list("hex", flat=True))
    seed, dice = _new_dice()
    outcome = start_kingdom_turn(
        kingdom_state(kingdom),
        [army_state(army) for army in armies],
        dice=dice,
        pay_with=pay_with,
        ruin_choice=ruin or None,
        other_consumption=other_consumption,
        settlement_hexes=hexes,
    )
    if isinstance(outcome, list):
        _refuse(outcome)
    by_key = {army.pk: army for army in armies}
    for state in outcome.armies:
        army = apply_army_state(by_key[state.key], state)
        army.version += 1
    Army.objects.bulk_update(armies, [*ARMY_STATE_FIELDS, "version"])
    apply_kingdom_state(kingdom, outcome.kingdom)
    _apply_pending_battle_effects(kingdom, user)
    kingdom.save()
    _write_outcome(
        faction=faction,
        user=user,
        army=None,
        events=outcome.events,
        names={army.pk: army.name for army in armies},
        consumption=dict(outcome.consumption),
        seed=seed,
        rolls=[roll.to_dict() for roll in dice.log],
    )
    return outcome


def _refuse_turn_while_fighting(faction: Faction, armies: list[Army]) -> None:
    """§7.1, §10.1: a war encounter is played after the Kingdom turn's activities and before
    the next turn begins, whose upkeep reads whether each army fought (§9 idle decay): the
    next turn waits until the kingdom's battles are over and their results applied."""
    found = holding_battles(faction.campaign_id, armies)
    if found:
        message = _(
            "The next kingdom turn waits for the battle “%(battle)s” (%(army)s fights in it): "
            "a war encounter is played before the next turn begins (§7.1). Finish it and "
            "apply its results first."
        )
        texts = [message % {"battle": b.name, "army": a.name} for a, b in found.items()]
        raise ValidationError(texts, code="held_by_battle")


def _apply_pending_battle_effects(kingdom: Kingdom, user) -> None:
    """§7.6 victory, critical success: "at the start of the next Kingdom turn" Fame/Infamy +1
    and Unrest −1. The battle left them in the log as pending; the new turn applies them."""
    pending = LogEntry.objects.select_for_update().filter(
        faction_id=kingdom.faction_id,
        code="battle.next_turn_effects",
        data__pending=True,
        data__turn__lte=kingdom.turn,
    )
    for entry in pending:
        kingdom.fame_points += int(entry.data.get("fame", 0))
        kingdom.unrest = max(0, kingdom.unrest + int(entry.data.get("unrest", 0)))
        entry.data = {**entry.data, "pending": False}
        entry.save(update_fields=["data"])
        LogEntry.objects.create(
            faction_id=kingdom.faction_id,
            turn=kingdom.turn,
            code="battle.next_turn_applied",
            data={key: entry.data.get(key) for key in ("battle", "fame", "unrest")},
            actor=user,
        )


class StaleTurn(Exception):
    def __init__(self, kingdom: Kingdom):
        super().__init__("stale turn")
        self.kingdom = kingdom


@write_transaction
def army_transfer_gear(
    *, user, campaign_id: int, army_id: int, to_army_id: int, gear: str, version: int
) -> Army:
    """Hand one piece of gear to another army of the kingdom in the same hex (§5).

    Locks (kingdoms.transactions): both armies, in primary-key order."""
    _membership, giver = access_army(user, campaign_id, army_id, command=True)
    locked = _lock_armies({giver.pk, to_army_id}, faction=giver.faction)
    giver = locked[giver.pk]
    if giver.version != version:
        raise StaleEdit(giver)
    receiver = locked.get(to_army_id)
    if receiver is None:
        raise Http404
    refuse_change(campaign_id, [giver, receiver])
    result = transfer_gear(army_state(giver), army_state(receiver), gear)
    if isinstance(result, list):
        _refuse(result)
    for army, state in zip((giver, receiver), result, strict=True):
        apply_army_state(army, state)
        army.version += 1
        army.save()
    _log(giver, giver.faction, "army.gear_handed_over", user, army_name=giver.name,
         to=receiver.name, gear=gear.partition(":")[0])  # fmt: skip
    return giver


def kingdom_save(faction: Faction, fields: dict[str, Any] | None) -> None:
    """A Pathfinder faction's kingdom, created with its faction; `fields` (the faction page's
    kingdom form, with the `version` it was drawn from) saved over it. Part of the faction
    services' transaction (`kingdoms.services.faction_create`/`faction_update`)."""
    kingdom_services.save_faction_record(Kingdom, faction, fields)


def campaign_delete_armies(campaign: Campaign) -> None:
    """Armies protect their factions from deletion: a deleted campaign's go first."""
    Army.objects.filter(faction__campaign=campaign).delete()
