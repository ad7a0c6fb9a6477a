"""The GURPS 3e auto-play policy (`suggest`): the day's choices a GM would make for NPCs.

* **A character's Risk** (§B.4, choose_risk): of the Risks his limits allow, the one with
  the best expected value of the day for him and his side, worked out exactly from the 3d6
  odds: the Glory roll (Combat Skill − Risk, §B.6.1) gives a commander's side its Strategy
  modifier (`STRATEGY_WEIGHT` per point) and him reputation (`REPUTATION_WEIGHT` per
  point), the Survival roll (Combat Skill + Risk, §B.5) costs the expected damage of its
  row at the battle's TL after his DR (`HARM_WEIGHT` per HT point, relative to his HT).
  Ties go to the Risk nearest 0. Luck is used whenever he has some (it only counts when
  the Survival roll goes badly).
* **A commander** (commit): commits; nothing else is chosen before the Quick Contest.
* **The GM** (gm_casualties, a battle with GM-entered casualties): enters the house
  default percentages of §B.8 (`casualties.house_percent`), a routed unit's 1d extra rows
  taken at `ROUT_ROWS` (the die's average, rounded down), so a forecast of such a battle
  can go on.
"""

from functools import lru_cache
from typing import Any

from warfare.engine.battle.protocol import Command
from warfare.engine.checks import SuccessRoll, gurps_degree
from warfare.engine.odds import THREE_D6
from warfare.engine.systems.gurps3e.battle.engine import (
    CHOOSE_RISK,
    COMMIT,
    GM_CASUALTIES,
    legal_actions,
)
from warfare.engine.systems.gurps3e.battle.state import CASUALTIES, CHOICES, BattleState
from warfare.engine.systems.gurps3e.casualties import house_percent
from warfare.engine.systems.gurps3e.characters import Character, combat_skill, risk_range
from warfare.engine.systems.gurps3e.glory import GLORY_TABLE, glory_row, strategy_modifier
from warfare.engine.systems.gurps3e.house_rules import house_value
from warfare.engine.systems.gurps3e.survival import (
    FLAT_HITS,
    damage_spec,
    effective_dr,
    survival_result,
)

STRATEGY_WEIGHT = 3.0
"""Value of one point of the side's Strategy modifier from a commander's Glory."""
REPUTATION_WEIGHT = 0.5
"""Value of one point of reputation gained (or lost)."""
HARM_WEIGHT = 10.0
"""Value of losing all of one's HT (damage counts in proportion to HT max)."""
ROUT_ROWS = 3


def _rolls(skill: int) -> list[tuple[SuccessRoll, float]]:
    return [
        (SuccessRoll((0, 0, 0), roll, skill, gurps_degree(roll, skill)), chance)
        for roll, chance in THREE_D6.items()
    ]


@lru_cache(maxsize=4096)
def _glory_value(skill: int, role: str) -> float:
    value = 0.0
    for roll, chance in _rolls(skill):
        row = glory_row(roll)
        spec = GLORY_TABLE[row]
        gained = spec.reputation + spec.permanent
        value += chance * (
            STRATEGY_WEIGHT * strategy_modifier(row, role) + REPUTATION_WEIGHT * gained
        )
    return value


def _expected_damage(character: Character, result: str, tl: int) -> float:
    if result in FLAT_HITS:
        damage = FLAT_HITS[result]
        if not house_value("survival.flat_hits_ignore_dr"):
            damage = max(0, damage - effective_dr(character, 1))
        return float(damage)
    spec = damage_spec(tl, result)
    per_hit = max(0.0, spec.dice * 3.5 + spec.adds - effective_dr(character, spec.dr_divisor))
    return spec.hits * per_hit


def _harm(character: Character, skill: int, tl: int) -> float:
    damage = sum(
        chance * _expected_damage(character, survival_result(roll), tl)
        for roll, chance in _rolls(skill)
    )
    return HARM_WEIGHT * damage / max(1, character.ht_max)


def _risk(state: BattleState, key: str, options: list[int]) -> int:
    character = state.character(key)
    enemy = state.enemy(character.side)
    own = state.force(character.side)
    tl = enemy.tl if house_value("damage.tl_of_enemy") else max(enemy.tl, own.tl)
    return _best_risk(character, tl, tuple(options))


@lru_cache(maxsize=4096)
def _best_risk(character: Character, tl: int, options: tuple[int, ...]) -> int:
    """The Risk of `options` with the best value (cached: a character's numbers)."""
    skill, _ = combat_skill(character)

    def value(risk: int) -> float:
        return _glory_value(skill - risk, character.role) - _harm(character, skill + risk, tl)

    return max(options, key=lambda risk: (value(risk), -abs(risk), risk))


def _casualties(state: BattleState) -> Command:
    pending = dict(state.pending or {})
    winner, margin = pending["winner"], pending["margin"]
    units: dict[str, int] = {}
    for force in state.forces:
        loser = winner is not None and force.key != winner
        for unit in force.units:
            if unit.key in pending["fought"]:
                rout = ROUT_ROWS if unit.routed else 0
                units[unit.key] = house_percent(margin, loser, unit, rout, state.intensity)[0]
    return Command(None, GM_CASUALTIES, {"units": units})


def suggest(state: BattleState, actor: str | None) -> Command:
    """The policy's command for `actor` (a PC key, a side key, or None for the GM while
    casualties are to be entered); see the module docstring."""
    if actor is None:
        if state.phase != CASUALTIES:
            raise ValueError("gurps3e: the GM is not awaited")
        return _casualties(state)
    if state.phase != CHOICES:
        raise ValueError(f"gurps3e: {actor!r} is not awaited")
    specs = {spec.key: spec for spec in legal_actions(state, actor)}
    if COMMIT in specs:
        return Command(actor, COMMIT)
    if CHOOSE_RISK not in specs:
        raise ValueError(f"gurps3e: {actor!r} is not awaited")
    spec = specs[CHOOSE_RISK]
    risk = _risk(state, actor, [int(option.params["risk"]) for option in spec.options])
    return _risk_command(actor, risk, "use_luck" in spec.optional_params)


def _risk_command(actor: str, risk: int, luck: bool) -> Command:
    params: dict[str, Any] = {"risk": risk}
    if luck:
        params["use_luck"] = True
    return Command(actor, CHOOSE_RISK, params)


def choose_risk(state: BattleState, actor: str) -> Command:
    """`suggest` for a fit PC who has not chosen his Risk yet (the forecast's play-out asks
    only those): his options read from his limits (`risk_range`) and his Luck, as
    `legal_actions` lists them, without their previews."""
    character = state.character(actor)
    low, high = risk_range(character)
    risk = _risk(state, actor, list(range(low, high + 1)))
    return _risk_command(actor, risk, character.luck > 0)
