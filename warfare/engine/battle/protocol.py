"""The battle protocol every rule system implements (DESIGN.md "Rule-system protocol").

A battle (a war encounter) is fully defined by three stored things:

* its **setup**: plain JSON (which armies, on which side, terrain, fortifications…), read only
  by the rule system that owns it;
* its **seed**: an int; every die of the battle derives from it;
* its **commands**: the list of `Command`s applied so far, in order.

Replaying the commands from the setup and the seed gives the same state every time, so the
stored JSON snapshot of the state is only a cache, and **undo = replay without the last
command** (`undo`). No state is ever changed in place: functions return a new state.

A rule system's battle engine (`BattleSystem`) offers:

``start(setup, seed) -> BattleState``
    Validate the setup (raising `SetupError` with `Problem`s if it is bad), roll initiative
    with dice derived from the seed (`start_dice(seed)`, or `derive_seed(seed, salt)` per
    army), place the armies and return the first state.
``start_events(state) -> list[Event]``
    The events of `start` (initiative rolls, starting positions), rebuilt from the state, so a
    log can show the opening dice.
``legal_actions(state, actor) -> list[ActionSpec]``
    The buttons the board shows for `actor` (an army key; the GM's commands are not listed):
    each `ActionSpec` carries its key (= the `Command.kind` to send), its cost in actions, its
    traits and one `ActionOption` per valid choice of target, each with the params to send and
    a `CheckPreview` per check it will roll (stat, modifier and DC with their breakdowns), so a
    player sees the odds BEFORE clicking. Every option listed is accepted by `apply`.
``apply(state, command, dice) -> (BattleState, list[Event]) | Rejected``
    Apply one command (a war action, the end of a turn, a GM correction) with `dice`; return
    the new state and the events (codes with params; every check in an event carries its die,
    its source seeded/typed, the modifier and DC breakdowns, the total and the degree), or a
    `Rejected` carrying `Problem`s and no change.
``outcome(state) -> Outcome | None``
    None while the battle runs; afterwards who won and the system's data on what follows
    (kingdom checks to roll, XP, the armies as they leave the battle). Applying that to
    kingdoms is not the battle engine's job.
``state_from_dict(data) -> BattleState``
    The inverse of `BattleState.to_dict()` (snapshots).

For auto-play and forecasts (`warfare.engine.battle.autoplay`, `.forecast`):

``awaiting(state) -> tuple[Waiting, ...]``
    Who the board waits for now: one `Waiting(actor, side)` per actor that must send a
    command before the battle can go on (an army whose turn it is, a reaction or a starting
    position to answer, every commander and PC still to choose in a simultaneous round, or
    the GM: actor None). Empty once the battle is over.
``suggest(state, actor) -> Command``
    The system's auto-play policy: a legal command for `actor` (one of `awaiting`), the
    choice a GM would accept for an NPC (each system documents its policy in its
    `battle/policy.py`); ValueError for an actor the board does not wait for. It sees the
    whole state, so it is for the GM's side of the table: a player-facing policy would have
    to be given the state as that player sees it.
``clock(state) -> (round, turn)``
    Where the battle is: the round (the day for GURPS 3e) and the turn within it (0 for a
    system whose sides act together), for "auto-play this turn / this round".
``standing(state) -> Standing``
    The numbers a forecast counts: per army / force / unit / solo what is left of it (HP,
    TS, stands) and what happened to it (routed, destroyed…), per side its score (VP).

For forecasts (optional, default: none):

``play_out(state, rng, max_rounds) -> BattleState``
    The last state of the battle played on with every side and the GM's steps auto-played
    and the dice drawn from `rng` (`random.Random`, one `random()` per die as `SeededDice`
    draws), stopping `max_rounds` rounds after the first: exactly what the forecast's own
    loop over `awaiting`, `suggest` and `apply` reaches (`forecast._play_out`), with less
    work (a system's lean simulation: no events, no log, no re-check of its own policy's
    commands). The forecast uses it where a system has one.
``decided(state) -> tuple[bool, str | None]``
    Whether the battle is over and its winner (None: none): all a forecast reads of
    `outcome` (`outcome(state) is not None`, its `winner`), without its details.
``warm_up: int``
    The simulations a forecast with worker processes plays alone before it forks them (so
    what the engine keeps from one simulation to the next is inherited; see
    `forecast.WARM_UP`): few where what it keeps is the same for every simulation (a set-up
    worked out once), many where each simulation adds to it (choices kept per situation).
    Without it, a tenth of the simulations.

For the board (optional, default: never):

``forced(state) -> Command | None``
    The command the board sends by itself now, because it is the only one anybody could
    send (Pathfinder: "end_turn" once the acting army has no action left and no reaction
    waits). A service applies it as an ordinary, logged command right after the command
    that led to it (`forced_commands`), so replay needs to know nothing about it.

Dice: `command_dice(seed, index, typed)` gives the dice of the command at `index`: a seeded
roller whose seed is derived from the battle seed and the index with SHA-256 (stable across
Python versions and processes), that first uses the values the player typed in from real dice
(`Command.typed_dice`, logged with source "typed"). `replay` uses exactly these dice, so a
service that applies a new command must use `command_dice(seed, len(commands), typed)`.
"""

import hashlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from warfare.engine.dice import DiceExpr, Roll, SeededDice, TypedDice, parse_expr
from warfare.engine.problems import Problem

# --- commands ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """One thing somebody did on the board.

    `actor`: the army key acting (None for the GM's commands); `kind`: an `ActionSpec.key`
    (e.g. "advance", "end_turn") or a system command such as "gm_correction"; `params`: plain
    JSON (e.g. {"target": "b1"}); `typed_dice`: die results rolled at the table and typed in,
    used before any seeded die (None: all dice seeded).
    """

    actor: str | None
    kind: str
    params: Mapping[str, Any] = field(default_factory=dict)
    typed_dice: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", dict(self.params))
        if self.typed_dice is not None:
            object.__setattr__(self, "typed_dice", tuple(self.typed_dice))

    def to_dict(self) -> dict[str, Any]:
        return {
            "actor": self.actor,
            "kind": self.kind,
            "params": dict(self.params),
            "typed_dice": list(self.typed_dice) if self.typed_dice is not None else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Command":
        typed = data.get("typed_dice")
        return cls(
            actor=data.get("actor"),
            kind=str(data["kind"]),
            params=dict(data.get("params") or {}),
            typed_dice=tuple(int(value) for value in typed) if typed is not None else None,
        )


# --- what the board shows --------------------------------------------------------------------

Term = tuple[str, int]


@dataclass(frozen=True)
class CheckPreview:
    """A check an action will roll, as shown before clicking.

    `stat`: what is rolled ("maneuver", "melee", "morale", "scouting"…); `against`: whose DC
    (an army or fortification key, None for a fixed DC); `dc` None means an attack-less
    roll without DC (there is none today).
    """

    stat: str
    modifier: int
    modifier_breakdown: tuple[Term, ...]
    dc: int | None
    dc_breakdown: tuple[Term, ...] = ()
    against: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "stat": self.stat,
            "modifier": self.modifier,
            "modifier_breakdown": [list(term) for term in self.modifier_breakdown],
            "dc": self.dc,
            "dc_breakdown": [list(term) for term in self.dc_breakdown],
            "against": self.against,
        }


@dataclass(frozen=True)
class ActionOption:
    """One valid way to take an action: the params to send and the checks it will roll."""

    params: Mapping[str, Any]
    checks: tuple[CheckPreview, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"params": dict(self.params), "checks": [c.to_dict() for c in self.checks]}


@dataclass(frozen=True)
class ActionSpec:
    """A button: `key` is the `Command.kind`; `cost` in actions (0 for end_turn);
    `options` one per valid target (an action with no target has one option with empty
    params); `optional_params` names extra params `apply` accepts (e.g. "potion")."""

    key: str
    cost: int
    traits: tuple[str, ...] = ()
    options: tuple[ActionOption, ...] = ()
    optional_params: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "cost": self.cost,
            "traits": list(self.traits),
            "options": [option.to_dict() for option in self.options],
            "optional_params": list(self.optional_params),
        }

    def commands(self, actor: str) -> list[Command]:
        """One command per option (what clicking each button sends)."""
        return [Command(actor, self.key, option.params) for option in self.options]


@dataclass(frozen=True)
class Rejected:
    """`apply` refused a command: nothing changed; `problems` say why (codes with params)."""

    problems: tuple[Problem, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"problems": [problem.to_dict() for problem in self.problems]}


@dataclass(frozen=True)
class Outcome:
    """How a battle ended: `winner` side key (None: nobody, e.g. both sides fell at once),
    `losers`, and the rule system's `details` (plain JSON: kingdom checks, XP, armies…)."""

    winner: str | None
    losers: tuple[str, ...]
    details: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "losers": list(self.losers), "details": self.details}


class SetupError(ValueError):
    """`start` was given a setup it cannot use; `problems` say why."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        super().__init__(", ".join(problem.code for problem in problems))
        self.problems = tuple(problems)


class ReplayError(RuntimeError):
    """A stored command was rejected on replay (the stored log and the rules disagree)."""

    def __init__(self, index: int, problems: Sequence[Problem]) -> None:
        super().__init__(f"command {index}: " + ", ".join(p.code for p in problems))
        self.index = index
        self.problems = tuple(problems)


@dataclass(frozen=True)
class Waiting:
    """An actor the board waits for (`awaiting`): `actor` is what `Command.actor` must be
    (None: the GM), `side` the side it plays for (None for the GM)."""

    actor: str | None
    side: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"actor": self.actor, "side": self.side}


@dataclass(frozen=True)
class ForceStanding:
    """One army / force / unit / solo in `standing`: `measure` names what `left` and `start`
    count ("hp", "ts", "stands"); `flags` what happened to it so far ("routed",
    "destroyed", "fled", "retreated", "broken", "dead"…); `values` other numbers worth an
    average (e.g. {"casualties": 20}). `kind` says what it is ("army", "force", "unit",
    "solo", "pc")."""

    key: str
    side: str
    kind: str
    measure: str
    left: float
    start: float
    flags: tuple[str, ...] = ()
    values: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "side": self.side,
            "kind": self.kind,
            "measure": self.measure,
            "left": self.left,
            "start": self.start,
            "flags": list(self.flags),
            "values": dict(self.values),
        }


@dataclass(frozen=True)
class Standing:
    """What a forecast counts at the end of a simulated battle (`standing`): `sides` in
    order, `forces` one per army / force / unit / solo, `scores` per side (D&D 5e VP)."""

    sides: tuple[str, ...]
    forces: tuple[ForceStanding, ...]
    scores: Mapping[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": list(self.sides),
            "forces": [force.to_dict() for force in self.forces],
            "scores": dict(self.scores),
        }


class BattleEvent(Protocol):
    code: str

    def to_dict(self) -> dict[str, Any]: ...


class BattleState(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


class BattleSystem(Protocol):
    key: str

    def start(self, setup: Mapping[str, Any], seed: int) -> Any: ...

    def start_events(self, state: Any) -> list[Any]: ...

    def legal_actions(self, state: Any, actor: str) -> list[ActionSpec]: ...

    def apply(
        self, state: Any, command: Command, dice: Any
    ) -> "tuple[Any, list[Any]] | Rejected": ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def state_from_dict(self, data: Mapping[str, Any]) -> Any: ...

    def awaiting(self, state: Any) -> tuple[Waiting, ...]: ...

    def suggest(self, state: Any, actor: str | None) -> Command: ...

    def clock(self, state: Any) -> tuple[int, int]: ...

    def standing(self, state: Any) -> Standing: ...

    def forced(self, state: Any) -> "Command | None": ...


@dataclass(frozen=True)
class FunctionSystem:
    """A `BattleSystem` made of a rule system's module-level functions: every engine is written
    as pure functions over its state, and this is the one object its `SYSTEM` is.

    `start_events` rebuilds the opening events from `state.opening` (each system's state keeps
    the events of `start` there)."""

    key: str
    start: Callable[[Mapping[str, Any], int], Any]
    legal_actions: Callable[[Any, str], list[ActionSpec]]
    apply: Callable[[Any, Command, Any], Any]
    outcome: Callable[[Any], Outcome | None]
    state_from_dict: Callable[[Mapping[str, Any]], Any]
    awaiting: Callable[[Any], tuple[Waiting, ...]]
    suggest: Callable[[Any, str | None], Command]
    clock: Callable[[Any], tuple[int, int]]
    standing: Callable[[Any], Standing]
    forced: Callable[[Any], "Command | None"] = lambda state: None
    play_out: Callable[[Any, Any, int], Any] | None = None
    decided: Callable[[Any], tuple[bool, str | None]] | None = None
    warm_up: int | None = None

    def start_events(self, state: Any) -> list[Any]:
        return list(state.opening)

    @classmethod
    def of(
        cls,
        engine: Any,
        *,
        key: str,
        suggest: Callable[[Any, str | None], Command],
        play_out: Callable[[Any, Any, int], Any] | None = None,
        decided: Callable[[Any], tuple[bool, str | None]] | None = None,
        warm_up: int | None = None,
    ):
        """The system of an engine module written to the protocol's names (`start`,
        `legal_actions`, `apply`, `outcome`, `awaiting`, `clock`, `standing`, `forced` if it
        has one, `BattleState.from_dict`), with its auto-play policy's `suggest` (and its
        lean `play_out`, `decided` and `warm_up` for forecasts, if it has them)."""
        forced = getattr(engine, "forced", None)
        return cls(
            play_out=play_out,
            decided=decided,
            warm_up=warm_up,
            key=key,
            start=engine.start,
            legal_actions=engine.legal_actions,
            apply=engine.apply,
            outcome=engine.outcome,
            state_from_dict=engine.BattleState.from_dict,
            awaiting=engine.awaiting,
            suggest=suggest,
            clock=engine.clock,
            standing=engine.standing,
            **({"forced": forced} if forced is not None else {}),
        )

    @classmethod
    def of_module(cls, key: str, names: Mapping[str, Any], **given: Any) -> "FunctionSystem":
        """The system `key` of a module's functions, each found under its field's name in
        `names` (the module's `globals()`: `start`, `apply`, `suggest`... and `forced` where
        the module has one); `given` names the others. For an engine that keeps its policy
        in the same module, like the test-only toy system."""
        found = {f.name: names[f.name] for f in fields(cls) if f.name in names and f.name != "key"}
        return cls(key=key, **{**found, **given})


# --- dice --------------------------------------------------------------------------------------


def derive_seed(seed: int, salt: int | str) -> int:
    """A 60-bit seed from the battle seed and a salt (command index or "start"), via SHA-256."""
    digest = hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()
    return int(digest[:15], 16)


class CommandDice:
    """The dice of one command: typed-in values first (source "typed"), then seeded ones.

    Implements the `warfare.engine.dice.Dice` protocol; every roll lands in `log`. A typed
    value that a die cannot show raises `DieOutOfRange` (the engine turns it into a problem).
    """

    def __init__(self, seed: int, typed: Sequence[int] | None = None) -> None:
        self.log: list[Roll] = []
        self._typed = TypedDice(typed or ())
        self._seeded = SeededDice(seed)

    @property
    def typed_remaining(self) -> tuple[int, ...]:
        return self._typed.remaining

    @property
    def server(self) -> SeededDice:
        """The seeded dice alone, for the rolls the results typed in are not for (a
        reaction's, in the middle of the command they were typed for)."""
        return self._seeded

    def _source(self) -> SeededDice | TypedDice:
        return self._typed if self._typed.remaining else self._seeded

    def roll(self, sides: int, *, purpose: str = "") -> int:
        source = self._source()
        value = source.roll(sides, purpose=purpose)
        self.log.append(source.log[-1])
        return value

    def d20(self, *, purpose: str = "") -> int:
        return self.roll(20, purpose=purpose)

    def roll_expr(self, expression: str | DiceExpr, *, purpose: str = "") -> Roll:
        """Roll NdS+M; when the typed dice run out inside it (two typed for a 3d6), the rest
        come from the server: the log records the two parts with their own sources, and the
        roll returned (source "typed") has all the dice."""
        expr = parse_expr(expression) if isinstance(expression, str) else expression
        typed = len(self._typed.remaining)
        if not typed or typed >= expr.count:
            roll = self._source().roll_expr(expr, purpose=purpose)
            self.log.append(roll)
            return roll
        first = self._typed.roll_expr(DiceExpr(typed, expr.sides), purpose=purpose)
        rest = DiceExpr(expr.count - typed, expr.sides, expr.modifier)
        second = self._seeded.roll_expr(rest, purpose=purpose)
        self.log.extend((first, second))
        results = first.results + second.results
        return Roll(str(expr), expr.sides, results, expr.modifier, purpose, TypedDice.source)


def command_dice(seed: int, index: int, typed: Sequence[int] | None = None) -> CommandDice:
    """The dice of the command at `index` (0-based) of a battle with `seed`."""
    return CommandDice(derive_seed(seed, index), typed)


def start_dice(seed: int, typed: Sequence[int] | None = None) -> CommandDice:
    """The dice `start` rolls initiative with."""
    return CommandDice(derive_seed(seed, "start"), typed)


# --- replay and undo -------------------------------------------------------------------------


def replay(
    system: BattleSystem,
    setup: Mapping[str, Any],
    seed: int,
    commands: Sequence[Command],
) -> tuple[Any, list[Any]]:
    """Start the battle and apply every command in order: (final state, all events).

    The events are `start_events` followed by each command's events. A rejected command
    raises `ReplayError` (a stored log must always replay).
    """
    state = system.start(setup, seed)
    events: list[Any] = list(system.start_events(state))
    for index, command in enumerate(commands):
        result = system.apply(state, command, command_dice(seed, index, command.typed_dice))
        if isinstance(result, Rejected):
            raise ReplayError(index, result.problems)
        state, new_events = result
        events.extend(new_events)
    return state, events


#: How many forced commands may follow one command (a guard: each ends a turn).
MAX_FORCED = 64


def forced_commands(
    system: BattleSystem, state: Any, seed: int, position: int
) -> Iterator[tuple[Command, Any, list[Any]]]:
    """The commands the board sends by itself after a command left `state` (`forced`), each
    applied with the dice of its `position` like a command sent by hand: yields (command,
    state after it, its events) while `system.forced` names one and the battle runs."""
    forced = getattr(system, "forced", None)
    for _ in range(MAX_FORCED if forced is not None else 0):
        command = forced(state)
        if command is None or system.outcome(state) is not None:
            return
        result = system.apply(state, command, command_dice(seed, position))
        if isinstance(result, Rejected):  # pragma: no cover - a forced command is legal
            raise ReplayError(position, result.problems)
        state, events = result
        yield command, state, events
        position += 1


def undo(
    system: BattleSystem,
    setup: Mapping[str, Any],
    seed: int,
    commands: Sequence[Command],
) -> tuple[Any, list[Any], list[Command]]:
    """Drop the last command and replay: (state, events, remaining commands)."""
    remaining = list(commands[:-1])
    state, events = replay(system, setup, seed, remaining)
    return state, events, remaining
