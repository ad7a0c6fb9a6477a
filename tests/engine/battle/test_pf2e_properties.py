"""Property tests of the PF2e battle engine (DESIGN.md: a battle is setup + seed + commands).

Random sequences of LEGAL commands (drawn from `legal_actions`, with optional potions,
typed-in dice and GM corrections; sides that react automatically or are asked, so answers
to offered reactions are commands too; armies with Ambush, Opening Salvo or Swamp Charge
that choose their starting position (§7.3), so those choices are commands too) must: replay
to the identical state; undo then redo to the same state; keep HP within 0..max (§0.3) and
engagements within 4 per army (§7.2); stay JSON-serialisable.
"""

import json

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.engine.battle.helpers import CAV, INF, RANGED_WEAPON, SIE, SKI, army, setup
from warfare.engine.battle.protocol import Command, Rejected, command_dice, replay, undo
from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_specialized_spec
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.state import BattleState


def _specialized(key, kind, hp):
    army_state = new_army_state(key, new_specialized_spec(kind), "A1")
    return {"army": {**army_state.to_dict(), "hp": hp}}


POOL = (
    lambda k: army(k, INF, 5, ("merciless", "keep_up_the_pressure"), potions=2),
    lambda k: army(k, INF, 6, ("field_triage", "flexible_tactics"), gear=RANGED_WEAPON),
    lambda k: army(k, CAV, 5, ("reckless_flankers",)),
    lambda k: army(k, SKI, 5, ("sharpshooter",), gear=RANGED_WEAPON),
    lambda k: army(k, SIE, 11, ("explosive_shot", "flaming_shot")),
    lambda k: army(k, INF, 3, ("focused_devotion",), hp=2, conditions={"shaken": 2}),
    lambda k: army(k, INF, 5, ("defensive_tactics", "hold_the_line"), pcs=True),
    lambda k: army(k, INF, 4, ("toughened_soldiers",), conditions={"mired": 3}),
    lambda k: army(k, SKI, 5, ("flexible_tactics",)),  # Counterattack, False Retreat (§8.2)
    lambda k: _specialized(k, "tiger_lord_berserkers", 4),  # Revel in Battle (§6.2)
    lambda k: _specialized(k, "sootscale_warriors", 4),  # Accustomed to Panic (§6.2)
    lambda k: army(k, SKI, 5, ("ambush",)),  # choose their start (§6.1, §6.2)
    lambda k: army(k, CAV, 5, ("opening_salvo",)),
    lambda k: _specialized(k, "mbotuu_frog_riders", 6),
)
TERRAIN = ((), ("strong_wind",), ("dim_light", "difficult_terrain"), ("darkness",), ("swamp",))


@st.composite
def battles(draw):
    ours = draw(st.lists(st.integers(0, len(POOL) - 1), min_size=1, max_size=3))
    theirs = draw(st.lists(st.integers(0, len(POOL) - 1), min_size=1, max_size=3))
    armies_ours = [POOL[i](f"a{n}") for n, i in enumerate(ours)]
    armies_theirs = [POOL[i](f"b{n}") for n, i in enumerate(theirs)]
    forts = []
    if draw(st.booleans()):
        forts = [{"key": "keep", "kind": "keep", "side": "e"}]
        armies_theirs[0] = {**armies_theirs[0], "fortification": "keep", "garrisoned": True}
    terrain = draw(st.sampled_from(TERRAIN))
    data = setup(armies_ours, armies_theirs, terrain=terrain, fortifications=forts)
    for side in data["sides"]:
        side["auto_reactions"] = draw(st.booleans())
    data["offer_starts"] = draw(st.booleans())
    return data


def _gm_command(draw, state: BattleState) -> Command:
    entry = draw(st.sampled_from(state.armies))
    params = {"army": entry.key}
    # A fled or destroyed army has no position on the field to correct (battle.gm.army_gone).
    kinds = ["hp", "shaken", "position"] if entry.present else ["hp", "shaken"]
    choice = draw(st.sampled_from(kinds))
    if choice == "hp":
        params["hp"] = draw(st.integers(0, entry.army.max_hp))
    elif choice == "shaken":
        params["conditions"] = {"shaken": draw(st.integers(0, 4))}
    else:
        params["position"] = draw(st.sampled_from(["near", "distant"]))
    return Command(None, "gm_correction", params)


def _legal_command(draw, state: BattleState) -> Command:
    waiting = state.pending is not None or state.positions
    if not waiting and draw(st.integers(0, 14)) == 0:
        return _gm_command(draw, state)
    actor = state.to_act
    specs = SYSTEM.legal_actions(state, actor)
    spec = draw(st.sampled_from(specs))
    option = draw(st.sampled_from(spec.options))
    params = dict(option.params)
    if "potion" in spec.optional_params and state.army(actor).army.potion_doses:
        params["potion"] = draw(st.booleans())
    typed = None
    if draw(st.integers(0, 5)) == 0:
        typed = (draw(st.integers(1, 20)),)
    return Command(actor, spec.key, params, typed)


def _check_invariants(state: BattleState) -> None:
    for entry in state.armies:
        assert 0 <= entry.hp <= entry.army.max_hp
        assert len(state.engaged_with(entry.key)) <= 4
        assert entry.shots >= 0
        assert entry.army.potion_doses >= 0
    for a, b in state.engagements:
        assert state.army(a).side != state.army(b).side
        assert state.army(a).present and state.army(b).present
    for fort in state.fortifications:
        assert 0 <= fort.hp <= fort.max_hp
    assert 0 <= state.actions_left <= 3
    data = json.loads(json.dumps(state.to_dict()))
    assert BattleState.from_dict(data) == state


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=battles(), seed=st.integers(0, 2**31))
def test_legal_commands_replay_undo_and_keep_invariants(data, battle, seed):
    state = SYSTEM.start(battle, seed)
    if state.positions:
        event("starting position offered")
    commands: list[Command] = []
    history = [state]
    for _ in range(data.draw(st.integers(1, 40))):
        if state.finished:
            break
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands), command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, events = result
        json.dumps([e.to_dict() for e in events])
        if state.pending is not None:
            event(f"reaction offered: {state.pending.reaction}")
        if state.positions:
            event("starting position offered after a choice")
        commands.append(command)
        history.append(state)
        _check_invariants(state)
        if state.finished:
            assert SYSTEM.outcome(state) is not None
            json.dumps(SYSTEM.outcome(state).to_dict())

    replayed, _ = replay(SYSTEM, battle, seed, commands)
    assert replayed.to_dict() == state.to_dict()

    undone, _, remaining = undo(SYSTEM, battle, seed, commands)
    assert undone.to_dict() == history[-2].to_dict()
    last = commands[-1]
    redone = SYSTEM.apply(undone, last, command_dice(seed, len(remaining), last.typed_dice))
    assert not isinstance(redone, Rejected)
    assert redone[0].to_dict() == state.to_dict()
