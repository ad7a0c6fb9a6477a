"""Property tests of the GURPS 3e battle engine (DESIGN.md: a battle is setup + seed +
commands; gurps §B.8.2 casualties).

Random setups (units of every armour, defensive items, PCs with personality limits, house or
GM casualties, extended battles) and random sequences of LEGAL commands (from
`legal_actions`, plus GM modifiers and GM casualties) must: replay to the identical state;
survive a JSON round trip; never take a unit below 0 men nor a casualty above 100 %; and
every option `legal_actions` lists must be accepted.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warfare.engine.battle.protocol import Command, Rejected, SetupError, command_dice, replay
from warfare.engine.systems.gurps3e.battle import SYSTEM, BattleState, validate_setup
from warfare.engine.systems.gurps3e.characters import LIMITS, ROLES
from warfare.engine.systems.gurps3e.forces import ARMOUR

DEFENSIVE = [{"code": "castle"}, {"code": "narrow_passage", "value": 5}, {"code": "steep_slope"},
             {"code": "higher_ground", "value": -4}, {"code": "fieldworks"}]  # fmt: skip


@st.composite
def units(draw, prefix):
    count = draw(st.integers(1, 3))
    return [
        {
            "key": f"{prefix}{n}",
            "men": draw(st.integers(1, 500)),
            "ts_per_man": draw(st.integers(1, 6)),
            "racial": draw(st.integers(-2, 3)),
            "armour": draw(st.sampled_from(ARMOUR)),
            "morale": draw(st.integers(6, 16)),
        }
        for n in range(count)
    ]


@st.composite
def setups(draw):
    roles = draw(st.sampled_from([("attacker", "defender"), ("defender", "attacker")]))
    sides = []
    for key, role in zip("ab", roles, strict=True):
        data = {
            "key": key,
            "role": role,
            "tl": draw(st.integers(0, 16)),
            "strategy": draw(st.integers(8, 18)),
            "units": draw(units(key)),
        }
        if role == "defender":
            data["defensive"] = draw(st.lists(st.sampled_from(DEFENSIVE), max_size=3,
                                              unique_by=lambda d: d["code"]))  # fmt: skip
        sides.append(data)
    pcs = [
        {
            "key": f"p{n}",
            "side": draw(st.sampled_from("ab")),
            "ht": draw(st.integers(1, 16)),
            "dr": draw(st.integers(0, 8)),
            "toughness": draw(st.integers(0, 2)),
            "luck": draw(st.integers(0, 1)),
            "tactics": draw(st.none() | st.integers(8, 16)),
            "weapon_skill": draw(st.integers(8, 18)),
            "limits": draw(st.lists(st.sampled_from(LIMITS), max_size=2, unique=True)),
            "role": draw(st.sampled_from(ROLES[:2])),
        }
        for n in range(draw(st.integers(0, 3)))
    ]
    return {
        "sides": sides,
        "pcs": pcs,
        "days": draw(st.integers(1, 3)),
        "casualties": draw(st.sampled_from(["house", "gm"])),
        "intensity": draw(st.integers(0, 2)),
    }


def _next_command(draw, state: BattleState) -> Command | None:
    if state.phase == "casualties":
        fought = state.pending["fought"]
        return Command(None, "gm_casualties",
                       {"units": {key: draw(st.integers(0, 100)) for key in fought}})  # fmt: skip
    if state.phase == "ended":
        return None
    if draw(st.integers(0, 9)) == 0:
        side, other = draw(st.sampled_from("ab")), draw(st.integers(-3, 3))
        return Command(None, "gm_modifiers", {"side": side, "other": other})
    actors = [c.key for c in state.characters] + list(state.sides)
    ready = [a for a in actors if SYSTEM.legal_actions(state, a)]
    actor = draw(st.sampled_from(ready))
    spec = draw(st.sampled_from(SYSTEM.legal_actions(state, actor)))
    params = dict(draw(st.sampled_from(spec.options)).params)
    if "use_luck" in spec.optional_params:
        params["use_luck"] = draw(st.booleans())
    return Command(actor, spec.key, params)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=setups(), seed=st.integers(0, 2**32), script=st.data())
def test_replay_gives_the_same_state_and_casualties_stay_within_100_percent(data, seed, script):
    """DESIGN.md replay; gurps §B.8.2: no unit loses more than it has (casualties <= 100 %)."""
    state = SYSTEM.start(data, seed)
    commands: list[Command] = []
    all_events = []
    for _ in range(40):
        command = _next_command(script.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands)))
        assert not isinstance(result, Rejected), (command, result)
        state, events = result
        commands.append(command)
        all_events += events
        for force in state.forces:
            for unit in force.units:
                assert 0 <= unit.men <= unit.men_start
    for event in all_events:
        if event.code == "battle.casualties":
            for record in event.params["units"]:
                assert 0 <= record["percent"] <= 100
                assert 0 <= record["men_lost"] <= record["men_before"]
    again, _ = replay(SYSTEM, data, seed, commands)
    assert again == state
    assert BattleState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    json.dumps([event.to_dict() for event in all_events])
    if state.phase == "ended":
        out = SYSTEM.outcome(state)
        assert out.winner in (None, "a", "b")
        assert sum(u["men"] for f in out.details["forces"] for u in f["units"]) <= sum(
            u["men"] for s in data["sides"] for u in s["units"]
        )


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),  # fmt: skip
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(data=setups(), path=st.integers(0, 10**6), junk=JSON)
def test_a_broken_setup_is_refused_with_problems_never_a_crash(data, path, junk):
    """gurps §B.10 setup: `validate_setup` lists problems (never raises) whatever one
    field holds; `start` accepts the setup exactly when there are none."""
    broken = json.loads(json.dumps(data))
    targets = [broken, *broken["sides"], *broken["pcs"]]
    targets += [unit for side in broken["sides"] for unit in side["units"]]
    target = targets[path % len(targets)]
    keys = sorted(target) + ["race", "race_stats", "troop_type", "quality", "reputation"]
    target[keys[path // len(targets) % len(keys)]] = junk
    if validate_setup(broken):
        with pytest.raises(SetupError):
            SYSTEM.start(broken, 1)
    else:
        SYSTEM.start(broken, 1)


@settings(max_examples=150, deadline=None)
@given(data=setups(), actor=st.none() | st.sampled_from(["a", "b", "p0", "zz"]),
       kind=st.sampled_from(["choose_risk", "commit", "gm_modifiers", "gm_casualties", "x"]),
       params=st.dictionaries(st.sampled_from(["risk", "use_luck", "side", "other", "units",
                                               "intensity", "catastrophe"]), JSON, max_size=3),
       typed=st.none() | st.lists(st.integers(-3, 9), max_size=3))  # fmt: skip
def test_bad_commands_are_rejected_never_a_crash(data, actor, kind, params, typed):
    """Protocol: `apply` answers any command with a new state or `Rejected`, never an exception."""
    state = SYSTEM.start(data, 1)
    command = Command(actor, kind, params, tuple(typed) if typed is not None else None)
    result = SYSTEM.apply(state, command, command_dice(1, 0, command.typed_dice))
    assert isinstance(result, Rejected | tuple)
