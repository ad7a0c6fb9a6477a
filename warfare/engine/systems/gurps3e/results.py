"""The battle result by margin of victory and the winner's role (gurps §B.8.1), and the
Morale rolls and routs it calls for (§B.8.3).

A `ResultSpec` says, for the LOSER (the side that must act): whether it rolls Morale per unit
and at what penalty, what happens if at least half of its troops make it (`hold`) and if not
(`retreat`), or per unit (`per_unit`: made -> retreat in good order, failed -> rout), whether
it retreats outright, whether its commander is captured, and the loser's next-day Morale
penalty. The tie and the Defender-won 1-3 line are [gap]s with house defaults.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warfare.engine.checks import success_roll
from warfare.engine.systems.gurps3e.forces import ATTACKER, Force, Unit
from warfare.engine.systems.gurps3e.house_rules import house_value

TIE, NO_CLEAR_WINNER, MINOR, SIGNIFICANT, GREAT, OVERWHELMING = (
    "tie",
    "no_clear_winner",
    "minor_victory",
    "significant_victory",
    "great_victory",
    "overwhelming_victory",
)
# §B.8.3 Morale modifier codes (values in the house table as `morale.<code>`).
MORALE_MODIFIERS = (
    "hereditary_enemy",
    "homeland",
    "beat_enemy_this_year",
    "lost_to_enemy_this_year",
    "enemy_spy_network",
    "treachery_failed",
    "treachery_anger",
    "extra_pay_50",
    "extra_pay_100",
)
CLEAR_VICTORIES = (MINOR, SIGNIFICANT, GREAT, OVERWHELMING)
# Morale tests of §B.8.1.
NONE, HALF_HOLD, PER_UNIT_ROUT = "none", "half_hold", "per_unit_rout"


@dataclass(frozen=True, slots=True)
class ResultSpec:
    category: str
    loser_test: str = NONE
    loser_morale: int = 0
    loser_retreats: bool = False
    winner_takes_position: bool = False
    commander_captured: bool = False
    loser_next_day_morale: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "loser_test": self.loser_test,
            "loser_morale": self.loser_morale,
            "loser_retreats": self.loser_retreats,
            "winner_takes_position": self.winner_takes_position,
            "commander_captured": self.commander_captured,
            "loser_next_day_morale": self.loser_next_day_morale,
        }


def category(margin: int) -> str:
    """§B.8.1 bands of the margin of victory: 0, 1-3, 4-7, 8-12, 13-16, 17+."""
    if margin <= 0:
        return TIE
    if margin <= 3:
        return NO_CLEAR_WINNER
    if margin <= 7:
        return MINOR
    if margin <= 12:
        return SIGNIFICANT
    if margin <= 16:
        return GREAT
    return OVERWHELMING


def result(margin: int, winner_role: str | None) -> ResultSpec:
    """§B.8.1: what a margin of victory means when the Attacker or the Defender won."""
    band = category(margin)
    if band == TIE or winner_role is None:
        return ResultSpec(TIE, loser_next_day_morale=house_value("result.tie_morale_penalty"))
    penalty = house_value("result.loser_morale_penalty")
    if winner_role == ATTACKER:
        table: Mapping[str, ResultSpec] = {
            NO_CLEAR_WINNER: ResultSpec(NO_CLEAR_WINNER),
            MINOR: ResultSpec(
                MINOR, loser_next_day_morale=house_value("result.next_day_morale_penalty")
            ),
            SIGNIFICANT: ResultSpec(SIGNIFICANT, loser_test=HALF_HOLD),
            GREAT: ResultSpec(GREAT, loser_retreats=True, winner_takes_position=True),
            OVERWHELMING: ResultSpec(
                OVERWHELMING,
                loser_retreats=True,
                winner_takes_position=True,
                commander_captured=True,
            ),
        }
    else:
        table = {
            NO_CLEAR_WINNER: ResultSpec(
                NO_CLEAR_WINNER,
                loser_next_day_morale=house_value("result.defender_1_3_morale_penalty"),
            ),
            MINOR: ResultSpec(MINOR, loser_test=HALF_HOLD),
            SIGNIFICANT: ResultSpec(SIGNIFICANT, loser_test=HALF_HOLD, loser_morale=penalty),
            GREAT: ResultSpec(GREAT, loser_test=PER_UNIT_ROUT),
            OVERWHELMING: ResultSpec(OVERWHELMING, loser_test=PER_UNIT_ROUT, loser_morale=penalty),
        }
    return table[band]


def morale_modifier_terms(force: Force) -> tuple[tuple[str, int], ...]:
    """§B.8.3 Morale modifiers of a force's units (house table `morale.<code>`)."""
    return tuple(
        (f"morale.{code}", house_value(f"morale.{code}")) for code in force.morale_modifiers
    )


def morale_rolls(
    dice: Any, force: Force, extra: Sequence[tuple[str, int]]
) -> list[tuple[Unit, dict[str, Any], bool]]:
    """Each unit on the field rolls 3d6 against its Morale + the force's Morale modifiers +
    `extra` (the result's penalty, the carried next-day penalty). Returns (unit, roll, made)."""
    out = []
    for unit in force.units:
        if not unit.on_field:
            continue
        terms = (("morale", unit.morale), *morale_modifier_terms(force), *extra)
        skill = sum(value for _, value in terms)
        roll = success_roll(dice, skill, purpose=f"morale:{unit.key}", breakdown=terms)
        out.append((unit, roll.to_dict(), roll.succeeded))
    return out


def half_made(rolls: Sequence[tuple[Unit, dict[str, Any], bool]]) -> bool:
    """§B.8.1 "at least half of its troops make their Morale rolls": by men [house] or by
    units."""
    by_men = house_value("result.half_by_men")
    made = sum(unit.men if by_men else 1 for unit, _, ok in rolls if ok)
    total = sum(unit.men if by_men else 1 for unit, _, _ in rolls)
    return 2 * made >= total


def battle_winner(
    days: Sequence[Mapping[str, Any]], sides: Sequence[str]
) -> tuple[str | None, dict[str, dict[str, int]]]:
    """The winner of a battle that neither side left, from its resolved days ({"winner",
    "margin"} each): Part B decides each day (§B.8: "the winner wins the battle, or that day
    of an extended battle") and is silent on the whole, so [house] the side with more clear
    victories (§B.8.1, minor or better) wins, then the side that won more days, else nobody.
    Returns (winner, {side: {"clear", "won"}})."""
    tally = {side: {"clear": 0, "won": 0} for side in sides}
    for day in days:
        winner = day.get("winner")
        if winner not in tally:
            continue
        tally[winner]["won"] += 1
        if category(int(day.get("margin") or 0)) in CLEAR_VICTORIES:
            tally[winner]["clear"] += 1
    first, second = (tally[side] for side in sides)
    for key in ("clear", "won"):
        if first[key] != second[key]:
            return (sides[0] if first[key] > second[key] else sides[1]), tally
    return None, tally
