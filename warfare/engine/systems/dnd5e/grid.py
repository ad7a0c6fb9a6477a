"""The 20-ft square grid (dnd5e §3, §4.7, §5.3, §5.5): terrain, distances, movement costs,
reachable squares and spell areas. Pure geometry: who stands where is passed in.

Squares touching only at a corner are not adjacent and nobody moves diagonally (§3): a
distance is always Manhattan. `steps` counts moves (adjacent = 1, used for ranges);
`between` counts the squares in between (adjacent = 0, diagonal = 1: "1 square apart"),
used for "within n squares" (integrity, protection) [inferred, house rule
`within.counts_squares_between`].
"""

import heapq
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

Pos = tuple[int, int]

TERRAINS = ("clear", "road", "forest", "water_shallow", "water_deep")
DIRECTIONS: dict[str, Pos] = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}


@dataclass(frozen=True)
class Square:
    """One square's terrain (§4.7): base type, extra difficult flag, elevation in 20-ft steps."""

    terrain: str = "clear"
    difficult: bool = False
    elevation: int = 0

    @property
    def is_difficult(self) -> bool:
        """Forest and shallow water are always difficult; a road never is (unless destroyed,
        which sets `difficult`)."""
        return self.difficult or self.terrain in ("forest", "water_shallow")

    def to_dict(self) -> dict[str, Any]:
        return {"terrain": self.terrain, "difficult": self.difficult, "elevation": self.elevation}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Square":
        terrain = str(data.get("terrain", "clear"))
        if terrain not in TERRAINS:
            raise ValueError(terrain)
        return cls(terrain, bool(data.get("difficult", False)), int(data.get("elevation", 0)))


CLEAR = Square()


@lru_cache(maxsize=16384)
def squares_of(anchor: Pos, size: int) -> tuple[Pos, ...]:
    """The squares a piece of `size` × `size` squares with top-left `anchor` covers."""
    x, y = anchor
    if size == 1:  # the one square, without the generator
        return ((x, y),)
    return tuple((x + dx, y + dy) for dy in range(size) for dx in range(size))


def steps(a: Iterable[Pos], b: Iterable[Pos]) -> int:
    """Fewest orthogonal moves between two sets of squares (adjacent = 1, same = 0)."""
    bs = tuple(b)
    if len(bs) == 1 and type(a) is tuple and len(a) == 1:  # two one-square pieces
        (ax, ay), (bx, by) = a[0], bs[0]
        return abs(ax - bx) + abs(ay - by)
    best = None
    for ax, ay in a:
        for bx, by in bs:
            found = abs(ax - bx) + abs(ay - by)
            if best is None or found < best:
                best = found
    if best is None:
        raise ValueError("min() arg is an empty sequence")  # as `min` of no squares
    return best


def between(a: Iterable[Pos], b: Iterable[Pos]) -> int:
    """Squares in between (adjacent 0, diagonal 1); see the module docstring."""
    return max(0, steps(a, b) - 1)


def adjacent(a: Iterable[Pos], b: Iterable[Pos]) -> bool:
    return steps(a, b) == 1


@dataclass(frozen=True)
class Grid:
    """`width` × `height` squares; `squares` holds the ones that are not plain clear ground."""

    width: int
    height: int
    squares: Mapping[Pos, Square]

    def at(self, pos: Pos) -> Square:
        return self.squares.get(pos, CLEAR)

    def inside(self, pos: Pos) -> bool:
        return 0 <= pos[0] < self.width and 0 <= pos[1] < self.height

    def fits(self, anchor: Pos, size: int) -> bool:
        """Every square of a `size` piece at `anchor` is on the grid."""
        x, y = anchor
        return x >= 0 and y >= 0 and x + size <= self.width and y + size <= self.height

    def with_square(self, pos: Pos, square: Square) -> "Grid":
        return Grid(self.width, self.height, {**self.squares, pos: square})

    def to_dict(self) -> dict[str, Any]:
        return {
            "width": self.width,
            "height": self.height,
            "squares": [
                {"x": x, "y": y, **sq.to_dict()} for (x, y), sq in sorted(self.squares.items())
            ],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Grid":
        squares = {
            (int(s["x"]), int(s["y"])): Square.from_dict(s) for s in data.get("squares") or ()
        }
        return cls(int(data["width"]), int(data["height"]), squares)


def enter_cost(grid: Grid, old: Pos, new: Pos) -> int:
    """§4.7: 1 per square; difficult ×2; climbing costs 1 extra per 20 ft of rise, and the
    whole entering cost doubles if the higher square is also difficult."""
    square = grid.at(new)
    rise = max(0, square.elevation - grid.at(old).elevation)
    cost = 1 + rise
    return cost * 2 if square.is_difficult else cost


def step_cost(grid: Grid, anchor: Pos, new_anchor: Pos, size: int, ignore: bool) -> int:
    """Cost for a `size` piece to shift one square: the dearest square newly entered."""
    if ignore:
        return 1
    if size == 1:
        return enter_cost(grid, anchor, new_anchor)
    old = set(squares_of(anchor, size))
    dx, dy = new_anchor[0] - anchor[0], new_anchor[1] - anchor[1]
    costs = [
        enter_cost(grid, (p[0] - dx, p[1] - dy), p)
        for p in squares_of(new_anchor, size)
        if p not in old
    ]
    return max(costs)


@dataclass(frozen=True)
class MoveRules:
    """What a piece may do while moving. `passable(anchor)`: may move through; `can_stop
    (anchor)`: may end there; `stops_at(anchor)`: entering it ends the move (adjacent to an
    enemy stand, §5.3); `swim`: may enter deep water; `ignore_terrain`: flying."""

    size: int
    passable: Callable[[Pos], bool]
    can_stop: Callable[[Pos], bool]
    stops_at: Callable[[Pos], bool]
    swim: bool = False
    ignore_terrain: bool = False
    remembered: bool = False
    """`passable` already answers the whole `_enterable` check (see `_remembering`)."""


_STEPS = tuple(DIRECTIONS.values())


def _remembering(
    grid: Grid, rules: MoveRules, entered: dict[Pos, bool], stops: dict[Pos, bool]
) -> MoveRules:
    """`rules` whose checks (and `_enterable`) remember their answers for one search in
    `entered` and `stops` (the search reads those directly): they are pure for a given
    board, and the search asks each square from up to four sides."""
    stopping: dict[Pos, bool] = {}
    width, height, at, inner = grid.width, grid.height, grid.squares.get, rules.passable

    def passable(pos: Pos) -> bool:
        if pos not in entered:
            entered[pos] = _enterable(grid, pos, rules)
        return entered[pos]

    def passable_one(pos: Pos) -> bool:
        """`passable` of a one-square piece on the ground: `_enterable`'s checks inline."""
        found = entered.get(pos)
        if found is None:
            x, y = pos
            found = entered[pos] = (
                0 <= x < width and 0 <= y < height
                and at(pos, CLEAR).terrain != "water_deep" and inner(pos)
            )  # fmt: skip
        return found

    if rules.size == 1 and not (rules.swim or rules.ignore_terrain):
        passable = passable_one  # noqa: F811 (the same answers, a call fewer per square)

    def stops_at(pos: Pos) -> bool:
        if pos not in stops:
            stops[pos] = rules.stops_at(pos)
        return stops[pos]

    def can_stop(pos: Pos) -> bool:
        if pos not in stopping:
            stopping[pos] = rules.can_stop(pos)
        return stopping[pos]

    return MoveRules(rules.size, passable, can_stop, stops_at, rules.swim, rules.ignore_terrain,
                     remembered=True)  # fmt: skip


def _enterable(grid: Grid, anchor: Pos, rules: MoveRules) -> bool:
    if rules.remembered:
        return rules.passable(anchor)
    if rules.size == 1:  # the same checks, for the one square (`inside`, `at` inline)
        x, y = anchor
        if not (0 <= x < grid.width and 0 <= y < grid.height):
            return False
        if not (rules.swim or rules.ignore_terrain) and (
            grid.squares.get(anchor, CLEAR).terrain == "water_deep"
        ):
            return False
        return rules.passable(anchor)
    if not grid.fits(anchor, rules.size):
        return False
    if not (rules.swim or rules.ignore_terrain):
        at = grid.squares.get  # `grid.at`
        for p in squares_of(anchor, rules.size):
            if at(p, CLEAR).terrain == "water_deep":
                return False
    return rules.passable(anchor)


def reachable(grid: Grid, start: Pos, budget: int, rules: MoveRules) -> dict[Pos, tuple[int, bool]]:
    """Every anchor a piece can end its move on, with (cost, used the road bonus).

    Dijkstra over anchors with `step_cost`; a square that `stops_at` is not left again.
    §4.7 road: a move whose last square is a road square may go 1 more square whatever speed
    is left (the bonus step's cost is reported as `budget`, using up the move).
    Off-grid squares next to a reachable edge anchor are included (leaving = fleeing, §5.3).
    """
    # The remembered answers, read here without a call when known (`_remembering`).
    entered: dict[Pos, bool] = {}
    stopped: dict[Pos, bool] = {}
    rules = _remembering(grid, rules, entered, stopped)
    enterable, stops = rules.passable, rules.stops_at
    size, ignore = rules.size, rules.ignore_terrain
    at = grid.squares.get
    best: dict[Pos, int] = {start: 0}
    heap = [(0, start)]
    pop, push = heapq.heappop, heapq.heappush
    if ignore or _flat(grid):  # every step costs 1: the same search, a level at a time
        heap = []
        _search_flat(start, budget, best, entered, stopped, enterable, stops)
    while heap:
        cost, pos = pop(heap)
        if cost > best.get(pos, 1 << 30):
            continue
        if pos != start:
            held = stopped.get(pos)
            if held if held is not None else stops(pos):
                continue
        x, y = pos
        elevation = None
        for dx, dy in _STEPS:
            nxt = (x + dx, y + dy)
            free = entered.get(nxt)
            if not (free if free is not None else enterable(nxt)):
                continue
            if ignore:
                new = cost + 1
            elif size == 1:  # `enter_cost`, inline
                square = at(nxt, CLEAR)
                if elevation is None:
                    elevation = at(pos, CLEAR).elevation
                rise = square.elevation - elevation
                step = 1 + rise if rise > 0 else 1
                new = cost + (step * 2 if square.is_difficult else step)
            else:
                new = cost + step_cost(grid, pos, nxt, size, False)
            if new <= budget and new < best.get(nxt, 1 << 30):
                best[nxt] = new
                push(heap, (new, nxt))
    result = {pos: (cost, False) for pos, cost in best.items() if pos != start}
    result = {pos: value for pos, value in result.items() if rules.can_stop(pos)}
    for pos in list(best) if grid.squares else ():  # (no terrain on the grid: no road)
        if pos == start:
            continue  # the bonus follows a move that ENDS on a road
        if size == 1:  # the same check, for the one square
            square = at(pos, CLEAR)
            road = square.terrain == "road" and not square.difficult
        else:
            road = all(grid.at(p).terrain == "road" and not grid.at(p).difficult
                       for p in squares_of(pos, rules.size))  # fmt: skip
        if not road or rules.stops_at(pos):
            continue
        for dx, dy in DIRECTIONS.values():
            nxt = (pos[0] + dx, pos[1] + dy)
            fresh = nxt not in result and nxt != start
            if fresh and _enterable(grid, nxt, rules) and rules.can_stop(nxt):
                result[nxt] = (budget, True)
    width, height = grid.width - size, grid.height - size
    for pos, (cost, _road) in list(result.items()) + [(start, (0, False))]:
        x, y = pos
        if 0 < x < width and 0 < y < height:
            continue  # every neighbour fits (`stops_at` is pure: not asking it changes nothing)
        if cost >= budget or (pos != start and rules.stops_at(pos)):
            continue
        for dx, dy in _STEPS:
            nxt = (x + dx, y + dy)
            if nxt in result:
                continue
            if not (0 <= nxt[0] <= width and 0 <= nxt[1] <= height):  # `grid.fits`, inline
                result[nxt] = (budget, False)
    return result


def _flat(grid: Grid) -> bool:
    """No square of the grid costs more than 1 to enter (no difficult ground, no elevation:
    `enter_cost`), for every size of piece (`step_cost`)."""
    return not any(square.elevation or square.is_difficult for square in grid.squares.values())


def _search_flat(
    start: Pos,
    budget: int,
    best: dict[Pos, int],
    entered: dict[Pos, bool],
    stopped: dict[Pos, bool],
    enterable: Callable[[Pos], bool],
    stops: Callable[[Pos], bool],
) -> None:
    """`reachable`'s Dijkstra where every step costs 1, filling `best` in the same order: its
    heap pops the anchors of one cost in the order of their coordinates before the next
    cost's, and an anchor's first cost is its last (breadth first, each level sorted)."""
    level = [start]
    cost = 0
    while level and cost < budget:
        cost += 1
        found = []
        for pos in level:
            if pos != start:
                held = stopped.get(pos)
                if held if held is not None else stops(pos):
                    continue
            x, y = pos
            for nxt in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):  # `_STEPS`
                if nxt in best:
                    continue
                free = entered.get(nxt)
                if free if free is not None else enterable(nxt):
                    best[nxt] = cost
                    found.append(nxt)
        found.sort()
        level = found


# --- spell areas on the grid (§5.5) -------------------------------------------------------------


def area_squares(shape: str, size_ft: int, origin: Pos, direction: str = "n") -> frozenset[Pos]:
    """The squares an area covers, 1 square per 20 ft (round to nearest, minimum 1 [inferred]).

    sphere/cube/cylinder: n squares: the origin square, then squares within 1 square of it
    (Chebyshev ring 1), then within 2, and so on (§5.5); the engine fills each ring in a fixed
    order (orthogonal before diagonal, clockwise from north) [inferred: the caster's choice of
    squares is not modelled]. line: n squares from the origin going `direction`. cone: n
    squares long from the origin square, each row as wide as its distance from the origin,
    added evenly on both sides.
    """
    n = max(1, (size_ft + 10) // 20)
    ox, oy = origin
    if shape in ("sphere", "cube", "cylinder"):
        ring = (n + 7) // 8 + 1
        candidates = [(dx, dy) for dx in range(-ring, ring + 1) for dy in range(-ring, ring + 1)]
        candidates.sort(key=lambda d: (max(abs(d[0]), abs(d[1])), abs(d[0]) + abs(d[1]),
                                       _clockwise(d)))  # fmt: skip
        return frozenset((ox + dx, oy + dy) for dx, dy in candidates[:n])
    dx, dy = DIRECTIONS[direction]
    if shape == "line":
        return frozenset((ox + dx * i, oy + dy * i) for i in range(n))
    if shape == "cone":
        result: set[Pos] = set()
        for i in range(n):
            width = i + 1
            cx, cy = ox + dx * i, oy + dy * i
            for w in range(width):
                off = w - (width - 1) // 2
                result.add((cx + dy * off, cy + dx * off) if dx == 0 else (cx, cy + off))
        return frozenset(result)
    raise ValueError(shape)


def _clockwise(d: Pos) -> float:
    """Angle clockwise from north, for a stable fill order."""
    return (math.atan2(d[0], -d[1]) + 2 * math.pi) % (2 * math.pi)
