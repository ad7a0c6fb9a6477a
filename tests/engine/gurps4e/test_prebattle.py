"""Reconnaissance, intelligence, BSM, DB (gurps §A.4, §A.5)."""

from fractions import Fraction

import pytest

from tests.engine.gurps4e.helpers import force, row
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.gurps4e.forces import CommandStaff, Officer
from warfare.engine.systems.gurps4e.prebattle import (
    AMBUSH,
    DOUBLE_CRITICAL_FAILURE,
    ENCOUNTER,
    INITIATIVE,
    PITCHED,
    SURPRISE,
    TIE,
    bsm_terms,
    confused_after_kind,
    defense_bonus_side,
    initial_intelligence,
    may_avoid_battle,
    recon_condition_terms,
    recon_contest,
    recon_result,
    recon_skill_terms,
    roll_defense_bonus,
    superiorities,
    tie_kind,
)

MOBILE = force(row("hi", 4, 10))


def _terms(f, enemy=MOBILE, land=True, **conditions):
    return dict(recon_condition_terms(f, enemy, conditions, land=land))


def test_recon_skill_is_the_average_of_intelligence_analysis_and_strategy_rounded_down():
    """gurps §A.4.2: avg(Intelligence Analysis, Strategy), rounded down [inferred]."""
    staff = CommandStaff(Officer(strategy=15), intelligence_analysis=12)
    assert recon_skill_terms(force(row("hi"), staff=staff.to_dict())) == [("recon.base", 13)]


def test_recon_mobile_modifiers():
    """gurps §A.4.3 mobile force: flying -1, march -1/-2, lax -5, no Rec -1, relations ±1,
    road -1/-3, speed +1 at 1.5×, terrain feature +1/+4."""
    assert _terms(MOBILE, flying=True)["recon.flying"] == -1
    assert _terms(MOBILE, march=1)["recon.march"] == -1
    assert _terms(MOBILE, march=2)["recon.march"] == -2
    assert _terms(force(row("hi"), posture="lax"))["recon.lax_security"] == -5
    assert _terms(MOBILE) == {"recon.no_rec": -1}
    assert _terms(MOBILE, land=False) == {}
    assert _terms(force(row("sc", classes=["Rec"])))["recon.all_rec"] == 2
    assert "recon.no_rec" not in _terms(force(row("sc", classes=["Rec"]), row("hi")))
    assert _terms(MOBILE, recon_bonus=2) == {"recon.recon_bonus": 2}
    assert _terms(force(row("hi"), relations="good"))["recon.relations"] == 1
    assert _terms(force(row("hi"), relations="hostile"))["recon.relations"] == -1
    assert _terms(MOBILE, road="road")["recon.road"] == -1
    assert _terms(MOBILE, road="strict")["recon.road"] == -3
    assert _terms(MOBILE, terrain_feature="some")["recon.terrain_feature"] == 1
    assert _terms(MOBILE, terrain_feature="all")["recon.terrain_feature"] == 4
    assert _terms(MOBILE, extra=-2)["recon.gm"] == -2


@pytest.mark.parametrize(("ours", "theirs", "bonus"), [(15, 10, True), (14, 10, False)])
def test_recon_speed_bonus_needs_one_and_a_half_times_the_enemy_speed(ours, theirs, bonus):
    """gurps §A.4.3: +1 if both move and yours is at least 1.5× as fast."""
    terms = _terms(force(row("hi"), speed=ours), force(row("hi"), speed=theirs))
    assert ("recon.faster" in terms) is bonus
    assert "recon.faster" not in _terms(force(row("hi"), speed=ours),
                                        force(row("hi"), speed=theirs, mobile=False))  # fmt: skip


def test_recon_camp_modifiers():
    """gurps §A.4.3 camp: entrenched +3, lax -5, relations +2/-2."""
    assert _terms(force(row("hi"), mobile=False, posture="entrenched")) == {"recon.entrenched": 3}
    assert _terms(force(row("hi"), mobile=False, posture="lax")) == {"recon.lax_security": -5}
    assert _terms(force(row("hi"), mobile=False, relations="good")) == {"recon.relations": 2}
    assert _terms(force(row("hi"), mobile=False, relations="hostile")) == {"recon.relations": -2}


@pytest.mark.parametrize(
    ("margin", "tr", "result"),
    [(5, 8, AMBUSH), (4, 3, SURPRISE), (3, 3, SURPRISE), (2, 3, INITIATIVE), (4, 8, INITIATIVE)],
)
def test_recon_winner_outcome_ambush_first_then_surprise_then_initiative(margin, tr, result):
    """gurps §A.4.4 [seed?]: margin ≥ 5 ambush (checked first), ≥ TR surprise, else initiative."""
    assert recon_result(margin, tr) == result


def test_recon_ambush_threshold_alternative_reading():
    """gurps §A.4.4: the alternative reading margin ≥ TR + 5 [inferred]."""
    assert recon_result(5, 3, {"recon.ambush_margin_adds_tr": True}) == SURPRISE
    assert recon_result(8, 3, {"recon.ambush_margin_adds_tr": True}) == AMBUSH


@pytest.mark.parametrize(("die", "kind"), [(5, PITCHED), (6, ENCOUNTER)])
def test_recon_tie_rolls_1d_against_terrain_rating(die, kind):
    """gurps §A.4.4 tie: 1d ≤ TR pitched, otherwise encounter (woodlands TR 5)."""
    assert tie_kind(die, 5) == kind


def test_recon_contest_winner_and_margin():
    """gurps §A.4.2: Quick Contest; 12 vs skill 14 (m +2) beats 14 vs 12 (m -2): margin 4."""
    result = recon_contest(ScriptedDice([4, 4, 4, 5, 5, 4]), ([("b", 14)], [("b", 12)]), 6)
    assert (result.winner, result.margin, result.result) == (0, 4, INITIATIVE)
    assert result.rolls[0].breakdown == (("b", 14),)


def test_recon_contest_tie_and_entrenched_winner_count_as_tie():
    """gurps §A.4.3-4: equal margins tie; an entrenched winner's win counts as a tie."""
    tie = recon_contest(ScriptedDice([3, 3, 4, 3, 3, 4, 2]), ([("b", 10)], [("b", 10)]), 6)
    assert (tie.result, tie.tie_roll, tie.kind) == (TIE, 2, PITCHED)
    dug_in = recon_contest(ScriptedDice([3, 3, 3, 6, 6, 6, 6]), ([("b", 13)], [("b", 10)]), 5,
                           entrenched=(True, False))  # fmt: skip
    assert (dug_in.result, dug_in.entrenched_tie, dug_in.kind) == (TIE, True, ENCOUNTER)


def test_recon_double_critical_failure_confuses_both_in_an_encounter_battle():
    """gurps §A.4.4: both critically fail -> encounter battle, both confused."""
    result = recon_contest(ScriptedDice([6, 6, 6, 6, 6, 6]), ([("b", 10)], [("b", 10)]), 6)
    assert (result.result, result.kind, result.confused) == (DOUBLE_CRITICAL_FAILURE, ENCOUNTER,
                                                             (0, 1))  # fmt: skip


def test_recon_ambush_confuses_the_loser():
    """gurps §A.4.4: Ambush -> the enemy is confused whatever kind of battle."""
    result = recon_contest(ScriptedDice([1, 1, 1, 6, 6, 5]), ([("b", 10)], [("b", 10)]), 8)
    assert (result.result, result.confused) == (AMBUSH, (1,))
    assert confused_after_kind(AMBUSH, 0, PITCHED) == (1,)
    assert confused_after_kind(SURPRISE, 1, ENCOUNTER) == (0,)
    assert confused_after_kind(SURPRISE, 1, PITCHED) == ()
    assert confused_after_kind(INITIATIVE, 1, ENCOUNTER) == ()


def test_initiative_winner_may_avoid_a_camped_or_slower_enemy():
    """gurps §A.4.4: withdraw if the enemy is camped or mobile at speed ≤ the winner's."""
    fast, slow = force(row("c"), speed=20), force(row("i"), speed=10)
    assert may_avoid_battle(fast, slow)
    assert not may_avoid_battle(slow, fast)
    assert may_avoid_battle(slow, force(row("i"), speed=30, mobile=False))


def test_initial_intelligence_precision():
    """gurps §A.5.1, §A.4.4: confused nothing; pitched exact; encounter ±20 % per mobility
    class; the initiative holder ±25 % composition; bad weather/night hides exact numbers."""
    enemy = force(row("hi", 4, 10), row("cav", 3, 5, mobility="mounted"))
    assert initial_intelligence(enemy, kind=PITCHED, confused=True, initiative=True,
                                obscured=False) == {"precision": "none"}  # fmt: skip
    exact = initial_intelligence(enemy, kind=PITCHED, confused=False, initiative=False,
                                 obscured=False)  # fmt: skip
    assert exact["elements"] == {"hi": 10, "cav": 5}
    rough = initial_intelligence(enemy, kind=ENCOUNTER, confused=False, initiative=True,
                                 obscured=False)  # fmt: skip
    assert rough["by_mobility"] == {"foot": [8, 12], "mounted": [4, 6]}
    assert rough["initiative_estimate"]["elements"] == {"hi": [7, 13], "cav": [3, 7]}
    night = initial_intelligence(enemy, kind=PITCHED, confused=False, initiative=False,
                                 obscured=True)  # fmt: skip
    assert night["precision"] == "approx_20"


def test_bsm_adds_relative_ts_superiority_and_casualties():
    """gurps §A.5.2 [errata p. 31]: +2 relative TS and +1 Fire superiority -> +3; −1 per 5 %."""
    a = force(row("hi", 4, 10), row("bow", 2, 5, classes=["F"]))
    b = force(row("hi", 4, 6), row("bow", 2, 2, classes=["F"]))
    sups = superiorities((a, b), ["F", "Air"], encounter=False)
    ts = (Fraction(50), Fraction(28))
    assert bsm_terms(ts, 0, sups, 0) == [("bsm.relative_ts", 2), ("bsm.superiority.F", 1)]
    assert bsm_terms(ts, 0, sups, 15)[-1] == ("bsm.casualties", -3)
    assert bsm_terms(ts, 1, sups, 0) == []


def test_defense_bonus_holder():
    """gurps §A.5.4: pitched -> initiative holder; encounter -> a camped force."""
    assert defense_bonus_side(PITCHED, 1, (True, False)) == [1]
    assert defense_bonus_side(PITCHED, None, (True, False)) == []
    assert defense_bonus_side(ENCOUNTER, 0, (False, True)) == [1]


@pytest.mark.parametrize(
    ("terrain", "die", "db"),
    [("plains", None, 1), ("woodlands", 1, 1), ("woodlands", 3, 2), ("woodlands", 6, 3),
     ("hills", 4, 3), ("mountains", 5, 5), ("urban", 1, 3)],
)  # fmt: skip
def test_defense_bonus_size(terrain, die, db):
    """gurps §A.5.4: plains +1; else 1d/2 (round up [inferred]); +1 hills, +2 mountains/urban."""
    dice = ScriptedDice([die] if die else [])
    assert roll_defense_bonus(dice, terrain)[0] == db
