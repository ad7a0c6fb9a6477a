"""Starting positions offered to their controller after initiative (pf2e §7.3 step 1, §6.1
Ambush / Opening Salvo, §6.2 Swamp Charge): the positions phase before round 1."""

from tests.engine.battle.helpers import CAV, INF, SKI, army, codes, event, rejected, run, setup
from warfare.engine.battle.protocol import Command, command_dice, replay, undo
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_specialized_spec
from warfare.engine.systems.pf2e.battle import SYSTEM, validate_setup
from warfare.engine.systems.pf2e.battle.actions import strike_modifier
from warfare.engine.systems.pf2e.battle.state import BattleState

SEED = 11


def frogs(key, **entry):
    """M'botuu Frog Riders: Swamp Charge (§6.2)."""
    return {"army": new_army_state(key, new_specialized_spec("mbotuu_frog_riders"), "A1").to_dict(),
            **entry}  # fmt: skip


def offered(ours, theirs, *, initiative, terrain=()):
    data = setup(ours, theirs, terrain=terrain, initiative=initiative)
    data["offer_starts"] = True
    return data, SYSTEM.start(data, SEED)


def choices(state, actor=None):
    """The "choose_start" params open to `actor` (default: the army choosing)."""
    specs = SYSTEM.legal_actions(state, actor or state.to_act)
    assert [spec.key for spec in specs] == ["choose_start"]
    assert all(not option.checks for option in specs[0].options)  # no dice
    return [dict(option.params) for option in specs[0].options]


def choose(state, actor=None, **params):
    return run(state, "choose_start", actor=actor or state.to_act, **params)[:2]


def test_ambush_acting_first_is_offered_near_or_engaged_with_each_enemy():
    """§6.1 Ambush: acting before every enemy army it may start engaged with an enemy that
    rolled lower initiative; the board waits for it before round 1 (§7.3)."""
    theirs = [army("b1", INF, 8), army("b2", INF, 8)]
    initiative = {"s1": 20, "b1": 1, "b2": 2}
    _data, state = offered([army("s1", SKI, 8, ("ambush",))], theirs, initiative=initiative)
    assert state.order[0] == "s1"
    assert state.positions == (("s1", None, None),)
    assert state.current is None and state.to_act == "s1"
    assert codes(state.opening)[-1] == "battle.start_offered"
    assert "battle.round_started" not in codes(state.opening)
    assert choices(state) == [
        {"start": "near"},
        {"start": "engaged", "target": "b1"},
        {"start": "engaged", "target": "b2"},
    ]
    assert SYSTEM.legal_actions(state, "b1") == []


def test_ambush_or_opening_salvo_acting_after_an_enemy_is_not_offered():
    """§6.1: only "if it acts before every enemy army"; otherwise round 1 begins at once."""
    _data, state = offered(
        [army("s1", SKI, 8, ("ambush", "opening_salvo"))], [army("b1", INF, 8)],
        initiative={"s1": 1, "b1": 20},
    )  # fmt: skip
    assert state.order == ("b1", "s1")
    assert state.positions == ()
    assert state.current == "b1"
    assert "battle.start_offered" not in codes(state.opening)


def test_opening_salvo_choice_starts_distant_then_round_1_begins():
    """§6.1 Opening Salvo: acting first, it may start distant from all enemy armies."""
    _data, state = offered([army("c1", CAV, 8, ("opening_salvo",))], [army("b1", INF, 8)],
                           initiative={"c1": 20, "b1": 1})  # fmt: skip
    assert choices(state) == [{"start": "near"}, {"start": "distant"}]
    state, events = choose(state, start="distant")
    assert state.army("c1").position == "distant"
    assert codes(events) == [
        "battle.start_distant", "battle.round_started", "battle.turn_started",
    ]  # fmt: skip
    assert state.positions == () and state.current == "c1" and state.actions_left == 3
    assert state.sequence == 1


def test_staying_near_is_logged_and_leaves_the_army_near():
    """§7.2: near is the default starting position."""
    _data, state = offered([army("c1", CAV, 8, ("opening_salvo",))], [army("b1", INF, 8)],
                           initiative={"c1": 20, "b1": 1})  # fmt: skip
    state, events = choose(state, start="near")
    assert codes(events)[0] == "battle.start_near"
    assert state.army("c1").position == "near" and state.engagements == ()
    assert state.current == "c1"


def test_ambush_choice_engages_and_gives_plus_2_status_to_the_first_attack():
    """§6.1 Ambush: +2 status to its first attack war action vs that army in round 1."""
    _data, state = offered([army("s1", SKI, 8, ("ambush",))], [army("b1", INF, 8)],
                           initiative={"s1": 20, "b1": 1})  # fmt: skip
    state, events = choose(state, start="engaged", target="b1")
    assert state.is_engaged("s1", "b1")
    assert event(events, "battle.engaged").params["reason"] == "ambush"
    modifier = strike_modifier(state, "s1", "melee", target="b1")
    assert dict(modifier.breakdown)["tactic.ambush"] == 2


def test_swamp_charge_is_offered_only_with_swamp_or_water_even_acting_last():
    """§6.2 Swamp Charge: "if the battlefield has swamp or water it may start engaged with a
    chosen enemy army; then +1 circumstance to melee Strikes vs that army on its first
    turn" — no initiative condition."""
    _data, dry = offered([frogs("f1")], [army("b1", INF, 10)], initiative={"f1": 1, "b1": 20})
    assert dry.positions == () and dry.current == "b1"
    _data, state = offered([frogs("f1")], [army("b1", INF, 10)], terrain=("water",),
                           initiative={"f1": 1, "b1": 20})  # fmt: skip
    assert state.order == ("b1", "f1")
    assert choices(state) == [{"start": "near"}, {"start": "engaged", "target": "b1"}]
    state, _events = choose(state, start="engaged", target="b1")
    assert state.is_engaged("f1", "b1")
    modifier = strike_modifier(state, "f1", "melee", target="b1")
    assert dict(modifier.breakdown)["tactic.swamp_charge"] == 1
    assert state.current == "b1"


def test_a_fortified_enemy_cannot_be_chosen():
    """§7.2 / §9 Fortified: an army in a fortification cannot be engaged."""
    data = setup([army("s1", SKI, 8, ("ambush",))],
                 [army("b1", INF, 8, fortification="keep", garrisoned=True), army("b2", INF, 8)],
                 fortifications=[{"key": "keep", "kind": "keep", "side": "e"}],
                 initiative={"s1": 20, "b1": 1, "b2": 1})  # fmt: skip
    data["offer_starts"] = True
    state = SYSTEM.start(data, SEED)
    assert choices(state) == [{"start": "near"}, {"start": "engaged", "target": "b2"}]


def _three_choosers():
    """s1 (Ambush) and c1 (Opening Salvo, pre-chosen distant) act before the frog riders,
    who have Swamp Charge in a swamp."""
    return offered(
        [army("s1", SKI, 8, ("ambush",)), army("c1", CAV, 8, ("opening_salvo",), start="distant")],
        [frogs("f1")],
        terrain=("swamp",),
        initiative={"s1": 20, "c1": 19, "f1": 1},
    )


def test_several_choosers_choose_in_initiative_order_with_pre_answers_between():
    """§7.3 step 1: starts are taken in initiative order; a start given in the setup is a
    pre-answer taken in its place."""
    _data, state = _three_choosers()
    assert state.order == ("s1", "c1", "f1")
    assert state.positions == (("s1", None, None), ("c1", "distant", None), ("f1", None, None))
    assert state.to_act == "s1"
    assert rejected(state, "choose_start", actor="f1", start="near") == ["battle.not_your_start"]
    state, events = choose(state, start="near")
    assert codes(events) == ["battle.start_near", "battle.start_distant", "battle.start_offered"]
    assert state.army("c1").position == "distant" and state.to_act == "f1"
    assert SYSTEM.legal_actions(state, "s1") == []
    assert choices(state) == [
        {"start": "near"},
        {"start": "engaged", "target": "s1"},
        {"start": "engaged", "target": "c1"},
    ]
    state, events = choose(state, start="engaged", target="c1")
    assert state.is_engaged("f1", "c1")
    assert state.army("c1").position == "near"  # §7.2: engaging ends distant
    assert codes(events)[-2:] == ["battle.round_started", "battle.turn_started"]
    assert state.current == "s1" and state.positions == ()


def test_other_commands_wait_for_the_choice():
    """While a start is chosen nothing else happens: war actions, end of turn and GM
    corrections are rejected (the GM answers for the army instead)."""
    _data, state = _three_choosers()
    assert rejected(state, "end_turn", actor="s1") == ["battle.start_pending"]
    assert rejected(state, "battle", actor="s1", target="f1", weapon="melee") == [
        "battle.start_pending"
    ]
    assert rejected(state, "gm_correction", army="s1", hp=1) == ["battle.start_pending"]
    assert rejected(state, "use_reaction", actor="s1") == ["battle.start_pending"]
    for params in ({"start": "distant"}, {"start": "engaged", "target": "c1"},
                   {"start": "engaged", "target": "zz"}, {"start": "far"}, {}):  # fmt: skip
        assert rejected(state, "choose_start", actor="s1", **params) == ["battle.bad_start_choice"]
    state, _events = choose(state, start="near")
    state, _events = choose(state, start="near")
    assert rejected(state, "choose_start", actor="s1", start="near") == ["battle.no_start_pending"]


def test_choices_replay_and_undo_exactly():
    """DESIGN.md: setup + seed + commands replay to the same state; undo = replay one less."""
    data, state = _three_choosers()
    commands = [
        Command("s1", "choose_start", {"start": "engaged", "target": "f1"}),
        Command("f1", "choose_start", {"start": "near"}),
        Command("s1", "battle", {"target": "f1", "weapon": "melee"}),
    ]
    history = [state]
    for index, command in enumerate(commands):
        state, _events = SYSTEM.apply(state, command, command_dice(SEED, index, None))
        history.append(state)
    assert history[1].to_dict()["positions"] == [["f1", None, None]]
    replayed, events = replay(SYSTEM, data, SEED, commands)
    assert replayed.to_dict() == state.to_dict()
    assert BattleState.from_dict(history[1].to_dict()) == history[1]
    assert codes(events).count("battle.start_offered") == 2
    for count in (2, 1):
        undone, _events, _rest = undo(SYSTEM, data, SEED, commands[: count + 1])
        assert undone.to_dict() == history[count].to_dict()


def test_setup_starts_and_battles_without_offer_replay_as_before():
    """Old setups: a start given in the setup is taken as before, and without
    "offer_starts" an eligible army stays near; the snapshot has no "positions" key, so a
    battle without an army left to choose is the same with or without the offer."""
    ours = [army("s1", SKI, 8, ("ambush",), start="engaged", start_target="b1")]
    data = setup(ours, [army("b1", INF, 8)], initiative={"s1": 20, "b1": 1})
    old = SYSTEM.start(data, SEED)
    new = SYSTEM.start({**data, "offer_starts": True}, SEED)
    assert old.to_dict() == new.to_dict()
    assert "positions" not in new.to_dict()
    assert new.is_engaged("s1", "b1") and new.current == "s1"
    plain = setup([army("s1", SKI, 8, ("ambush",))], [army("b1", INF, 8)],
                  initiative={"s1": 20, "b1": 1})  # fmt: skip
    state = SYSTEM.start(plain, SEED)
    assert state.positions == () and state.current == "s1" and state.engagements == ()


def test_setup_near_pre_answer_and_bad_values():
    """A setup may pre-answer "near"; an unknown start or a non-boolean flag is refused."""
    ours = [army("c1", CAV, 8, ("opening_salvo",), start="near")]
    data = {**setup(ours, [army("b1")], initiative={"c1": 20, "b1": 1}), "offer_starts": True}
    state = SYSTEM.start(data, SEED)
    assert state.positions == () and "battle.start_near" in codes(state.opening)
    bad = {**setup([army("c1", start="far")], [army("b1")]), "offer_starts": "yes"}
    assert [p.code for p in validate_setup(bad)] == [
        "battle.setup.bad_start", "battle.setup.bad_offer_starts",
    ]  # fmt: skip
