"""The battle through the protocol: initiative, deployment, configurations, movement,
attacks, solos, commanders, siege engines, the end of the round, the end of the battle
(dnd5e §4-§8)."""

import json
from dataclasses import replace

import pytest

from tests.engine.dnd5e.helpers import CURRENT, begin, codes, run, setup, unit
from warfare.engine.battle.protocol import Command, Rejected
from warfare.engine.dice import ScriptedDice
from warfare.engine.systems.dnd5e.battle import SYSTEM, board

ENEMY = unit("b1", "hobgoblin", [(11, 7)])


def _specs(state, actor=None):
    return {s.key: s for s in SYSTEM.legal_actions(state, actor or state.current)}


def _moves(state, piece, actor=None):
    spec = _specs(state, actor).get("move")
    if spec is None:
        return set()
    return {(o.params["x"], o.params["y"]) for o in spec.options if o.params["piece"] == piece}


def _reach(state, piece):
    x0, y0 = state.stand(piece).pos
    return max(abs(x - x0) + abs(y - y0) for x, y in _moves(state, piece))


def _reject(state, kind, actor=CURRENT, **params):
    actor = state.current if actor is CURRENT else actor
    result = SYSTEM.apply(state, Command(actor, kind, params), ScriptedDice(()))
    assert isinstance(result, Rejected)
    return [p.code for p in result.problems]


# --- start ---------------------------------------------------------------------------------------


def test_initiative_regiment_lowest_skirmisher_highest_dex():
    """dnd5e §5.2: a regiment adds the lowest Dex of its stands and joined solos (orc +1,
    knight +0 → +0), a skirmisher the highest (goblin +2); solos their own Dex."""
    data = setup(
        [unit("a1", "orc", [(1, 1)]), unit("a2", "goblin", [(1, 3)], kind="skirmisher")],
        [unit("b1", "hobgoblin", [(9, 1)])],
        a_solos=[{"key": "sir", "creature": "knight", "joined": "a1.1"}],
        b_solos=[{"key": "wiz", "creature": "mage", "pos": [9, 5]}],
        initiative={"a1": 10, "a2": 10, "b1": 11, "sir": 2, "wiz": 9},
    )
    state = SYSTEM.start(data, 1)
    assert dict(state.initiative) == {"a1": 10, "a2": 12, "b1": 12, "sir": 2, "wiz": 11}
    assert state.order == ("a2", "b1", "wiz", "a1", "sir")  # ties: higher Dex, then listed
    assert state.phase == "round" and state.current == "a2"
    opening = [e for e in SYSTEM.start_events(state) if e.code == "dnd5e.initiative"]
    assert opening[0].params["terms"] == [["lowest_dex", 0]]


def test_setup_errors_are_problems():
    """A bad setup raises SetupError with codes (never a crash)."""
    from warfare.engine.battle.protocol import SetupError

    bad = setup([unit("a1", "tarrasque", [(1, 1)])], [ENEMY])
    with pytest.raises(SetupError) as error:
        SYSTEM.start(bad, 1)
    assert [p.code for p in error.value.problems] == ["dnd5e.setup.unknown_creature"]
    overlap = setup([unit("a1", "orc", [(1, 1), (1, 1)])], [ENEMY])
    with pytest.raises(SetupError):
        SYSTEM.start(overlap, 1)
    with pytest.raises(SetupError):
        SYSTEM.start({"sides": "x"}, 1)
    knight = {"key": "sir", "creature": "knight", "pos": [2, 2], "hp": 53}  # max 52
    hurt = setup([unit("a1", "orc", [(1, 1)])], [ENEMY], a_solos=[knight])
    hurt["sides"][1]["zone"] = [0, 0, 40, 2]
    with pytest.raises(SetupError) as error:
        SYSTEM.start(hurt, 1)
    assert [p.code for p in error.value.problems] == ["dnd5e.setup.bad_hp", "dnd5e.setup.bad_zone"]


def test_deployment_places_in_the_zone_then_the_gm_begins():
    """Placement before the battle (issue #6): 'place' inside the side's zone, validated;
    'begin' only once everything is placed."""
    data = setup([unit("a1", "orc", [])], [ENEMY])
    data["sides"][0]["units"][0]["stands"] = 2
    data["sides"][0]["zone"] = [0, 0, 1, 1]
    state = SYSTEM.start(data, 1)
    assert state.phase == "deploy"
    place = _specs(state, "a1")["place"]
    assert {(o.params["x"], o.params["y"]) for o in place.options} == {(0, 0), (1, 0), (0, 1),
                                                                       (1, 1)}  # fmt: skip
    assert _reject(state, "place", "a1", piece="a1.1", x=5, y=5) == ["dnd5e.illegal_params"]
    assert _reject(state, "begin", None) == ["dnd5e.unplaced", "dnd5e.unplaced"]
    state, _ = run(state, "place", actor="a1", piece="a1.1", x=0, y=0)
    state, _ = run(state, "place", actor="a1", piece="a1.2", x=0, y=1)
    assert _reject(state, "place", "a1", piece="a1.2", x=0, y=0) == ["dnd5e.illegal_params"]
    state, events = run(state, "begin", actor=None)
    assert state.phase == "round" and "dnd5e.round" in codes(events)


# --- configurations and movement -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("configuration", "plain", "dashed"), [("march", 6, 12), ("aid", 3, 6), ("defend", 3, 6)]
)
def test_configuration_speeds_and_dash(configuration, plain, dashed):
    """dnd5e §4.3: Aid and Defend halve speed (orc 6 → 3), March full; §5.6: Dash adds the
    speed again, so Aid/Defend move their full 6 and March 12."""
    data = setup([unit("a1", "orc", [(0, 0), (0, 1)], configuration=configuration)], [ENEMY],
                 width=20, height=20)  # fmt: skip
    state = begin(data, ["a1", "b1"])
    assert _reach(state, "a1.1") == plain
    state, _ = run(state, "dash")
    assert _reach(state, "a1.1") == dashed


def test_dash_in_aid_moves_the_full_odd_speed():
    """dnd5e §5.6 [inferred]: Dash in Aid/Defend moves the regiment its full speed: 25 ft =
    5 squares, halved to 2, dashing back to 5."""
    slow = {"key": "dwarf", "name": "Dwarf", "size": "medium", "ac": 16, "hp": 11,
            "speeds": {"walk": 25}, "abilities": {"dex": 0, "wis": 1}}  # fmt: skip
    data = setup([unit("a1", "dwarf", [(0, 0), (0, 1)], configuration="aid")], [ENEMY],
                 width=20, height=20)  # fmt: skip
    data["creatures"] = [slow]
    state = begin(data, ["a1", "b1"])
    assert _reach(state, "a1.1") == 2
    state, _ = run(state, "dash")
    assert _reach(state, "a1.1") == 5


def test_defend_cannot_attack_and_configure_is_the_action():
    """dnd5e §4.3: a unit in Defend cannot take the Attack action; Configure uses the
    regiment's action [inferred] and a regiment does not move after acting (§4.2)."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)], configuration="defend")],
                 [unit("b1", "hobgoblin", [(2, 1), (2, 2)])])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    specs = _specs(state)
    assert "attack" not in specs
    assert [o.params for o in specs["configure"].options] == [
        {"configuration": "aid"},
        {"configuration": "march"},
    ]
    state, _ = run(state, "configure", configuration="march")
    assert state.unit("a1").configuration == "march"
    assert set(_specs(state)) == {"end_turn"}


def test_adjacent_to_enemy_cannot_move_unless_retreat():
    """dnd5e §5.3: a stand adjacent to an enemy stand cannot move; Retreat lets every stand
    move; the stand that is not adjacent moves normally."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "hobgoblin", [(2, 1)])])
    state = begin(data, ["a1", "b1"])
    assert _moves(state, "a1.1") == set()
    assert _moves(state, "a1.2")
    state, _ = run(state, "retreat")
    assert (0, 1) in _moves(state, "a1.1")


def test_solos_are_not_held_by_adjacent_enemy_stands():
    """dnd5e §5.3 holds stands adjacent to enemy stands; a solo moves on [inferred]."""
    data = setup([unit("a1", "orc", [(1, 4)])], [unit("b1", "hobgoblin", [(2, 1)])],
                 a_solos=[{"key": "sir", "creature": "knight", "pos": [1, 1]}])  # fmt: skip
    state = begin(data, ["sir", "a1", "b1"])
    moves = {(o.params["x"], o.params["y"]) for o in _specs(state)["move"].options}
    assert (1, 0) in moves and (4, 1) in moves


def test_bad_options_are_setup_problems():
    """The seed's variants are typed options (§10); an unknown or mistyped one is refused."""
    from warfare.engine.systems.dnd5e.battle import validate_setup

    data = setup([unit("a1", "orc", [(1, 1)])], [ENEMY],
                 options={"protection_stands": "two", "seed_magic": True})  # fmt: skip
    assert [p.params["option"] for p in validate_setup(data)] == ["protection_stands",
                                                                  "seed_magic"]  # fmt: skip
    assert validate_setup(setup([unit("a1", "orc", [(1, 1)])], [ENEMY],
                                options={"seed_autohit": True})) == []  # fmt: skip


def test_leaving_the_grid_is_fleeing():
    """dnd5e §5.3: a stand that leaves the grid has fled and is eliminated."""
    data = setup([unit("a1", "orc", [(0, 1), (0, 2)])], [ENEMY])
    state = begin(data, ["a1", "b1"])
    assert (-1, 1) in _moves(state, "a1.1")
    state, events = run(state, "move", piece="a1.1", x=-1, y=1)
    assert state.stand("a1.1").gone == "fled" and "dnd5e.fled" in codes(events)
    assert [s.key for s in state.stands_of("a1")] == ["a1.2"]


def test_deep_water_placement_is_refused():
    """dnd5e §4.7: only swimmers may be in deep water, at set-up too."""
    from warfare.engine.battle.protocol import SetupError

    data = setup([unit("a1", "orc", [(1, 1)])], [ENEMY],
                 squares=[{"x": 1, "y": 1, "terrain": "water_deep"}])  # fmt: skip
    with pytest.raises(SetupError) as error:
        SYSTEM.start(data, 1)
    assert [p.code for p in error.value.problems] == ["dnd5e.setup.deep_water"]


def test_regiment_blocked_by_allies_skirmisher_passes_through():
    """dnd5e §4.2: regiment stands may not enter allied stands; skirmisher stands may pass
    through but not end there."""
    squares = [{"x": x, "y": y, "terrain": "water_deep"} for x in range(4) for y in (0, 2)]
    enemy = [unit("b1", "hobgoblin", [(7, 7)])]
    regiment = setup([unit("a1", "orc", [(0, 1), (1, 1)])], enemy, squares=squares, width=8)
    state = begin(regiment, ["a1", "b1"])
    assert (2, 1) not in _moves(state, "a1.1")
    skirm = setup([unit("a1", "goblin", [(0, 1), (1, 1)], kind="skirmisher")], enemy,
                  squares=squares, width=8)  # fmt: skip
    state = begin(skirm, ["a1", "b1"])
    assert (2, 1) in _moves(state, "a1.1") and (1, 1) not in _moves(state, "a1.1")


def test_skirmishers_split_their_move_regiments_do_not():
    """dnd5e §4.2: a skirmisher may move, act and finish its move; a regiment moves, then
    acts [inferred]."""
    enemies = [unit("b1", "hobgoblin", [(4, 1), (4, 2)])]
    skirm = setup([unit("a1", "scout", [(1, 1), (1, 2)], kind="skirmisher")], enemies)
    state = begin(skirm, ["a1", "b1"])
    state, _ = run(state, "attack", [5, 5], piece="a1.1", attack="longbow", target="b1.1")
    assert _moves(state, "a1.1")
    regiment = setup([unit("a1", "orc", [(1, 1), (1, 2)])], enemies)
    state = begin(regiment, ["a1", "b1"])
    state, _ = run(state, "attack", [1, 1], piece="a1.1", attack="javelin", target="b1.1")
    assert "move" not in _specs(state)


# --- attacks -------------------------------------------------------------------------------------


def _duel(**kw):
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)], **kw)],
                 [unit("b1", "hobgoblin", [(2, 1), (2, 2)])])  # fmt: skip
    return begin(data, ["a1", "b1"])


def test_attack_roll_and_damage_with_previews():
    """dnd5e §5.4/§2: orc greataxe +5 vs hobgoblin AC 18: 15 + 5 hits for 1d12+3 (7 → 10,
    HP 11 → 1); a natural 1 misses; a natural 20 rolls the damage dice twice."""
    state = _duel()
    wanted = {"piece": "a1.1", "attack": "greataxe", "target": "b1.1"}
    option = next(o for o in _specs(state)["attack"].options if o.params == wanted)
    assert (option.checks[0].modifier, option.checks[0].dc) == (5, 18)
    hit, events = run(state, "attack", [15, 7], piece="a1.1", attack="greataxe", target="b1.1")
    assert hit.stand("b1.1").hp == 1
    miss, _ = run(state, "attack", [1], piece="a1.1", attack="greataxe", target="b1.1")
    assert miss.stand("b1.1").hp == 11
    crit, _ = run(state, "attack", [20, 7, 5], piece="a1.1", attack="greataxe", target="b1.1")
    assert crit.stand("b1.1").hp == 0 and crit.stand("b1.1").casualty
    assert [e.code for e in events][:2] == ["dnd5e.action", "dnd5e.attack"]


def test_isolated_target_takes_double_damage():
    """dnd5e §4.6: an attack against an isolated stand has advantage and deals double
    damage: greataxe 7 + 3 = 10, doubled to 20, past a hobgoblin's 11 HP."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])],
                 [unit("b1", "hobgoblin", [(2, 1), (5, 5)])])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    state, events = run(state, "attack", [4, 16, 7], piece="a1.1", attack="greataxe",
                        target="b1.1")  # fmt: skip
    record = next(e for e in events if e.code == "dnd5e.attack").params
    assert (record["die"], record["damage"], record["advantage"]) == (16, 20, ["target_isolated"])
    assert state.stand("b1.1").hp == 0


def test_aid_gives_advantage_to_an_adjacent_stand():
    """dnd5e §4.3 Aid: a stand forgoes its attack to give advantage on the melee attacks of
    one adjacent stand of its unit (2d20, keep the higher)."""
    state = _duel(configuration="aid")
    state, _ = run(state, "aid", stand="a1.2", helps="a1.1")
    attack = _specs(state)["attack"]
    assert {o.params["piece"] for o in attack.options} == {"a1.1"}
    terms = dict(attack.options[0].checks[0].modifier_breakdown)
    assert "advantage.aid" in terms
    state, events = run(state, "attack", [3, 14, 5], piece="a1.1", attack="greataxe",
                        target="b1.1")  # fmt: skip
    record = next(e for e in events if e.code == "dnd5e.attack")
    assert record.params["die"] == 14 and record.params["dice"] == [3, 14]


def test_reach_gives_one_bonus_attack():
    """dnd5e §5.4: a stand with a reach ≥ 10 ft melee attack makes one bonus attack (hill
    giant: Multiattack two greatclubs, then one more)."""
    data = setup([unit("a1", "hill_giant", [(1, 1)])], [unit("b1", "orc", [(4, 1), (4, 2)])])
    state = begin(data, ["a1", "b1"])
    state, events = run(state, "attack", [2, 2], piece="a1.1", attack="greatclub",
                        target="b1.1")  # fmt: skip
    assert codes(events).count("dnd5e.attack") == 2
    state, events = run(state, "attack", [2], piece="a1.1", attack="greatclub", target="b1.1")
    assert codes(events).count("dnd5e.attack") == 1
    assert "attack" not in _specs(state)


def test_multiattack_on_a_destroyed_square_destroys_it_once():
    """dnd5e §7.1: a Destruction square is destroyed (and its VP earned) once: the second
    Multiattack roll of a scout stand (two shortswords, melee hits automatically) on a square
    it already brought to 0 HP logs no second destruction."""
    objective = {"key": "gate", "type": "destruction", "side": "a",
                 "squares": [{"x": 2, "y": 1, "hp": 5, "vp": 2}]}  # fmt: skip
    data = setup([unit("a1", "scout", [(1, 1)])], [ENEMY], objectives=[objective])
    state = begin(data, ["a1", "b1"])
    state, events = run(state, "attack", [6, 6], piece="a1.1", attack="shortsword",
                        target="sq:2:1")  # fmt: skip
    assert codes(events).count("dnd5e.attack") == 2
    assert codes(events).count("dnd5e.objective_destroyed") == 1
    assert state.objectives[0].squares[0].hp == 0


def test_casualty_acts_on_until_the_end_of_the_round():
    """dnd5e §6.1: a stand at 0 HP keeps acting this round as if at 1 HP."""
    state = _duel()
    state = state.put(replace(state.stand("a1.1"), hp=0, casualty=True))
    assert any(o.params["piece"] == "a1.1" for o in _specs(state)["attack"].options)


# --- end of the round ----------------------------------------------------------------------------


def test_end_of_round_in_the_fixed_order():
    """dnd5e §6.2: 1. casualties removed (joined solos freed), dying solos' death saves;
    2. morale for units that lost more than half (DC 10, highest Wis); 3. objectives."""
    data = setup(
        [unit("a1", "orc", [(1, 1), (1, 3), (1, 5)])],
        [unit("b1", "hobgoblin", [(9, 1)])],
        a_solos=[{"key": "pc", "creature": "knight", "pc": True, "joined": "a1.1", "hp": 0}],
        objectives=[{"key": "kill", "type": "attrition", "side": "b", "vp": 1},
                    {"key": "flag", "type": "custom", "side": "b", "vp": 2}],
    )  # fmt: skip
    state = begin(data, ["a1", "b1"])
    for key in ("a1.1", "a1.2"):
        state = state.put(replace(state.stand(key), hp=0, casualty=True))
    state, _ = run(state, "award", actor=None, objective="flag")
    state, _ = run(state, "end_turn")
    state, events = run(state, "end_turn", [12, 11, 10, 5])
    order = [c for c in codes(events) if c in ("dnd5e.eliminated", "dnd5e.freed",
             "dnd5e.death_saves", "dnd5e.morale", "dnd5e.vp", "dnd5e.round")]  # fmt: skip
    assert order == ["dnd5e.eliminated", "dnd5e.freed", "dnd5e.eliminated",
                     "dnd5e.death_saves", "dnd5e.morale", "dnd5e.vp", "dnd5e.round"]  # fmt: skip
    assert state.solo("pc").stable
    morale = next(e for e in events if e.code == "dnd5e.morale").params
    assert (morale["die"], morale["total"], morale["dc"], morale["success"]) == (5, 5, 10, False)
    assert state.unit("a1").broken and state.vp["b"] == 2


def test_morale_only_after_losing_more_than_half():
    """dnd5e §6.2: losing exactly half of the starting stands (1 of 2) is not enough."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 3)])], [unit("b1", "hobgoblin", [(9, 1)])])
    state = begin(data, ["a1", "b1"])
    state = state.put(replace(state.stand("a1.1"), hp=0, casualty=True))
    state, _ = run(state, "end_turn")
    state, events = run(state, "end_turn")
    assert "dnd5e.eliminated" in codes(events) and "dnd5e.morale" not in codes(events)


def test_slide_in_offer_after_removing_a_casualty():
    """dnd5e §6.2 step 1: for each removed stand its controller may move one adjacent allied
    stand into the vacated space."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2), (1, 3)])], [unit("b1", "hobgoblin", [(9, 1)])])
    state = begin(data, ["a1", "b1"])
    state = state.put(replace(state.stand("a1.2"), hp=0, casualty=True))
    state, _ = run(state, "end_turn")
    state, _ = run(state, "end_turn")
    assert state.phase == "casualties" and state.pending == ("a1",)
    slide = _specs(state, "a1")["slide_in"]
    assert {o.params["stand"] for o in slide.options} == {"a1.1", "a1.3"}
    assert _reject(state, "end_turn", "a1") == ["dnd5e.not_allowed"]
    ogre = begin(setup([unit("a1", "orc", [(1, 1), (0, 1)]), unit("a2", "ogre", [(2, 0)])],
                       [unit("b1", "hobgoblin", [(9, 1)])]), ["a1", "a2", "b1"])  # fmt: skip
    ogre = ogre.put(replace(ogre.stand("a1.1"), hp=0, casualty=True))
    for _ in range(3):
        ogre, _ = run(ogre, "end_turn")
    slides = [o.params["stand"] for o in _specs(ogre, "a1")["slide_in"].options]
    assert slides == ["a1.2"]  # a Large stand does not fit a Medium stand's space
    state, _ = run(state, "slide_in", actor="a1", offer=0, stand="a1.3")
    assert state.stand("a1.3").pos == (1, 2)
    state, events = run(state, "done", actor="a1")
    assert state.phase == "round" and state.round == 2


def test_broken_unit_may_only_retreat():
    """dnd5e §6.2: a broken unit may take only Retreat (the GM moves it)."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "hobgoblin", [(2, 1)])])
    state = begin(data, ["a1", "b1"])
    state = state.put(replace(state.unit("a1"), broken=True))
    state = replace(state, turn=replace(state.turn))
    assert set(_specs(state)) == {"retreat", "move", "end_turn"}


# --- hide, solos, commanders, spells -------------------------------------------------------------


def test_hide_rolls_stealth_per_stand_against_passive_perception():
    """dnd5e §5.6 Hide (skirmishers and solos): Dex (Stealth) per stand against the enemy's
    best passive Perception (guard 12); goblin Stealth +6: 6 → 12 hides, 5 → 11 fails."""
    data = setup([unit("a1", "goblin", [(1, 1), (1, 2)], kind="skirmisher")],
                 [unit("b1", "guard", [(9, 1)])])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    check = _specs(state)["hide"].options[0].checks[0]
    assert (check.modifier, check.dc) == (6, 12)
    state, _ = run(state, "hide", [6, 5])
    assert state.stand("a1.1").hidden and not state.stand("a1.2").hidden
    assert "attack" not in _specs(state)
    regiment = begin(setup([unit("a1", "orc", [(1, 1)])], [ENEMY]), ["a1", "b1"])
    assert "hide" not in _specs(regiment)
    state, _ = run(state, "end_turn")
    state, _ = run(state, "end_turn")  # round 2: the hidden goblins attack and are seen
    option = next(o for o in _specs(state)["attack"].options if o.params["piece"] == "a1.1")
    assert "advantage.hidden" in dict(option.checks[0].modifier_breakdown)
    state, _ = run(state, "attack", [2, 2], **option.params)
    assert not state.stand("a1.1").hidden


def test_join_size_limit_leave_and_switch():
    """dnd5e §5.7: a solo joins an allied stand (at most one size larger than its
    creatures); joined, in place of its move it leaves into an empty adjacent space or
    switches to an adjacent stand of its unit."""
    data = setup([unit("a1", "goblin", [(1, 1), (1, 2)])], [ENEMY],
                 a_solos=[{"key": "sir", "creature": "knight", "pos": [3, 1]},
                          {"key": "giant", "creature": "hill_giant", "pos": [3, 4]}])  # fmt: skip
    state = begin(data, ["sir", "giant", "a1", "b1"])
    assert {o.params["stand"] for o in _specs(state)["join"].options} == {"a1.1", "a1.2"}
    state, _ = run(state, "join", stand="a1.1")
    assert state.solo("sir").joined == "a1.1" and state.solo("sir").pos is None
    state, _ = run(state, "end_turn")
    assert "join" not in _specs(state)  # huge vs small: two sizes larger
    state, _ = run(state, "end_turn")
    assert state.current == "a1" and _specs(state, "sir") == {}  # sir had its turn
    for _ in range(3):  # a1, b1, then round 2: sir (joined) has no slot, the giant has
        state, _ = run(state, "end_turn")
    assert state.current == "a1"
    assert [o.params for o in _specs(state, "sir")["switch"].options] == [{"stand": "a1.2"}]
    state, _ = run(state, "switch", actor="sir", stand="a1.2")
    assert "leave" not in _specs(state, "sir")


def test_a_solo_takes_one_turn_a_round():
    """dnd5e §5.2: joined solos act on their unit's turn, unattached ones on their own; a
    solo that acted with its unit and then left does not act again on its own initiative."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "hobgoblin", [(9, 1)])],
                 a_solos=[{"key": "sir", "creature": "knight", "joined": "a1.2"}])  # fmt: skip
    state = begin(data, ["a1", "sir", "b1"])
    state, _ = run(state, "leave", actor="sir", x=2, y=2)
    state, _ = run(state, "end_turn")
    assert state.current == "b1" and state.solos_done == ("sir",)
    state, _ = run(state, "end_turn")  # round 2: sir has its own turn now
    state, _ = run(state, "end_turn")
    assert state.current == "sir"


def test_seed_variant_switching_uses_the_action():
    """dnd5e §5.7/§10 item 4: the original switches in place of the move (the solo may still
    attack); the seed's option uses the solo's action instead."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "hobgoblin", [(2, 1)])],
                 a_solos=[{"key": "sir", "creature": "knight", "joined": "a1.2"}])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    original, _ = run(state, "switch", actor="sir", stand="a1.1")
    assert "attack" in _specs(original, "sir")
    seeded = replace(state, options=replace(state.options, seed_switch_uses_action=True))
    seeded, _ = run(seeded, "switch", actor="sir", stand="a1.1")
    assert "attack" not in _specs(seeded, "sir")


def test_surprised_actors_skip_round_one():
    """dnd5e §2/§5.2: a surprised unit or solo cannot move or act on its first turn."""
    data = setup([unit("a1", "orc", [(1, 1)], surprised=True)], [ENEMY],
                 b_solos=[{"key": "wiz", "creature": "mage", "pos": [9, 1], "surprised": True}],
                 initiative={"a1": 20, "b1": 1, "wiz": 10})  # fmt: skip
    state = SYSTEM.start(data, 1)
    assert state.current == "b1"
    surprised = [e.params["actor"] for e in SYSTEM.start_events(state)
                 if e.code == "dnd5e.surprised"]  # fmt: skip
    assert surprised == ["a1", "wiz"]
    assert {
        e.params["round"] for e in SYSTEM.start_events(state) if e.code == "dnd5e.surprised"
    } == {1}
    state, _ = run(state, "end_turn")
    assert state.round == 2 and state.current == "a1"


def test_commander_prepare_and_incite():
    """dnd5e §4.5: a joined solo takes command (bonus action); Prepare / Incite are DC 15
    Charisma checks (knight +2): 13 succeeds; Incite gives advantage on the next turn."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "hobgoblin", [(2, 1)])],
                 a_solos=[{"key": "sir", "creature": "knight", "joined": "a1.2"}])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    assert set(_specs(state, "sir")) >= {"take_command", "attack"}
    state, _ = run(state, "take_command", actor="sir")
    assert state.unit("a1").commander == "sir" and "incite" not in _specs(state, "sir")
    state = replace(state, turn=replace(state.turn, bonus=()))
    check = _specs(state, "sir")["incite"].options[0].checks[0]
    assert (check.modifier, check.dc) == (2, 15)
    state, _ = run(state, "incite", [13], actor="sir")
    assert state.unit("a1").incited == 2
    terms = dict(_specs(state)["attack"].options[0].checks[0].modifier_breakdown)
    assert "advantage.incite" not in terms  # "on its next turn"
    state, _ = run(state, "end_turn")
    state, _ = run(state, "end_turn")  # end of round 1 → round 2, a1 again
    assert state.current == "a1" and state.unit("a1").incited == 1
    terms = dict(_specs(state)["attack"].options[0].checks[0].modifier_breakdown)
    assert "advantage.incite" in terms


def test_fireball_from_a_stand_deals_double_damage():
    """dnd5e §5.5: an area spell cast by a stand deals double damage; targets save (orc Dex
    save +1 vs DC 14): a failed save takes 2 × 8d6."""
    data = setup([unit("a1", "mage", [(1, 1)])], [unit("b1", "orc", [(6, 1), (6, 2)])])
    state = begin(data, ["a1", "b1"])
    cast = _specs(state)["cast"]
    assert {"piece": "a1.1", "spell": "fireball", "x": 6, "y": 1} in [
        o.params for o in cast.options
    ]
    state, events = run(state, "cast", [1] * 8 + [5], piece="a1.1", spell="fireball", x=6, y=1)
    save = next(e for e in events if e.code == "dnd5e.spell_save").params
    assert save["damage"] == 16 and not save["success"]
    assert state.stand("b1.1").hp == 0 and state.stand("b1.2").hp == 14  # overflow 1


def test_skirmishers_have_advantage_on_dex_saves():
    """dnd5e §4.2: skirmisher stands have advantage on Dexterity saving throws (goblin +2:
    3 and 12 keep 12, 14 vs DC 14 saves for half: 8 → 4, doubled from a stand → 8)."""
    data = setup([unit("a1", "mage", [(1, 1)])],
                 [unit("b1", "goblin", [(6, 1), (6, 3)], kind="skirmisher")])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    state, events = run(state, "cast", [1] * 8 + [3, 12], piece="a1.1", spell="fireball",
                        x=6, y=1)  # fmt: skip
    save = next(e for e in events if e.code == "dnd5e.spell_save").params
    assert (save["dice"], save["advantage"], save["success"]) == ([3, 12], ["skirmisher"], True)
    assert save["damage"] == 8 and state.stand("b1.1").casualty


def test_a_cone_starts_next_to_the_caster_and_points_away():
    """dnd5e §5.5: a cone's origin is on one side of the caster's space; 60 ft = 3 squares
    long, each row as wide as its distance from the origin."""
    cone = {"key": "breath", "range_ft": 0, "damage": "2d6", "save": "dex", "dc": 12,
            "area": ["cone", 60]}  # fmt: skip
    dragon = {"key": "drake", "name": "Drake", "size": "medium", "ac": 14, "hp": 30,
              "speeds": {"walk": 30}, "abilities": {"dex": 1}, "spells": [cone]}  # fmt: skip
    data = setup([unit("a1", "drake", [(1, 1)])], [unit("b1", "orc", [(3, 2), (4, 0), (3, 0)])])
    data["creatures"] = [dragon]
    state = begin(data, ["a1", "b1"])
    options = [o.params for o in _specs(state)["cast"].options]
    assert len(options) == 4
    assert {"piece": "a1.1", "spell": "breath", "x": 2, "y": 1, "direction": "e"} in options
    state, events = run(state, "cast", [1, 1, 5, 5], piece="a1.1", spell="breath", x=2, y=1,
                        direction="e")  # fmt: skip
    hit = [e.params["target"] for e in events if e.code == "dnd5e.spell_save"]
    assert hit == ["b1.1", "b1.2"]  # rows: (2,1); (3,1),(3,2); (4,0),(4,1),(4,2)
    assert state.stand("b1.1").hp == 15 - 2 * 2


def test_stand_partly_in_an_area_takes_half_damage():
    """dnd5e §5.5: a stand only partly inside an area takes half damage; a solo's area
    spell is not doubled. Fireball (20 ft = 1 square) on one square of a Large ogre stand:
    8d6 of 1s = 8, failed Dex save (-1 + 5 < 14), half = 4."""
    data = setup([unit("a1", "orc", [(1, 1)])], [unit("b1", "ogre", [(6, 1)])],
                 a_solos=[{"key": "wiz", "creature": "mage", "pos": [1, 2]}])  # fmt: skip
    state = begin(data, ["wiz", "a1", "b1"])
    state, events = run(state, "cast", [1] * 8 + [5], piece="wiz", spell="fireball", x=6, y=1)
    save = next(e for e in events if e.code == "dnd5e.spell_save").params
    assert (save["damage"], save["partial"]) == (4, True)
    assert state.stand("b1.1").hp == 55
    assert state.solo("wiz").spells_used == {"fireball": 1}


def test_a_stands_multi_target_spell_affects_one_stand_per_creature():
    """dnd5e §5.5: a stand's spell that targets several creatures may affect one stand per
    creature (2 here): the damage (2d6: 3 + 3) is rolled once, each target saves (orc Dex
    +1 vs DC 13): 5 fails (6), 15 saves for half (3)."""
    caster = {"key": "druid", "name": "Druid", "size": "medium", "ac": 11, "hp": 27,
              "speeds": {"walk": 30}, "abilities": {"dex": 1, "wis": 2},
              "spells": [{"key": "thorns", "range_ft": 60, "damage": "2d6", "save": "dex",
                          "dc": 13, "targets": 2}]}  # fmt: skip
    data = setup([unit("a1", "druid", [(1, 1), (1, 2)])], [unit("b1", "orc", [(4, 1), (3, 2)])])
    data["creatures"] = [caster]
    state = begin(data, ["a1", "b1"])
    params = {"piece": "a1.1", "spell": "thorns", "target": "b1.1"}
    assert _reject(state, "cast", also=["b1.2", "a1.2"], **params) == ["dnd5e.too_many_targets"]
    assert _reject(state, "cast", also=["a1.2"], **params) == ["dnd5e.bad_target"]
    assert _reject(state, "cast", also=["b1.1"], **params) == ["dnd5e.bad_target"]
    state, _ = run(state, "cast", [3, 3, 5, 15], also=["b1.2"], **params)
    assert (state.stand("b1.1").hp, state.stand("b1.2").hp) == (9, 12)


def test_solo_targeted_spell_cannot_target_a_stand():
    """dnd5e §5.5: a solo's targeted spell affects a stand only if it can target 5+."""
    data = setup([unit("a1", "orc", [(1, 1)])], [unit("b1", "orc", [(6, 1)])],
                 a_solos=[{"key": "wiz", "creature": "mage", "pos": [1, 2]}])  # fmt: skip
    state = begin(data, ["wiz", "a1", "b1"])
    spells = {o.params["spell"] for o in _specs(state)["cast"].options}
    assert spells == {"fireball"}


# --- siege engines (§8) --------------------------------------------------------------------------


def test_ballista_load_aim_fire():
    """dnd5e §8: a crew stand spends its unit's action on one step a round: load, aim, then
    fire (+6, 3d10, range 6/24 squares)."""
    data = setup([unit("a1", "guard", [(1, 1)])], [unit("b1", "orc", [(7, 1), (7, 2)])],
                 engines=[{"key": "bal", "kind": "ballista", "side": "a", "pos": [1, 2],
                           "crew": "a1"}], width=30)  # fmt: skip
    state = begin(data, ["a1", "b1"])
    assert [o.params["step"] for o in _specs(state)["siege"].options] == ["load"]
    state, _ = run(state, "siege", engine="bal", stand="a1.1", step="load")
    assert "siege" not in _specs(state) and "attack" not in _specs(state)
    state = replace(state, turn=replace(state.turn, action=None, acted=()))
    state, _ = run(state, "siege", engine="bal", stand="a1.1", step="aim")
    state = replace(state, turn=replace(state.turn, action=None, acted=()))
    fire = [o for o in _specs(state)["siege"].options if o.params.get("target") == "b1.1"]
    assert (fire[0].checks[0].modifier, fire[0].checks[0].dc) == (6, 13)
    state, events = run(state, "siege", [10, 5, 5, 5], engine="bal", stand="a1.1", step="fire",
                        target="b1.1")  # fmt: skip
    assert state.stand("b1.1").hp == 0 and state.engine("bal").loaded == 0


def test_mangonel_minimum_range():
    """dnd5e §8: a mangonel cannot hit within 60 ft: targets at least 4 squares away."""
    data = setup([unit("a1", "guard", [(0, 0)])], [unit("b1", "orc", [(3, 0)]),
                 unit("b2", "orc", [(6, 0)])],
                 engines=[{"key": "m", "kind": "mangonel", "side": "a", "pos": [0, 1],
                           "crew": "a1"}], width=20)  # fmt: skip
    state = begin(data, ["a1", "b1", "b2"])
    state = state.put(replace(state.engine("m"), loaded=2, aimed=2))
    targets = {o.params["target"] for o in _specs(state)["siege"].options}
    assert targets == {"b2.1"}


# --- the end of the battle, GM commands, rejections, board ---------------------------------------


def test_total_victory_rolls_for_each_surviving_losing_unit():
    """dnd5e §7.3: total victory (3+ ahead at 10 VP): d20 per surviving loser unit, 10+
    eliminated."""
    data = setup([unit("a1", "orc", [(1, 1)])],
                 [unit("b1", "goblin", [(9, 1)]), unit("b2", "goblin", [(9, 5)])],
                 objectives=[{"key": "flag", "type": "custom", "side": "a", "vp": 10}])  # fmt: skip
    state = begin(data, ["a1", "b1", "b2"])
    state, _ = run(state, "award", actor=None, objective="flag")
    for _ in range(2):
        state, _ = run(state, "end_turn")
    state, events = run(state, "end_turn", [10, 9])
    assert state.phase == "ended"
    result = SYSTEM.outcome(state)
    assert (result.winner, result.losers) == ("a", ("b",))
    assert result.details["result"] == "total" and result.details["deserted"] == ["b1"]
    assert result.details["units"]["b1"]["creatures_lost"] == 10
    assert _reject(state, "end_turn") == ["dnd5e.finished"]


def test_tie_waits_for_the_gm():
    """dnd5e §7.3/§10 item 9: a tie at 10+: the GM declares a draw or one more round; the
    seed's variant fights on."""
    objectives = [{"key": "x", "type": "custom", "side": "a", "vp": 10},
                  {"key": "y", "type": "custom", "side": "b", "vp": 10}]  # fmt: skip
    data = setup([unit("a1", "orc", [(1, 1)])], [ENEMY], objectives=objectives)
    state = begin(data, ["a1", "b1"])
    state, _ = run(state, "award", actor=None, objective="x")
    state, _ = run(state, "award", actor=None, objective="y")
    state, _ = run(state, "end_turn")
    tied, _ = run(state, "end_turn")
    assert tied.phase == "draw" and SYSTEM.outcome(tied) is None
    more, _ = run(tied, "extra_round", actor=None)
    assert more.round == 2 and more.phase == "round"
    drawn, _ = run(tied, "declare_draw", actor=None)
    assert SYSTEM.outcome(drawn).details["result"] == "draw"
    fight_on = replace(state, options=replace(state.options, draw_fight_on=True))
    fight_on, _ = run(fight_on, "end_turn")
    assert fight_on.phase == "round" and fight_on.round == 2


@pytest.mark.parametrize(
    ("kind", "params"),
    [("attack", {"piece": "a1.1", "attack": "greataxe", "target": "a1.2"}),
     ("attack", {"piece": "b1.1", "attack": "longsword", "target": "a1.1"}),
     ("move", {"piece": "a1.2", "x": "one", "y": None}),
     ("move", {"piece": "a1.2", "x": 40, "y": 40}),
     ("attack", {"piece": "a1.1", "attack": "greataxe", "target": "b1.1", "overflow": 3}),
     ("fly_away", {}),
     ("configure", {"configuration": "turtle"})],
)  # fmt: skip
def test_illegal_commands_are_rejected_not_raised(kind, params):
    """apply returns Rejected(problems) for illegal input (protocol)."""
    state = _duel()
    result = SYSTEM.apply(state, Command("a1", kind, params), ScriptedDice(()))
    assert isinstance(result, Rejected) and result.problems
    other = SYSTEM.apply(state, Command("b1", "end_turn", {}), ScriptedDice(()))
    assert isinstance(other, Rejected)


def test_gm_correction():
    """GM corrections are commands too: HP within 0..max, conditions for solos only."""
    data = setup([unit("a1", "orc", [(1, 1)])], [ENEMY],
                 a_solos=[{"key": "sir", "creature": "knight", "pos": [1, 2]}])  # fmt: skip
    state = begin(data, ["a1", "b1"])
    state, _ = run(state, "gm_correction", actor=None, piece="sir", conditions=["stunned"])
    assert not state.solo("sir").can_act
    assert _reject(state, "gm_correction", None, piece="a1.1", hp=99) == ["dnd5e.gm.bad_hp"]


def test_board_rows_and_json_round_trip():
    """The board helper returns rows of cells (terrain, occupant, objective); the state
    serialises to JSON and back."""
    data = setup([unit("a1", "ogre", [(1, 1)])], [ENEMY],
                 squares=[{"x": 0, "y": 0, "terrain": "forest"}],
                 objectives=[{"key": "gate", "type": "destruction", "side": "a",
                              "squares": [{"x": 5, "y": 5, "hp": 30}]}])  # fmt: skip
    state = begin(data)
    rows = board(state)
    assert len(rows) == 8 and len(rows[0]) == 12
    assert rows[0][0]["terrain"] == "forest" and rows[0][0]["difficult"]
    assert [rows[y][x]["occupant"]["key"] for x, y in ((1, 1), (2, 1), (1, 2), (2, 2))] == [
        "a1.1"
    ] * 4
    assert rows[1][1]["occupant"]["anchor"] and not rows[2][2]["occupant"]["anchor"]
    assert rows[5][5]["objective"]["hp"] == 30
    text = json.dumps(state.to_dict())
    assert SYSTEM.state_from_dict(json.loads(text)) == state


def test_dice_typed_at_the_table_are_used_first_and_recorded_as_typed():
    """dnd5e §5.4 attack (orc greataxe +5 vs AC 18): the typed 15 and 7 are the d20 and the
    1d12 damage (HP 11 → 1), recorded as "dnd5e.typed_dice"; server dice record nothing."""
    from warfare.engine.battle.protocol import command_dice

    state = _duel()
    command = Command("a1", "attack", {"piece": "a1.1", "attack": "greataxe",
                                       "target": "b1.1"}, typed_dice=(15, 7))  # fmt: skip
    hit, events = SYSTEM.apply(state, command, command_dice(1, 0, command.typed_dice))
    assert hit.stand("b1.1").hp == 1
    assert events[-1].code == "dnd5e.typed_dice"
    assert events[-1].params == {"actor": "a1", "dice": [15, 7]}
    _, server = SYSTEM.apply(state, replace(command, typed_dice=None), command_dice(1, 0))
    assert "dnd5e.typed_dice" not in codes(server)
