"""After a war encounter: the §7.6 Victory / Defeat kingdom check and its effects, with the
§7.7 PCs' own fight improving or worsening the degree. Pure: states in, new states out.

`resolve_kingdom_check(...)` rolls the kingdom's **Warfare** (victory) or **Defense** (defeat)
check against its Control DC (§10.4), or uses a die typed in from the table, then applies the
effects of the degree as `engine.VICTORY_EFFECTS` / `engine.DEFEAT_EFFECTS` list them:

Victory (§7.6)
    * critical success: every damaged army regains 1 HP; at the start of the next Kingdom turn
      1 bonus Fame or Infamy and Unrest −1 (returned in `next_turn`, not applied now);
    * success: every damaged army regains 1 HP;
    * failure: nothing;
    * critical failure: each army that took damage in the battle gets weary +1 or shaken +1
      (the players choose per army; weary when they don't say).
Defeat (§7.6)
    * critical success: every defeated army returns to 1 HP, then one damaged army of the
      players' choice regains 1 HP;
    * success: one damaged army of the players' choice regains 1 HP; Unrest +1;
    * failure: Unrest +1;
    * critical failure: every army that took part gets weary +2 or shaken +2 (players' choice
      per army); Unrest +1d4.

[inferred] "Damaged" means not destroyed, 0 < HP < max HP: a defeated army (0 HP) is the
separate, worse affliction (§4.7, §9) that only the Defeat critical success lifts. Destroyed
armies are gone and get nothing. When the chosen "one damaged army" is not damaged (or none
was chosen), the damaged army with the fewest HP is taken (first in the given order on a tie)
and the event says `chosen: false`. Conditions from the check are added as they are; the
disbanding at weary/shaken 4 (§10.2) belongs to unpaid Consumption, not to this check.
"""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from warfare.engine.checks import Degree, check, improve
from warfare.engine.dice import Dice, DiceError, TypedDice, typed_value_problem
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.resolve import (
    ActivityCheck,
    change_unrest,
)
from warfare.engine.systems.pf2e.activities.state import (
    ArmyState,
    KingdomState,
    add_condition,
    heal,
)
from warfare.engine.systems.pf2e.battle.engine import DEFEAT_EFFECTS, VICTORY_EFFECTS
from warfare.engine.systems.pf2e.modifiers import Stat

VICTORY, DEFEAT = "victory", "defeat"
RESULTS = (VICTORY, DEFEAT)
SKILL = {VICTORY: "warfare", DEFEAT: "defense"}  # §7.6
EFFECTS = {VICTORY: VICTORY_EFFECTS, DEFEAT: DEFEAT_EFFECTS}
PC_ENCOUNTER = {"won": 1, "lost": -1}  # §7.7: improve / worsen the result one degree
WEARY, SHAKEN = "weary", "shaken"
CONDITION_CHOICES = (WEARY, SHAKEN)
DEFAULT_CHOICE = WEARY


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"battle.aftermath.{code}", params)


@dataclass(frozen=True)
class Aftermath:
    """What the §7.6 check did to one side's kingdom and armies.

    `armies`: every army given, afterwards (in the given order). `next_turn`: what happens at
    the start of the next Kingdom turn ({"fame": 1, "unrest": -1} on a victory's critical
    success), for the kingdom turn to apply.
    """

    result: str
    skill: str
    check: ActivityCheck
    degree: Degree
    kingdom: KingdomState
    armies: tuple[ArmyState, ...]
    events: tuple[Event, ...]
    pc_encounter: str | None = None
    next_turn: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "result": self.result,
            "skill": self.skill,
            "check": self.check.to_dict(),
            "degree": self.degree.code,
            "pc_encounter": self.pc_encounter,
            "kingdom": self.kingdom.to_dict(),
            "armies": [army.to_dict() for army in self.armies],
            "events": [event.to_dict() for event in self.events],
            "next_turn": dict(self.next_turn),
        }


def kingdom_check_stats(result: str, kingdom: KingdomState) -> tuple[str, Stat, Stat]:
    """(skill, modifier, DC) of the §7.6 check: Warfare or Defense vs the Control DC."""
    skill = SKILL[result]
    value = kingdom.skill_modifier(skill) or 0
    modifier = Stat(value, ((f"skill.{skill}", value),))
    dc = Stat(kingdom.control_dc, (("control_dc", kingdom.control_dc),))
    return skill, modifier, dc


def _damaged(army: ArmyState) -> bool:
    return army.active and 0 < army.hp < army.max_hp


def aftermath_problems(
    *,
    result: str,
    kingdom: KingdomState,
    armies: Sequence[ArmyState],
    typed_die: object = None,
    typed_unrest: object = None,
    pc_encounter: str | None = None,
    choices: Mapping[Any, str] | None = None,
    regain: Any = None,
) -> list[Problem]:
    """Problems with the inputs (empty: `resolve_kingdom_check` accepts them)."""
    if result not in RESULTS:
        return [_p("bad_result", result=result)]
    problems = []
    if kingdom.skill_rank(SKILL[result]) is None:
        problems.append(Problem("kingdom.skill_missing", {"skill": SKILL[result]}))
    if pc_encounter not in (None, *PC_ENCOUNTER):
        problems.append(_p("bad_pc_encounter", pc_encounter=pc_encounter))
    keys = [army.key for army in armies]
    for key, choice in (choices or {}).items():
        if key not in keys:
            problems.append(_p("unknown_army", army=key))
        elif choice not in CONDITION_CHOICES:
            problems.append(_p("bad_choice", army=key, choice=choice))
    if regain is not None and regain not in keys:
        problems.append(_p("unknown_army", army=regain))
    for value, sides in ((typed_die, 20), (typed_unrest, 4)):
        if value is not None:
            problem = typed_value_problem(value, sides)
            if problem is not None:
                problems.append(problem)
    return problems


def _roll(
    dice: Dice, typed: object, modifier: Stat, dc: Stat, purpose: str
) -> tuple[Degree, int, str, int]:
    """(degree, die, source, total) of d20 + modifier vs DC, the typed die first."""
    source_dice: Any = dice
    if typed is not None:
        source_dice = TypedDice([int(str(typed).strip())])
    result = check(source_dice, modifier, dc.value, purpose=purpose)
    if source_dice is not dice:
        dice.log.extend(source_dice.log)  # type: ignore[attr-defined]
    return result.degree, result.die, source_dice.log[-1].source, result.total


ARMY_EFFECTS = (
    "damaged_armies_regain_hp",
    "defeated_armies_restored",
    "one_damaged_army_regains_hp",
    "armies_that_took_damage_choose",
    "participating_armies_choose",
)
"""The §7.6 effects on the side's armies (`_army_effect`); the others change the kingdom."""


def _army_effect(
    effect: Mapping[str, Any],
    state: dict[Any, ArmyState],
    order: list[Any],
    took_damage: set[Any],
    regain: Any,
    choose: Callable[[Any, int], None],
    events: list[Event],
    reason: str,
) -> None:
    """Apply one of `ARMY_EFFECTS` to the armies in `state` (changed in place)."""
    code = effect["code"]
    if code == "damaged_armies_regain_hp":
        for key in order:
            if _damaged(state[key]):
                state[key] = heal(state[key], effect["hp"], events, reason)
    elif code == "defeated_armies_restored":
        for key in order:
            army = state[key]
            if army.active and army.hp == 0:
                state[key] = heal(army, effect["hp"], events, reason)
    elif code == "one_damaged_army_regains_hp":
        damaged = [key for key in order if _damaged(state[key])]
        if not damaged:
            return
        chosen = regain in damaged
        key = regain if chosen else min(damaged, key=lambda k: state[k].hp)
        events.append(Event("battle.aftermath_choice", {"army": key, "chosen": chosen}))
        state[key] = heal(state[key], effect["hp"], events, reason)
    elif code == "armies_that_took_damage_choose":
        scale = next(iter(effect["options"][0].values()))
        for key in order:
            if key in took_damage and state[key].active:
                choose(key, scale)
    elif code == "participating_armies_choose":
        scale = next(iter(effect["options"][0].values()))
        for key in order:
            if state[key].active:
                choose(key, scale)


def resolve_kingdom_check(
    *,
    result: str,
    kingdom: KingdomState,
    armies: Sequence[ArmyState],
    took_damage: Iterable[Any],
    dice: Dice,
    typed_die: int | str | None = None,
    typed_unrest: int | str | None = None,
    pc_encounter: str | None = None,
    choices: Mapping[Any, str] | None = None,
    regain: Any = None,
) -> Aftermath | list[Problem]:
    """Roll the §7.6 check for one side (`result`: "victory" / "defeat") and apply it.

    `armies`: that side's armies as they leave the battle; `took_damage`: the keys of those
    that took damage in it. `typed_die` / `typed_unrest`: the d20 of the check and the d4 of a
    Defense critical failure rolled at the table (None: `dice` rolls). `pc_encounter`: "won",
    "lost" or None (§7.7). `choices`: {army key: "weary" | "shaken"} (§7.6 "players'
    choice"; default weary). `regain`: the damaged army of the players' choice (Defeat).
    """
    problems = aftermath_problems(
        result=result, kingdom=kingdom, armies=armies, typed_die=typed_die,
        typed_unrest=typed_unrest, pc_encounter=pc_encounter, choices=choices, regain=regain,
    )  # fmt: skip
    if problems:
        return problems
    choices = dict(choices or {})
    took_damage = set(took_damage)
    skill, modifier, dc = kingdom_check_stats(result, kingdom)
    try:
        rolled, die, source, total = _roll(dice, typed_die, modifier, dc, f"battle.{result}")
    except DiceError as error:
        return [error.problem]
    adjustments: tuple[tuple[str, int], ...] = ()
    degree = rolled
    if pc_encounter is not None:
        adjustments = ((f"pc_encounter.{pc_encounter}", PC_ENCOUNTER[pc_encounter]),)
        degree = improve(rolled, PC_ENCOUNTER[pc_encounter])
    record = ActivityCheck(skill, die, source, modifier, dc, total, rolled, adjustments, degree)
    reason = f"battle.{result}.{degree.code}"
    events: list[Event] = [
        Event("battle.kingdom_check", {"result": result, "skill": skill, "degree": degree.code,
                                       "check": record.to_dict()})
    ]  # fmt: skip
    state = {army.key: army for army in armies}
    order = [army.key for army in armies]
    next_turn: dict[str, int] = {}

    def choose(key: Any, scale: int) -> None:
        condition = choices.get(key, DEFAULT_CHOICE)
        state[key] = add_condition(state[key], condition, scale, events, reason)

    for effect in EFFECTS[result][degree.code]:
        code = effect["code"]
        if code in ARMY_EFFECTS:
            _army_effect(effect, state, order, took_damage, regain, choose, events, reason)
        elif code == "unrest" and effect.get("when") == "next_kingdom_turn":
            next_turn["unrest"] = next_turn.get("unrest", 0) + effect["value"]
        elif code == "fame_or_infamy":
            next_turn["fame"] = next_turn.get("fame", 0) + effect["value"]
        elif code == "unrest":
            kingdom = change_unrest(kingdom, effect["value"], events, reason)
        elif code == "unrest_roll":
            try:
                source_dice: Any = dice if typed_unrest is None else TypedDice([int(typed_unrest)])
                roll = source_dice.roll_expr(effect["dice"], purpose=f"unrest.{reason}")
            except DiceError as error:
                return [error.problem]
            if source_dice is not dice:
                dice.log.extend(source_dice.log)  # type: ignore[attr-defined]
            kingdom = change_unrest(kingdom, roll.total, events, reason, list(roll.results))
        else:  # pragma: no cover - a new effect code must be handled here
            raise ValueError(f"unknown §7.6 effect {code}")
    if next_turn:
        events.append(Event("battle.next_turn_effects", {"reason": reason, **next_turn}))
    return Aftermath(
        result=result,
        skill=skill,
        check=record,
        degree=degree,
        kingdom=kingdom,
        armies=tuple(state[key] for key in order),
        events=tuple(events),
        pc_encounter=pc_encounter,
        next_turn=next_turn,
    )
