"""The kingdom turn's army upkeep (§9, §10.2, §7.8), levelling (§3.2) and gear transfers (§5).

`start_kingdom_turn` runs, in this order, for the turn that begins:

1. per army (active only): an unused efficient ends and one condition value of the players'
   choice drops by 1 (§9 Efficient); an army that took no Army activity and fought no war
   encounter last turn loses 1 weary and 1 shaken (§9); a garrison "until the next Kingdom
   turn" ends (§4.4); expired timers are dropped; the per-turn counters reset;
2. turn + 1; the Recruit Army block from a critical failure lifts (§4.1);
3. narrative warfare at war: Unrest +1d6 and +1 to a Ruin (§7.8);
4. Pay Consumption (§10.2): Food first, then 5 RP per unpaid point or Unrest +1d4. Unpaid:
   every army that consumes gets weary +1 and shaken +1; one at weary or shaken 4+ is
   disbanded, with Unrest +1d4 and +1 to a Ruin (per army: house default).

Every problem (not enough Food/RP, a missing Ruin choice) is found before any die is rolled.
"""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warfare.engine.dice import Dice
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.plan import (
    find_gear,
    gear_receive_problems,
    merge_gear,
)
from warfare.engine.systems.pf2e.activities.resolve import add_ruin, roll_unrest
from warfare.engine.systems.pf2e.activities.state import (
    DISBANDED,
    UNTIL_NEXT_TURN,
    ArmyKey,
    ArmyState,
    KingdomState,
    add_condition,
    end_garrison,
    reduce_condition,
    remove_condition,
)
from warfare.engine.systems.pf2e.gear import GearChoice
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.kingdom import RUINS
from warfare.engine.systems.pf2e.modifiers import Stat
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import MAX_LEVEL, MIN_LEVEL, TYPE_RULES
from warfare.engine.systems.pf2e.validation import validate_gear

RP_PER_UNPAID_POINT = 5  # §10.2
UNPAID_UNREST = "1d4"  # §10.2
FORCED_DISBAND_AT = 4  # §9, §10.2: weary or shaken 4 or more
FORCED_DISBAND_UNREST = "1d4"  # §10.2
NARRATIVE_WAR_UNREST = "1d6"  # §7.8
GARRISON_CUT, GARRISON_CUT_MINIMUM = 2, 1  # §4.4
PAY_WITH = ("food", "rp", "unrest")
EFFICIENT_REDUCTION_ORDER = ("weary", "shaken", "mired")
"""Default when the players name no condition for an unused efficient: the highest of these,
ties in this order (the rule leaves it to the players)."""


@dataclass(frozen=True)
class TurnOutcome:
    kingdom: KingdomState
    armies: tuple[ArmyState, ...]
    events: tuple[Event, ...]
    consumption: Mapping[str, Any] = field(default_factory=dict)
    """{"total", "other", "armies": [[key, points]…], "food_spent", "rp_spent", "unpaid"}."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "kingdom": self.kingdom.to_dict(),
            "armies": [army.to_dict() for army in self.armies],
            "events": [event.to_dict() for event in self.events],
            "consumption": dict(self.consumption),
        }


def army_consumption(army: ArmyState, *, settlement_hexes: Collection[str] = ()) -> Stat:
    """Food this army consumes per Kingdom turn (§1.3, §10.2), with a breakdown.

    Stat block value (type / printed / Self-Sufficient -1), then: Self-Sufficient gives 0
    while defeated; Garrison critical success -2 (minimum 1) while garrisoned; Live off the
    Land -1 (not below 0) outside settlements when not garrisoned. Disbanded and destroyed
    armies consume nothing.
    """
    if not army.active:
        return Stat(0)
    base = army.block().consumption
    if base is None:
        return Stat(0)
    terms = list(base.breakdown)
    value = base.value
    if value < 0 and army.defeated:
        terms.append(("condition.defeated", -value))
        value = 0
    if army.garrison is not None and army.garrison_consumption_cut:
        cut = max(GARRISON_CUT_MINIMUM, value - GARRISON_CUT) - value
        if cut:
            terms.append(("garrison.critical_success", cut))
            value += cut
    elif (
        army.garrison is None
        and "live_off_the_land" in army.spec.tactics
        and army.hex not in settlement_hexes
        and value > 0
    ):
        terms.append(("tactic.live_off_the_land", -1))
        value -= 1
    return Stat(value, tuple(terms))


def _ruin_for(ruin_choice: str | Mapping[Any, str] | None, reason: Any) -> str | None:
    if isinstance(ruin_choice, str) or ruin_choice is None:
        return ruin_choice
    return ruin_choice.get(reason, ruin_choice.get("default"))


def start_kingdom_turn(
    kingdom: KingdomState,
    armies: Iterable[ArmyState],
    *,
    dice: Dice,
    pay_with: str = "food",
    food_to_spend: int | None = None,
    ruin_choice: str | Mapping[Any, str] | None = None,
    other_consumption: int = 0,
    settlement_hexes: Collection[str] = (),
    efficient_reductions: Mapping[ArmyKey, str | None] | None = None,
    skip_consumption: bool = False,
) -> TurnOutcome | list[Problem]:
    """Begin the next Kingdom turn: army upkeep, narrative war, Pay Consumption (see module).

    `pay_with`: how points the spent Food does not cover are paid: "rp" (5 RP each), "unrest"
    (Unrest +1d4; the armies go unpaid) or "food" (all in Food, else a problem).
    `food_to_spend`: Food to spend (default: as much as needed and held).
    `ruin_choice`: the Ruin the players raise: one name for everything, or a mapping by
    reason ("war" for §7.8, an army key for its forced disbanding, "default").
    `other_consumption`: the kingdom's non-army Consumption (settlements - farmland +
    events). `settlement_hexes`: hexes with a settlement (Live off the Land).
    `efficient_reductions`: {army key: condition (or None)} for armies whose efficient ends
    unused. `skip_consumption`: the first turn after founding (§10.2).
    """
    armies = tuple(armies)
    efficient_reductions = dict(efficient_reductions or {})
    problems = _turn_input_problems(kingdom, armies, pay_with, ruin_choice, efficient_reductions)
    if problems:
        return problems
    events: list[Event] = []

    # 1. Army upkeep for the turn that ended.
    new_turn = kingdom.turn + 1
    armies = tuple(
        _army_new_turn(army, new_turn, efficient_reductions, events) if army.active else army
        for army in armies
    )

    # 2. The new turn.
    until = kingdom.recruit_blocked_until_turn
    kingdom = replace(
        kingdom,
        turn=new_turn,
        recruit_blocked_until_turn=until if until is not None and until > new_turn else None,
    )
    events.insert(0, Event("kingdom.turn_started", {"turn": new_turn}))

    # 4 (checked first, before any roll). Consumption.
    per_army = {
        army.key: army_consumption(army, settlement_hexes=settlement_hexes).value for army in armies
    }
    army_total = sum(per_army.values())
    total = 0 if skip_consumption else max(0, other_consumption + army_total)
    food = min(kingdom.food, total) if food_to_spend is None else food_to_spend
    if isinstance(food, bool) or not isinstance(food, int) or not 0 <= food <= kingdom.food:
        return [Problem("kingdom.bad_food_to_spend", {"food": food_to_spend, "held": kingdom.food})]
    food = min(food, total)
    short = total - food
    rp_cost = RP_PER_UNPAID_POINT * short if pay_with == "rp" else 0
    if short and pay_with == "food":
        return [Problem("kingdom.not_enough_food", {"needed": total, "food": kingdom.food})]
    if rp_cost > kingdom.rp:
        return [Problem("kingdom.not_enough_rp", {"needed": rp_cost, "rp": kingdom.rp})]
    unpaid = short if pay_with == "unrest" else 0
    starving = [a.key for a in armies if unpaid and a.active and per_army[a.key] > 0]
    disbanded = [
        a.key
        for a in armies
        if a.key in starving
        and max(a.condition("weary"), a.condition("shaken")) + 1 >= FORCED_DISBAND_AT
    ]
    needs_ruin = (["war"] if kingdom.narrative_warfare and kingdom.at_war else []) + disbanded
    for reason in needs_ruin:
        ruin = _ruin_for(ruin_choice, reason)
        if ruin is None:
            return [Problem("kingdom.ruin_choice_required", {"for": reason})]
        if ruin not in RUINS:
            return [Problem("kingdom.unknown_ruin", {"ruin": ruin})]

    # 3. Narrative warfare at war (§7.8).
    if kingdom.narrative_warfare and kingdom.at_war:
        kingdom = roll_unrest(kingdom, NARRATIVE_WAR_UNREST, dice, events, "narrative_war")
        kingdom = add_ruin(kingdom, _ruin_for(ruin_choice, "war") or "", events, "narrative_war")

    # 4. Pay Consumption.
    events.append(
        Event(
            "kingdom.consumption",
            {
                "total": total,
                "other": other_consumption,
                "armies": army_total,
                "skipped": skip_consumption,
            },
        )
    )
    if food:
        kingdom = replace(kingdom, food=kingdom.food - food)
        events.append(Event("kingdom.food_spent", {"by": food, "now": kingdom.food}))
    if rp_cost:
        kingdom = replace(kingdom, rp=kingdom.rp - rp_cost)
        events.append(
            Event("kingdom.rp_spent", {"by": rp_cost, "now": kingdom.rp, "reason": "consumption"})
        )
    if unpaid:
        events.append(Event("kingdom.consumption_unpaid", {"points": unpaid}))
        kingdom = roll_unrest(kingdom, UNPAID_UNREST, dice, events, "consumption_unpaid")
        armies, kingdom = _starve(armies, starving, kingdom, dice, ruin_choice, events)

    return TurnOutcome(
        kingdom=kingdom,
        armies=armies,
        events=tuple(events),
        consumption={
            "total": total,
            "other": other_consumption,
            "armies": [[key, value] for key, value in per_army.items()],
            "food_spent": food,
            "rp_spent": rp_cost,
            "unpaid": unpaid,
        },
    )


def _turn_input_problems(
    kingdom: KingdomState,
    armies: tuple[ArmyState, ...],
    pay_with: str,
    ruin_choice: Any,
    efficient_reductions: Mapping[ArmyKey, str | None],
) -> list[Problem]:
    problems = []
    if pay_with not in PAY_WITH:
        problems.append(Problem("kingdom.bad_pay_with", {"pay_with": pay_with}))
    keys = [army.key for army in armies]
    if len(keys) != len(set(keys)):
        problems.append(Problem("army.duplicate_keys", {}))
    ruins = [ruin_choice] if isinstance(ruin_choice, str) else list((ruin_choice or {}).values())
    problems += [Problem("kingdom.unknown_ruin", {"ruin": r}) for r in ruins if r not in RUINS]
    for key, condition in efficient_reductions.items():
        if condition is not None and condition not in EFFICIENT_REDUCTION_ORDER:
            problems.append(
                Problem("turn.bad_efficient_reduction", {"army": key, "condition": condition})
            )
    return problems


def _army_new_turn(
    army: ArmyState,
    new_turn: int,
    efficient_reductions: Mapping[ArmyKey, str | None],
    events: list[Event],
) -> ArmyState:
    conditions = army.spec.condition_values
    if "efficient" in conditions:
        army = remove_condition(army, "efficient", events, "unused")
        if army.key in efficient_reductions:
            chosen = efficient_reductions[army.key]
        else:
            present = [c for c in EFFICIENT_REDUCTION_ORDER if conditions.get(c, 0)]
            chosen = max(present, key=lambda c: conditions[c], default=None)
        if chosen is not None:
            army = reduce_condition(army, chosen, 1, events, "efficient_unused")
    if army.activities_this_turn == 0 and not army.fought_this_turn:
        army = reduce_condition(army, "weary", 1, events, "idle")
        army = reduce_condition(army, "shaken", 1, events, "idle")
    if army.garrison == UNTIL_NEXT_TURN:
        army = end_garrison(army, events)
    timers = {key: turn for key, turn in army.timers if turn > new_turn}  # type: ignore[misc]
    return replace(army, timers=timers, activities_this_turn=0, fought_this_turn=False)


def _starve(
    armies: tuple[ArmyState, ...],
    starving: list[ArmyKey],
    kingdom: KingdomState,
    dice: Dice,
    ruin_choice: Any,
    events: list[Event],
) -> tuple[tuple[ArmyState, ...], KingdomState]:
    """Unpaid army Consumption (§10.2): weary +1, shaken +1; 4+ -> disbanded with penalty."""
    result = []
    penalised = False
    per_army = house_value("consumption.forced_disband_penalty_per_army")
    for army in armies:
        if army.key in starving:
            army = add_condition(army, "weary", 1, events, "consumption_unpaid")
            army = add_condition(army, "shaken", 1, events, "consumption_unpaid")
            if max(army.condition("weary"), army.condition("shaken")) >= FORCED_DISBAND_AT:
                army = end_garrison(army, events)
                army = replace(
                    army, status=DISBANDED, spec=replace(army.spec, gear=()), potion_doses=0
                )
                events.append(Event("army.disbanded", {"army": army.key, "forced": True}))
                if per_army or not penalised:
                    kingdom = roll_unrest(
                        kingdom, FORCED_DISBAND_UNREST, dice, events, "forced_disband"
                    )
                    ruin = _ruin_for(ruin_choice, army.key) or ""
                    kingdom = add_ruin(kingdom, ruin, events, "forced_disband")
                    penalised = True
        result.append(army)
    return tuple(result), kingdom


def mark_fought(army: ArmyState) -> ArmyState:
    """The army fought a war encounter this turn: no idle decay next turn (§9)."""
    return replace(army, fought_this_turn=True)


def follow_kingdom_level(army: ArmyState, new_level: int) -> ArmyState | list[Problem]:
    """The army takes the kingdom's new level (§3.2): its stats follow `spec.level`; a new
    tactic slot stays empty (Train Army fills it). HP stays, capped at the new max HP."""
    if isinstance(new_level, bool) or not isinstance(new_level, int):
        return [Problem("army.level_out_of_range", {"level": new_level})]
    if not MIN_LEVEL <= new_level <= MAX_LEVEL:
        return [Problem("army.level_out_of_range", {"level": new_level})]
    spec = army.spec
    minimum = (
        SPECIALIZED_ARMIES[spec.specialized].level
        if spec.specialized is not None
        else TYPE_RULES[spec.type].min_level
    )
    if spec.custom is None and new_level < minimum:
        return [
            Problem(
                "army.level_below_minimum",
                {"army": army.key, "minimum": minimum, "level": new_level},
            )
        ]
    levelled = replace(army, spec=replace(spec, level=new_level))
    return replace(levelled, hp=min(levelled.hp, levelled.max_hp))


def transfer_gear(
    from_army: ArmyState, to_army: ArmyState, gear_key: str
) -> tuple[ArmyState, ArmyState] | list[Problem]:
    """Move one piece of gear ("magic_armor", "magic_weapons:melee", "healing_potions"…)
    between two armies in the same hex (§5: no activity; recipient's level high enough)."""
    if not from_army.active:
        return [Problem("army.not_active", {"army": from_army.key, "status": from_army.status})]
    original = find_gear(from_army, gear_key)
    if original is None:
        return [Problem("gear.not_carried", {"army": from_army.key, "gear": gear_key})]
    choice = original
    if choice.key == "healing_potions":
        choice = replace(choice, doses=from_army.potion_doses)
    problems = gear_receive_problems(from_army, to_army, [choice])
    if problems:
        return problems
    received = receive_gear(to_army, [choice])
    if isinstance(received, list):
        return received
    kept = tuple(c for c in from_army.spec.gear if c is not original)
    doses = 0 if choice.key == "healing_potions" else from_army.potion_doses
    giver = replace(from_army, spec=replace(from_army.spec, gear=kept), potion_doses=doses)
    return giver, received


def receive_gear(army: ArmyState, gear: Iterable[GearChoice]) -> ArmyState | list[Problem]:
    """`army` with `gear` added (e.g. `ActivityOutcome.transferred_gear` from Disband Army)."""
    gear = list(gear)
    merged, problems = merge_gear(army, gear)
    if problems:
        return problems
    spec = replace(army.spec, gear=merged)
    problems = validate_gear(spec, kingdom_level=None, magic_rank=None)
    if problems:
        return problems
    doses = army.potion_doses
    if any(c.key == "healing_potions" for c in gear):
        doses = next(c.doses for c in merged if c.key == "healing_potions")
    return replace(army, spec=spec, potion_doses=doses)
