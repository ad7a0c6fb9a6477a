"""The battle state of dnd5e "When Armies Clash" (§11.1): frozen dataclasses, plain JSON.

Every piece has a key unique in the battle: units, stands, solos, siege engines; an objective
square is addressed as "sq:X:Y". Positions are the top-left square of a piece's space.
"""

import marshal
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from warfare.engine.events import Event, plain
from warfare.engine.frozen import MEMO, replace, state_memo
from warfare.engine.systems.dnd5e.creatures import Creature
from warfare.engine.systems.dnd5e.grid import Grid, Pos

DEPLOY, ROUND, CASUALTIES, DRAW, ENDED = "deploy", "round", "casualties", "draw", "ended"
SKIRMISHER, REGIMENT = "skirmisher", "regiment"
AID, DEFEND, MARCH = "aid", "defend", "march"
CONFIGURATIONS = (AID, DEFEND, MARCH)


INCAPACITATING = frozenset(("incapacitated", "unconscious", "paralyzed", "stunned", "petrified"))
"""Conditions under which a solo cannot act."""


def _pos(value: Any) -> Pos | None:
    return None if value is None else (int(value[0]), int(value[1]))


#: The values `to_dict` writes as they are (`plain` would give them back unchanged).
_AS_IS = frozenset((str, int, bool, float, type(None)))
#: {class: its field names in order}: `dataclasses.fields` builds its tuple on every call.
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


class _Plain:
    """`to_dict` of a flat dataclass whose fields are JSON values, tuples and mappings."""

    def to_dict(self) -> dict[str, Any]:
        cls = type(self)
        try:
            names = _FIELD_NAMES[cls]
        except KeyError:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(self))  # type: ignore[arg-type]
        values, kept = self.__dict__, self._kept_plain
        return {name: value if type(value := values[name]) in _AS_IS else
                _plain_kept(value) if name in kept else _plain_part(value)
                for name in names}  # fmt: skip

    #: Fields that are the very same objects from state to state (never changed by a
    #: command): their JSON is worked out once per object (`_plain_kept`).
    _kept_plain: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Stand(_Plain):
    """Ten identical creatures acting as one (§4.1). `hp` is never negative; a stand at 0 HP
    is a `casualty` (acts on as if at 1 HP until the end of the round, §6.1); `gone` once
    removed ("eliminated" or "fled")."""

    key: str
    unit: str
    creature: str
    pos: Pos | None
    hp: int
    max_hp: int
    casualty: bool = False
    hidden: bool = False
    stealth: int | None = None
    gone: str | None = None

    @property
    def on_field(self) -> bool:
        return self.gone is None and self.pos is not None

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Stand":
        return cls(d["key"], d["unit"], d["creature"], _pos(d["pos"]), d["hp"], d["max_hp"],
                   d["casualty"], d["hidden"], d["stealth"], d["gone"])  # fmt: skip


@dataclass(frozen=True)
class Unit(_Plain):
    """A group of stands moving and fighting as one (§4.2). `prepared`/`incited`: turns of
    the unit the commander's Prepare / Incite still covers (§4.5)."""

    key: str
    side: str
    kind: str
    configuration: str | None
    start_stands: int
    commander: str | None = None
    broken: bool = False
    surprised: bool = False
    prepared: int = 0
    incited: int = 0
    morale_checked: bool = False

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Unit":
        return cls(d["key"], d["side"], d["kind"], d["configuration"], d["start_stands"],
                   d["commander"], d["broken"], d["surprised"], d["prepared"], d["incited"],
                   d["morale_checked"])  # fmt: skip


@dataclass(frozen=True)
class Solo(_Plain):
    """A significant individual (§4.4): full HP, death saves (PCs), conditions. `joined`: the
    stand it is part of (off the grid then); `dead` also covers a monster dropped to 0 HP."""

    key: str
    side: str
    creature: str
    pc: bool
    pos: Pos | None
    joined: str | None
    hp: int
    max_hp: int
    death_successes: int = 0
    death_failures: int = 0
    stable: bool = False
    dead: bool = False
    gone: str | None = None
    hidden: bool = False
    stealth: int | None = None
    surprised: bool = False
    conditions: tuple[str, ...] = ()
    spells_used: Mapping[str, int] = field(default_factory=dict)

    @property
    def dying(self) -> bool:
        return self.hp == 0 and not self.dead and not self.stable

    @property
    def can_act(self) -> bool:
        return (
            self.hp > 0 and not self.dead and self.gone is None
            and INCAPACITATING.isdisjoint(self.conditions)
        )  # fmt: skip

    @property
    def on_field(self) -> bool:
        return self.gone is None and not self.dead and self.pos is not None and not self.joined

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Solo":
        return cls(d["key"], d["side"], d["creature"], d["pc"], _pos(d["pos"]), d["joined"],
                   d["hp"], d["max_hp"], d["death_successes"], d["death_failures"],
                   d["stable"], d["dead"], d["gone"], d["hidden"], d["stealth"],
                   d["surprised"], tuple(d["conditions"]), dict(d["spells_used"]))  # fmt: skip


@dataclass(frozen=True)
class ObjectiveSquare(_Plain):
    """A Destruction square (§7.1): HP 10-100, AC vs ranged attacks, VP 1-5 when destroyed."""

    x: int
    y: int
    hp: int
    max_hp: int
    ac: int
    vp: int
    scored: bool = False

    @property
    def pos(self) -> Pos:
        return (self.x, self.y)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "ObjectiveSquare":
        return cls(d["x"], d["y"], d["hp"], d["max_hp"], d["ac"], d["vp"], d["scored"])


@dataclass(frozen=True)
class Objective(_Plain):
    """An objective scored by `side` (§7.1): attrition (`vp` per enemy unit eliminated),
    destruction (`squares`), protection (of `paired`'s squares, `vp` per round), custom
    (`vp` once the GM marks it achieved). `scored`: VP already counted."""

    key: str
    type: str
    side: str
    vp: int
    squares: tuple[ObjectiveSquare, ...] = ()
    paired: str | None = None
    achieved: bool = False
    counted: tuple[str, ...] = ()
    scored: int = 0

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Objective":
        return cls(d["key"], d["type"], d["side"], d["vp"],
                   tuple(ObjectiveSquare.from_dict(s) for s in d["squares"]), d["paired"],
                   d["achieved"], tuple(d["counted"]), d["scored"])  # fmt: skip


@dataclass(frozen=True)
class Engine(_Plain):
    """A siege engine on the grid (§8) crewed by a unit's stands; `loaded`/`aimed` count the
    actions spent on each step (a cauldron's fill counts as loading)."""

    key: str
    kind: str
    side: str
    pos: Pos
    hp: int
    crew: str | None
    loaded: int = 0
    aimed: int = 0
    destroyed: bool = False

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Engine":
        return cls(d["key"], d["kind"], d["side"], _pos(d["pos"]), d["hp"], d["crew"],
                   d["loaded"], d["aimed"], d["destroyed"])  # fmt: skip


@dataclass(frozen=True)
class Turn(_Plain):
    """The current actor's turn: `action` the unit's one action (§5.4); `spent` squares moved
    per piece; `done_moving` pieces whose move is over; `acted` pieces that used their action;
    `attacks` made per piece; `aided` helped stand per helper; `bonus` solos that used their
    bonus action; `dashed`; `solos` joined solos that acted on this unit's turn."""

    actor: str
    action: str | None = None
    spent: Mapping[str, int] = field(default_factory=dict)
    done_moving: tuple[str, ...] = ()
    acted: tuple[str, ...] = ()
    attacks: Mapping[str, int] = field(default_factory=dict)
    aided: Mapping[str, str] = field(default_factory=dict)
    bonus: tuple[str, ...] = ()
    dashed: bool = False
    solos: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Turn":
        return cls(d["actor"], d["action"], dict(d["spent"]), tuple(d["done_moving"]),
                   tuple(d["acted"]), dict(d["attacks"]), dict(d["aided"]), tuple(d["bonus"]),
                   d["dashed"], tuple(d["solos"]))  # fmt: skip


@dataclass(frozen=True)
class Offer(_Plain):
    """§6.2 step 1: a removed casualty's space an adjacent allied stand may slide into."""

    unit: str
    pos: Pos
    size: int
    solos: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Offer":
        return cls(d["unit"], _pos(d["pos"]), d["size"], tuple(d["solos"]))


@dataclass(frozen=True)
class Options(_Plain):
    """Per-battle options: the seed's variants of §10 (all off by default) and house choices.

    seed_morale_check (#2: Wisdom check, not save), seed_switch_uses_action (#4: a joined
    solo leaves or switches stands instead of its action), seed_one_death_save (#5), seed_autohit
    (#6: ranged attacks also auto-hit Destruction squares), seed_all_or_nothing (#7),
    protection_stands (#8: 2, the seed 1), draw_fight_on (#9: on a tie keep fighting rounds
    instead of the GM's draw / one more round), morale_every_round, hp_multiplier (§13.1).
    """

    seed_morale_check: bool = False
    seed_switch_uses_action: bool = False
    seed_one_death_save: bool = False
    seed_autohit: bool = False
    seed_all_or_nothing: bool = False
    protection_stands: int = 2
    draw_fight_on: bool = False
    morale_every_round: bool = True
    hp_multiplier: int = 1

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Options":
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in names})


@dataclass(frozen=True)
class BattleState(_Plain):
    _kept_plain = frozenset(("creatures", "opening"))

    grid: Grid
    creatures: Mapping[str, Creature]
    sides: tuple[str, ...]
    units: tuple[Unit, ...]
    stands: tuple[Stand, ...]
    solos: tuple[Solo, ...]
    objectives: tuple[Objective, ...]
    engines: tuple[Engine, ...]
    options: Options
    order: tuple[str, ...]
    initiative: Mapping[str, int]
    phase: str = DEPLOY
    round: int = 0
    turn_index: int = 0
    turn: Turn | None = None
    vp: Mapping[str, int] = field(default_factory=dict)
    offers: tuple[Offer, ...] = ()
    pending: tuple[str, ...] = ()
    zones: Mapping[str, tuple[int, int, int, int]] = field(default_factory=dict)
    spell_uses: Mapping[str, int] = field(default_factory=dict)
    solos_done: tuple[str, ...] = ()
    result: Mapping[str, Any] | None = None
    sequence: int = 0
    opening: tuple[Event, ...] = ()

    @staticmethod
    def memo_kept(memo: dict[Any, Any], changes: Mapping[str, Any]) -> dict[Any, Any] | None:
        """What `replace` hands on to a copy (`frozen.replace`): `find`'s pieces and the
        `pieces_memo` / `board_memo` when the changes leave every piece, the grid, the
        objectives, the options and the sides as they are (a new turn, round, score…)."""
        if not _PIECE_FIELDS.isdisjoint(changes):
            return None
        found = {}
        for key in (_PIECES, _BOARD, _PLACE, _INDEX):  # (a loop: no comprehension's call)
            if key in memo:
                found[key] = memo[key]
        return found

    # --- lookups -----------------------------------------------------------------------------

    def unit(self, key: str) -> Unit:
        try:  # `find`, inline (a key it does not hold: `find` itself)
            item = self.__dict__[MEMO][_PIECES][key]
        except KeyError:
            item = self.find(key)
        return item if type(item) is Unit else _of_type(self, key, Unit)

    def stand(self, key: str) -> Stand:
        try:  # `find`, inline
            item = self.__dict__[MEMO][_PIECES][key]
        except KeyError:
            item = self.find(key)
        return item if type(item) is Stand else _of_type(self, key, Stand)

    def solo(self, key: str) -> Solo:
        item = self.find(key)
        return item if type(item) is Solo else _of_type(self, key, Solo)

    def engine(self, key: str) -> Engine:
        return _of_type(self, key, Engine)

    def find(self, key: str) -> Unit | Stand | Solo | Engine | None:
        """The unit, stand, solo or engine with this key (None: none)."""
        try:  # (a key it does not hold, or no pieces known yet: `_pieces`)
            return self.__dict__[MEMO][_PIECES][key]
        except KeyError:
            return _pieces(self).get(key)

    def stands_of(self, unit: str) -> tuple[Stand, ...]:
        """The unit's stands not yet gone (kept for these very pieces, `pieces_memo`)."""
        try:  # `pieces_part`, inline, when the state's memo holds it
            return self.__dict__[MEMO][_BOARD][_STANDS_OF][unit]
        except KeyError:
            kept = pieces_part(self, _STANDS_OF)
        found = kept.get(unit)
        if found is None:
            found = kept[unit] = tuple(
                s for s in self.stands if s.unit == unit and s.gone is None)  # fmt: skip
        return found

    def joined_to(self, stand: str) -> tuple[Solo, ...]:
        return tuple(s for s in self.solos if s.joined == stand and s.gone is None)

    def side_of(self, key: str) -> str:
        item = self.find(key)
        if isinstance(item, Stand):
            unit = self.find(item.unit)
            return (unit if type(unit) is Unit else self.unit(item.unit)).side
        if item is None:
            raise KeyError(key)
        return item.side

    @property
    def current(self) -> str | None:
        return self.turn.actor if self.turn else None

    # --- updates -----------------------------------------------------------------------------

    def put(self, item: Unit | Stand | Solo | Engine | Objective) -> "BattleState":
        name = _GROUPS[type(item)]
        group = getattr(self, name)
        kept = self.__dict__.get(MEMO, {})
        index = kept.get(_INDEX)
        if index is None:
            index = _group_index(self)
        at = index[name].get(item.key)
        if at is None:  # not in the group, or a key held twice: every one of that key
            changed = tuple(item if i.key == item.key else i for i in group)
        else:
            items = list(group)
            items[at] = item
            changed = tuple(items)
        new = replace(self, **{name: changed})
        # (a change of a group of pieces hands on no memo, `memo_kept`: `state_memo`'s new
        # dict without its look-up that fails)
        memo = new.__dict__[MEMO] = {}
        memo[_INDEX] = index  # `put` keeps every group's keys where they are
        # The new state's `pieces_memo`: its group is a new tuple, so no other state holds
        # these very pieces (a copy of this state made by `replace` is handed this dict).
        board = memo[_BOARD] = {}
        before = kept.get(_BOARD)
        if before is not None:  # what reads only the other groups stays as it was
            if name != "stands":
                for part in (_STANDS_OF, FIELD_STANDS):
                    if part in before and (part is _STANDS_OF or name != "units"):
                        board[part] = before[part]  # (a dict filled as it is asked)
            elif at is not None and _STANDS_OF in before:  # (a key held once)
                # The other units' stands are the same objects.
                units = (item.unit, group[at].unit)
                board[_STANDS_OF] = {unit: stands for unit, stands in before[_STANDS_OF].items()
                                     if unit not in units}  # fmt: skip
        pieces = kept.get(_PIECES)
        same = False
        if name == "objectives":
            if pieces is not None:
                memo[_PIECES] = board[_PIECES] = pieces  # `find` reads no objective
            old_objective = None  # the group's first of the key (a loop: no generator)
            for each in group:
                if each.key == item.key:
                    old_objective = each
                    break
            same = old_objective is not None and _live_squares(old_objective) == _live_squares(
                item)  # fmt: skip
        # `find`'s pieces of the new state: those of this one with the item replaced.
        elif pieces is not None and getattr(pieces.get(item.key), "key", None) == item.key:
            old = pieces[item.key]
            if type(old) is type(item):  # the group's first of that key, as `_pieces`
                found = dict(pieces)
                found[item.key] = item
                memo[_PIECES] = board[_PIECES] = found
                same = _same_place(old, item)
        place = kept.get(_PLACE)
        if place is not None:
            if same:  # the same board: hand on what was worked out for it (`board_memo`)
                memo[_PLACE] = board[_PLACE] = place
            else:  # another board: the one this change made of this board before, if any
                step = (id(place), name, item.key, _PLACE_OF[name](item))
                hit = _STEPS.get(step)
                if hit is not None and hit[0] is place:
                    memo[_PLACE] = board[_PLACE] = hit[1]
                else:  # `board_memo` notes where this change leads once it is known
                    board[_FROM] = (place, step)
        return new

    # --- JSON --------------------------------------------------------------------------------

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "BattleState":
        """The state of a snapshot; the same state object for the same snapshot (`_READ`):
        a board's render, the action sent from it and every viewer's board read the battle
        row's JSON, and what one of them worked out for the state (its `per_state` memo: the
        options, the board) serves the others."""
        key = snapshot_key(d)
        state = _READ.get(key) if key is not None else None
        if state is None:
            state = cls._read(d)
            if key is not None:
                if len(_READ) >= READ_KEPT:
                    _READ.clear()
                _READ[key] = state
        return state

    @classmethod
    def _read(cls, d: Mapping[str, Any]) -> "BattleState":
        turn = d.get("turn")
        return cls(
            grid=Grid.from_dict(d["grid"]),
            creatures=_creatures(d["creatures"]),
            sides=tuple(d["sides"]),
            units=tuple(Unit.from_dict(u) for u in d["units"]),
            stands=tuple(Stand.from_dict(s) for s in d["stands"]),
            solos=tuple(Solo.from_dict(s) for s in d["solos"]),
            objectives=tuple(Objective.from_dict(o) for o in d["objectives"]),
            engines=tuple(Engine.from_dict(e) for e in d["engines"]),
            options=Options.from_dict(d["options"]),
            order=tuple(d["order"]),
            initiative={k: int(v) for k, v in d["initiative"].items()},
            phase=d["phase"],
            round=d["round"],
            turn_index=d["turn_index"],
            turn=Turn.from_dict(turn) if turn else None,
            vp={k: int(v) for k, v in d["vp"].items()},
            offers=tuple(Offer.from_dict(o) for o in d["offers"]),
            pending=tuple(d["pending"]),
            zones={k: tuple(v) for k, v in d["zones"].items()},  # type: ignore[misc]
            spell_uses={k: int(v) for k, v in d["spell_uses"].items()},
            solos_done=tuple(d["solos_done"]),
            result=d.get("result"),
            sequence=d["sequence"],
            opening=tuple(Event.from_dict(e) for e in d["opening"]),
        )


def snapshot_key(data: Any) -> bytes | None:
    """A faithful copy of plain JSON data (`marshal`, in C: equal bytes, equal data, key
    order included); None for anything else."""
    try:
        return marshal.dumps(data, 2)  # (version 2: no references, no interning marks)
    except ValueError:
        return None


def _creatures(data: Mapping[str, Any]) -> Mapping[str, Creature]:
    """The stat blocks of a snapshot, read once per process for the same JSON (a battle's
    creatures never change, every snapshot holds them all): the same mapping of the same
    (frozen) creatures."""
    key = snapshot_key(data)
    found = _CREATURES.get(key) if key is not None else None
    if found is None:
        found = {k: Creature.from_dict(v) for k, v in data.items()}
        if key is not None:
            if len(_CREATURES) >= READ_KEPT:
                _CREATURES.clear()
            _CREATURES[key] = found
    return found


def _plain_part(value: Any) -> Any:
    """`plain(value)` of a field, a tuple of pieces (the units, stands, solos…) taken piece
    by piece: each piece's `to_dict` at once, without `plain`'s look-ups on the way."""
    if type(value) is not tuple:
        return plain(value)
    return [v.to_dict() if type(v) in _PIECE_CLASSES else v if type(v) in _AS_IS else plain(v)
            for v in value]  # fmt: skip


def _plain_kept(value: Any) -> Any:
    """`plain(value)` of a part that is the very same object from state to state: worked
    out once per object and kept as a `marshal` copy, so each answer is data of its own."""
    hit = _PLAIN.get(id(value))
    if hit is None or hit[0] is not value:
        data = plain(value)
        try:
            copy = marshal.dumps(data, 2)
        except ValueError:
            return data
        if len(_PLAIN) >= READ_KEPT:
            _PLAIN.clear()
        hit = _PLAIN[id(value)] = (value, copy)  # (held: while kept, the id names it)
    return marshal.loads(hit[1])  # noqa: S302 (bytes this process wrote)


READ_KEPT = 64
_PLAIN: dict[int, tuple[Any, bytes]] = {}
#: {snapshot JSON (`snapshot_key`): the state read from it}; and the same for creatures.
_READ: dict[bytes, "BattleState"] = {}
_CREATURES: dict[bytes, Mapping[str, Creature]] = {}

_GROUPS = {Unit: "units", Stand: "stands", Solo: "solos", Engine: "engines",
           Objective: "objectives"}  # fmt: skip
"""The field of a state holding each kind of piece (`put`)."""
BOARDS_KEPT = 256
_PIECE_FIELDS = frozenset(("units", "stands", "solos", "engines", "creatures", "grid",
                           "objectives", "options", "sides"))  # fmt: skip
"""The parts of a state `pieces_memo` is kept for."""
_BOARDS: dict[tuple[int, ...], tuple[tuple[Any, ...], dict[Any, Any]]] = {}
_BOARD, _PLACE = "dnd5e.board", "dnd5e.place"


def pieces_memo(state: BattleState) -> dict[Any, Any]:
    """A dict for what depends only on the pieces of the state (its units, stands, solos,
    engines and creatures, with their HP; the grid, the objectives, the options and the
    sides): shared by every state that holds the very same pieces, so a command that changes
    only the turn, the round or the score (ending a turn, dashing, scoring) reuses what the
    state before it worked out. Put there only results of those parts (and constants),
    under keys of one's own."""
    try:
        return state.__dict__[MEMO][_BOARD]
    except KeyError:
        pass
    memo = state_memo(state)
    parts = (state.units, state.stands, state.solos, state.engines, state.creatures,
             state.grid, state.objectives, state.options, state.sides)  # fmt: skip
    key = tuple(map(id, parts))
    hit = _BOARDS.get(key)
    # The same ids with the parts held here: the very same objects.
    if hit is None or any(a is not b for a, b in zip(hit[0], parts, strict=True)):
        if len(_BOARDS) >= BOARDS_KEPT:
            _BOARDS.clear()
        hit = _BOARDS[key] = (parts, {})
    memo[_BOARD] = hit[1]
    return hit[1]


def pieces_part(state: BattleState, part: str) -> dict[Any, Any]:
    """The dict `part` of the state's `pieces_memo` (created empty if there is none)."""
    try:
        return state.__dict__[MEMO][_BOARD][part]
    except KeyError:
        memo = pieces_memo(state)
        found = memo.get(part)
        if found is None:
            found = memo[part] = {}
        return found


def board_memo(state: BattleState) -> dict[Any, Any]:
    """A dict for what depends only on the board of the state: who stands where (the
    squares, the occupancy, isolation, the targets, the attack profiles' layout), not on
    HP. It is the `pieces_memo`'s, and `put` hands it on to the new state when it changes
    only a stand's HP or casualty flag (a hit), so the commands of a fight reuse it. Put
    there only results read from keys, positions and flags other than HP (no pieces: a
    piece held there would carry its old HP), under keys of one's own."""
    try:
        return state.__dict__[MEMO][_PLACE]
    except KeyError:
        pass
    memo = pieces_memo(state)
    try:
        found = memo[_PLACE]
    except KeyError:
        found = memo[_PLACE] = _shared_place(state)
        origin = memo.get(_FROM)  # a `put` of a piece of a board that was known
        if origin is not None:
            if len(_STEPS) >= PLACES_KEPT:
                _STEPS.clear()
            _STEPS[origin[1]] = (origin[0], found)
    state_memo(state)[_PLACE] = found  # the next call finds it in the state's own memo
    return found


def _shared_place(state: BattleState) -> dict[Any, Any]:
    """The `board_memo` dict of every state with the same place (`_place_key`), in any
    battle of the process: a forecast's battles from one set-up pass through the same
    boards again and again (a new board after a move is one seen before nine times in
    ten), and what the board reads is the same for them (see `board_memo`)."""
    key = _place_key(state)
    hit = _PLACES.get(key)
    # Held with the dict: while it is kept, the ids in the key name these very objects.
    held = (state.grid, state.creatures, state.options)
    if hit is None or any(a is not b for a, b in zip(hit[1], held, strict=True)):
        if len(_PLACES) >= PLACES_KEPT:
            _PLACES.clear()
        hit = _PLACES[key] = ({}, held)
    return hit[0]


def _place_key(state: BattleState) -> tuple[Any, ...]:
    """What the board reads of a state: of every piece what `_same_place` compares, of every
    objective its `_live_squares`, and (by identity) the grid, the stat blocks and the
    options; the sides."""
    return (
        id(state.grid), id(state.creatures), id(state.options), state.sides,
        tuple(map(_stand_place, state.stands)), tuple(map(_solo_place, state.solos)),
        tuple(map(_unit_place, state.units)), tuple(map(_engine_place, state.engines)),
        tuple(map(_objective_place, state.objectives)),
    )  # fmt: skip


def _stand_place(s: Stand) -> tuple[Any, ...]:
    return (s.key, s.pos, s.gone, s.hidden, s.unit, s.creature)


def _solo_place(s: Solo) -> tuple[Any, ...]:
    return (s.key, s.pos, s.joined, s.gone, s.dead, s.hidden, s.side, s.creature)


def _unit_place(u: Unit) -> tuple[Any, ...]:
    return (u.key, u.side, u.kind, u.configuration, u.incited)


def _engine_place(e: Engine) -> tuple[Any, ...]:
    return (e.key, e.pos, e.kind, e.side, e.destroyed)


def _objective_place(o: Objective) -> tuple[Any, ...]:
    return (o.key, _live_squares(o))


#: Per group of pieces (`_GROUPS`), what `_place_key` reads of each.
_PLACE_OF = {"stands": _stand_place, "solos": _solo_place, "units": _unit_place,
             "engines": _engine_place, "objectives": _objective_place}  # fmt: skip
PLACES_KEPT = 4096
_PLACES: dict[tuple[Any, ...], tuple[dict[Any, Any], tuple[Any, ...]]] = {}
#: {(id of a board's `board_memo` dict, group, key, the piece's place): (that dict, the
#: `board_memo` dict of the board `put` makes of it with that piece)}: a board reached
#: again from the board before it without building its `_place_key`.
_STEPS: dict[tuple[Any, ...], tuple[dict[Any, Any], dict[Any, Any]]] = {}
_FROM = "dnd5e.place_from"


def _same_place(old: Any, new: Any) -> bool:
    """The two pieces differ at most in what the board does not read (see `board_memo`:
    the squares, the occupancy and layout, isolation, the targets and the attack profiles'
    `_profile_number` read positions, who is on the field, joins, the hidden flags and a
    unit's configuration and Incite): a stand's HP and casualty flag; a solo's HP, death
    saves, conditions and spells (not whether it is dead); a unit's other flags and
    counts; an engine's HP and loading (not whether it is destroyed)."""
    kind = type(new)
    if kind is Stand:
        return (old.pos, old.gone, old.hidden, old.unit, old.creature) == (
            new.pos, new.gone, new.hidden, new.unit, new.creature)  # fmt: skip
    if kind is Solo:
        return (old.pos, old.joined, old.gone, old.dead, old.hidden, old.side,
                old.creature) == (new.pos, new.joined, new.gone, new.dead, new.hidden,
                                  new.side, new.creature)  # fmt: skip
    if kind is Unit:
        return (old.side, old.kind, old.configuration, old.incited) == (
            new.side, new.kind, new.configuration, new.incited)  # fmt: skip
    if kind is Engine:
        return (old.pos, old.kind, old.side, old.destroyed) == (
            new.pos, new.kind, new.side, new.destroyed)  # fmt: skip
    return False


def _group_index(state: BattleState) -> dict[str, dict[str, int]]:
    """Per group of pieces (`_GROUPS`), key -> position in it (a key held twice left out),
    for `put`: the same for every state of a battle, kept in the state's memo (`_INDEX`)."""
    index = {}
    for name in _GROUPS.values():
        found: dict[str, int] = {}
        twice = set()
        for n, item in enumerate(getattr(state, name)):
            if item.key in found:
                twice.add(item.key)
            found[item.key] = n
        for key in twice:
            del found[key]
        index[name] = found
    return index


def _live_squares(objective: "Objective") -> tuple[Any, ...]:
    """What the board reads of an objective (its side, type and squares with HP left: the
    targets; their AC: the attack profiles)."""
    return (objective.side, objective.type,
            tuple((s.x, s.y, s.ac) for s in objective.squares if s.hp > 0))  # fmt: skip


def _pieces(state: BattleState) -> dict[str, Any]:
    """Key -> unit, stand, solo or engine of a state (the first of that key, in that order),
    built once per set of pieces (`pieces_memo`) and kept in the state's own memo too
    (`find` reads it from there): the engine looks pieces up dozens of times a command."""
    memo = pieces_memo(state)
    try:
        found = memo[_PIECES]
    except KeyError:
        found = {}
        for group in (state.units, state.stands, state.solos, state.engines):
            for item in group:
                found.setdefault(item.key, item)
        memo[_PIECES] = found
    state_memo(state)[_PIECES] = found
    return found


_PIECES, _STANDS_OF, _INDEX = "dnd5e.pieces", "dnd5e.stands_of", "dnd5e.index"
FIELD_STANDS = "dnd5e.field_stands"
"""The `pieces_memo` entry of `rules.field_stands` ({side: stands}): it reads only the
stands and the units' sides, so `put` of a solo, an engine or an objective hands it on."""


def _of_type(state: BattleState, key: str, kind: type) -> Any:
    """The piece of this key and kind; StopIteration if there is none (as `next` raised)."""
    item = state.find(key)
    if type(item) is kind:
        return item
    for item in {Unit: state.units, Stand: state.stands, Solo: state.solos,
                 Engine: state.engines}[kind]:  # fmt: skip
        if item.key == key:
            return item
    raise StopIteration


#: The classes `_Plain` writes (`_plain_part`: a piece of one of them is its `to_dict`).
_PIECE_CLASSES = frozenset(_Plain.__subclasses__())
