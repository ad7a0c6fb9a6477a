"""§7.6 Victory and defeat: the Warfare / Defense kingdom check after a war encounter, its
effects at all four degrees, the players' weary-or-shaken choice, and §7.7 (the PCs' own fight
improves or worsens the degree by one).

The kingdom: level 3, 12 hexes, Control DC 17 (§10.4: 16 + 1 size), Warfare +7, Defense +7.
So with a typed d20: 20 -> 27 critical success; 10 -> 17 success; 5 -> 12 failure; a natural 1
-> 8, a failure made critical by the natural 1 (§0.1)."""

from dataclasses import replace

import pytest

from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.pf2e.activities.state import (
    DESTROYED,
    KingdomState,
    new_army_state,
)
from warfare.engine.systems.pf2e.armies import new_basic_spec
from warfare.engine.systems.pf2e.battle.aftermath import (
    kingdom_check_stats,
    resolve_kingdom_check,
)
from warfare.engine.systems.pf2e.kingdom import default_skills
from warfare.engine.systems.pf2e.tables import ArmyType

SKILLS = {**default_skills(), "warfare": {"modifier": 7, "rank": "trained"},
          "defense": {"modifier": 7, "rank": "trained"}}  # fmt: skip
KINGDOM = KingdomState(level=3, control_dc=17, skills=SKILLS, unrest=2)


def _army(key, hp):
    """A level 3 infantry army (§1.2: max HP 4) at `hp`."""
    return replace(new_army_state(key, new_basic_spec(ArmyType.INFANTRY, 3, ()), "A1"), hp=hp)


def _armies():
    """a1 damaged (2/4), a2 unhurt (4/4), a3 defeated (0/4), a4 destroyed."""
    gone = replace(_army("a4", 1), status=DESTROYED)
    return [_army("a1", 2), _army("a2", 4), _army("a3", 0), gone]


def _resolve(result, die, *, dice=(), **kw):
    kw.setdefault("took_damage", ["a1", "a3", "a4"])
    scripted = ScriptedDice(dice)
    outcome = resolve_kingdom_check(result=result, kingdom=KINGDOM, armies=_armies(),
                                    dice=scripted, typed_die=die, **kw)  # fmt: skip
    assert not isinstance(outcome, list), outcome
    assert scripted.remaining == ()
    return outcome


def _hp(outcome):
    return {army.key: army.hp for army in outcome.armies}


def _conditions(outcome):
    return {army.key: dict(army.spec.condition_values) for army in outcome.armies}


def test_the_check_is_warfare_or_defense_against_the_control_dc():
    """§7.6: victory -> Warfare, defeat -> Defense; DC = the kingdom's Control DC (§10.4)."""
    assert _armies()[0].max_hp == 4
    skill, modifier, dc = kingdom_check_stats("victory", KINGDOM)
    assert (skill, modifier.value, dc.value) == ("warfare", 7, 17)
    assert modifier.breakdown == (("skill.warfare", 7),)
    assert dc.breakdown == (("control_dc", 17),)
    assert kingdom_check_stats("defeat", KINGDOM)[0] == "defense"
    outcome = _resolve("victory", 10)
    check = outcome.check.to_dict()
    assert (check["die"], check["source"], check["total"], check["degree"]) == (
        10, "typed", 17, "success",
    )  # fmt: skip
    assert check["dc"] == {"value": 17, "breakdown": [["control_dc", 17]], "ignored": []}


def test_victory_critical_success_heals_damaged_armies_and_promises_fame_next_turn():
    """§7.6 Victory CS: every damaged army regains 1 HP (a1 2 -> 3; the defeated a3 and the
    destroyed a4 are not "damaged"); next Kingdom turn: +1 Fame/Infamy, Unrest -1 — not now."""
    outcome = _resolve("victory", 20)
    assert outcome.degree.code == "critical_success"
    assert _hp(outcome) == {"a1": 3, "a2": 4, "a3": 0, "a4": 1}
    assert outcome.next_turn == {"fame": 1, "unrest": -1}
    assert outcome.kingdom.unrest == 2
    assert "battle.next_turn_effects" in [event.code for event in outcome.events]


def test_victory_success_heals_damaged_armies():
    """§7.6 Victory success: every damaged army regains 1 HP; nothing else."""
    outcome = _resolve("victory", 10)
    assert outcome.degree.code == "success"
    assert _hp(outcome) == {"a1": 3, "a2": 4, "a3": 0, "a4": 1}
    assert outcome.next_turn == {} and outcome.kingdom == KINGDOM


def test_victory_failure_changes_nothing():
    """§7.6 Victory failure: a hard-fought battle, no extra effect."""
    outcome = _resolve("victory", 5)
    assert outcome.degree.code == "failure"
    assert outcome.armies == tuple(_armies())
    assert outcome.kingdom == KINGDOM


def test_victory_critical_failure_weary_or_shaken_1_for_armies_that_took_damage():
    """§7.6 Victory CF (a natural 1: 8 vs 17, failure worsened): each army that took damage
    gets weary +1 or shaken +1, the players' choice (a1 shaken, a3 unsaid: weary); a2 took
    none; the destroyed a4 gets nothing."""
    outcome = _resolve("victory", 1, choices={"a1": "shaken"})
    assert outcome.check.rolled.code == "critical_failure"
    assert _conditions(outcome) == {"a1": {"shaken": 1}, "a2": {}, "a3": {"weary": 1}, "a4": {}}
    assert outcome.kingdom.unrest == 2


def test_defeat_critical_success_restores_defeated_and_one_chosen_damaged_army():
    """§7.6 Defeat CS: all defeated armies return to 1 HP (a3 0 -> 1, no longer defeated),
    and one damaged army of the players' choice regains 1 HP (a1 2 -> 3); no Unrest."""
    outcome = _resolve("defeat", 20, regain="a1")
    assert outcome.degree.code == "critical_success"
    assert _hp(outcome) == {"a1": 3, "a2": 4, "a3": 1, "a4": 1}
    assert not outcome.armies[2].defeated
    assert outcome.kingdom.unrest == 2


def test_defeat_success_one_damaged_army_regains_hp_and_unrest_1():
    """§7.6 Defeat success: one damaged army of your choice regains 1 HP; Unrest +1 (2 -> 3).
    Without a (valid) choice, the damaged army with the fewest HP is taken."""
    outcome = _resolve("defeat", 10, regain="a1")
    assert outcome.degree.code == "success"
    assert _hp(outcome) == {"a1": 3, "a2": 4, "a3": 0, "a4": 1}
    assert outcome.kingdom.unrest == 3
    unchosen = _resolve("defeat", 10, regain="a2")  # a2 is not damaged
    assert _hp(unchosen)["a1"] == 3
    assert any(e.code == "battle.aftermath_choice" and e.params["chosen"] is False
               for e in unchosen.events)  # fmt: skip


def test_defeat_failure_unrest_1():
    """§7.6 Defeat failure: Unrest +1."""
    outcome = _resolve("defeat", 5)
    assert outcome.degree.code == "failure"
    assert outcome.kingdom.unrest == 3
    assert outcome.armies == tuple(_armies())


def test_defeat_critical_failure_weary_or_shaken_2_for_all_and_unrest_1d4():
    """§7.6 Defeat CF: every army that took part gets weary +2 or shaken +2 (players'
    choice; destroyed a4 is gone); Unrest +1d4 (a typed 3: 2 -> 5)."""
    outcome = _resolve("defeat", 1, typed_unrest=3, choices={"a2": "shaken"})
    assert outcome.degree.code == "critical_failure"
    assert _conditions(outcome) == {"a1": {"weary": 2}, "a2": {"shaken": 2},
                                    "a3": {"weary": 2}, "a4": {}}  # fmt: skip
    assert outcome.kingdom.unrest == 5
    unrest = [e for e in outcome.events if e.code == "kingdom.unrest"]
    assert unrest[0].params["roll"] == [3]
    rolled = _resolve("defeat", 1, dice=[4])  # the server's d4
    assert rolled.kingdom.unrest == 6


@pytest.mark.parametrize(
    ("result", "fight", "die", "rolled", "degree"),
    [
        ("victory", "won", 10, "success", "critical_success"),
        ("victory", "lost", 5, "failure", "critical_failure"),
        ("defeat", "won", 5, "failure", "success"),
        ("defeat", "lost", 10, "success", "failure"),
        ("victory", "won", 20, "critical_success", "critical_success"),
        ("defeat", "lost", 1, "critical_failure", "critical_failure"),
    ],
)
def test_the_pcs_own_fight_improves_or_worsens_one_degree(result, fight, die, rolled, degree):
    """§7.7: the PCs win their encounter -> one degree better; lose -> one worse (never past
    critical success / critical failure, §0.1)."""
    d4 = [2] if (result, degree) == ("defeat", "critical_failure") else []
    outcome = _resolve(result, die, pc_encounter=fight, dice=d4)
    assert outcome.check.rolled.code == rolled
    assert outcome.degree.code == degree
    assert outcome.check.adjustments == ((f"pc_encounter.{fight}", 1 if fight == "won" else -1),)


def test_bad_inputs_are_problems():
    problems = resolve_kingdom_check(
        result="victory", kingdom=KINGDOM, armies=_armies(), took_damage=[],
        dice=ScriptedDice([]), typed_die=21, pc_encounter="maybe",
        choices={"a1": "tired", "zz": "weary"}, regain="zz",
    )  # fmt: skip
    assert isinstance(problems, list)
    assert [p.code for p in problems] == [
        "battle.aftermath.bad_pc_encounter", "battle.aftermath.bad_choice",
        "battle.aftermath.unknown_army", "battle.aftermath.unknown_army", "dice.out_of_range",
    ]  # fmt: skip
