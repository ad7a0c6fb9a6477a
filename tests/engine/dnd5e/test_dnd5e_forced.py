"""The end of a turn the D&D 5e board takes by itself (issue 14 "Fewer clicks"): once every
stand of the acting unit has used its action (§5.4) and cannot move (engaged, §5.3) and no
joined solo has anything left, "end_turn" is the only command anybody could send."""

from tests.engine.dnd5e.helpers import begin, run, setup, unit
from warfare.engine.battle.protocol import Command
from warfare.engine.systems.dnd5e.battle import SYSTEM
from warfare.engine.systems.dnd5e.battle.engine import forced


def _engaged():
    """Two orc stands of a1 side by side with two of b1's (§5.3: engaged, no move)."""
    data = setup([unit("a1", "orc", [(1, 1), (1, 2)])], [unit("b1", "orc", [(2, 1), (2, 2)])],
                 width=6, height=4)  # fmt: skip
    return begin(data, order=["a1", "b1"])


def test_the_turn_ends_by_itself_once_every_stand_has_attacked():
    state = _engaged()
    assert forced(state) is None  # attacks, configurations, dash, retreat: a choice to make
    state, _events = run(state, "attack", [10, 5], piece="a1.1", attack="greataxe",
                         target="b1.1")  # fmt: skip
    assert forced(state) is None  # a1.2 has not attacked yet
    state, _events = run(state, "attack", [10, 5], piece="a1.2", attack="greataxe",
                         target="b1.2")  # fmt: skip
    assert [spec.key for spec in SYSTEM.legal_actions(state, "a1")] == ["end_turn"]
    assert forced(state) == Command("a1", "end_turn")
    after, _events = run(state, "end_turn")
    assert after.current == "b1" and forced(after) is None


def test_a_unit_that_can_still_move_is_not_hurried():
    """Unengaged, a stand that has used its action may still have its move (§5.3)."""
    data = setup([unit("a1", "orc", [(0, 0)])], [unit("b1", "orc", [(5, 3)])], width=6,
                 height=4)  # fmt: skip
    state = begin(data, order=["a1", "b1"])
    state, _events = run(state, "dash")
    assert forced(state) is None


def test_nothing_is_forced_outside_a_round():
    data = setup([unit("a1", "orc", [])], [unit("b1", "orc", [])], width=6, height=4)
    data["sides"][0]["units"][0]["stands"] = 1
    data["sides"][1]["units"][0]["stands"] = 1
    data["sides"][0]["zone"], data["sides"][1]["zone"] = [0, 0, 1, 3], [4, 0, 5, 3]
    state = SYSTEM.start(data, 7)
    assert state.phase == "deploy" and forced(state) is None
