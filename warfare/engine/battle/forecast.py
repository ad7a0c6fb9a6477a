"""Forecast: the odds of a battle by Monte Carlo over the pure engine and its policies.

``forecast(system, setup=…)`` (before the battle starts) or ``forecast(system, state=…)``
(from any state of a running battle) plays `simulations` battles to their end with every
side and the GM's steps auto-played (`autoplay`), never touching the real battle: nothing is
stored, the state passed in is not changed. The same `seed` gives the same forecast (whatever
the number of `workers`): simulation i starts from `start(setup, s_i)` (a set-up) or from the
state, and rolls its dice from one generator seeded with s_i = `derive_seed(seed,
"forecast:i")`.

The result (`Forecast`, plain data: `to_dict()`) has, per side, the chance to win with its 95 %
Wilson interval, the chance of a draw (no winner: both sides beaten at once, a D&D 5e draw, a
GURPS battle both sides leave, or a battle still running after `max_rounds` rounds:
`unfinished` counts those), the expected number of rounds (days for GURPS 3e), per army /
force / unit / solo the chance of each thing that can happen to it (routed, destroyed,
retreated…), the mean of what it has left (HP, TS, stands) with a histogram of it, the mean
score per side (D&D 5e VP), and a histogram of the battle's length by result (one stacked bar
per number of rounds), ready for an SVG chart.

Speed: `workers` > 1 runs the simulations in that many processes (this one and forks of it
made after a short warm-up, see `WARM_UP`); the result is the same. Forking belongs in a
worker or a management command, not in a threaded web server.

Hidden numbers: this forecast reads the whole state (the GM's view: enemy HP, a GURPS 4e
commander's secret strategy). A forecast a player may see must not: it would be run from a
state built from what that player's viewpoint shows (`view(state, viewpoint)` of DESIGN.md:
the enemy's hidden HP and conditions replaced by an estimate — full HP, or what the GM
revealed —, a secret choice not yet revealed left out, so the simulations choose it
themselves), i.e. `forecast(system, state=belief_state)`; nothing else changes here.
"""

import math
import os
import random
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from warfare.engine.battle.autoplay import MAX_COMMANDS, PolicyError
from warfare.engine.battle.protocol import BattleSystem, Rejected, Standing, derive_seed
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.dice import SeededDice

SIMULATIONS = 500
MAX_ROUNDS = 50
Z_95 = 1.959964
DRAW = "draw"
ROUND_UNITS = {"gurps3e": "days"}
"""What `clock`'s first number counts, where it is not rounds."""


class SimulationDice(SeededDice):
    """The dice of one command of a simulated battle: drawn from the simulation's generator
    (shared by all its commands), with their own log, as `SeededDice` draws them."""

    def __init__(self, rng: random.Random) -> None:
        self.log = []
        self.seed = None
        self._rng = rng


@dataclass(frozen=True)
class Interval:
    """A 95 % confidence interval of a proportion (Wilson score interval)."""

    low: float
    high: float

    def to_dict(self) -> dict[str, float]:
        return {"low": self.low, "high": self.high}


def wilson(successes: int, trials: int, z: float = Z_95) -> Interval:
    """The Wilson score interval of `successes` out of `trials` (0..1; (0, 1) for none)."""
    if trials <= 0:
        return Interval(0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class SideOdds:
    """One side: the chance it wins (`win`, with `interval`) and loses (the other side wins)."""

    side: str
    win: float
    interval: Interval
    loss: float
    loss_interval: Interval
    score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "side": self.side,
            "win": self.win,
            "interval": self.interval.to_dict(),
            "loss": self.loss,
            "loss_interval": self.loss_interval.to_dict(),
            "score": self.score,
        }


@dataclass(frozen=True)
class Bin:
    """A histogram bar: values from `low` to `high` (both included for whole numbers),
    `count` simulations."""

    low: float
    high: float
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"low": self.low, "high": self.high, "count": self.count}


@dataclass(frozen=True)
class ForceOdds:
    """One army / force / unit / solo: `chances` of each flag (routed, destroyed…), the mean
    of what it has `left` (of `start`, in `measure`), the mean of its other `values`, and the
    histogram of `left` over the simulations."""

    key: str
    side: str
    kind: str
    measure: str
    start: float
    left: float
    chances: Mapping[str, float]
    values: Mapping[str, float]
    histogram: tuple[Bin, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "side": self.side,
            "kind": self.kind,
            "measure": self.measure,
            "start": self.start,
            "left": self.left,
            "chances": dict(self.chances),
            "values": dict(self.values),
            "histogram": [b.to_dict() for b in self.histogram],
        }


@dataclass(frozen=True)
class LengthBar:
    """Battles that ended after `rounds` rounds (days), by result (a side key or "draw")."""

    rounds: int
    counts: Mapping[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "counts": dict(self.counts)}


@dataclass(frozen=True)
class Forecast:
    system: str
    simulations: int
    seed: int
    sides: tuple[SideOdds, ...]
    draw: float
    draw_interval: Interval
    unfinished: int
    rounds: float
    rounds_unit: str
    lengths: tuple[LengthBar, ...]
    forces: tuple[ForceOdds, ...]
    max_rounds: int = MAX_ROUNDS
    extra: Mapping[str, Any] = field(default_factory=dict)

    def side(self, key: str) -> SideOdds:
        return next(odds for odds in self.sides if odds.side == key)

    def to_dict(self) -> dict[str, Any]:
        return {
            "system": self.system,
            "simulations": self.simulations,
            "seed": self.seed,
            "sides": [odds.to_dict() for odds in self.sides],
            "draw": self.draw,
            "draw_interval": self.draw_interval.to_dict(),
            "unfinished": self.unfinished,
            "rounds": self.rounds,
            "rounds_unit": self.rounds_unit,
            "max_rounds": self.max_rounds,
            "lengths": [bar.to_dict() for bar in self.lengths],
            "forces": [force.to_dict() for force in self.forces],
        }


@dataclass(frozen=True)
class Simulated:
    """One simulated battle: its winner (None: a draw or unfinished), rounds, standing."""

    winner: str | None
    finished: bool
    rounds: int
    standing: Standing


def simulate(
    system: BattleSystem,
    seed: int,
    *,
    setup: Mapping[str, Any] | None = None,
    state: Any = None,
    max_rounds: int = MAX_ROUNDS,
) -> Simulated:
    """Play one battle to its end with every side auto-played (dice from `seed`)."""
    if state is None:
        state = system.start(setup or {}, seed)
    rng = random.Random(seed)  # noqa: S311 - simulated dice, reproducible from the seed
    final = _play_out(system, state, rng, max_rounds)
    decided = getattr(system, "decided", None)
    if decided is not None:  # (a system's lean `outcome`: no details, protocol)
        finished, winner = decided(final)
    else:
        result = system.outcome(final)
        finished, winner = result is not None, result.winner if result is not None else None
    return Simulated(
        winner=winner,
        finished=finished,
        rounds=system.clock(final)[0],
        standing=system.standing(final),
    )


def _play_out(system: BattleSystem, state: Any, rng: random.Random, max_rounds: int) -> Any:
    """`autoplay.play_out` of the whole battle for every side and the GM, with the dice of
    `rng`: the same commands and the same last state, without the steps and the command list
    a forecast does not read. A system's own lean `play_out` (protocol) does it where
    there is one."""
    lean = getattr(system, "play_out", None)
    if lean is not None:
        return lean(state, rng, max_rounds)
    outcome, clock, awaiting = system.outcome, system.clock, system.awaiting
    suggest, apply = system.suggest, system.apply
    first = clock(state)[0]
    for _ in range(MAX_COMMANDS):
        if outcome(state) is not None or clock(state)[0] - first >= max_rounds:
            break
        waiting = awaiting(state)
        if not waiting:
            break
        command = suggest(state, waiting[0].actor)
        result = apply(state, command, SimulationDice(rng))
        if isinstance(result, Rejected):
            raise PolicyError(command, result.problems)
        state = result[0]
    return state


def _run(args: tuple[str, int, Any, Any, int, Iterable[int]]) -> list[Simulated]:
    key, seed, setup, data, max_rounds, indexes = args
    system = get_battle_system(key)
    state = system.state_from_dict(data) if data is not None else None
    return [
        simulate(system, simulation_seed(seed, i), setup=setup, state=state, max_rounds=max_rounds)
        for i in indexes
    ]


WARM_UP = 10
"""With worker processes, this process first plays one simulation in `WARM_UP` alone (or the
system's own `warm_up` number of them, protocol), so what the engines and policies keep from
one simulation to the next (a set-up worked out once, the GURPS 4e strategy choices…) is
there before the workers are forked from it."""
BATCH = 5
"""Simulations a process takes at a time from the ones left (see `_in_processes`)."""


def _in_processes(job: tuple[Any, ...], simulations: int, workers: int) -> list[Simulated]:
    """The simulations in `workers` processes: this one (after the warm-up) and `workers` − 1
    forked ones. The rest is cut in batches of `BATCH` that every process takes one after the
    other from a shared counter until none is left, so a process that gets less of the CPU
    (the other core busy with another request or program) plays fewer of them instead of
    keeping the others waiting; which process plays a simulation does not change it (its
    dice come from its own seed), so the results, in index order, are the same."""
    warm = warm_up(get_battle_system(job[0]), simulations)
    results: list[Simulated | None] = [None] * simulations
    results[:warm] = _run((*job, range(warm)))
    batches = [range(i, min(i + BATCH, simulations)) for i in range(warm, simulations, BATCH)]
    context = get_context("fork")
    taken = context.Value("i", 0)
    with ProcessPoolExecutor(
        workers - 1, mp_context=context, initializer=_share, initargs=(taken,)
    ) as pool:
        futures = [pool.submit(_take, job, batches) for _ in range(workers - 1)]
        _share(taken)
        parts = [_take(job, batches), *(future.result() for future in futures)]
    for part in parts:
        for index, simulated in part:
            results[index] = simulated
    return results  # type: ignore[return-value]


def warm_up(system: BattleSystem, simulations: int) -> int:
    """How many of `simulations` this process plays alone before forking (`WARM_UP`)."""
    own = getattr(system, "warm_up", None)
    return simulations // WARM_UP if own is None else min(own, simulations)


_taken: Any = None
"""The counter of batches taken (`_in_processes`), shared with the forked workers."""


def _share(taken: Any) -> None:
    global _taken
    _taken = taken


def _take(job: tuple[Any, ...], batches: Sequence[range]) -> list[tuple[int, Simulated]]:
    """Play batches while there are some left: (index, simulated battle) of each played."""
    played = []
    while True:
        with _taken.get_lock():
            number = _taken.value
            _taken.value = number + 1
        if number >= len(batches):
            return played
        played += zip(batches[number], _run((*job, batches[number])), strict=True)


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def simulation_seed(seed: int, index: int) -> int:
    return derive_seed(seed, f"forecast:{index}")


def forecast(
    system: BattleSystem,
    *,
    setup: Mapping[str, Any] | None = None,
    state: Any = None,
    simulations: int = SIMULATIONS,
    seed: int = 0,
    max_rounds: int = MAX_ROUNDS,
    workers: int = 1,
) -> Forecast:
    """Simulate `simulations` battles from `setup` (before the start) or from `state` and
    count what happened (see the module docstring). `setup` must be valid (`start` raises
    `SetupError` otherwise)."""
    if (setup is None) == (state is None):
        raise ValueError("give a setup or a state")
    if setup is not None:
        system.start(setup, seed)  # a bad setup fails here, before any work
    workers = max(1, min(workers, simulations, cores()))
    data = state.to_dict() if state is not None else None  # plain data for the workers
    job = (system.key, seed, setup, data, max_rounds)
    if workers == 1:
        results = _run((*job, range(simulations)))
    else:
        results = _in_processes(job, simulations, workers)
    return summarise(system.key, seed, results, max_rounds)  # type: ignore[arg-type]


def summarise(
    system: str, seed: int, results: Sequence[Simulated], max_rounds: int = MAX_ROUNDS
) -> Forecast:
    """The `Forecast` of these simulated battles."""
    n = len(results)
    sides = results[0].standing.sides if results else ()
    wins = {side: sum(r.winner == side for r in results) for side in sides}
    draws = n - sum(wins.values())
    odds = []
    for side in sides:
        losses = n - draws - wins[side]
        scores = [r.standing.scores.get(side) for r in results]
        known = [s for s in scores if s is not None]
        odds.append(
            SideOdds(
                side,
                wins[side] / n,
                wilson(wins[side], n),
                losses / n,
                wilson(losses, n),
                sum(known) / len(known) if known else None,
            )
        )
    lengths: dict[int, dict[str, int]] = {}
    for r in results:
        bar = lengths.setdefault(r.rounds, dict.fromkeys((*sides, DRAW), 0))
        bar[r.winner if r.winner in wins else DRAW] += 1
    return Forecast(
        system=system,
        simulations=n,
        seed=seed,
        sides=tuple(odds),
        draw=draws / n if n else 0.0,
        draw_interval=wilson(draws, n),
        unfinished=sum(not r.finished for r in results),
        rounds=sum(r.rounds for r in results) / n if n else 0.0,
        rounds_unit=ROUND_UNITS.get(system, "rounds"),
        lengths=tuple(LengthBar(k, lengths[k]) for k in sorted(lengths)),
        forces=_forces(results),
        max_rounds=max_rounds,
    )


def _forces(results: Sequence[Simulated]) -> tuple[ForceOdds, ...]:
    if not results:
        return ()
    n = len(results)
    found = []
    for index, first in enumerate(results[0].standing.forces):
        entries = [r.standing.forces[index] for r in results]
        flags = sorted({flag for entry in entries for flag in entry.flags})
        names = sorted({name for entry in entries for name in entry.values})
        found.append(
            ForceOdds(
                key=first.key,
                side=first.side,
                kind=first.kind,
                measure=first.measure,
                start=first.start,
                left=sum(e.left for e in entries) / n,
                chances={flag: sum(flag in e.flags for e in entries) / n for flag in flags},
                values={name: sum(e.values.get(name, 0) for e in entries) / n for name in names},
                histogram=histogram([e.left for e in entries], first.start),
            )
        )
    return tuple(found)


def histogram(values: Sequence[float], top: float, bins: int = 10) -> tuple[Bin, ...]:
    """Counts of `values` in 0..`top`: one bar per whole number when they are whole numbers
    up to 20, else `bins` equal bars."""
    if not values:
        return ()
    top = max(top, max(values))
    if top <= 20 and all(float(v).is_integer() for v in values) and float(top).is_integer():
        counts = [0] * (int(top) + 1)
        for v in values:
            counts[int(v)] += 1
        return tuple(Bin(i, i, c) for i, c in enumerate(counts))
    width = top / bins if top > 0 else 1.0
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, int(v / width))] += 1
    return tuple(Bin(i * width, (i + 1) * width, c) for i, c in enumerate(counts))
