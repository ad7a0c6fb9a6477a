"""The 20-ft grid: distances, movement costs, roads, water, spell areas (dnd5e §3, §4.7,
§5.3, §5.5)."""

from hypothesis import given, settings
from hypothesis import strategies as st

import warfare.engine.systems.dnd5e.grid as grid_module
from warfare.engine.systems.dnd5e.grid import (
    Grid,
    MoveRules,
    Square,
    area_squares,
    between,
    enter_cost,
    reachable,
    steps,
)


def _grid(squares=None, width=10, height=10):
    return Grid(width, height, dict(squares or {}))


def _free(size=1, swim=False):
    return MoveRules(size, lambda p: True, lambda p: True, lambda p: False, swim=swim)


def test_no_diagonals():
    """dnd5e §3: corner neighbours are not adjacent; they are 1 square apart."""
    assert steps([(0, 0)], [(1, 1)]) == 2
    assert between([(0, 0)], [(1, 1)]) == 1
    assert between([(0, 0)], [(1, 0)]) == 0


def test_difficult_costs_double():
    """dnd5e §4.7 / §2: forest and shallow water are difficult: 2 squares to enter."""
    grid = _grid({(1, 0): Square("forest"), (2, 0): Square("water_shallow"),
                  (3, 0): Square("clear", difficult=True)})  # fmt: skip
    assert enter_cost(grid, (0, 0), (1, 0)) == 2
    assert enter_cost(grid, (1, 0), (2, 0)) == 2
    assert enter_cost(grid, (2, 0), (3, 0)) == 2
    assert enter_cost(grid, (3, 0), (4, 0)) == 1


def test_climbing_costs_one_extra_per_twenty_feet_doubled_if_difficult():
    """dnd5e §4.7: entering a higher square costs 1 extra per 20 ft of rise; if that square
    is also difficult the entering cost is doubled; going down costs nothing extra."""
    grid = _grid({(1, 0): Square(elevation=1), (2, 0): Square(elevation=3),
                  (0, 1): Square("forest", elevation=1)})  # fmt: skip
    assert enter_cost(grid, (0, 0), (1, 0)) == 2
    assert enter_cost(grid, (1, 0), (2, 0)) == 3
    assert enter_cost(grid, (0, 0), (0, 1)) == 4
    assert enter_cost(grid, (2, 0), (1, 0)) == 1


def test_road_gives_one_more_square():
    """dnd5e §4.7: a move whose last square is a road may go 1 more square, whatever speed
    is left."""
    road = {(x, 0): Square("road") for x in range(10)}
    result = reachable(_grid(road), (0, 0), 3, _free())
    assert result[(3, 0)] == (3, False)
    assert result[(4, 0)] == (3, True)
    assert (5, 0) not in result
    plain = reachable(_grid(), (0, 0), 3, _free())
    assert (4, 0) not in plain


def test_deep_water_needs_swim_speed():
    """dnd5e §4.7: only creatures with a swim speed enter deep water."""
    grid = _grid({(1, 0): Square("water_deep")}, width=3, height=1)
    assert (1, 0) not in reachable(grid, (0, 0), 6, _free())
    assert (1, 0) in reachable(grid, (0, 0), 6, _free(swim=True))


def test_stop_when_next_to_enemy_and_leaving_the_grid():
    """dnd5e §5.3: a stand that becomes adjacent to an enemy stand stops; off the grid =
    fled (offered as a destination outside the grid)."""
    rules = MoveRules(1, lambda p: p != (3, 0), lambda p: True, lambda p: p == (2, 0))
    result = reachable(_grid(width=5, height=1), (0, 0), 6, rules)
    assert (2, 0) in result and (4, 0) not in result
    assert (-1, 0) in result


def test_large_piece_pays_the_dearest_new_square():
    """dnd5e §4.1/§4.7: a 2×2 stand entering a forest column pays the difficult cost."""
    grid = _grid({(2, 0): Square("forest")})
    assert reachable(grid, (0, 0), 6, _free(2))[(1, 0)] == (2, False)


def test_area_shapes():
    """dnd5e §5.5: 1 square per 20 ft; a sphere fills the origin then squares within 1 of
    it; a line goes straight; a cone widens by its distance from the origin."""
    assert area_squares("sphere", 20, (5, 5)) == {(5, 5)}
    assert len(area_squares("sphere", 60, (5, 5))) == 3
    assert all(max(abs(x - 5), abs(y - 5)) <= 1 for x, y in area_squares("cube", 180, (5, 5)))
    assert area_squares("line", 100, (0, 0), "e") == {(x, 0) for x in range(5)}
    cone = area_squares("cone", 60, (5, 5), "e")
    assert {x for x, _ in cone} == {5, 6, 7}
    assert [len([p for p in cone if p[0] == x]) for x in (5, 6, 7)] == [1, 2, 3]
    assert area_squares("sphere", 10, (0, 0)) == {(0, 0)}


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 2),
    budget=st.integers(0, 12),
    start=st.tuples(st.integers(0, 7), st.integers(0, 5)),
    blocked=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=20),
    holding=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=12),
    roads=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=12),
)
def test_a_flat_grid_is_searched_as_dijkstra_searches_it(
    size, budget, start, blocked, holding, roads
):
    """dnd5e §5.3, §4.7: on a grid where every square costs 1 (roads included, no difficult
    ground, no elevation) the level-by-level search finds the same destinations, costs and
    road bonuses, in the same order, as the general search."""
    grid = _grid({p: Square("road") for p in roads}, width=9, height=7)
    blocked.discard(start)
    rules = MoveRules(size, lambda p: p not in blocked, lambda p: p not in blocked,
                      lambda p: p in holding)  # fmt: skip
    flat = list(reachable(grid, start, budget, rules).items())
    original = grid_module._flat
    grid_module._flat = lambda g: False  # the general search (Dijkstra)
    try:
        general = list(reachable(grid, start, budget, rules).items())
    finally:
        grid_module._flat = original
    assert flat == general


@settings(max_examples=60, deadline=None)
@given(
    budget=st.integers(0, 12),
    start=st.tuples(st.integers(0, 8), st.integers(0, 6)),
    blocked=st.sets(st.tuples(st.integers(-1, 9), st.integers(-1, 7)), max_size=20),
    deep=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=12),
    holding=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=12),
    roads=st.sets(st.tuples(st.integers(0, 8), st.integers(0, 6)), max_size=12),
)
def test_a_one_square_piece_enters_what_enterable_lets_it_enter(
    budget, start, blocked, deep, holding, roads
):
    """§4.7, §5.3: the search's inline check of a one-square piece on the ground (on the
    grid, no deep water, `passable`) finds what the general check (`_enterable`, here for a
    swimmer kept out of the deep squares by its `passable`) finds, fleeing included."""
    blocked.discard(start)
    deep.discard(start)
    squares = {p: Square("road") for p in roads} | {p: Square("water_deep") for p in deep}
    grid = _grid(squares, width=9, height=7)

    def rules(swim: bool) -> MoveRules:
        shut = blocked | deep if swim else blocked
        return MoveRules(1, lambda p: p not in shut, lambda p: p not in blocked,
                         lambda p: p in holding, swim=swim)  # fmt: skip

    inline = list(reachable(grid, start, budget, rules(False)).items())
    assert inline == list(reachable(grid, start, budget, rules(True)).items())
