"""Auto-play as ordinary commands (issue 14; `warfare.engine.battle.autoplay`): one turn, one
round or the battle, for one side or both, each command at its own position with the dice the
app would give it, so replay gives the same state; the GM's steps only when every side is
played; a policy bug is an error, not a silent stop."""

from dataclasses import replace

import pytest

from tests.engine.battle.helpers import CAV, army
from tests.engine.battle.helpers import setup as pf2e_setup
from tests.engine.dnd5e.helpers import setup as dnd_setup
from tests.engine.dnd5e.helpers import unit
from warfare.engine.battle.autoplay import PolicyError, autoplay, play_out
from warfare.engine.battle.protocol import Command, command_dice, replay
from warfare.engine.battle.registry import BATTLE_SYSTEMS
from warfare.engine.systems.dnd5e.battle import SYSTEM as DND5E
from warfare.engine.systems.pf2e.battle import SYSTEM as PF2E

SEED = 11


def _pf2e():
    data = pf2e_setup([army("a1"), army("a2", CAV)], [army("b1"), army("b2", CAV)])
    return data, PF2E.start(data, SEED)


def _dice(position):
    return command_dice(SEED, position)


def test_every_system_has_a_policy_and_knows_who_must_act():
    for system in BATTLE_SYSTEMS.values():
        for name in ("awaiting", "suggest", "clock", "standing"):
            assert callable(getattr(system, name)), (system.key, name)


def test_one_turn_is_the_acting_army_s_commands_up_to_its_end_of_turn():
    data, state = _pf2e()
    acting = state.current
    steps = list(autoplay(PF2E, state, _dice, until="turn"))
    assert steps and {s.command.actor for s in steps} == {acting}
    assert steps[-1].command.kind == "end_turn"
    assert PF2E.clock(steps[-1].state) != PF2E.clock(state)
    assert [s.position for s in steps] == list(range(len(steps)))


def test_one_round_stops_when_the_round_changes_and_replays():
    data, state = _pf2e()
    final, commands = play_out(PF2E, state, _dice, until="round")
    assert final.round == 2 or final.finished
    assert len({c.actor for c in commands}) == 4  # every army had its turn
    replayed, _ = replay(PF2E, data, SEED, commands)
    assert replayed.to_dict() == final.to_dict()


def test_positions_continue_from_the_stored_commands():
    """The dice of auto-played command k are `dice_for_position(position + k)`: the same as
    the app would roll for a command stored at that position."""
    data, state = _pf2e()
    first, commands = play_out(PF2E, state, _dice, until="turn")
    steps = list(autoplay(PF2E, first, _dice, position=len(commands), until="turn"))
    assert steps[0].position == len(commands)
    replayed, _ = replay(PF2E, data, SEED, [*commands, *(s.command for s in steps)])
    assert replayed.to_dict() == steps[-1].state.to_dict()


def test_one_side_is_played_until_the_other_side_must_act():
    initiative = {"b1": 20, "a1": 1, "a2": 1, "b2": 1}
    data = pf2e_setup([army("a1"), army("a2", CAV)], [army("b1"), army("b2", CAV)],
                      initiative=initiative)  # fmt: skip
    state = PF2E.start(data, SEED)
    assert state.current == "b1"
    steps = list(autoplay(PF2E, state, _dice, until="battle", sides=("e",)))
    assert {state.army(s.command.actor).side for s in steps} == {"e"}
    last = steps[-1].state
    assert last.finished or last.army(last.to_act).side == "k"
    assert list(autoplay(PF2E, last, _dice, sides=("e",))) == []


def test_the_gm_s_steps_are_played_only_for_both_sides():
    """D&D 5e deployment: each side places its own pieces; beginning the battle is the GM's
    (actor None) and is auto-played only when every side is."""
    data = dnd_setup([unit("a1", "orc", ())], [unit("b1", "orc", ())])
    data["sides"][0]["units"][0]["stands"] = 1
    data["sides"][1]["units"][0]["stands"] = 1
    data["sides"][0]["zone"], data["sides"][1]["zone"] = [0, 0, 2, 7], [9, 0, 11, 7]
    state = DND5E.start(data, SEED)
    mine = list(autoplay(DND5E, state, _dice, sides=("a",)))
    assert [s.command.kind for s in mine] == ["place"]
    both = list(autoplay(DND5E, mine[-1].state, _dice, position=1, until="turn"))
    assert [s.command.kind for s in both] == ["place", "begin"]
    assert both[-1].command.actor is None


def test_max_rounds_bounds_a_battle():
    data, state = _pf2e()
    final, _ = play_out(PF2E, state, _dice, max_rounds=1)
    assert final.finished or final.round == 2


def test_a_policy_that_suggests_an_illegal_command_is_an_error():
    broken = replace(PF2E, suggest=lambda state, actor: Command(actor, "no_such_action"))
    _, state = _pf2e()
    with pytest.raises(PolicyError, match="no_such_action"):
        list(autoplay(broken, state, _dice))
    with pytest.raises(ValueError, match="until"):
        list(autoplay(PF2E, state, _dice, until="week"))
