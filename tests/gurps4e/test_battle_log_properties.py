"""Property tests of the GURPS 4e battle log (warfare.systems.gurps4e.log) over random battles:
every event has a sentence for every viewer, and a pending strategy never reaches the other side's
log before the reveal (gurps §A.6.3)."""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.gurps4e.helpers import force_data, row
from warfare.engine.battle.protocol import Command, Rejected, command_dice
from warfare.engine.systems.gurps4e.battle import SYSTEM
from warfare.systems.gurps4e import labels, log

NAMES = {"a": "Legion", "b": "Horde", "pc1": "Ann"}
ACTORS = ("a", "b", "pc1")


def _setup(recon: bool) -> dict:
    setup = {
        "terrain": "hills",
        "sides": {
            "a": {
                "force": force_data(row("hi", 4, 10), row("bow", 2, 5, classes=["F"])),
                "pcs": [{"key": "pc1", "name": "Ann", "hp": 10, "element": "hi"}],
            },
            "b": {"force": force_data(row("cav", 3, 8, classes=["Cav"]))},
        },
    }
    if recon:
        setup["recon"] = {"a": {"march": 1}, "b": {}}
    else:
        setup.update(kind="pitched", initiative="b")
    return setup


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=2**62),
    recon=st.booleans(),
    picks=st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40),
)
def test_every_event_reads_and_secrets_stay_secret(seed, recon, picks):
    state = SYSTEM.start(_setup(recon), seed)
    events = list(SYSTEM.start_events(state))
    for index, pick in enumerate(picks):
        options = [
            (actor, spec.key, dict(option.params))
            for actor in ACTORS
            for spec in SYSTEM.legal_actions(state, actor)
            for option in spec.options
        ]
        if not options:
            break
        actor, kind, params = options[pick % len(options)]
        result = SYSTEM.apply(state, Command(actor, kind, params), command_dice(seed, index))
        assert not isinstance(result, Rejected)
        state, new_events = result
        events += new_events
        starts = [i for i, e in enumerate(events) if e.code == "gurps4e.round_started"]
        this_round = events[starts[-1] :] if starts else events
        for side, choice in enumerate(state.choices):
            if choice is None or state.choices[1 - side] is not None:
                continue
            # One side has chosen, the other not: nothing the other side reads names it.
            for event in this_round:
                params = log.visible_params(event.code, dict(event.params), 1 - side)
                line = log.event_line(event.code, params, NAMES)
                assert choice.strategy not in str(params)
                assert labels.strategy_name(choice.strategy) not in line
    for event in events:
        for viewer in (None, 0, 1, -1):
            params = log.visible_params(event.code, dict(event.params), viewer)
            line = log.event_line(event.code, params, NAMES)
            assert line and line != event.code, event.code
