"""Rules as functions: isolation, attack modifiers, overflow damage, morale, rally, VP,
the end of the battle and the balance hint (dnd5e §4.6, §5.4, §6, §7)."""

from dataclasses import replace

import pytest

from tests.engine.dnd5e.helpers import begin, setup, unit
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.dnd5e.grid import Square
from warfare.engine.systems.dnd5e.rules import (
    attack_profile,
    balance_hint,
    damage_solo,
    damage_stand,
    death_saves,
    end_band,
    is_isolated,
    morale_modifier,
    score_objectives,
    wisdom_save,
)

ENEMY = unit("b1", "hobgoblin", [(11, 7)])


def _state(a_units, b_units=(ENEMY,), **kw):
    return begin(setup(a_units, list(b_units), **kw))


# --- isolation (§4.6) ----------------------------------------------------------------------------


def test_regiment_stand_is_isolated_unless_orthogonally_adjacent():
    """dnd5e §4.6: a regiment stand not adjacent to another stand of its unit is isolated;
    a diagonal neighbour does not count (§3)."""
    state = _state([unit("a1", "orc", [(1, 1), (1, 2), (2, 3)])])
    assert not is_isolated(state, "a1.1")
    assert not is_isolated(state, "a1.2")
    assert is_isolated(state, "a1.3")


def test_skirmisher_stand_within_one_square():
    """dnd5e §4.2/§4.6: a skirmisher stand is isolated only when more than 1 square from
    every other stand of its unit (one square between them, or a diagonal, is fine)."""
    state = _state([unit("a1", "goblin", [(1, 1), (2, 2), (2, 4), (2, 7)], kind="skirmisher")])
    assert not is_isolated(state, "a1.1")
    assert not is_isolated(state, "a1.2")
    assert not is_isolated(state, "a1.3")
    assert is_isolated(state, "a1.4")


def test_unattached_solo_needs_an_allied_stand_within_one_square():
    """dnd5e §4.4/§4.6: an unattached solo more than 1 square from every allied stand (of
    any unit) is isolated."""
    solos = [{"key": "near", "creature": "knight", "pos": [1, 3]},
             {"key": "far", "creature": "knight", "pos": [6, 6]}]  # fmt: skip
    state = _state([unit("a1", "orc", [(1, 1)])], a_solos=solos)
    assert not is_isolated(state, "near")
    assert is_isolated(state, "far")


# --- attack modifiers (§5.4) ---------------------------------------------------------------------


def test_isolation_gives_advantage_double_damage_and_disadvantage():
    """dnd5e §4.6: attacks against an isolated stand have advantage and deal double damage;
    an isolated stand attacks with disadvantage."""
    enemies = [unit("b1", "hobgoblin", [(2, 1), (4, 1)])]
    state = _state([unit("a1", "orc", [(1, 1), (1, 2)])], enemies)
    profile = attack_profile(state, "a1.1", 5, True, "b1.1")
    assert profile.advantage == ("target_isolated",) and profile.double_damage
    back = attack_profile(state, "b1.1", 3, True, "a1.1")
    assert back.disadvantage == ("attacker_isolated",) and not back.double_damage
    assert back.mode == -1


def test_high_ground_gives_advantage_to_melee_only():
    """dnd5e §4.7: advantage on melee attacks against targets at lower elevation."""
    squares = [{"x": 1, "y": 1, "elevation": 1}]
    state = _state([unit("a1", "orc", [(1, 1), (1, 0)])],
                   [unit("b1", "hobgoblin", [(2, 1), (2, 0)])], squares=squares)  # fmt: skip
    assert attack_profile(state, "a1.1", 5, True, "b1.1").advantage == ("high_ground",)
    assert attack_profile(state, "a1.1", 5, False, "b1.1").advantage == ()
    assert attack_profile(state, "b1.1", 3, True, "a1.1").advantage == ()


def test_defend_and_forest_raise_ac_by_two_each():
    """dnd5e §4.3: Defend gives +2 AC; §4.7: a stand in forest has half cover (+2, §2)."""
    squares = [{"x": 3, "y": 1, "terrain": "forest"}]
    state = _state([unit("a1", "orc", [(1, 1), (1, 2)])],
                   [unit("b1", "hobgoblin", [(3, 1), (3, 2)], configuration="defend")],
                   squares=squares)  # fmt: skip
    profile = attack_profile(state, "a1.1", 5, False, "b1.1")
    assert profile.ac == 18 + 2 + 2
    assert profile.ac_terms == (("ac", 18), ("defend", 2), ("half_cover", 2))
    assert attack_profile(state, "a1.1", 5, False, "b1.2").ac == 20


def test_incite_hidden_aid_and_long_range():
    """dnd5e §4.5 Incite and §4.3 Aid give advantage; a hidden attacker has advantage and a
    hidden target imposes disadvantage (§2); long range imposes disadvantage (§2)."""
    state = _state([unit("a1", "orc", [(1, 1), (1, 2)])],
                   [unit("b1", "hobgoblin", [(6, 1), (6, 2)])])  # fmt: skip
    state = state.put(replace(state.unit("a1"), incited=1))
    state = state.put(replace(state.stand("a1.1"), hidden=True))
    state = state.put(replace(state.stand("b1.1"), hidden=True))
    profile = attack_profile(state, "a1.1", 5, False, "b1.1", long_range=True, aided=True)
    assert profile.advantage == ("aid", "incite", "hidden")
    assert profile.disadvantage == ("target_hidden", "long_range")
    assert profile.mode == 0  # any number of each cancel (§2)


def test_destruction_square_is_hit_automatically_by_melee_only():
    """dnd5e §7.1/§10 item 6: melee attacks hit a Destruction square automatically; ranged
    roll against its AC (house default 15); the seed's variant auto-hits everything."""
    objective = {"key": "gate", "type": "destruction", "side": "a",
                 "squares": [{"x": 2, "y": 1, "hp": 30, "vp": 2}]}  # fmt: skip
    state = _state([unit("a1", "orc", [(1, 1), (1, 2)])], objectives=[objective])
    assert attack_profile(state, "a1.1", 5, True, "sq:2:1").auto_hit
    ranged = attack_profile(state, "a1.1", 5, False, "sq:2:1")
    assert not ranged.auto_hit and ranged.ac == 15
    seeded = replace(state, options=replace(state.options, seed_autohit=True))
    assert attack_profile(seeded, "a1.1", 5, False, "sq:2:1").auto_hit


# --- damage (§6.1) -------------------------------------------------------------------------------


def _three_orcs():
    return _state([unit("a1", "orc", [(1, 1), (1, 2), (1, 3)]),
                   unit("a2", "ogre", [(2, 2)])])  # fmt: skip


def test_overflow_passes_to_an_adjacent_identical_stand_and_chains():
    """dnd5e §6.1: damage beyond a stand's HP (orc 15) passes to an adjacent identical stand
    of the same unit, and on [inferred]; a stand at 0 HP is a casualty, never below 0."""
    state, events = damage_stand(_three_orcs(), "a1.1", 40)
    hp = [state.stand(k).hp for k in ("a1.1", "a1.2", "a1.3")]
    assert hp == [0, 0, 5]
    assert [state.stand(k).casualty for k in ("a1.1", "a1.2", "a1.3")] == [True, True, False]
    assert [e.params["amount"] for e in events if e.code == "dnd5e.overflow"] == [25, 10]
    assert state.stand("a2.1").hp == 59  # an ogre is not identical to an orc


def test_overflow_target_is_the_attackers_choice():
    """dnd5e §6.1 [inferred]: the attacker picks which adjacent identical stand."""
    state = _state([unit("a1", "orc", [(1, 1), (1, 2), (2, 1)])])
    state, _ = damage_stand(state, "a1.1", 20, ("a1.3",))
    assert (state.stand("a1.2").hp, state.stand("a1.3").hp) == (15, 10)


def test_casualty_counts_as_one_hit_point():
    """dnd5e §6.1: a casualty acts on as if at 1 HP; further damage to it overflows."""
    state, _ = damage_stand(_three_orcs(), "a1.1", 15)
    assert state.stand("a1.1").casualty and state.stand("a1.2").hp == 15
    state, _ = damage_stand(state, "a1.1", 6)
    assert state.stand("a1.2").hp == 10
    assert state.stand("a1.1").hp == 0


def test_solo_dying_and_death_saves():
    """dnd5e §2: a PC at 0 HP is dying; damage at 0 HP is one failed save (a critical two);
    a monster dies at 0 HP. §6.2: up to ten saves one after another."""
    solos = [{"key": "pc", "creature": "knight", "pc": True, "pos": [1, 3]},
             {"key": "npc", "creature": "knight", "pos": [1, 5]}]  # fmt: skip
    state = _state([unit("a1", "orc", [(1, 1)])], a_solos=solos)
    state, _ = damage_solo(state, "pc", 60, False)
    assert state.solo("pc").dying
    state, _ = damage_solo(state, "pc", 3, True)
    assert state.solo("pc").death_failures == 2
    state, _ = damage_solo(state, "npc", 52, False)
    assert state.solo("npc").dead
    pc = replace(state.solo("pc"), death_failures=0)
    saved, rolls = death_saves(pc, ScriptedDice([12, 5, 15, 10]), 10)
    assert saved.stable and [r["die"] for r in rolls] == [12, 5, 15, 10]
    revived, _ = death_saves(pc, ScriptedDice([20]), 10)
    assert revived.hp == 1
    dead, _ = death_saves(pc, ScriptedDice([1, 4]), 10)
    assert dead.dead and dead.death_failures == 3
    one, rolls = death_saves(pc, ScriptedDice([12]), 1)  # the seed's one save (§10 item 5)
    assert len(rolls) == 1 and one.death_successes == 1


# --- morale and rally (§6.2, §6.3) ---------------------------------------------------------------


def test_morale_uses_the_highest_wisdom_save_of_stands_and_joined_solos():
    """dnd5e §6.2: DC 10 Wisdom saving throw with the highest Wisdom modifier among the
    unit's stands and joined solos; a knight's Wis save is +2, an orc's +0. The seed's
    Wisdom check (§10 item 2) uses the modifier (knight +0)."""
    solos = [{"key": "sir", "creature": "knight", "joined": "a1.2"}]
    state = _state([unit("a1", "orc", [(1, 1), (1, 2)])], a_solos=solos)
    assert morale_modifier(state, "a1") == (2, "sir")
    ok = wisdom_save(state, "a1", ScriptedDice([8]), "morale")
    assert (ok["total"], ok["dc"], ok["success"]) == (10, 10, True)
    assert not wisdom_save(state, "a1", ScriptedDice([7]), "morale")["success"]
    seeded = replace(state, options=replace(state.options, seed_morale_check=True))
    assert morale_modifier(seeded, "a1")[0] == 0


def test_prepared_unit_saves_with_advantage():
    """dnd5e §4.5 Prepare: advantage on all saving throws (so on morale, §10 item 2)."""
    state = _state([unit("a1", "orc", [(1, 1)])])
    state = state.put(replace(state.unit("a1"), prepared=2))
    record = wisdom_save(state, "a1", ScriptedDice([3, 15]), "morale")
    assert record["die"] == 15 and record["success"]


def test_rally_adds_the_commanders_charisma():
    """dnd5e §6.3: a broken unit with a commander rolls DC 10 Wis (highest) + the
    commander's Charisma (knight +2) at the start of its turn."""
    solos = [{"key": "sir", "creature": "knight", "joined": "a1.1", "commander": True}]
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [ENEMY], a_solos=solos)
    state = begin(data)
    state = state.put(replace(state.unit("a1"), broken=True))
    from warfare.engine.systems.dnd5e.battle.engine import _start_of_turn
    from warfare.engine.systems.dnd5e.state import Turn

    state = replace(state, turn=Turn("a1"))
    events = []
    rallied = _start_of_turn(state, "a1", events, ScriptedDice([6]))
    assert events[0].params["total"] == 6 + 2 + 2 and not rallied.unit("a1").broken
    assert rallied.turn.bonus == ("sir",)
    events = []
    failed = _start_of_turn(state, "a1", events, ScriptedDice([5]))
    assert failed.unit("a1").broken and events[0].params["total"] == 9


# --- objectives and VP (§7) ----------------------------------------------------------------------


def test_attrition_scores_per_enemy_unit_eliminated_once():
    """dnd5e §7.1 Attrition: VP for each enemy unit eliminated (VP per unit set by the GM)."""
    objectives = [{"key": "kill", "type": "attrition", "side": "a", "vp": 3}]
    state = _state([unit("a1", "orc", [(1, 1)])],
                   [unit("b1", "goblin", [(5, 5)]), unit("b2", "goblin", [(7, 7)])],
                   objectives=objectives)  # fmt: skip
    state = state.put(replace(state.stand("b1.1"), gone="eliminated"))
    state, events = score_objectives(state)
    assert state.vp == {"a": 3, "b": 0} and events[0].params["vp"] == 3
    state, _ = score_objectives(state)
    assert state.vp["a"] == 3


def test_destruction_scores_each_square_or_all_or_nothing():
    """dnd5e §7.1/§10 item 7: each square at 0 HP scores its own VP (1-5); the seed's
    variant scores only when every square is at 0."""
    squares = [{"x": 5, "y": 1, "hp": 10, "vp": 2}, {"x": 5, "y": 2, "hp": 10, "vp": 3}]
    objectives = [{"key": "wall", "type": "destruction", "side": "a", "vp": 5,
                   "squares": squares}]  # fmt: skip
    state = _state([unit("a1", "orc", [(1, 1)])], objectives=objectives)
    wall = state.objectives[0]
    broken = replace(wall, squares=(replace(wall.squares[0], hp=0), wall.squares[1]))
    scored, _ = score_objectives(state.put(broken))
    assert scored.vp["a"] == 2
    seeded = replace(state, options=replace(state.options, seed_all_or_nothing=True))
    scored, _ = score_objectives(seeded.put(broken))
    assert scored.vp["a"] == 0
    both = replace(wall, squares=tuple(replace(s, hp=0) for s in wall.squares))
    scored, _ = score_objectives(seeded.put(both))
    assert scored.vp["a"] == 5


def _protection(b_positions, a_positions=((1, 1),), stands=2):
    objectives = [
        {"key": "bridge", "type": "destruction", "side": "a",
         "squares": [{"x": 5, "y": 4, "hp": 20, "vp": 5}]},
        {"key": "hold", "type": "protection", "side": "b", "paired": "bridge", "vp": 1},
    ]  # fmt: skip
    state = _state([unit("a1", "orc", list(a_positions))],
                   [unit("b1", "guard", list(b_positions))], objectives=objectives,
                   options={"protection_stands": stands})  # fmt: skip
    return score_objectives(state)[0].vp["b"]


def test_protection_needs_two_adjacent_stands_and_no_enemy_within_two_squares():
    """dnd5e §7.1 Protection: 1 VP at the end of a round with two or more stands adjacent to
    a square that still has HP and no enemy within 2 squares; the seed needs one (§10 #8)."""
    assert _protection([(4, 4), (6, 4)]) == 1
    assert _protection([(4, 4), (9, 7)]) == 0
    assert _protection([(4, 4), (9, 7)], stands=1) == 1
    assert _protection([(4, 4), (6, 4)], a_positions=[(5, 1)]) == 0  # 2 squares between: near
    assert _protection([(4, 4), (6, 4)], a_positions=[(5, 0)]) == 1


def test_custom_objective_scores_once_when_awarded():
    """dnd5e §7.1 Custom: the GM awards 1-5 VP for any condition."""
    objectives = [{"key": "flag", "type": "custom", "side": "b", "vp": 4}]
    state = _state([unit("a1", "orc", [(1, 1)])], objectives=objectives)
    state = state.put(replace(state.objectives[0], achieved=True))
    state, _ = score_objectives(state)
    state, _ = score_objectives(state)
    assert state.vp["b"] == 4


@pytest.mark.parametrize(
    ("a", "b", "band"),
    [(9, 0, None), (10, 7, ("total", "a")), (10, 8, ("tactical", "a")), (11, 10, ("tactical", "a")),
     (10, 10, ("draw", None)), (8, 12, ("total", "b"))],
)  # fmt: skip
def test_battle_end_bands(a, b, band):
    """dnd5e §7.3: the battle ends at 10+ VP: 3+ ahead total victory, 1-2 tactical, 0 draw."""
    assert end_band({"a": a, "b": b}, ("a", "b")) == band


def test_balance_hint():
    """dnd5e §7.2: at least five chances and 12-15 VP per side; a mirrored pair is even."""
    objectives = [
        {"type": "destruction", "side": "a", "squares": [{"vp": 2}] * 5},
        {"type": "custom", "side": "b", "vp": 10},
    ]
    hint = balance_hint(objectives, ("a", "b"))
    assert hint["sides"] == {"a": {"chances": 5, "vp": 10}, "b": {"chances": 1, "vp": 10}}
    codes = [(h["code"], h.get("side")) for h in hint["hints"]]
    assert codes == [("balance.low_vp", "a"), ("balance.few_chances", "b"),
                     ("balance.low_vp", "b")]  # fmt: skip


def test_destroyed_road_square_becomes_difficult():
    """dnd5e §4.7/§7.1: a road destroyed through a Destruction objective is difficult."""
    from warfare.engine.systems.dnd5e.battle.actions import Ctx, apply_damage

    objectives = [{"key": "road", "type": "destruction", "side": "a",
                   "squares": [{"x": 3, "y": 3, "hp": 10, "vp": 1}]}]  # fmt: skip
    state = _state([unit("a1", "orc", [(1, 1)])], objectives=objectives,
                   squares=[{"x": 3, "y": 3, "terrain": "road"}])  # fmt: skip
    state = apply_damage(state, "sq:3:3", 12, False, "slashing", Ctx(ScriptedDice(())))
    assert state.grid.at((3, 3)) == Square("road", True, 0)
    assert state.grid.at((3, 3)).is_difficult
