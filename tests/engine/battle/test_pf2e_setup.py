"""War encounter setup (pf2e §7.1-§7.5, §7.7): validation, initiative, starting positions,
fortifications."""

from tests.engine.battle.helpers import CAV, INF, SIE, SKI, army, begin, codes, setup
from warfare.engine.systems.pf2e.battle import SYSTEM, validate_setup
from warfare.engine.systems.pf2e.house_rules import house_value


def _roll(state, key):
    return next(roll for roll in state.initiative if roll.army == key)


def test_initiative_is_a_scouting_check_with_its_modifiers():
    """§7.3 step 1: Scouting (level 3: +9); Keen Eyed +2 status; Offensive Gambit +2
    circumstance (§4.5); darkness -4 circumstance unless darkvision (§7.4)."""
    state = begin(
        [army("a1", tactics=("keen_eyed",), initiative_bonus=2),
         army("a2", tactics=("darkvision",))],
        [army("b1")],
        terrain=("darkness",),
        initiative={"a1": 10, "a2": 10, "b1": 10},
    )  # fmt: skip
    a1, a2, b1 = (_roll(state, key) for key in ("a1", "a2", "b1"))
    assert dict(a1.breakdown) == {
        "level": 9, "tactic.keen_eyed": 2, "offensive_gambit": 2, "terrain.darkness": -4,
    }  # fmt: skip
    # 9 + 2 status + 2 circumstance bonus - 4 circumstance penalty (PF2e: the best bonus
    # and the worst penalty of each type both count).
    assert a1.total == 10 + 9
    assert a2.total == 10 + 9  # darkvision ignores darkness
    assert b1.total == 10 + 9 - 4
    assert a1.source == "typed"


def test_initiative_order_is_descending_and_ties_go_to_the_enemies_of_the_pcs():
    """§7.3 step 1; tie-break [inferred] PF2e: enemies of the PCs act first."""
    assert house_value("battle.initiative_ties_enemies_of_pcs_first") == 1
    state = begin(
        [army("a1"), army("a2")], [army("b1"), army("b2")],
        initiative={"a1": 12, "a2": 5, "b1": 12, "b2": 18},
    )  # fmt: skip
    assert state.order == ("b2", "b1", "a1", "a2")
    assert state.current == "b2"
    assert state.actions_left == 3
    assert codes(state.opening)[:2] == ["battle.started", "battle.initiative"]


def test_setup_problems():
    keep = {"key": "keep", "kind": "keep", "side": "k"}
    bad = setup([army("a1", fortification="keep")], [army("b1")], fortifications=[keep],
                terrain=("lava",))  # fmt: skip
    found = [problem.code for problem in validate_setup(bad)]
    assert found == ["battle.setup.unknown_terrain", "battle.setup.fortification_needs_garrison"]
    tower = {"key": "t", "kind": "tower", "side": "k"}
    full = setup(
        [army("a1", fortification="t", garrisoned=True),
         army("a2", fortification="t", garrisoned=True)],
        [army("b1")], fortifications=[tower],
    )  # fmt: skip
    assert [p.code for p in validate_setup(full)] == ["battle.setup.fortification_full"]
    typed = setup([army("a1")], [army("b1")], initiative={"a1": 21})
    assert [p.code for p in validate_setup(typed)] == ["dice.out_of_range"]
    twice = setup([army("a1")], [army("a1")])
    assert [p.code for p in validate_setup(twice)] == ["battle.setup.duplicate_army_key"]


def test_garrisoned_army_in_a_keep_is_fortified():
    """§7.5: a garrisoned army occupies the fortification, fortified: +4 item AC (§9)."""
    keep = {"key": "keep", "kind": "keep", "side": "k"}
    state = begin(
        [army("a1", fortification="keep", garrisoned=True)], [army("b1")], fortifications=[keep]
    )
    assert state.fortification("keep").ac == 25 and state.fortification("keep").hp == 5
    assert "fortified" in state.army("a1").army.spec.condition_values
    from warfare.engine.systems.pf2e.battle.rules import effective_block

    assert effective_block(state, "a1").ac.value == 19 + 4


def test_shots_come_from_the_stat_block():
    """§1.1: 5 shots per encounter, +2 per Increased Ammunition (§6.1)."""
    state = begin([army("s1", SIE, 7, ("increased_ammunition",))], [army("b1")])
    assert state.army("s1").shots == 7
    assert state.army("b1").shots == 0


def test_opening_salvo_starts_distant_only_when_acting_first():
    """§6.1 Opening Salvo: in round 1, if it acts before every enemy, it may start distant."""
    ours = [army("c1", CAV, 8, ("opening_salvo",), start="distant")]
    state = begin(ours, [army("b1")], initiative={"c1": 15, "b1": 1})
    assert state.army("c1").position == "distant"
    state = begin(ours, [army("b1", INF, 8)], initiative={"c1": 1, "b1": 20})
    assert state.army("c1").position == "near"
    assert "battle.start_refused" in codes(state.opening)


def test_ambush_starts_engaged_with_a_bonus_to_the_first_attack():
    """§6.1 Ambush: acting before every enemy, start engaged with one; +2 status to its first
    attack against it in round 1."""
    from warfare.engine.systems.pf2e.battle.actions import strike_modifier

    ours = [army("s1", SKI, 8, ("ambush",), start="engaged", start_target="b1")]
    state = begin(ours, [army("b1", INF, 8)], initiative={"s1": 20, "b1": 1})
    assert state.is_engaged("s1", "b1")
    modifier = strike_modifier(state, "s1", "melee", target="b1")
    assert dict(modifier.breakdown)["tactic.ambush"] == 2


def test_start_events_are_the_opening():
    state = SYSTEM.start(setup([army("a1")], [army("b1")]), 3)
    assert SYSTEM.start_events(state) == list(state.opening)
    assert codes(state.opening)[-2:] == ["battle.round_started", "battle.turn_started"]
