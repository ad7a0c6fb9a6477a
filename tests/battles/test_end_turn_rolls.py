"""`warfare.systems.pf2e.board.end_turn_rolls` (the board offers a typed die for an end of
turn only when it rolls one, §7.3's rout checks at the end of the round): stopped at the
first die the command rolls, it answers as the whole trial did (the command's own dice,
`CommandDice.log`, a reaction's on the server's dice not counted), on every state of
auto-played battles."""

import pytest

from tests.engine.battle.helpers import CAV, army
from tests.engine.battle.helpers import setup as pf2e_setup
from warfare.engine.battle.autoplay import play_out
from warfare.engine.battle.protocol import Command, CommandDice, Rejected, command_dice, replay
from warfare.engine.systems.pf2e.battle import SYSTEM as PF2E
from warfare.systems.pf2e.board import end_turn_rolls


def _whole_trial(state, actor: str) -> bool:
    """The answer as it was worked out before: the whole end of turn on throw-away dice."""
    dice = CommandDice(0)
    result = PF2E.apply(state, Command(actor, "end_turn"), dice)
    return not isinstance(result, Rejected) and bool(dice.log)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_the_first_die_answers_as_the_whole_trial(seed):
    data = pf2e_setup([army("a1"), army("a2", CAV)], [army("b1"), army("b2", CAV)])
    start = PF2E.start(data, seed)
    _final, played = play_out(PF2E, start, lambda p: command_dice(seed, p), position=0,
                              max_rounds=12)  # fmt: skip
    answers = []
    for count in range(len(played) + 1):
        state, _events = replay(PF2E, data, seed, played[:count])
        for actor in {entry.actor for entry in PF2E.awaiting(state)}:
            answers.append(end_turn_rolls(PF2E, state, actor))
            assert answers[-1] == _whole_trial(state, actor), (seed, count, actor)
    assert True in answers and False in answers  # (both answers met)
