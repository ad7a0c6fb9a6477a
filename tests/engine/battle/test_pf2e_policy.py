"""The Pathfinder auto-play policy (issue 14; `pf2e/battle/policy.py`).

Property: from random reachable states (random set-ups of the engine property test, random
legal commands, reactions offered or automatic, starting positions to choose), the policy's
suggestion for the awaited army is accepted by `apply`, and auto-play from there ends the
battle within a bounded number of rounds and replays to the same state. Then the tactical
choices the policy documents, on exact states.
"""

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine.autoplay_helpers import (
    assert_autoplay_ends_and_replays,
    assert_suggestions_accepted,
)
from tests.engine.battle.helpers import CAV, INF, RANGED_WEAPON, SKI, army, begin, run
from tests.engine.battle.test_pf2e_properties import _legal_command, battles
from warfare.engine.battle.protocol import Command, Rejected, command_dice
from warfare.engine.systems.pf2e.battle import SYSTEM
from warfare.engine.systems.pf2e.battle.engine import decided, outcome
from warfare.engine.systems.pf2e.battle.policy import _legal, _strike_legal
from warfare.engine.systems.pf2e.battle.rules import effective_block


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=battles(), seed=st.integers(0, 2**31))
def test_suggestions_are_legal_and_autoplay_ends_and_replays(data, battle, seed):
    state = SYSTEM.start(battle, seed)
    commands = []
    for _ in range(data.draw(st.integers(0, 30))):
        if state.finished:
            break
        assert_suggestions_accepted(SYSTEM, state, seed, len(commands))
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands), command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
        commands.append(command)
    assert_autoplay_ends_and_replays(SYSTEM, battle, seed, commands, state, max_rounds=40)


def _suggest(state):
    return SYSTEM.suggest(state, state.to_act)


def test_an_engaged_army_strikes_the_weakest_engaged_enemy():
    """§8.1 Battle on the engaged enemy with the fewest HP."""
    state = begin([army("a1")], [army("b1"), army("b2", hp=2)], order=["a1", "b1", "b2"])
    state = SYSTEM.apply(state, Command(None, "gm_correction", {"army": "a1",
                                                                "engage": ["b1", "b2"]}),
                         command_dice(1, 0))[0]  # fmt: skip
    assert _suggest(state) == Command("a1", "battle", {"target": "b2", "weapon": "melee"})


def test_an_army_not_engaged_advances_on_a_near_enemy_before_a_distant_one():
    """§8.1 Advance, the nearest first (near before distant)."""
    state = begin([army("a1")], [army("b1", hp=1), army("b2")], order=["a1", "b1", "b2"])
    state = SYSTEM.apply(state, Command(None, "gm_correction", {"army": "b1",
                                                                "position": "distant"}),
                         command_dice(1, 0))[0]  # fmt: skip
    assert _suggest(state) == Command("a1", "advance", {"target": "b2"})


def test_an_army_without_melee_shoots_at_distance():
    """Ranged Strike (§8.1 Battle) by a siege army (no melee Strike, §1.3); an army with
    both Strikes advances to fight in melee."""
    both = begin([army("a1", SKI, gear=RANGED_WEAPON)], [army("b1")], order=["a1", "b1"])
    assert _suggest(both) == Command("a1", "advance", {"target": "b1"})  # it has melee too
    siege = begin([army("s1", "siege", 5)], [army("b1")], order=["s1", "b1"])
    assert _suggest(siege) == Command("s1", "battle", {"target": "b1", "weapon": "ranged"})


def test_a_shaken_army_rallies_and_a_routed_one_retreats():
    """Rally at shaken 2 (§8.1, §9), Retreat when routed (§9 Routed: it must Retreat)."""
    shaken = begin([army("a1", conditions={"shaken": 2})], [army("b1")], order=["a1", "b1"])
    assert _suggest(shaken) == Command("a1", "rally", {"target": "b1"})
    routed = begin([army("a1", conditions={"routed": 1})], [army("b1")], order=["a1", "b1"])
    assert _suggest(routed) == Command("a1", "retreat")


def test_no_actions_left_ends_the_turn():
    state = begin([army("a1"), army("a2", CAV)], [army("b1")], order=["a1", "a2", "b1"])
    for _ in range(3):
        state, _, _ = run(state, "guard", [10], target="b1")
    assert state.actions_left == 0
    assert _suggest(state) == Command("a1", "end_turn")


def test_an_offered_reaction_is_used_and_a_start_is_chosen():
    """§0.5: an offered reaction is used; §6.1 Ambush: start engaged with the weakest."""
    data = {"sides": [
        {"key": "k", "armies": [army("a1", SKI, 5, ("ambush",))]},
        {"key": "e", "armies": [army("b1", INF, 1), army("b2", INF, 1, hp=1)]}],
        "offer_starts": True, "initiative_dice": {"a1": 20, "b1": 1, "b2": 1}}  # fmt: skip
    state = SYSTEM.start(data, 3)
    assert state.positions and state.to_act == "a1"
    assert _suggest(state) == Command("a1", "choose_start", {"start": "engaged", "target": "b2"})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), battle=battles(), seed=st.integers(0, 2**31))
def test_the_shortened_strike_check_answers_as_the_engine(data, battle, seed):
    """`policy._strike_legal` (issue 14: only the target's checks for a melee Battle
    Strike): at every state of random legal play (GM corrections included), for the army
    whose turn it is, when `turn_command` would weigh a melee Battle Strike (not routed, a
    melee Strike, Battle known, an action left), on every army it is engaged with it gives
    `_legal`'s answer; and `engine.decided` is what the forecast read of `outcome`."""
    state = SYSTEM.start(battle, seed)
    for index in range(data.draw(st.integers(1, 30))):
        assert decided(state) == (
            outcome(state) is not None,
            getattr(outcome(state), "winner", None),
        )
        if state.finished:
            return
        actor = state.current
        if actor is not None and not state.pending and not state.positions:
            entry, block = state.army(actor), effective_block(state, actor)
            weighs = (
                not entry.routed
                and block.melee is not None
                and "battle" in block.war_actions
                and state.actions_left >= 1
            )
            for target in state.engaged_with(actor) if weighs else ():
                command = Command(actor, "battle", {"target": target, "weapon": "melee"})
                assert _strike_legal(state, command) == _legal(state, command), command
        command = _legal_command(data.draw, state)
        result = SYSTEM.apply(state, command, command_dice(seed, index, command.typed_dice))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
