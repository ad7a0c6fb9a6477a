"""Before the battle (§A.3-A.5): the reconnaissance contest and its outcome, initial
intelligence, the Basic Strategy Modifier, the Defense Bonus and the round length."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warfare.engine.checks import Degree, SuccessRoll, quick_contest, success_roll
from warfare.engine.dice import Dice
from warfare.engine.systems.gurps4e.forces import Force, class_superiority, relative_ts_bonus
from warfare.engine.systems.gurps4e.house_rules import house_value
from warfare.engine.systems.gurps4e.tables import (
    DB_PLAINS,
    DB_TERRAIN_EXTRA,
    RECON_ENTRENCHED,
    RECON_FASTER,
    RECON_FASTER_RATIO,
    RECON_FLYING,
    RECON_LAX_SECURITY,
    RECON_MARCH,
    RECON_RELATIONS_CAMP,
    RECON_RELATIONS_MOBILE,
    RECON_ROAD,
    RECON_TERRAIN_FEATURE,
    casualty_penalty,
)

Terms = list[tuple[str, int]]

INITIATIVE, SURPRISE, AMBUSH, TIE, DOUBLE_CRITICAL_FAILURE = (
    "initiative",
    "surprise",
    "ambush",
    "tie",
    "double_critical_failure",
)
PITCHED, ENCOUNTER = "pitched", "encounter"


def recon_skill_terms(force: Force) -> Terms:
    """§A.4.2: the average of Intelligence Analysis and the commander's Strategy, rounded down
    [inferred]."""
    staff = force.staff
    return [("recon.base", (staff.intelligence_analysis + staff.commander.strategy) // 2)]


def recon_condition_terms(
    force: Force,
    enemy: Force,
    conditions: Mapping[str, Any],
    *,
    land: bool,
    overrides: Mapping[str, Any] | None = None,
) -> Terms:
    """§A.4.3: the condition modifiers of one side.

    `conditions` (GM-entered): flying (bool), march (0/1/2), road ("none"/"road"/"strict"),
    terrain_feature ("none"/"some"/"all"), recon_bonus (int: replaces the Rec-element
    modifier, e.g. a Recon-superiority reading), extra (int). Posture, relations and speed
    come from the force. A mobile force: flying -1, march -1/-2, lax -5, Rec elements -1/+2
    (land battles), relations +1/-1, road -1/-3, faster +1, terrain +1/+4. In camp: entrenched
    +3, lax -5, relations +2/-2."""
    terms: Terms = []
    lax = force.posture == "lax"
    if force.mobile:
        if conditions.get("flying"):
            terms.append(("recon.flying", RECON_FLYING))
        if conditions.get("march"):
            terms.append(("recon.march", RECON_MARCH[int(conditions["march"])]))
        if lax:
            terms.append(("recon.lax_security", RECON_LAX_SECURITY))
        if land:
            if conditions.get("recon_bonus") is not None:
                terms.append(("recon.recon_bonus", int(conditions["recon_bonus"])))
            elif not any("Rec" in r.type.classes for r in force.rows if r.count):
                terms.append(("recon.no_rec", house_value("recon.no_rec_elements", overrides)))
            elif all("Rec" in r.type.classes for r in force.rows if r.count):
                terms.append(("recon.all_rec", house_value("recon.all_rec_elements", overrides)))
        if RECON_RELATIONS_MOBILE[force.relations]:
            terms.append(("recon.relations", RECON_RELATIONS_MOBILE[force.relations]))
        if RECON_ROAD[conditions.get("road", "none")]:
            terms.append(("recon.road", RECON_ROAD[conditions.get("road", "none")]))
        if enemy.mobile and enemy.speed > 0 and force.speed >= enemy.speed * RECON_FASTER_RATIO:
            terms.append(("recon.faster", RECON_FASTER))
        feature = RECON_TERRAIN_FEATURE[conditions.get("terrain_feature", "none")]
        if feature:
            terms.append(("recon.terrain_feature", feature))
    else:
        if force.posture == "entrenched":
            terms.append(("recon.entrenched", RECON_ENTRENCHED))
        if lax:
            terms.append(("recon.lax_security", RECON_LAX_SECURITY))
        if RECON_RELATIONS_CAMP[force.relations]:
            terms.append(("recon.relations", RECON_RELATIONS_CAMP[force.relations]))
    if conditions.get("extra"):
        terms.append(("recon.gm", int(conditions["extra"])))
    return terms


@dataclass(frozen=True)
class ReconResult:
    """§A.4.4: `result` is initiative/surprise/ambush/tie/double_critical_failure; `winner`
    0/1/None; `kind` the battle kind when already fixed (ties, double critical failure);
    `confused` the sides confused in round 1 whatever kind is chosen."""

    rolls: tuple[SuccessRoll, SuccessRoll]
    winner: int | None
    margin: int
    result: str
    entrenched_tie: bool = False
    tie_roll: int | None = None
    kind: str | None = None
    confused: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "rolls": [roll.to_dict() for roll in self.rolls],
            "winner": self.winner,
            "margin": self.margin,
            "result": self.result,
            "entrenched_tie": self.entrenched_tie,
            "tie_roll": self.tie_roll,
            "kind": self.kind,
            "confused": list(self.confused),
        }


def recon_result(margin: int, terrain_rating: int, overrides: Mapping[str, Any] | None = None):
    """§A.4.4 for a winner: Ambush (margin ≥ 5 [seed?], checked first), else Surprise
    (margin ≥ TR), else Initiative."""
    threshold = int(house_value("recon.ambush_margin", overrides))
    if house_value("recon.ambush_margin_adds_tr", overrides):
        threshold += terrain_rating
    if margin >= threshold:
        return AMBUSH
    if margin >= terrain_rating:
        return SURPRISE
    return INITIATIVE


def tie_kind(die: int, terrain_rating: int) -> str:
    """§A.4.4 tie: 1d ≤ TR -> pitched battle, else encounter battle."""
    return PITCHED if die <= terrain_rating else ENCOUNTER


def recon_contest(
    dice: Dice,
    terms: tuple[Terms, Terms],
    terrain_rating: int,
    entrenched: tuple[bool, bool] = (False, False),
    overrides: Mapping[str, Any] | None = None,
) -> ReconResult:
    """§A.4.2-A.4.4: both sides roll 3d6 vs their recon skill (a Quick Contest). Both critical
    failures: encounter battle, both confused. An entrenched winner's win counts as a tie.
    A tie rolls 1d vs TR for the kind of battle."""
    rolls = tuple(
        success_roll(dice, sum(v for _, v in t), purpose="recon", breakdown=t) for t in terms
    )
    contest = quick_contest(rolls[0], rolls[1])
    if all(r.degree is Degree.CRIT_FAILURE for r in rolls):
        return ReconResult(rolls, None, 0, DOUBLE_CRITICAL_FAILURE, kind=ENCOUNTER,
                           confused=(0, 1))  # fmt: skip
    winner = contest.winner
    entrenched_tie = winner is not None and entrenched[winner]
    if winner is None or entrenched_tie:
        die = dice.roll(6, purpose="recon_tie")
        return ReconResult(rolls, None, contest.margin_of_victory, TIE, entrenched_tie, die,
                           tie_kind(die, terrain_rating))  # fmt: skip
    margin = contest.margin_of_victory
    result = recon_result(margin, terrain_rating, overrides)
    confused = (1 - winner,) if result == AMBUSH else ()
    return ReconResult(rolls, winner, margin, result, confused=confused)


def confused_after_kind(result: str, winner: int | None, kind: str) -> tuple[int, ...]:
    """§A.4.4: Surprise + encounter battle or Ambush -> the loser is confused in round 1; two
    critical failures -> both."""
    if result == DOUBLE_CRITICAL_FAILURE:
        return (0, 1)
    if winner is not None and (result == AMBUSH or (result == SURPRISE and kind == ENCOUNTER)):
        return (1 - winner,)
    return ()


def may_avoid_battle(winner: Force, loser: Force) -> bool:
    """§A.4.4 Initiative: the winner may withdraw if the enemy is camped or mobile at a speed
    no greater than the winner's."""
    return not loser.mobile or loser.speed <= winner.speed


# --- initial intelligence ------------------------------------------------------------------------


def _approx(count: int, percent: int) -> list[int]:
    low = count * (100 - percent) // 100
    high = -(-count * (100 + percent) // 100)
    return [low, high]


def initial_intelligence(
    enemy: Force, *, kind: str, confused: bool, initiative: bool, obscured: bool
) -> dict[str, Any]:
    """§A.4.4, §A.5.1: what a side learns of the enemy before the battle.

    Confused: nothing. Pitched battle: exact size and composition (identity) unless bad weather
    or night (`obscured`) -> the encounter precision. Encounter battle: each mobility class's
    number of elements ±20 %. The initiative holder's intelligence chief also learns the
    approximate size (±25 %) and composition."""
    data: dict[str, Any] = {"precision": "none"}
    if confused:
        return data
    by_mobility: dict[str, int] = {}
    for row in enemy.rows:
        by_mobility[row.type.mobility] = by_mobility.get(row.type.mobility, 0) + row.count
    if kind == PITCHED and not obscured:
        data = {
            "precision": "exact",
            "name": enemy.name,
            "elements": {row.key: row.count for row in enemy.rows},
        }
    else:
        data = {
            "precision": "approx_20",
            "by_mobility": {m: _approx(n, 20) for m, n in sorted(by_mobility.items())},
        }
    if initiative and data["precision"] != "exact":
        data["initiative_estimate"] = {
            "precision": "approx_25",
            "elements": {row.key: _approx(row.count, 25) for row in enemy.rows},
        }
    return data


# --- BSM, DB -------------------------------------------------------------------------------------


def bsm_terms(
    ts: tuple[Any, Any],
    side: int,
    superiorities: list[Any],
    casualties: int,
    overrides: Mapping[str, Any] | None = None,
) -> Terms:
    """§A.5.2: relative TS bonus (larger force only) + Σ class superiority − 1 per full 5 %
    casualties."""
    terms: Terms = []
    own, enemy = ts[side], ts[1 - side]
    if own > enemy:
        bonus = relative_ts_bonus(own, enemy, overrides)
        if bonus:
            terms.append(("bsm.relative_ts", bonus))
    for sup in superiorities:
        if sup.holder == side and sup.bonus:
            terms.append((f"bsm.superiority.{sup.cls}", sup.bonus))
    if casualty_penalty(casualties):
        terms.append(("bsm.casualties", casualty_penalty(casualties)))
    return terms


def superiorities(forces: tuple[Force, Force], classes, *, encounter: bool,
                  neutralize=(True, True), overrides=None) -> list[Any]:  # fmt: skip
    """§A.5.3 for every applicable class."""
    return [
        class_superiority(c, forces[0], forces[1], encounter=encounter, neutralize=neutralize,
                          overrides=overrides)
        for c in classes
    ]  # fmt: skip


def defense_bonus_side(kind: str, initiative: int | None, camped: tuple[bool, bool]) -> list[int]:
    """§A.5.4 who holds a DB: pitched battle -> the initiative holder; encounter battle -> a
    camped force (even if confused). A pitched battle without an initiative holder: the GM
    decides (none by default)."""
    if kind == PITCHED:
        return [initiative] if initiative is not None else []
    return [i for i in (0, 1) if camped[i]]


def roll_defense_bonus(dice: Dice, terrain: str) -> tuple[int, Terms]:
    """§A.5.4 DB size: plains +1; other terrain 1d/2 (round up [inferred]); +1 hills, +2
    mountains or urban."""
    if terrain == "plains":
        return DB_PLAINS, [("db.plains", DB_PLAINS)]
    die = dice.roll(6, purpose="defense_bonus")
    terms = [("db.half_die", -(-die // 2))]
    if terrain in DB_TERRAIN_EXTRA:
        terms.append((f"db.terrain.{terrain}", DB_TERRAIN_EXTRA[terrain]))
    return sum(v for _, v in terms), terms
