"""The GURPS 3e battle behind the shared protocol (gurps §B.2 sequence, §B.4-§B.8)."""

import json

import pytest

from tests.engine.gurps3e.helpers import run, set_house, setup, side
from warfare.engine.battle.protocol import Command, Rejected, SetupError, command_dice, replay
from warfare.engine.dice import ScriptedDice
from warfare.engine.problems import codes
from warfare.engine.systems.gurps3e.battle import SYSTEM, BattleState

A_STRONG = side("a", "attacker", strategy=14, units=[
    {"key": "a1", "men": 100, "ts_per_man": 2, "armour": "heavy"},
    {"key": "a2", "men": 100, "ts_per_man": 2}])  # fmt: skip
B_CASTLE = side("b", "defender", strategy=12, units=[{"key": "b1", "men": 200, "ts_per_man": 1}],
                defensive=[{"code": "castle"}])  # fmt: skip
EVEN_A = side("a", "attacker", units=[{"key": "a1", "men": 100, "ts_per_man": 1},
                                      {"key": "a2", "men": 100, "ts_per_man": 1}])  # fmt: skip
EVEN_B = side("b", "defender", units=[{"key": "b1", "men": 200, "ts_per_man": 1}])
PC = {"key": "p1", "side": "a", "ht": 12, "dr": 2, "tactics": 12, "weapon_skill": 12,
      "role": "unit_commander"}  # fmt: skip


def reject(state, actor, kind, params=None, typed=None):
    result = SYSTEM.apply(state, Command(actor, kind, params or {}, typed), ScriptedDice([]))
    assert isinstance(result, Rejected)
    return codes(list(result.problems))


def events_of(events, code):
    return [event.params for event in events if event.code == code]


def test_setup_problems():
    """gurps §B.2 step 1: two sides, one Attacker and one Defender; defensive position
    items only for the defender (§B.7.2); battle TL 0..16 (§B.5)."""
    bad_a = side("a", "attacker", tl=17, units=[{"key": "a1", "men": 0, "ts_per_man": 1}],
                 defensive=[{"code": "moat"}], morale_modifiers=["revenge"])  # fmt: skip
    bad_b = side("b", "attacker", defensive=[{"code": "castle"}], units=[
        {"key": "b1", "men": 10, "ts_per_man": 1, "armour": "plate"}])  # fmt: skip
    pcs = [{"key": "a", "side": "c", "ht": 0, "limits": ["brave"], "role": "king"}]
    with pytest.raises(SetupError) as error:
        SYSTEM.start(setup(bad_a, bad_b, pcs, days=0, casualties="dice"), 1)
    assert set(codes(list(error.value.problems))) == {
        "battle.setup.one_attacker_one_defender",
        "battle.setup.bad_tl",
        "battle.setup.bad_unit_number",
        "battle.setup.unknown_defensive_item",
        "battle.setup.unknown_morale_modifier",
        "battle.setup.defensive_position_not_defender",
        "battle.setup.unknown_armour",
        "battle.setup.duplicate_pc_key",
        "battle.setup.unknown_side",
        "battle.setup.bad_pc_number",
        "battle.setup.unknown_limit",
        "battle.setup.unknown_role",
        "battle.setup.bad_days",
        "battle.setup.bad_casualty_mode",
    }
    with pytest.raises(SetupError):
        SYSTEM.start({"sides": []}, 1)
    units = [{"key": "b1", "men": 10, "troop_type": "knights", "race": "elves", "quality": "raw",
              "race_stats": {"dex": 1}}]  # fmt: skip
    b = {"key": "b", "role": "defender", "tl": 3, "units": units}
    with pytest.raises(SetupError) as error:
        SYSTEM.start(setup(b=b, pcs=[{"key": "p", "side": "a", "ht": 13, "ht_max": 12}]), 1)
    assert set(codes(list(error.value.problems))) == {
        "battle.setup.bad_side_number",  # no Strategy skill
        "battle.setup.unknown_troop_type",  # no ts_per_man and not in the house table
        "battle.setup.unknown_race",
        "battle.setup.unknown_quality",
        "battle.setup.bad_race_stats",
        "battle.setup.bad_pc_number",  # HT above HT max
    }


def test_legal_actions_show_risk_limits_and_both_skills():
    """gurps §B.4: a berserker picks -6..0; each option previews Survival (Combat Skill +
    Risk) and Glory (Combat Skill - Risk)."""
    state = SYSTEM.start(setup(pcs=[{**PC, "limits": ["berserk"], "luck": 1}]), 1)
    (spec,) = SYSTEM.legal_actions(state, "p1")
    assert spec.key == "choose_risk"
    assert [o.params["risk"] for o in spec.options] == [-6, -5, -4, -3, -2, -1, 0]
    survival, glory = spec.options[0].checks
    assert (survival.stat, survival.modifier, glory.stat, glory.modifier) == (
        "survival", 6, "glory", 18)  # fmt: skip
    assert spec.optional_params == ("use_luck",)
    assert SYSTEM.legal_actions(state, "nobody") == []


def test_commit_previews_the_strategy_breakdown():
    """gurps §B.7: the commander sees his Strategy with the TS and position terms."""
    state = SYSTEM.start(setup(A_STRONG, B_CASTLE), 1)
    (spec,) = SYSTEM.legal_actions(state, "a")
    preview = spec.options[0].checks[0]
    assert (preview.modifier, preview.modifier_breakdown) == (17, (("strategy", 14),
                                                                   ("ts_ratio", 3)))  # fmt: skip
    (spec,) = SYSTEM.legal_actions(state, "b")
    assert spec.options[0].checks[0].modifier_breakdown == (("strategy", 12),
                                                            ("defensive.castle", 8))  # fmt: skip


def test_the_last_commitment_resolves_the_battle():
    """gurps §B.8, §B.8.1: Quick Contest 17 vs 20, both roll 10: Defender wins by 3 (no clear
    winner); house casualties 15 % / 10 % with heavy armour 4 rows down."""
    state = SYSTEM.start(setup(A_STRONG, B_CASTLE), 1)
    state, events = run(state, "a", "commit")
    assert [e.code for e in events] == ["battle.committed"]
    state, events = run(state, "b", "commit", dice=[4, 3, 3, 4, 3, 3])
    (contest,) = events_of(events, "battle.strategy_contest")
    assert (contest["first"]["margin"], contest["second"]["margin"]) == (7, 10)
    assert contest["winner_side"] == "b"
    (res,) = events_of(events, "battle.result")
    assert res["category"] == "no_clear_winner"
    lost = {r["unit"]: r["men_lost"] for c in events_of(events, "battle.casualties")
            for r in c["units"]}  # fmt: skip
    assert lost == {"a1": 0, "a2": 15, "b1": 20}
    assert state.phase == "ended"
    out = SYSTEM.outcome(state)
    assert (out.winner, out.losers) == ("b", ("a",))
    assert [u["battles"] for u in out.details["forces"][0]["units"]] == [1, 1]


def test_overwhelming_defender_victory_routs_failed_units():
    """gurps §B.8.1 Defender won 17+: each Attacker unit rolls Morale at -2; made ->
    retreat in good order, failed -> rout; §B.8.2 a rout moves 1d rows up."""
    b = side("b", "defender", strategy=12, units=[{"key": "b1", "men": 200, "ts_per_man": 1}],
             defensive=[{"code": "castle"}])  # fmt: skip
    state = SYSTEM.start(setup(side("a", "attacker", strategy=10, units=EVEN_A["units"]), b), 1)
    state, _ = run(state, "b", "commit")
    dice = [6, 6, 5, 2, 2, 2, 1, 2, 3, 6, 6, 6, 2]
    state, events = run(state, "a", "commit", dice=dice)
    assert events_of(events, "battle.result")[0]["category"] == "overwhelming_victory"
    (morale,) = events_of(events, "battle.morale")
    assert [r["roll"]["skill"] for r in morale["rolls"]] == [8, 8]
    assert morale["routed"] == ["a2"]
    (a_cas, b_cas) = events_of(events, "battle.casualties")
    assert [(r["percent"], r["men_lost"]) for r in a_cas["units"]] == [(40, 40), (50, 50)]
    assert b_cas["units"][0]["men_lost"] == 0
    a = state.force("a")
    assert a.retreated and a.unit("a1").retreated and a.unit("a2").routed
    assert state.winner == "b"


def test_pc_survival_glory_and_promotion():
    """gurps §B.2 steps 3-7: Survival 17 at 10 is a critical failure: column D at TL3,
    3 x (2d+2 - DR 2) = 2 + 12 + 6; HT 12 -> -8, unconscious, so his side rolls Strategy
    'as for Catastrophes' [house -1]; Glory 3 is a critical success: +2 for 1d months and
    +1 permanently, +2 to Strategy; the reaction 16 + reputation 3 = 19 promotes him."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [PC]), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": -2})
    state, _ = run(state, "a", "commit")
    dice = [6, 6, 5, 1, 1, 6, 6, 3, 3, 1, 1, 1, 4, 4, 4, 4, 4, 4, 4, 6, 6, 4]
    state, events = run(state, "b", "commit", dice=dice)
    (survival,) = events_of(events, "pc.survival")
    assert (survival["result"], survival["damage"], survival["ht"], survival["status"]) == (
        "D", 20, -8, "unconscious")  # fmt: skip
    assert [hit["damage"] for hit in survival["hits"]] == [2, 12, 6]
    (glory,) = events_of(events, "pc.glory")
    assert (glory["row"], glory["strategy_modifier"]) == ("critical_success", 2)
    contest = events_of(events, "battle.strategy_contest")[0]
    assert contest["first"]["breakdown"] == [["strategy", 12], ["glory.p1", 2],
                                             ["leader_down", -1]]  # fmt: skip
    assert events_of(events, "battle.result")[0]["category"] == "no_clear_winner"
    (reaction,) = events_of(events, "pc.reaction")
    assert (reaction["total"], reaction["effects"]) == (19, ["favour", "promotion",
                                                             "elite_offer"])  # fmt: skip
    pc = state.character("p1")
    assert (pc.ht, pc.status, pc.rank) == (-8, "unconscious", 1)
    assert [(r.value, r.expires) for r in pc.reputation] == [(2, 4), (1, None)]
    assert state.winner == "a"


def test_luck_rerolls_survival_and_keeps_the_best():
    """gurps §B.5: Luck may reroll the Survival roll (best of three [inferred])."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [{**PC, "luck": 1}]), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": 0, "use_luck": True})
    state, _ = run(state, "a", "commit")
    dice = [6, 6, 4, 5, 5, 5, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4]
    state, events = run(state, "b", "commit", dice=dice)
    (survival,) = events_of(events, "pc.survival")
    assert [r["roll"] for r in survival["rolls"]] == [16, 15, 6]
    assert (survival["used"], survival["result"]) == (2, "unhurt")
    assert state.character("p1").luck == 0


def test_gm_entered_casualties():
    """gurps §B.8: casualties entered by the GM per unit, rounded up (§B.8.2)."""
    state = SYSTEM.start(setup(A_STRONG, B_CASTLE, casualties="gm"), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4, 3, 3, 4, 3, 3])
    assert state.phase == "casualties"
    assert events_of(events, "battle.casualties_needed") == [{"units": ["a1", "a2", "b1"]}]
    assert SYSTEM.legal_actions(state, "a") == []
    assert reject(state, None, "gm_casualties", {"units": {"a1": 10}}) == [
        "battle.casualties_for_every_unit"]  # fmt: skip
    assert reject(state, None, "gm_casualties", {"units": {"a1": 101, "a2": 0, "b1": 0}}) == [
        "battle.bad_casualty_percent"]  # fmt: skip
    state, events = run(state, None, "gm_casualties", {"units": {"a1": 10, "a2": 0, "b1": 33}})
    assert [u.men for f in state.forces for u in f.units] == [90, 100, 134]
    assert state.phase == "ended"


def test_extended_battle_carries_the_next_day_morale_penalty():
    """gurps §B.8.1: Attacker's minor victory (by 5): the Defender is at -2 Morale the next
    day; day 2, significant victory (by 8): it holds only if half its troops make Morale."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, days=3), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[1, 3, 3, 4, 4, 4])
    assert events_of(events, "battle.result")[0]["category"] == "minor_victory"
    assert events_of(events, "battle.day_started") == [{"day": 2}]
    assert (state.day, state.phase, state.committed) == (2, "choices", ())
    assert state.force("b").next_day_morale == -2
    assert [u.men for f in state.forces for u in f.units] == [90, 90, 160]
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[1, 1, 2, 4, 4, 4, 6, 6, 6])
    (morale,) = events_of(events, "battle.morale")
    assert morale["rolls"][0]["roll"]["breakdown"] == [["morale", 10], ["previous_day", -2]]
    assert morale["holds"] is False
    assert state.phase == "ended" and state.winner == "a"
    assert state.force("b").unit("b1").men == 120  # 160 - 25 %


def test_a_tie_goes_on_to_the_next_day():
    """gurps §B.8.1 [gap]: a tie: both hold, no Morale effects; 10 % each (house)."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, days=2), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4, 4, 4, 4, 4, 4])
    assert events_of(events, "battle.result")[0]["category"] == "tie"
    assert state.day == 2 and state.force("b").next_day_morale == 0


def test_an_unconscious_pc_sits_out_the_next_day():
    """gurps §B.4, §B.5: a PC out of the fight (0 HT or less) chooses no Risk and rolls no
    Survival on the next day of an extended battle."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [{**PC, "ht": 1, "ht_max": 12}], days=2), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": 0})
    state, _ = run(state, "a", "commit")
    state, _ = run(state, "b", "commit", dice=[6, 6, 6] + [1, 1] * 3 + [4] * 9)
    assert state.character("p1").status == "unconscious"
    assert SYSTEM.legal_actions(state, "p1") == []
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4] * 6)
    assert events_of(events, "pc.survival") == []


def test_a_knocked_out_leader_still_counts_the_next_day():
    """gurps §B.2 step 4, §B.8.3: a leader out of the fight keeps his side's Strategy at
    'as for Catastrophes' [house -1] while he is down."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [{**PC, "ht": 1, "ht_max": 12}], days=2), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": 0})
    state, _ = run(state, "a", "commit")
    state, _ = run(state, "b", "commit", dice=[6, 6, 6] + [1, 1] * 3 + [4] * 9)
    preview = SYSTEM.legal_actions(state, "a")[0].options[0].checks[0]
    assert preview.modifier_breakdown == (("strategy", 12), ("leader_down", -1))
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4] * 6)
    contest = events_of(events, "battle.strategy_contest")[0]
    assert contest["first"]["breakdown"] == [["strategy", 12], ["leader_down", -1]]


def test_flat_hits_and_dr(monkeypatch):
    """gurps §B.5: made exactly = 2 hits, straight off HT [inferred]; DR when the house says
    so."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [PC]), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": 0})
    state, _ = run(state, "a", "commit")
    dice = [4, 4, 4, 4, 4, 4] + [4] * 6
    _, events = run(state, "b", "commit", dice=dice)
    assert events_of(events, "pc.survival")[0]["damage"] == 2
    set_house(monkeypatch, "survival.flat_hits_ignore_dr", 0)
    _, events = run(state, "b", "commit", dice=dice)
    assert events_of(events, "pc.survival")[0]["damage"] == 0  # DR 2


def test_a_captured_commander_is_a_lost_commander():
    """gurps §B.8.1 Attacker won by 17+: every Defender unit retreats and its commander is
    captured; §B.8.3: the loss of commanders lasts beyond the battle."""
    a = side("a", "attacker", strategy=16, units=EVEN_A["units"])
    state = SYSTEM.start(setup(a, EVEN_B), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[1, 1, 2, 6, 6, 5])
    assert events_of(events, "battle.result")[0]["category"] == "overwhelming_victory"
    assert events_of(events, "battle.commander_captured") == [{"side": "b"}]
    b = state.force("b")
    assert b.retreated and b.commander_captured and b.commander_lost
    assert b.unit("b1").men == 130  # margin 17: 35 % (house, 4e bands)
    assert SYSTEM.outcome(state).details["forces"][1]["commander_lost"] is True


def test_a_lost_commander_lowers_morale_until_a_clear_victory():
    """gurps §B.8.3: commanders' loss keeps Morale down [house -1] while the army loses,
    draws or wins marginally; a clear victory (minor or better) ends it."""
    lost_a = {**EVEN_A, "commander_lost": True}
    state = SYSTEM.start(setup(lost_a, EVEN_B, days=2), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4, 4, 4, 1, 3, 3, 3, 3, 3, 3, 3, 3])
    (morale,) = events_of(events, "battle.morale")
    assert morale["rolls"][0]["roll"]["breakdown"] == [["morale", 10], ["leader_down", -1]]
    assert morale["holds"] and state.force("a").commander_lost
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[1, 3, 3, 4, 4, 4])
    assert events_of(events, "battle.result")[0]["category"] == "minor_victory"
    assert not state.force("a").commander_lost


def test_a_dead_army_commander_is_a_lost_commander():
    """gurps §B.8.3: an army commander who dies (-5 x HT) is a lost commander."""
    pc = {**PC, "role": "army_commander", "ht": 1}
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [pc]), 1)
    state, _ = run(state, "p1", "choose_risk", {"risk": 0})
    state, _ = run(state, "a", "commit")
    dice = [6, 6, 6] + [6, 6] * 3 + [4, 4, 4] + [4, 4, 4, 4, 4, 4]
    state, events = run(state, "b", "commit", dice=dice)
    assert events_of(events, "pc.survival")[0]["status"] == "dead"
    assert events_of(events, "battle.commander_lost") == [{"side": "a", "pc": "p1"}]
    assert state.force("a").commander_lost


def test_rejections():
    """gurps §B.4: Risk outside the character's limits, Luck he has not got, a choice made twice
    or by the wrong actor are refused with problem codes."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, [{**PC, "limits": ["coward"]}]), 1)
    assert reject(state, "p1", "choose_risk", {"risk": -2}) == ["battle.risk_not_allowed"]
    assert reject(state, "p1", "choose_risk", {"risk": True}) == ["battle.risk_not_allowed"]
    assert reject(state, "p1", "choose_risk", {"risk": 0, "use_luck": True}) == [
        "battle.no_luck"]  # fmt: skip
    assert reject(state, "p1", "choose_risk", {"risk": 0, "x": 1}) == ["battle.unknown_params"]
    assert reject(state, "a", "commit", typed=(3,)) == ["battle.typed_dice_unused"]
    assert reject(state, "b", "choose_risk", {"risk": 0}) == ["battle.not_your_choice"]
    assert reject(state, "a", "charge") == ["battle.unknown_command"]
    assert reject(state, "a", "gm_modifiers", {"intensity": 1}) == ["battle.gm_only"]
    assert reject(state, None, "gm_modifiers", {"side": "c", "other": 1}) == [
        "battle.unknown_side"]  # fmt: skip
    assert reject(state, None, "gm_modifiers", {"side": "c", "intensity": 1}) == [
        "battle.unknown_side"
    ]
    assert reject(state, None, "gm_modifiers", {"intensity": -1}) == ["battle.bad_number"]
    assert reject(state, None, "gm_casualties", {"units": {}}) == ["battle.wrong_phase"]
    state, _ = run(state, "a", "commit")
    assert reject(state, "a", "commit") == ["battle.not_your_choice"]
    state, _ = run(state, "p1", "choose_risk", {"risk": 0})
    result = SYSTEM.apply(state, Command("b", "commit", {}, (7,)), command_dice(1, 3, (7,)))
    assert codes(list(result.problems)) == ["dice.out_of_range"]


def test_gm_modifiers_and_typed_dice_on_the_resolving_command():
    """gurps §B.7.3, §B.8.4: GM catastrophe/other modifiers join the Strategy breakdown;
    dice typed in on the resolving command are used first."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B), 1)
    state, events = run(state, None, "gm_modifiers", {"side": "b", "catastrophe": -3})
    assert events_of(events, "battle.gm_modifiers") == [{"side": "b", "catastrophe": -3}]
    state, _ = run(state, None, "gm_modifiers", {"intensity": 2})
    state, _ = run(state, "a", "commit")
    dice = command_dice(1, 3, (4, 4, 4))
    state, events = SYSTEM.apply(state, Command("b", "commit", {}, (4, 4, 4)), dice)
    contest = events_of(events, "battle.strategy_contest")[0]
    assert contest["first"]["dice"] == [4, 4, 4]
    assert [roll.source for roll in dice.log[:4]] == ["typed"] * 3 + ["seeded"]
    assert contest["second"]["breakdown"] == [["strategy", 12], ["catastrophe", -3]]
    assert reject(state, "a", "commit") == ["battle.ended"]
    (a_cas, _) = events_of(events, "battle.casualties")
    assert a_cas["units"][0]["breakdown"][-1] == ["intensity", 10]


def test_state_round_trips_and_replays():
    """DESIGN.md: setup + seed + commands replay to the same state; state and events are JSON."""
    data = setup(EVEN_A, EVEN_B, [PC], days=2)
    commands = [Command("p1", "choose_risk", {"risk": 1}), Command("a", "commit"),
                Command("b", "commit")]  # fmt: skip
    state, events = replay(SYSTEM, data, 99, commands)
    again, _ = replay(SYSTEM, data, 99, commands)
    assert state == again
    assert BattleState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    json.dumps([event.to_dict() for event in events])
    assert events[0].code == "battle.started"


def _two_days(rule):
    """Day 1: the Attacker wins by 5 (7 vs 12 against 12: a minor victory, §B.8.1); day 2:
    the Defender wins by 2 (no clear winner); neither side leaves the field."""
    state = SYSTEM.start(setup(EVEN_A, EVEN_B, days=2, winner_rule=rule), 1)
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[1, 3, 3, 4, 4, 4])
    (day_one,) = events_of(events, "battle.result")
    assert (day_one["winner"], day_one["category"]) == ("a", "minor_victory")
    state, _ = run(state, "a", "commit")
    state, events = run(state, "b", "commit", dice=[4, 4, 4, 3, 3, 4])
    assert events_of(events, "battle.result")[0]["category"] == "no_clear_winner"
    assert events_of(events, "battle.result")[0]["winner"] == "b"
    return state, events


def test_an_extended_battle_is_won_on_its_days_not_by_the_last_one():
    """gurps §B.1 (seven steps per day of an extended battle), §B.8 ("the winner wins the
    battle, or that day"), §B.8.1 (a 1-3 margin: no clear winner) and the house default
    result.extended_by_clear_victories: the Attacker's minor victory on day 1 outweighs the
    Defender's no-clear-winner day 2, so the Attacker wins the battle (it read "Victory for
    side B", the last day's)."""
    state, events = _two_days("days")
    (ended,) = events_of(events, "battle.ended")
    assert ended == {
        "winner": "a",
        "day": 2,
        "decided_by": "days",
        "days_won": {"a": {"clear": 1, "won": 1}, "b": {"clear": 0, "won": 1}},
    }
    out = SYSTEM.outcome(state)
    assert (out.winner, out.losers, out.details["decided_by"]) == ("a", ("b",), "days")
    assert SYSTEM.state_from_dict(state.to_dict()) == state


def test_battles_set_up_before_the_day_rule_still_end_as_they_were_played():
    """A setup without `winner_rule` (every battle stored before the house default) keeps
    the last day's winner, so its stored board replays exactly."""
    state, events = _two_days(None)
    assert events_of(events, "battle.ended")[0]["decided_by"] == "day"
    assert SYSTEM.outcome(state).winner == "b"
    assert "winner_rule" not in state.to_dict()


def test_equal_days_are_a_draw_under_the_day_rule():
    """House default: one clear victory each and one day won each: nobody wins."""
    from warfare.engine.systems.gurps3e.results import battle_winner

    days = [
        {"winner": "a", "margin": 5},
        {"winner": "b", "margin": 9},
        {"winner": None, "margin": 0},
    ]
    assert battle_winner(days, ("a", "b")) == (
        None,
        {"a": {"clear": 1, "won": 1}, "b": {"clear": 1, "won": 1}},
    )
    days[2] = {"winner": "b", "margin": 2}
    assert battle_winner(days, ("a", "b"))[0] == "b"  # no clear winner, but a day won
