"""TS of forces, relative TS and class superiority (gurps §A.2.4, §A.5.2, §A.5.3)."""

from fractions import Fraction

import pytest

from tests.engine.gurps4e.helpers import force, row
from warfare.engine.systems.gurps4e.forces import (
    ElementType,
    applicable_classes,
    calculator,
    class_superiority,
    class_ts,
    force_problems,
    force_ts,
    relative_ts_bonus,
    superiority_step,
    takes_part,
)


def test_force_ts_counts_support_at_ten_percent_and_c3i_only_support_at_zero():
    """gurps §A.2.4 [errata p. 26]: support TS at 10 %, 0 if its sole class is C3I."""
    f = force(row("hi", 4, 10), row("art", 10, 2, support=True, classes=["Art"]),
              row("hq", 50, 1, support=True, classes=["C3I"]))  # fmt: skip
    assert force_ts(f) == 40 + 2  # 20 support TS at 10 %, HQ at 0
    assert force_ts(f, {"support_ts_in_total": "0"}) == 40  # v1.0 text


def test_class_ts_counts_support_at_full_value():
    """gurps §A.2.4 [errata p. 21]: support TS counts fully for class superiority."""
    f = force(row("art", 10, 2, support=True, classes=["Art"]), row("hi", 4, 10))
    assert class_ts(f, "Art") == 20


@pytest.mark.parametrize(
    ("troop", "equipment", "expected"),
    [("inferior", "average", 2), ("average", "average", 4), ("good", "good", 9),
     ("elite", "fine", 16), ("average", "poor", 2)],
)  # fmt: skip
def test_quality_multipliers(troop, equipment, expected):
    """gurps §A.2.4 [impl]: troop ×0.5/1/1.5/2, equipment ×0.5/1/1.5/2."""
    f = force(row("hi", 4, 1, troop_quality=troop, equipment_quality=equipment))
    assert force_ts(f) == expected


def test_circumstance_multiplier_doubles_or_halves():
    """gurps §A.2.4: GM-entered ×2 / ×½ per element per battle."""
    assert force_ts(force(row("hi", 4, 2, circumstance="1/2"))) == 4
    assert force_ts(force(row("hi", 4, 2, circumstance=2))) == 16


@pytest.mark.parametrize(
    ("larger", "smaller", "bonus"),
    [(149, 100, 0), (150, 100, 2), (199, 100, 2), (200, 100, 4), (299, 100, 4), (300, 100, 6),
     (499, 100, 6), (500, 100, 8), (699, 100, 8), (700, 100, 10), (999, 100, 10),
     (1000, 100, 12), (1499, 100, 12), (1500, 100, 14), (1999, 100, 14), (2000, 100, 16),
     (2999, 100, 16), (3000, 100, 18), (4999, 100, 18), (5000, 100, 20), (9000, 100, 20),
     (100, 100, 0)],
)  # fmt: skip
def test_relative_ts_table_boundaries(larger, smaller, bonus):
    """gurps §A.5.2: 1.5:1 +2, 2:1 +4, 3:1 +6, 5:1 +8, 7:1 +10, 10:1 +12, 15:1 +14, 20:1 +16,
    30:1 +18, 50:1 +20; above 50:1 stays +20 [inferred]."""
    assert relative_ts_bonus(Fraction(larger), Fraction(smaller)) == bonus


@pytest.mark.parametrize(("ratio", "bonus"), [("199/100", 0), (2, 1), ("299/100", 1), (3, 2),
                                              ("499/100", 2), (5, 3), (40, 3)])  # fmt: skip
def test_superiority_ratio_steps(ratio, bonus):
    """gurps §A.5.3: < 2:1 +0, 2:1 +1, 3:1 +2, 5:1 +3."""
    assert superiority_step(Fraction(ratio)) == bonus


def test_superiority_only_one_side_has_the_class_gives_three():
    """gurps §A.5.3 item 3: only one side has the class -> +3."""
    ours = force(row("cav", 3, 10, classes=["Cav"]))
    theirs = force(row("hi", 4, 10))
    result = class_superiority("Cav", ours, theirs)
    assert (result.holder, result.bonus, result.code) == (0, 3, "only_side")


def test_superiority_neither_or_equal_gives_nothing():
    """gurps §A.5.3 item 1-2: no class on either side, or equal class TS -> no bonus."""
    a, b = force(row("cav", 3, 2, classes=["Cav"])), force(row("cav", 3, 2, classes=["Cav"]))
    assert class_superiority("Cav", a, b).bonus == 0
    assert class_superiority("Air", a, b).code == "none"


@pytest.mark.parametrize(("ours", "bonus"), [(19, 0), (20, 1), (30, 2), (50, 3)])
def test_superiority_by_ratio_goes_to_the_larger_side(ours, bonus):
    """gurps §A.5.3 item 2: the ratio larger ÷ smaller of class TS."""
    a = force(row("f", 1, ours, classes=["F"]))
    b = force(row("f", 1, 10, classes=["F"]))
    assert class_superiority("F", a, b).bonus == bonus
    assert class_superiority("F", b, a).holder == 1


def test_one_percent_rule_denies_a_bonus_even_if_the_enemy_has_none():
    """gurps §A.5.3 item 4: class TS < 1 % of the enemy's total TS -> bonus 0."""
    enemy = force(row("hi", 4, 250))  # TS 1000
    assert class_superiority("Air", force(row("air", "9.9", 1, classes=["Air"])), enemy).bonus == 0
    assert class_superiority("Air", force(row("air", 10, 1, classes=["Air"])), enemy).bonus == 3


def test_neutralizers_deny_but_never_give_a_bonus():
    """gurps §A.5.3 item 6: air defence prevents enemy air superiority, never yields it."""
    air = force(row("air", 10, 2, classes=["Air"]))
    aa = force(row("aa", 10, 1, neutralizes=["Air"]), row("hi", 4, 10))
    assert class_superiority("Air", air, aa).bonus == 1  # 20 : 10 neutralizer TS
    strong_aa = force(row("aa", 10, 5, neutralizes=["Air"]))
    result = class_superiority("Air", air, strong_aa)
    assert (result.bonus, result.code) == (0, "neutralized")
    assert class_superiority("Air", strong_aa, air).holder == 1
    withheld = class_superiority("Air", air, strong_aa, neutralize=(True, False))
    assert withheld.bonus == 3


def test_encounter_battle_reduces_air_art_c3i_superiority():
    """gurps §A.5.3 item 7 [impl]: -1 (min 0) to Air, Art, C3I in an encounter battle."""
    a = force(row("art", 10, 1, classes=["Art"]), row("cav", 1, 10, classes=["Cav"]))
    b = force(row("hi", 4, 1))
    assert class_superiority("Art", a, b, encounter=True).bonus == 2
    assert class_superiority("Cav", a, b, encounter=True).bonus == 3


def test_calculator_shows_its_working_and_bsm_parts_add_up():
    """gurps §A.5.2 [errata p. 31]: relative TS +2 and Fire superiority +1 add up to +3."""
    a = force(row("hi", 4, 10), row("bow", 2, 5, classes=["F"]))  # TS 50, F 10
    b = force(row("hi", 4, 6), row("bow", 2, 2, classes=["F"]))  # TS 28, F 4
    working = calculator(a, b)
    assert working["relative_ts"] == {"code": "relative_ts", "holder": 0, "ratio": 1.7857,
                                      "bonus": 2}  # fmt: skip
    fire = next(s for s in working["superiority"] if s["cls"] == "F")
    assert (fire["bonus"], fire["ratio"]) == (1, 2.5)
    assert working["bsm_before_casualties"] == [3, 0]
    assert working["forces"][0]["value"] == 50
    assert [t["ts"] for t in working["forces"][0]["terms"]] == [40, 10]
    assert working["class_ts"][1] == {"F": 4}


def test_applicable_classes_by_battle_type():
    """gurps §A.2.2: land classes always; naval/air defaults [inferred]; GM extras."""
    assert applicable_classes("land") == ("Air", "Arm", "Art", "C3I", "Cav", "F")
    assert applicable_classes("land", ["Rec"])[-1] == "Rec"
    assert applicable_classes("air") == ("Air", "C3I", "F")
    assert "Nav" in applicable_classes("naval")


def test_force_problems_report_bad_input_as_codes():
    """gurps §A.2.1: element fields are validated (codes, no prose)."""
    assert force_problems({"rows": []}, "a")[0].code == "gurps4e.setup.force_without_elements"
    codes = {
        p.code
        for p in force_problems(
            {"rows": [row("x", 1, 1, classes=["Magic"], troop_quality="heroic")]}, "a"
        )
    }
    assert codes == {"gurps4e.setup.unknown_class", "gurps4e.setup.bad_troop_quality"}
    assert force_problems("nope", "a")[0].code == "gurps4e.setup.bad_force"


@pytest.mark.parametrize(
    ("element", "land", "naval", "air", "amphibious"),
    [({"mobility": "foot"}, True, False, False, True),
     ({"mobility": "fast_air"}, True, True, True, True),
     ({"mobility": "naval"}, False, True, False, True),
     ({"mobility": "foot", "neutralizes": ["Nav"]}, True, True, False, True),
     ({"mobility": "foot", "neutralizes": ["Air"]}, True, False, True, True),
     ({"mobility": "foot", "classes": ["Air"]}, True, True, True, True)],
)  # fmt: skip
def test_who_takes_part_by_battle_type(element, land, naval, air, amphibious):
    """gurps §A.3.1: land: land + air elements; naval: naval, Nav neutralizers, air; air: air
    and Air neutralizers; amphibious: any."""
    kind = ElementType.from_dict({"key": "x", **element})
    assert [takes_part(kind, t) for t in ("land", "naval", "air", "amphibious")] == [
        land, naval, air, amphibious]  # fmt: skip


@pytest.mark.parametrize(("tl", "ts"), [(None, 1), (2, 1), (3, 2), (4, 4), (5, 8), (1, 1)])
def test_starred_ts_doubles_per_tl_above_the_listed_one(tl, ts):
    """gurps §A.2.1: Light Artillery TS (1) at TL2, (2) at TL3, (4) at TL4, (8) at TL5."""
    kind = {"key": "la", "ts": 1, "tl": 2, "doubles_per_tl": True, "support": True,
            "classes": ["Art"]}  # fmt: skip
    f = force({"type": kind, "count": 1, "tl": tl})
    assert class_ts(f, "Art") == ts
    assert force_ts(f) == Fraction(ts, 10)  # support TS at 10 %
    plain = force({"type": {**kind, "doubles_per_tl": False}, "count": 1, "tl": tl})
    assert class_ts(plain, "Art") == 1
