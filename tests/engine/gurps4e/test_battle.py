"""The GURPS Mass Combat 4e battle engine behind the battle protocol (gurps §A.4-A.7, §A.9)."""

import json

import pytest

from tests.engine.gurps4e.helpers import force_data, row
from warfare.engine.battle.protocol import Command, Rejected, SetupError, replay
from warfare.engine.dice import ScriptedDice
from warfare.engine.problems import codes
from warfare.engine.systems.gurps4e.battle import SYSTEM, BattleState, public_state


def _setup(**changes):
    setup = {
        "terrain": "woodlands",
        "kind": "pitched",
        "initiative": "a",
        "db": {"a": 2},
        "sides": {
            "a": {"force": force_data(row("hi", 4, 10), row("bow", 2, 5, classes=["F"]))},
            "b": {"force": force_data(row("hi", 4, 6), row("bow", 2, 2, classes=["F"]))},
        },
    }
    setup.update(changes)
    return setup


def _apply(state, actor, what, dice=(), **params):
    result = SYSTEM.apply(state, Command(actor, what, params), ScriptedDice(dice))
    assert not isinstance(result, Rejected), result
    return result


def _rejected(state, actor, what, **params):
    result = SYSTEM.apply(state, Command(actor, what, params), ScriptedDice([]))
    assert isinstance(result, Rejected)
    return codes(list(result.problems))


def _event(events, code):
    return next(e.params for e in events if e.code == f"gurps4e.{code}")


def test_start_without_recon_sets_bsm_db_and_round_length():
    """gurps §A.5.2 [errata p. 31]: BSM +2 relative TS +1 Fire superiority; §A.5.4 the
    initiative holder of a pitched battle holds the DB; §A.6.1 8 elements -> 15 minutes."""
    state = SYSTEM.start(_setup(), 1)
    a, b = state.sides
    assert a.bsm == (("bsm.relative_ts", 2), ("bsm.superiority.F", 1))
    assert (a.db, b.db) == (2, 0)
    assert state.round_length == 15
    assert (state.phase, state.round, state.kind) == ("choosing", 1, "pitched")
    assert SYSTEM.start_events(state)[0].code == "gurps4e.battle_started"
    assert SYSTEM.outcome(state) is None


def test_db_is_rolled_when_the_gm_sets_none():
    """gurps §A.5.4: woodlands DB 1d/2 (a typed 5 -> 3)."""
    state = SYSTEM.start(_setup(db=None, start_dice=[5]), 1)
    assert (state.sides[0].db, state.sides[1].db) == (3, 0)


def test_gm_grants_a_db_after_a_tied_recon_pitched_battle():
    """gurps §A.5.4: a pitched battle from a tied recon contest: the GM chooses who holds
    the DB [inferred] (tie 3d6 10 vs 10, 1d 2 ≤ TR 5 -> pitched)."""
    setup = _setup(recon={"a": {}, "b": {}}, start_dice=[3, 3, 4, 3, 3, 4, 2], db={"b": 1})
    state = SYSTEM.start(setup, 1)
    assert (state.kind, state.initiative) == ("pitched", None)
    assert (state.sides[0].db, state.sides[1].db) == (0, 1)


def test_bad_setup_raises_setup_error_with_codes():
    """gurps §A.9.1: a setup is validated; problems are codes."""
    with pytest.raises(SetupError) as error:
        SYSTEM.start(_setup(terrain="moon", sides={"a": {}}), 1)
    assert "gurps4e.setup.bad_terrain" in codes(list(error.value.problems))
    assert "gurps4e.setup.two_sides_needed" in codes(list(error.value.problems))
    sides = _setup()["sides"]
    sides["a"]["pcs"] = [{"key": "ann", "element": "tank"}]
    sides["b"]["force"]["staff"]["chain"][0]["pc"] = "nobody"
    bad = _setup(sides=sides, recon={"a": {"march": 3}}, extra_classes=["Magic"],
                 house_rules={"recovery.winner": "x", "nope": 1})  # fmt: skip
    with pytest.raises(SetupError) as error:
        SYSTEM.start(bad, 1)
    assert set(codes(list(error.value.problems))) == {
        "gurps4e.setup.unknown_element", "gurps4e.setup.unknown_successor_pc",
        "gurps4e.setup.bad_recon", "gurps4e.setup.unknown_class",
        "gurps4e.setup.house_rule_fixed", "gurps4e.setup.unknown_house_rule"}  # fmt: skip


def test_naval_battle_leaves_out_land_elements():
    """gurps §A.3.1: a naval battle is fought by naval and air elements (and Nav
    neutralizers); §A.2.2 its superiority classes [inferred]."""
    sides = _setup()["sides"]
    sides["a"]["force"]["rows"].append(row("ship", 10, 2, mobility="naval"))
    sides["b"]["force"]["rows"].append(row("gulls", 1, 1, mobility="fast_air"))
    state = SYSTEM.start(_setup(battle_type="naval", sides=sides), 1)
    assert [r.key for r in state.sides[0].force.rows] == ["ship"]
    assert state.sides[0].ts == 20 and state.sides[1].ts == 1
    assert state.classes == ("Air", "Nav", "C3I", "F", "Rec")
    assert SYSTEM.start_events(state)[0].params["not_taking_part"] == {
        "a": ["hi", "bow"], "b": ["hi", "bow"]}  # fmt: skip
    with pytest.raises(SetupError) as error:
        SYSTEM.start(_setup(battle_type="air"), 1)
    assert "gurps4e.setup.no_element_takes_part" in codes(list(error.value.problems))
    with pytest.raises(SetupError) as error:
        SYSTEM.start(_setup(house_rules={"mobility.air": 5, "desperate.bonus": "4"}), 1)
    assert codes(list(error.value.problems)) == ["gurps4e.setup.bad_house_rule"] * 2


def test_gm_commander_out_hands_command_to_a_pc_successor():
    """gurps §A.6.5: the successor (a PC here) takes over and rolls Leadership (11: 3d6 = 9
    succeeds); the PC now commands and no longer chooses Risk separately."""
    sides = _setup()["sides"]
    sides["a"]["pcs"] = [{"key": "ann", "element": "hi"}]
    sides["a"]["force"]["staff"]["chain"][0]["pc"] = "ann"
    state = SYSTEM.start(_setup(sides=sides), 1)
    assert SYSTEM.legal_actions(state, "ann")
    state, events = _apply(state, None, "gm_commander_out", [3, 3, 3], side="a")
    assert _event(events, "commander_replaced")["confused"] is False
    assert state.pc("ann").commander and SYSTEM.legal_actions(state, "ann") == []
    assert state.sides[0].officer.name == "second"


def test_round_resolves_when_both_secret_choices_are_in():
    """gurps §A.6.3-A.6.4: strategies are secret until both are in; the Quick Contest
    (18 vs 15: rolls 10 and 12, margin 5) -> CRT 20 % / 10 %, PB +2 to the attacker."""
    state = SYSTEM.start(_setup(), 1)
    state, events = _apply(state, "a", "choose_strategy", strategy="attack", risk=1)
    assert _event(events, "strategy_chosen") == {"side": "a", "secret": True}
    assert public_state(state, "b")["choices"][0] == {"chosen": True}
    assert public_state(state, "a")["choices"][0]["strategy"] == "attack"
    assert public_state(state, None)["choices"][0]["strategy"] == "attack"
    state, events = _apply(state, "b", "choose_strategy", [3, 3, 4, 4, 4, 4], strategy="defense")
    contest = _event(events, "strategy_contest")
    assert contest["rolls"][0]["breakdown"] == [
        ["skill.strategy", 14],
        ["bsm.relative_ts", 2],
        ["bsm.superiority.F", 1],
        ["risk", 1],
        ["strategy.attack", 0],
    ]
    assert contest["rolls"][0]["skill"] == 18
    assert contest["rolls"][1]["skill"] == 15
    assert (contest["winner"], contest["margin"]) == ("a", 5)
    assert contest["crt"] == {"margin": 5, "loser": 20, "winner": 10, "pb": 2}
    assert [s.casualties for s in state.sides] == [10, 20]
    assert [s.pb for s in state.sides] == [2, 0]
    assert state.round == 2
    assert state.choices == (None, None)
    # round 2: b's casualties give −4, a's PB +2 is in its roll
    state, events = _apply(state, "a", "choose_strategy", strategy="attack")
    state, events = _apply(state, "b", "choose_strategy", [4, 4, 4, 4, 4, 4], strategy="attack")
    rolls = _event(events, "strategy_contest")["rolls"]
    assert ["pb", 2] in rolls[0]["breakdown"]
    assert ["bsm.casualties", -4] in rolls[1]["breakdown"]


def test_tactics_for_forces_of_one_to_four_elements():
    """gurps §A.6.4: Tactics instead of Strategy with 1-4 elements."""
    sides = {
        "a": {"force": force_data(row("hi", 4, 4))},
        "b": {"force": force_data(row("hi", 4, 5))},
    }
    state = SYSTEM.start(_setup(sides=sides), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="attack")
    state, events = _apply(state, "b", "choose_strategy", [4] * 6, strategy="attack")
    rolls = _event(events, "strategy_contest")["rolls"]
    assert rolls[0]["breakdown"][0] == ["skill.tactics", 14]
    assert rolls[1]["breakdown"][0] == ["skill.strategy", 14]


def test_recon_ambush_then_battle_kind_choice_and_first_round_restrictions():
    """gurps §A.4.4: an ambush (margin ≥ 5) lets the winner choose the battle; the ambushed
    side is confused (Rally or Full Retreat only) and the ambusher may not defend in round 1."""
    setup = _setup(recon={"a": {}, "b": {}}, start_dice=[1, 1, 1, 6, 6, 5, 3])
    state = SYSTEM.start(setup, 1)
    assert state.recon["result"] == "ambush"
    assert state.phase == "battle_kind"
    assert SYSTEM.legal_actions(state, "b") == []
    kinds = [o.params["kind"] for o in SYSTEM.legal_actions(state, "a")[0].options]
    assert kinds[:2] == ["pitched", "encounter"]
    state, events = _apply(state, "a", "choose_battle_kind", [3], kind="encounter")
    assert _event(events, "battle_set")["confused"] == ["b"]
    assert state.sides[0].ambusher and state.sides[0].db == 2
    b_options = {o.params["strategy"] for o in SYSTEM.legal_actions(state, "b")[0].options}
    assert b_options == {"rally", "full_retreat"}
    a_options = {o.params["strategy"] for o in SYSTEM.legal_actions(state, "a")[0].options}
    assert "defense" not in a_options and "deliberate_attack" not in a_options
    assert "gurps4e.strategy.ambusher_first_round" in _rejected(
        state, "a", "choose_strategy", strategy="defense"
    )


def test_recon_tie_fixes_the_battle_kind_at_start():
    """gurps §A.4.4: a tie rolls 1d vs TR (woodlands 5): 6 -> encounter battle."""
    setup = _setup(recon={"a": {}, "b": {}}, start_dice=[3, 3, 3, 3, 3, 3, 6])
    state = SYSTEM.start(setup, 1)
    assert (state.recon["result"], state.kind, state.phase) == ("tie", "encounter", "choosing")


def test_parley_refused_fights_as_defense_at_minus_one_after_a_change_window():
    """gurps §A.6.3 [impl]: one side Parleys, the other refuses: the Parley side fights as
    Defense −1; a refused Parley is slow, so the refuser may change once."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="parley")
    state, events = _apply(state, "b", "choose_strategy", strategy="attack")
    assert state.phase == "parley"
    assert [s.key for s in SYSTEM.legal_actions(state, "b")] == ["answer_parley"]
    state, _ = _apply(state, "b", "answer_parley", accept=False)
    assert state.phase == "change"
    assert {s.key for s in SYSTEM.legal_actions(state, "b")} == {"change_strategy", "keep_strategy"}
    assert SYSTEM.legal_actions(state, "a") == []
    state, events = _apply(state, "b", "change_strategy", [4] * 6, strategy="all_out_attack")
    contest = _event(events, "strategy_contest")
    assert contest["strategies"] == ["defense", "all_out_attack"]
    breakdown = contest["rolls"][0]["breakdown"]
    assert ["parley_refused", -1] in breakdown and ["db", 2] in breakdown


def test_parley_accepted_or_both_parley_means_no_combat():
    """gurps §A.6.3: both Parley -> negotiation; accepted Parley -> a pause, no combat."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="parley")
    state, _ = _apply(state, "b", "choose_strategy", strategy="attack")
    state, events = _apply(state, "b", "answer_parley", accept=True)
    assert [s.casualties for s in state.sides] == [0, 0] and state.round == 2
    state, _ = _apply(state, "a", "choose_strategy", strategy="parley")
    state, events = _apply(state, "b", "choose_strategy", strategy="parley")
    assert any(e.code == "gurps4e.parley_both" for e in events) and state.round == 3


def test_slow_strategy_lets_the_other_side_keep_or_change():
    """gurps §A.6.3 [impl]: Deliberate Attack is slow: the other side may change once."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="deliberate_attack")
    state, _ = _apply(state, "b", "choose_strategy", strategy="defense")
    assert state.phase == "change"
    state, events = _apply(state, "b", "keep_strategy", [4] * 6)
    contest = _event(events, "strategy_contest")
    assert contest["strategies"] == ["deliberate_attack", "defense"]
    assert ["strategy_superiority.F", 1] not in contest["rolls"][0]["breakdown"]


def test_pairing_two_defenses_skirmish_and_retreat_vs_defense_is_no_battle():
    """gurps §A.6.3 pairing [impl]; §A.6.6 the retreating side leaves, the other wins."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="defense")
    state, events = _apply(state, "b", "choose_strategy", [4] * 6, strategy="mobile_defense")
    assert _event(events, "strategy_contest")["strategies"] == ["skirmish", "skirmish"]
    state, _ = _apply(state, "a", "choose_strategy", strategy="defense")
    state, events = _apply(state, "b", "choose_strategy", [6, 6, 6, 5], strategy="full_retreat")
    assert any(e.code == "gurps4e.no_battle" for e in events)
    assert _event(events, "pursuit")["choice"] == "hold"  # Leadership 18 fails, 1d 5
    assert state.finished and state.victor == 0
    assert SYSTEM.outcome(state).losers == ("b",)


def test_full_retreat_pursuit_with_leadership_success_waits_for_the_choice():
    """gurps §A.7.1: Leadership success -> the victor chooses; Pursue: +5 %, 1d × 5 %
    logistics; §A.7.2 the loser recovers nothing."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, "a", "choose_strategy", strategy="attack")
    # contest a 10 vs b 12; b full retreat loses: 10 % − 10 % = 0, a takes none
    state, events = _apply(
        state, "b", "choose_strategy", [3, 3, 4, 4, 4, 4, 3, 3, 3], strategy="full_retreat"
    )
    assert state.phase == "pursuit" and not state.finished
    assert _event(events, "pursuit_roll")["chooses"] is True
    state, events = _apply(state, "a", "choose_pursuit", [2], pursue=True)
    assert state.finished
    details = SYSTEM.outcome(state).details
    assert details["sides"]["b"]["casualties"] == 5
    assert details["sides"]["b"]["logistics_losses"] == 10
    assert details["sides"]["b"]["final_casualties"] == 5
    assert details["pursuit"]["choice"] == "pursue"


def test_desperate_is_offered_only_with_the_casualty_gap():
    """gurps §A.6.3 [impl]: Desperate needs 25 points more casualties; +4 to the roll."""
    state = SYSTEM.start(_setup(), 1)
    options = SYSTEM.legal_actions(state, "b")[0].options
    assert not any(o.params["desperate"] for o in options)
    state = state.with_side(
        1, state.sides[1].__class__(**{**state.sides[1].__dict__, "casualties": 30})
    )
    options = SYSTEM.legal_actions(state, "b")[0].options
    desperate = [o for o in options if o.params["desperate"]]
    assert {o.params["strategy"] for o in desperate} >= {"attack", "all_out_attack"}
    assert "skirmish" not in {o.params["strategy"] for o in desperate}
    assert ("desperate", 4) in desperate[0].checks[0].modifier_breakdown


def test_pcs_choose_risk_roll_significant_actions_and_suffer_misfortunes():
    """gurps §A.6.2: a significant action 3d6 vs 5 + mods (crit +2); §A.6.5 a misfortune
    (10 % casualties -> chance 6, + Risk 3 = 9): 2d−1 injury."""
    sides = _setup()["sides"]
    sides["a"]["pcs"] = [{"key": "ann", "hp": 5, "element": "hi", "skill_15": True}]
    state = SYSTEM.start(_setup(sides=sides), 1)
    assert {s.key for s in SYSTEM.legal_actions(state, "ann")} == {
        "choose_risk",
        "significant_action",
    }
    state, events = _apply(state, "ann", "significant_action", [1, 1, 2], risk=3)
    roll = _event(events, "significant_action")
    assert roll["roll"]["skill"] == 9 and roll["effect"] == 2
    assert SYSTEM.legal_actions(state, "ann") == []
    state, _ = _apply(state, "a", "choose_strategy", strategy="attack")
    # contest: a 10 (skill 19) vs b 12 (skill 15) -> a wins by 5: a 10 %; misfortune 3d6 = 9
    # vs 9 succeeds: 2d−1 = 6 -> Ann at −1 HP, rescued because her side won
    state, events = _apply(
        state, "b", "choose_strategy", [3, 3, 4, 4, 4, 4, 3, 3, 3, 3, 4], strategy="defense"
    )
    assert ["significant_actions", 2] in _event(events, "strategy_contest")["rolls"][0]["breakdown"]
    misfortune = _event(events, "misfortune")
    assert misfortune["roll"]["skill"] == 9 and misfortune["damage"] == 6
    assert misfortune["result"] == "rescued"
    assert state.pc("ann").status == "down"


def test_commander_pc_out_of_action_successor_rolls_leadership():
    """gurps §A.6.5: the commander falls -> the next in the chain rolls Leadership; failure
    -> the force is confused."""
    sides = _setup()["sides"]
    sides["b"]["pcs"] = [{"key": "bob", "hp": 1, "element": "hi", "commander": True}]
    state = SYSTEM.start(_setup(sides=sides), 1)
    assert SYSTEM.legal_actions(state, "bob") == []
    state, _ = _apply(state, "a", "choose_strategy", strategy="attack")
    # a wins by 5: b 20 % -> chance 7 + Risk 3; misfortune 3+3+3 succeeds; 2d−1 = 1; captured;
    # successor (Leadership 11) rolls 6+6+6: fails -> confused
    state, events = _apply(
        state,
        "b",
        "choose_strategy",
        [3, 3, 4, 4, 4, 4, 3, 3, 3, 1, 1, 6, 6, 6],
        strategy="defense",
        risk=3,
    )
    assert _event(events, "misfortune")["result"] == "captured"
    replaced = _event(events, "commander_replaced")
    assert replaced["successor"] == "second" and replaced["confused"] is True
    assert state.sides[1].confused and state.sides[1].commander == 1


def test_rally_clears_confusion_on_leadership_minus_two():
    """gurps §A.6.3 [impl]: Rally: Leadership −2 at the end of the round."""
    state = SYSTEM.start(_setup(), 1)
    state = state.with_side(
        1, state.sides[1].__class__(**{**state.sides[1].__dict__, "confused": True})
    )
    state, _ = _apply(state, "a", "choose_strategy", strategy="attack")
    state, events = _apply(state, "b", "choose_strategy", [4] * 6 + [3, 3, 3], strategy="rally")
    rally = _event(events, "rally")
    assert rally["roll"]["skill"] == 10 and rally["rallied"] is True
    assert not state.sides[1].confused


def test_gm_commands():
    """gurps §A.9.4: special circumstances −3…+3; ending the battle; GM-only."""
    state = SYSTEM.start(_setup(), 1)
    state, _ = _apply(state, None, "gm_circumstance", side="b", value=-3)
    assert state.sides[1].circumstance == -3
    assert "gurps4e.command.bad_params" in _rejected(
        state, None, "gm_circumstance", side="b", value=5
    )
    assert "gurps4e.command.gm_only" in _rejected(state, "a", "gm_end_battle")
    state, _ = _apply(state, None, "gm_end_battle", reason="parley")
    assert SYSTEM.outcome(state).winner is None


def test_illegal_commands_are_rejected_not_raised():
    """gurps §A.6.3: bad input gives Rejected with problem codes."""
    state = SYSTEM.start(_setup(), 1)
    assert _rejected(state, "a", "fly") == ["gurps4e.command.unknown"]
    assert _rejected(state, "a", "choose_strategy", strategy="rally") == [
        "gurps4e.strategy.not_confused"
    ]
    assert _rejected(state, "a", "choose_strategy", strategy="attack", risk=4) == [
        "gurps4e.risk.out_of_range"
    ]
    assert _rejected(state, "a", "choose_strategy", strategy=None) == ["gurps4e.strategy.unknown"]
    assert _rejected(state, "a", "answer_parley", accept=True) == [
        "gurps4e.command.not_your_choice"
    ]
    assert _rejected(state, "zed", "choose_risk", risk=0) == ["gurps4e.command.unknown_actor"]
    bad = SYSTEM.apply(
        state, Command("a", "choose_strategy", {"strategy": "attack"}), ScriptedDice([])
    )
    state = bad[0]
    bad = SYSTEM.apply(
        state,
        Command("b", "choose_strategy", {"strategy": "attack"}, typed_dice=(9,)),
        ScriptedDice([9]),
    )
    assert isinstance(bad, Rejected)


def test_state_round_trips_through_json_and_replays():
    """DESIGN: a battle is setup + seed + commands; snapshots are plain JSON."""
    setup = _setup()
    commands = [
        Command("a", "choose_strategy", {"strategy": "attack"}),
        Command("b", "choose_strategy", {"strategy": "defense"}),
    ]
    state, events = replay(SYSTEM, setup, 7, commands)
    again, _ = replay(SYSTEM, setup, 7, commands)
    assert again == state
    data = json.loads(json.dumps(state.to_dict()))
    assert BattleState.from_dict(data) == state
    assert SYSTEM.state_from_dict(data).to_dict() == state.to_dict()
    json.dumps([e.to_dict() for e in events])


def test_public_state_hides_enemy_details_and_shows_intelligence():
    """gurps §A.5.1: a side sees the enemy at the precision of its intelligence; DESIGN
    "Visibility": no enemy HP, no pending enemy strategy; a spectator sees neither side's."""
    sides = _setup()["sides"]
    sides["b"]["pcs"] = [{"key": "bob", "hp": 9, "element": "hi"}]
    state = SYSTEM.start(_setup(sides=sides), 1)
    state, _ = _apply(state, "b", "choose_strategy", strategy="attack")
    view = public_state(state, "a")
    assert set(view["sides"][1]) == {"casualties", "pb", "confused", "left"}
    assert view["choices"] == [None, {"chosen": True}]
    assert view["pcs"] == [{"key": "bob", "name": "", "side": 1, "status": "active"}]
    assert view["intelligence"]["precision"] == "exact"
    assert "opening" not in view
    assert public_state(state, "bob")["choices"][1]["strategy"] == "attack"
    assert public_state(state, "bob")["pcs"][0]["hp"] == 9
    spectator = public_state(state, "someone")
    assert spectator["choices"][1] == {"chosen": True} and "intelligence" not in spectator
    assert public_state(state, None)["sides"][1]["bsm"] == []


def _with(state, index, **changes):
    side = state.sides[index]
    return state.with_side(index, side.__class__(**{**side.__dict__, **changes}))


def test_mutual_destruction_both_recover_as_winners():
    """gurps §A.6.6, §A.7.2: both at 100 % -> no victor; each recovers as a winner would
    (100 % -> 50 %). All-Out Attack on both sides, tie: 10 % × 2 = 20 % each."""
    state = SYSTEM.start(_setup(), 1)
    state = _with(_with(state, 0, casualties=80), 1, casualties=80)
    state, _ = _apply(state, "a", "choose_strategy", strategy="all_out_attack")
    # skills 3 (14 + BSM 3 + 2 − 16) and 0 (14 + 2 − 16): 12 vs 9 tie at margin −9
    state, events = _apply(state, "b", "choose_strategy", [4, 4, 4, 3, 3, 3],
                           strategy="all_out_attack")  # fmt: skip
    assert _event(events, "strategy_contest")["winner"] is None
    outcome = SYSTEM.outcome(state)
    assert (outcome.winner, outcome.losers) == (None, ())
    assert outcome.details["end_reason"] == "mutual_destruction"
    assert [outcome.details["sides"][k]["final_casualties"] for k in "ab"] == [50, 50]
    assert outcome.details["sides"]["a"]["new_ts"] == 25  # TS 50 at 50 %


def test_the_loser_recovers_nothing_and_loses_its_fanatic_elements():
    """gurps §A.7.2-A.7.3: the loser keeps its casualties (30 %) and its Fanatic elements are
    destroyed (TS 36 − 8 = 28 × 70 % -> 19); the winner recovers half to the lower 5 %
    (10 % -> 5 %: TS 50 -> 47); §A.7.4 loot time for 23 elements: 1 hour."""
    sides = _setup()["sides"]
    sides["b"]["force"]["rows"].append(row("zed", 2, 4, features=["fanatic"]))
    state = SYSTEM.start(_setup(sides=sides), 1)
    state = _with(_with(state, 0, casualties=10), 1, casualties=30)
    state, _ = _apply(state, None, "gm_end_battle", victor="a", reason="gm")
    details = SYSTEM.outcome(state).details
    b = details["sides"]["b"]
    assert (b["role"], b["final_casualties"], b["destroyed_rows"], b["new_ts"]) == (
        "loser", 30, ["zed"], 19)  # fmt: skip
    a = details["sides"]["a"]
    assert (a["role"], a["final_casualties"], a["new_ts"]) == ("winner", 5, 47)
    assert details["loot"] == {"minutes": 60, "holder": "a"}
    assert SYSTEM.outcome(state).losers == ("b",)


def test_both_sides_retreating_leave_no_victor():
    """gurps §A.6.6 [impl]: both retreat -> no battle, no victor; both recover [inferred]."""
    state = SYSTEM.start(_setup(), 1)
    state = _with(_with(state, 0, casualties=30), 1, casualties=20)
    state, _ = _apply(state, "a", "choose_strategy", strategy="full_retreat")
    state, events = _apply(state, "b", "choose_strategy", strategy="fighting_retreat")
    outcome = SYSTEM.outcome(state)
    assert outcome.winner is None and outcome.details["end_reason"] == "retreat"
    assert [outcome.details["sides"][k]["final_casualties"] for k in "ab"] == [15, 10]
