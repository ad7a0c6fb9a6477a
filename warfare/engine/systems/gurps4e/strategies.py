"""The battle strategies of GURPS Mass Combat 4e (§A.6.3) as ONE data table.

Names and groups are seed A's; every number and effect is **[impl]** (the public
implementation `aaronmlf/GurpsCalculadora`, citing *Mass Combat* pp. 34-36, not verified
against the book): a GM with the book corrects a row of `STRATEGIES` here.
`strategy_effects(key)` lists what a strategy does as codes with params, for the board to show
before a commander chooses.
"""

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

ATTACK, DEFENSE, RETREAT, RAID_SKIRMISH = "attack", "defense", "retreat", "raid_skirmish"

ALL_OUT_ATTACK, ATTACK_S, DELIBERATE_ATTACK, INDIRECT_ATTACK = (
    "all_out_attack",
    "attack",
    "deliberate_attack",
    "indirect_attack",
)
ALL_OUT_DEFENSE, DEFENSE_S, DELIBERATE_DEFENSE, MOBILE_DEFENSE, PARLEY, RALLY = (
    "all_out_defense",
    "defense",
    "deliberate_defense",
    "mobile_defense",
    "parley",
    "rally",
)
FIGHTING_RETREAT, FULL_RETREAT, RAID, SKIRMISH = (
    "fighting_retreat",
    "full_retreat",
    "raid",
    "skirmish",
)


@dataclass(frozen=True)
class Strategy:
    """One row of the strategy table (§A.6.3) [impl].

    Casualty fields are percentage points; `bonus_each` gives +value for each listed class
    superiority the side holds, `bonus_any` +value once if it holds any of them."""

    key: str
    group: str
    modifier: int
    own_multiplier: int = 1
    enemy_plus_on_win: int = 0
    enemy_plus_on_win_or_tie: int = 0
    own_minus: int = 0
    own_minus_unless_win: int = 0
    halves_enemy: bool = False
    full_retreat: int = 0
    """Own casualties minus this (min 0) and the enemy takes none (Full Retreat)."""
    bonus_each: tuple[str, ...] = ()
    bonus_any: tuple[str, ...] = ()
    uses_db: bool = False
    slow: bool = False
    no_desperate: bool = False
    not_in_encounter: bool = False
    not_if_started_confused: bool = False
    only_when_confused: bool = False
    db_first_round_or_siege: bool = False
    enemy_pb_shift: int = 0
    """Added to the enemy's PB gain when the enemy wins against this strategy."""
    enemy_pb_on_tie: int = 0
    enemy_pb_even_without_attack: int = 0
    reduces_enemy_pb: bool = False
    raid_logistics: bool = False
    leaves: str = ""
    """"always" (leaves the field at the end of the round) or "win_or_tie"."""
    logistics_share: str = ""
    """"always" or "on_loss": its casualty % also hits its logistics troops."""
    margin_first: Fraction = Fraction(1)
    margin_later: Fraction = Fraction(1)
    repeat_modifier: int = 0
    halves_own_margin: bool = False
    confused_modifier: int = 0

    @property
    def gains_pb(self) -> bool:
        """§A.6.4: only an Attack strategy earns Position Bonus by winning."""
        return self.group == ATTACK


STRATEGIES: dict[str, Strategy] = {
    s.key: s
    for s in (
        Strategy(ALL_OUT_ATTACK, ATTACK, 2, own_multiplier=2, enemy_plus_on_win=5),
        Strategy(ATTACK_S, ATTACK, 0),
        Strategy(DELIBERATE_ATTACK, ATTACK, 1, bonus_each=("Art",), slow=True, no_desperate=True,
                 not_in_encounter=True, not_if_started_confused=True),
        Strategy(INDIRECT_ATTACK, ATTACK, -3, bonus_each=("C3I",), margin_first=Fraction(2),
                 margin_later=Fraction(3, 2), repeat_modifier=-2),
        Strategy(ALL_OUT_DEFENSE, DEFENSE, 2, own_multiplier=2, uses_db=True, enemy_pb_shift=-1),
        Strategy(DEFENSE_S, DEFENSE, 1, uses_db=True),
        Strategy(DELIBERATE_DEFENSE, DEFENSE, 1, enemy_plus_on_win_or_tie=5, bonus_each=("F",),
                 uses_db=True, slow=True, no_desperate=True, not_in_encounter=True,
                 db_first_round_or_siege=True),
        Strategy(MOBILE_DEFENSE, DEFENSE, 0, own_minus_unless_win=5, bonus_any=("Cav", "Nav"),
                 uses_db=True, enemy_pb_shift=1, enemy_pb_on_tie=1,
                 enemy_pb_even_without_attack=1),
        Strategy(PARLEY, DEFENSE, 0, uses_db=True),
        Strategy(RALLY, DEFENSE, -2, only_when_confused=True),
        Strategy(FIGHTING_RETREAT, RETREAT, 3, halves_enemy=True, enemy_pb_shift=1,
                 leaves="win_or_tie", logistics_share="on_loss"),
        Strategy(FULL_RETREAT, RETREAT, 8, full_retreat=10, leaves="always",
                 logistics_share="always", confused_modifier=-2),
        Strategy(RAID, RAID_SKIRMISH, 0, bonus_each=("Air", "Cav", "Nav", "Rec"),
                 reduces_enemy_pb=True, raid_logistics=True),
        Strategy(SKIRMISH, RAID_SKIRMISH, 2, own_minus=5, bonus_any=("Air", "Art", "F"),
                 no_desperate=True, halves_own_margin=True),
    )
}  # fmt: skip

DEFENSE_PAIRING = (ALL_OUT_DEFENSE, DEFENSE_S, DELIBERATE_DEFENSE, MOBILE_DEFENSE, RALLY)
"""§A.6.3 pairing [impl]: two of these face to face are both fought as Skirmish."""


def superiority_bonus_terms(key: str, superiorities: dict[str, int]) -> list[tuple[str, int]]:
    """§A.6.3: the strategy's +1s for class superiorities the side holds (bonus > 0)."""
    row = STRATEGIES[key]
    held = {cls for cls, bonus in superiorities.items() if bonus > 0}
    terms = [(f"strategy_superiority.{cls}", 1) for cls in row.bonus_each if cls in held]
    any_of = [cls for cls in row.bonus_any if cls in held]
    if any_of:
        terms.append((f"strategy_superiority.{any_of[0]}", 1))
    return terms


def strategy_effects(key: str) -> list[dict[str, Any]]:
    """What strategy `key` does (§A.6.3), as codes with params, for the board to show: its
    group and modifier, what it does to casualties and Position Bonus (`_combat_effects`),
    then when it may be chosen and what else follows from it (`_rule_effects`)."""
    row = STRATEGIES[key]
    effects: list[dict[str, Any]] = [
        {"code": "strategy.group", "params": {"group": row.group}},
        {"code": "strategy.modifier", "params": {"value": row.modifier}},
    ]

    def add(code: str, **params: Any) -> None:
        effects.append({"code": f"strategy.{code}", "params": params})

    _combat_effects(row, add)
    _rule_effects(row, add)
    return effects


def _combat_effects(row: Strategy, add: Callable[..., None]) -> None:
    """The casualty, superiority and Position Bonus effects of `row`, in table order."""
    if row.own_multiplier != 1:
        add("own_casualties_multiplied", factor=row.own_multiplier)
    if row.enemy_plus_on_win:
        add("enemy_casualties_on_win", percent=row.enemy_plus_on_win)
    if row.enemy_plus_on_win_or_tie:
        add("enemy_casualties_on_win_or_tie", percent=row.enemy_plus_on_win_or_tie)
    if row.own_minus:
        add("own_casualties_reduced", percent=row.own_minus)
    if row.own_minus_unless_win:
        add("own_casualties_reduced_on_loss_or_tie", percent=row.own_minus_unless_win)
    if row.halves_enemy:
        add("enemy_casualties_halved")
    if row.full_retreat:
        add("full_retreat_casualties", own_minus=row.full_retreat)
    for cls in row.bonus_each:
        add("superiority_bonus", cls=cls, value=1)
    if row.bonus_any:
        add("superiority_bonus_any", classes=list(row.bonus_any), value=1)
    if row.gains_pb:
        add("gains_pb_on_win")
    if row.enemy_pb_shift:
        add("enemy_pb_gain_shift", value=row.enemy_pb_shift)
    if row.enemy_pb_on_tie:
        add("enemy_pb_on_tie", value=row.enemy_pb_on_tie)
    if row.reduces_enemy_pb:
        add("reduces_enemy_pb")
    if row.raid_logistics:
        add("casualties_to_enemy_logistics")


def _rule_effects(row: Strategy, add: Callable[..., None]) -> None:
    """When `row` may be chosen (DB, slow, Desperate, encounter, confusion), whether it leaves
    the field, and its margin, repeat and confusion modifiers, in table order."""
    if row.uses_db:
        add("uses_db")
    if row.slow:
        add("slow")
    if row.no_desperate:
        add("not_desperate")
    if row.not_in_encounter:
        add("not_in_encounter_battle")
    if row.not_if_started_confused:
        add("not_if_started_confused")
    if row.only_when_confused:
        add("only_when_confused")
    if row.db_first_round_or_siege:
        add("needs_db_first_round_or_siege")
    if row.leaves:
        add("leaves_field", when=row.leaves)
    if row.logistics_share:
        add("logistics_share_casualties", when=row.logistics_share)
    if row.margin_first != 1:
        add("margin_multiplied", first=float(row.margin_first), later=float(row.margin_later))
    if row.repeat_modifier:
        add("repeat_modifier", value=row.repeat_modifier)
    if row.halves_own_margin:
        add("own_margin_halved")
    if row.confused_modifier:
        add("confused_modifier", value=row.confused_modifier)
