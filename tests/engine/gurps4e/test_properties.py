"""Property tests of the GURPS 4e battle engine (DESIGN.md: a battle is setup + seed +
commands; gurps §A.6.4 PB, §A.6.6 casualties).

Random sequences of LEGAL commands (drawn from `legal_actions` of every actor, with GM
commands and typed-in dice now and then) must: be accepted; replay to the identical state;
keep every side's casualties and logistics losses within 0..100 %; never let both sides hold
Position Bonus; stay JSON-serialisable and round-trip through `from_dict`.
"""

import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.engine.gurps4e.helpers import force_data, row
from warfare.engine.battle.protocol import Command, Rejected, SetupError, command_dice, replay
from warfare.engine.systems.gurps4e.battle import SYSTEM, BattleState, validate_setup
from warfare.engine.systems.gurps4e.tables import TERRAIN_RATING

ROWS = (
    lambda: row("hi", 4, 6),
    lambda: row("li", 2, 3, troop_quality="good"),
    lambda: row("cav", 3, 2, classes=["Cav"], features=["impetuous"]),
    lambda: row("art", 5, 1, support=True, classes=["Art"]),
    lambda: row("air", 6, 1, classes=["Air"], mobility="fast_air"),
    lambda: row("aa", 2, 1, neutralizes=["Air"]),
    lambda: row("sc", 1, 2, classes=["Rec"]),
    lambda: row("zed", 2, 4, features=["fanatic"]),
)


@st.composite
def setups(draw):
    sides = {}
    for key in ("a", "b"):
        picks = draw(st.lists(st.integers(0, len(ROWS) - 1), min_size=1, max_size=3, unique=True))
        mobile = draw(st.booleans())
        posture = draw(st.sampled_from(["marching", "lax"] if mobile else ["entrenched", "patrol"]))
        data = force_data(*(ROWS[i]() for i in picks), strategy=draw(st.integers(9, 16)),
                          leadership=draw(st.integers(8, 14)), mobile=mobile, posture=posture,
                          speed=draw(st.integers(5, 30)))  # fmt: skip
        pcs = []
        for n in range(draw(st.integers(0, 2))):
            pcs.append({"key": f"{key}pc{n}", "hp": draw(st.integers(1, 14)),
                        "element": data["rows"][0]["type"]["key"], "skill_15": draw(st.booleans()),
                        "commander": n == 0 and draw(st.booleans())})  # fmt: skip
        sides[key] = {"force": data, "pcs": pcs}
    setup = {"terrain": draw(st.sampled_from(sorted(TERRAIN_RATING))), "sides": sides,
             "siege": draw(st.booleans())}  # fmt: skip
    if draw(st.booleans()):
        setup["recon"] = {"a": {"march": draw(st.integers(0, 2))}, "b": {}}
    else:
        setup["kind"] = draw(st.sampled_from(["pitched", "encounter"]))
        setup["initiative"] = draw(st.sampled_from(["a", "b", None]))
    return setup


def _gm_command(draw, state: BattleState) -> Command:
    kind = draw(st.sampled_from(["gm_circumstance", "gm_commander_out", "gm_detailed_action"]))
    side = draw(st.sampled_from(["a", "b"]))
    if kind == "gm_circumstance":
        return Command(None, kind, {"side": side, "value": draw(st.integers(-3, 3))})
    eligible = [pc for pc in state.pcs if pc.status == "active" and not pc.commander
                and not state.sides[pc.side].left]  # fmt: skip
    if kind == "gm_detailed_action" and eligible:
        pc = draw(st.sampled_from(eligible))
        return Command(None, kind, {"pc": pc.key, "success": draw(st.booleans())})
    return Command(None, "gm_commander_out", {"side": side})


def _legal_command(draw, state: BattleState) -> Command | None:
    actors = [
        a for a in ("a", "b", *(pc.key for pc in state.pcs)) if SYSTEM.legal_actions(state, a)
    ]
    if not actors:
        return None
    if state.phase == "choosing" and draw(st.integers(0, 12)) == 0:
        return _gm_command(draw, state)
    actor = draw(st.sampled_from(actors))
    spec = draw(st.sampled_from(SYSTEM.legal_actions(state, actor)))
    params = dict(draw(st.sampled_from(spec.options)).params)
    if "risk" in spec.optional_params:
        params["risk"] = draw(st.integers(-3, 3))
    if "on_critical" in spec.optional_params:
        params["on_critical"] = draw(st.sampled_from(["injury", "surrender"]))
    typed = (draw(st.integers(1, 6)),) if draw(st.integers(0, 6)) == 0 else None
    return Command(actor, spec.key, params, typed)


def _check(state: BattleState) -> None:
    for side in state.sides:
        assert 0 <= side.casualties <= 100
        assert 0 <= side.logistics <= 100
        assert side.pb >= 0
    assert min(side.pb for side in state.sides) == 0, "only one side holds PB"
    data = json.loads(json.dumps(state.to_dict()))
    assert BattleState.from_dict(data) == state


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**32), st.data())
def test_random_legal_commands_replay_and_keep_invariants(setup, seed, data):
    state = SYSTEM.start(setup, seed)
    _check(state)
    commands: list[Command] = []
    for _ in range(40):
        command = _legal_command(data.draw, state)
        if command is None:
            break
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands), command.typed_dice))
        assert not isinstance(result, Rejected), (command, result)
        state, events = result
        json.dumps([event.to_dict() for event in events])
        commands.append(command)
        _check(state)
    event(f"rounds: {min(state.round, 5)}; finished: {state.finished}")
    replayed, _ = replay(SYSTEM, setup, seed, commands)
    assert replayed == state
    if state.finished:
        assert SYSTEM.outcome(state) is not None
        assert SYSTEM.legal_actions(state, "a") == []


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 20) | st.sampled_from(["a", "b", "attack", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
KINDS = ("choose_battle_kind", "choose_strategy", "choose_risk", "significant_action",
         "answer_parley", "change_strategy", "keep_strategy", "choose_pursuit", "gm_circumstance",
         "gm_commander_out", "gm_detailed_action", "gm_end_battle", "fly")  # fmt: skip
PARAMS = ("strategy", "risk", "desperate", "raid_logistics", "kind", "accept", "pursue", "side",
          "value", "pc", "success", "victor", "reason", "on_critical")  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([None, "a", "b", "ann", "zed"]),
    st.sampled_from(KINDS),
    st.dictionaries(st.sampled_from(PARAMS), JSON, max_size=4),
    st.one_of(st.none(), st.lists(st.integers(-2, 9), max_size=3).map(tuple)),
)
def test_any_command_is_applied_or_rejected_never_raises(actor, kind, params, typed):
    """gurps §A.9.2: bad input gives `Rejected` (never an exception) and leaves the state."""
    setup = {
        "terrain": "hills",
        "sides": {
            "a": {"force": force_data(row("hi", 4, 6)), "pcs": [{"key": "ann", "element": "hi"}]},
            "b": {"force": force_data(row("cav", 3, 4, classes=["Cav"]))},
        },
    }
    state = SYSTEM.start(setup, 3)
    before = state.to_dict()
    result = SYSTEM.apply(state, Command(actor, kind, params, typed), command_dice(3, 0, typed))
    assert state.to_dict() == before
    if not isinstance(result, Rejected):
        _check(result[0])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(["battle_type", "terrain", "sides", "recon", "db", "kind",
                                        "house_rules", "extra_classes", "start_dice",
                                        "neutralize", "initiative"]), JSON, max_size=6),
       st.booleans())  # fmt: skip
def test_a_malformed_setup_gives_problems_never_a_crash(garbage, keep_sides):
    """gurps §A.9.1: any setup either starts or raises `SetupError` with problem codes."""
    setup = dict(garbage)
    if keep_sides:
        setup["sides"] = {"a": {"force": force_data(row("hi", 4, 2))},
                          "b": {"force": force_data(row("hi", 4, 3))}}  # fmt: skip
    if validate_setup(setup):
        with pytest.raises(SetupError):
            SYSTEM.start(setup, 1)
    else:
        _check(SYSTEM.start(setup, 1))
