"""Runtime state the Army activities (§4) and the kingdom turn (§10) work on.

`ArmyState` is one army between battles: what it is (`ArmySpec`), its HP, hex, garrison,
timers and per-turn counters. `KingdomState` is the part of a kingdom warfare reads and
changes: level, Control DC, skills, RP, Food, Unrest, Ruins, structure item bonuses, turn.
Both are frozen and JSON-ready (`to_dict` / `from_dict`); the functions of this package return
new states, never change the ones they are given.

The helpers at the bottom change one army's conditions or HP and append the matching events;
they are used by `resolve` and `upkeep`.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from warfare.engine.frozen import replace, replace_normalised
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    StatBlock,
    spec_from_dict,
    spec_to_dict,
    stat_block,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS, implied_by
from warfare.engine.systems.pf2e.kingdom import RUINS, WARFARE_SKILLS, default_skills

ArmyKey = str | int | None

BLOCKS_AT_KEPT = 4096
_BLOCKS_AT: dict[tuple[int, Any], tuple[ArmySpec, StatBlock]] = {}
"""`ArmyState.block` per (id of the spec, HP), with the spec held (so no other object can
have its id while the entry is there: the same id is the very same spec)."""


@lru_cache(maxsize=BLOCKS_AT_KEPT)
def _block_at(spec: ArmySpec, hp: Any) -> StatBlock:
    """`ArmyState.block` by value: the spec of a state read again from its JSON (a board's
    every request) is a new object of the same value, its copy at that HP too."""
    return stat_block(replace(spec, current_hp=hp))


ACTIVE, DISBANDED, DESTROYED = "active", "disbanded", "destroyed"
STATUSES = (ACTIVE, DISBANDED, DESTROYED)

_ARMY_DEFAULTS: dict[str, Any] = {
    "key": None, "garrison": None, "garrison_consumption_cut": False, "potion_doses": 0,
    "status": ACTIVE, "timers": {}, "activities_this_turn": 0, "fought_this_turn": False,
}  # fmt: skip
"""`ArmyState.from_dict`'s values for the keys older data lacks (one merge, not a look-up
per key: a board reads every army of its battle's snapshot on every request)."""

UNTIL_DEPLOYED, UNTIL_NEXT_TURN = "until_deployed", "until_next_turn"
GARRISON_DURATIONS = (UNTIL_DEPLOYED, UNTIL_NEXT_TURN)

NO_GARRISON_TIMER = "no_garrison_until_turn:"
"""Timer key prefix + hex: Garrison Army is allowed again at that hex from the stored turn."""


def _pairs(value: Mapping[str, int] | tuple) -> tuple[tuple[str, int], ...]:
    if type(value) in (dict, tuple) and not value:  # (none: the usual timers)
        return ()
    items = value.items() if isinstance(value, Mapping) else value
    return tuple(sorted((str(key), int(number)) for key, number in items))


@dataclass(frozen=True, slots=True)
class ArmyState:
    """One army of a kingdom (or a GM's enemy army) between battles.

    Conditions (weary, shaken, mired, pinned, lost, defeated, efficient, fortified…) live in
    `spec.conditions`. `hp` is the army's current HP (0: defeated). `garrison` says how long
    its fortified condition from Garrison Army lasts. `timers` maps a key to a kingdom turn
    (e.g. "no_garrison_until_turn:<hex>"). `activities_this_turn` / `fought_this_turn` are the
    per-turn counters the Army Activities step and the idle decay (§9) read.
    """

    key: ArmyKey
    spec: ArmySpec
    hp: int
    hex: str
    garrison: str | None = None
    garrison_consumption_cut: bool = False
    potion_doses: int = 0
    status: str = ACTIVE
    timers: tuple[tuple[str, int], ...] | Mapping[str, int] = ()
    activities_this_turn: int = 0
    fought_this_turn: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "timers", _pairs(self.timers))

    post_init_fields = frozenset({"timers"})
    """What `__post_init__` normalises (idempotently): `frozen.replace` copies an army with
    other changes (its HP, status, spec) without it."""

    # --- reading -----------------------------------------------------------------------------

    @property
    def conditions(self) -> dict[str, int]:
        """Conditions with their implied ones (mired 4 -> pinned, pinned -> outflanked…)."""
        conditions = dict(implied_by(self.spec.conditions))  # type: ignore[arg-type]
        if self.hp == 0:
            conditions.setdefault("defeated", 1)
        return conditions

    def condition(self, key: str) -> int:
        return self.conditions.get(key, 0)

    @property
    def defeated(self) -> bool:
        return self.hp == 0 or "defeated" in implied_by(self.spec.conditions)  # type: ignore[arg-type]

    @property
    def active(self) -> bool:
        return self.status == ACTIVE

    @property
    def timer_values(self) -> dict[str, int]:
        return dict(self.timers)  # type: ignore[arg-type]

    def block(self) -> StatBlock:
        """The army's stat block at its current HP (kept per spec object and HP: a forecast
        asks every army's max HP at the end of each battle)."""
        spec, hp = self.spec, self.hp
        try:
            held, block = _BLOCKS_AT[(id(spec), hp)]
            if held is spec:
                return block
        except (KeyError, TypeError):
            pass
        try:  # an equal spec at the same HP (another read of the same army): its block
            block = _block_at(spec, hp)
        except TypeError:  # an unhashable spec: not kept
            block = stat_block(replace(spec, current_hp=hp))
        try:
            if len(_BLOCKS_AT) >= BLOCKS_AT_KEPT:
                _BLOCKS_AT.clear()
            _BLOCKS_AT[(id(spec), hp)] = (spec, block)
        except TypeError:  # an unhashable HP: not kept
            pass
        return block

    @property
    def max_hp(self) -> int:
        return self.block().max_hp.value

    # --- storage -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "spec": spec_to_dict(self.spec),
            "hp": self.hp,
            "hex": self.hex,
            "garrison": self.garrison,
            "garrison_consumption_cut": self.garrison_consumption_cut,
            "potion_doses": self.potion_doses,
            "status": self.status,
            "timers": dict(self.timers),  # type: ignore[arg-type]
            "activities_this_turn": self.activities_this_turn,
            "fought_this_turn": self.fought_this_turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "ArmyState":
        data = {**_ARMY_DEFAULTS, **data}  # (a key older data lacks: its default)
        return cls(
            key=data["key"],
            spec=spec_from_dict(data["spec"]),
            hp=int(data["hp"]),
            hex=str(data["hex"]),
            garrison=data["garrison"],
            garrison_consumption_cut=bool(data["garrison_consumption_cut"]),
            potion_doses=int(data["potion_doses"]),
            status=data["status"],
            timers=data["timers"],
            activities_this_turn=int(data["activities_this_turn"]),
            fought_this_turn=bool(data["fought_this_turn"]),
        )


def destroyed_army(army: ArmyState) -> ArmyState:
    """The army destroyed: "the army is gone; cannot be restored, only replaced; all its gear
    is destroyed" (§9 Destroyed, §5 "A destroyed army's gear is destroyed"). No HP, no gear
    or potion doses, no conditions left to recover from, no garrison."""
    spec = replace(army.spec, gear=(), conditions={}, current_hp=None)
    return replace(army, spec=spec, hp=0, potion_doses=0, status=DESTROYED, garrison=None,
                   garrison_consumption_cut=False)  # fmt: skip


def new_army_state(key: ArmyKey, spec: ArmySpec, hex: str) -> ArmyState:
    """A fresh army at full HP, with the potion doses its gear lists."""
    block = stat_block(spec)
    return ArmyState(key, spec, block.max_hp.value, hex, potion_doses=block.potion_doses)


@dataclass(frozen=True)
class KingdomState:
    """The kingdom numbers warfare reads and changes (§10).

    `skills`: {skill: {"modifier": int, "rank": proficiency}} for the warfare skills (§10.4).
    `item_bonuses`: {activity key: item bonus} from structures (§4.9, see `structures`).
    `recruit_blocked_until_turn`: Recruit Army is allowed again from that turn (§4.1).
    """

    level: int
    control_dc: int
    skills: Mapping[str, Mapping[str, Any]] = field(default_factory=default_skills)
    rp: int = 0
    food: int = 0
    unrest: int = 0
    ruins: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(RUINS, 0))
    item_bonuses: Mapping[str, int] = field(default_factory=dict)
    turn: int = 1
    at_war: bool = False
    narrative_warfare: bool = False
    recruit_blocked_until_turn: int | None = None

    def __post_init__(self) -> None:
        # Defensive copies: a caller's dict changing later cannot change this state.
        object.__setattr__(
            self, "skills", {name: dict(entry) for name, entry in self.skills.items()}
        )
        ruins = dict.fromkeys(RUINS, 0)
        ruins.update({name: int(value) for name, value in self.ruins.items()})
        object.__setattr__(self, "ruins", ruins)
        object.__setattr__(
            self, "item_bonuses", {key: int(value) for key, value in self.item_bonuses.items()}
        )

    def skill_modifier(self, skill: str) -> int | None:
        entry = self.skills.get(skill)
        return None if entry is None else int(entry.get("modifier", 0))

    def skill_rank(self, skill: str) -> str | None:
        entry = self.skills.get(skill)
        return None if entry is None else str(entry.get("rank", "untrained"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "control_dc": self.control_dc,
            "skills": {name: dict(entry) for name, entry in self.skills.items()},
            "rp": self.rp,
            "food": self.food,
            "unrest": self.unrest,
            "ruins": dict(self.ruins),
            "item_bonuses": dict(self.item_bonuses),
            "turn": self.turn,
            "at_war": self.at_war,
            "narrative_warfare": self.narrative_warfare,
            "recruit_blocked_until_turn": self.recruit_blocked_until_turn,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "KingdomState":
        return cls(
            level=int(data["level"]),
            control_dc=int(data["control_dc"]),
            skills=data.get("skills") or default_skills(),
            rp=int(data.get("rp", 0)),
            food=int(data.get("food", 0)),
            unrest=int(data.get("unrest", 0)),
            ruins=data.get("ruins", {}),
            item_bonuses=data.get("item_bonuses", {}),
            turn=int(data.get("turn", 1)),
            at_war=bool(data.get("at_war", False)),
            narrative_warfare=bool(data.get("narrative_warfare", False)),
            recruit_blocked_until_turn=data.get("recruit_blocked_until_turn"),
        )


KNOWN_SKILLS = frozenset(WARFARE_SKILLS)


# --- helpers that change one army and log it ----------------------------------------------------


def set_conditions(army: ArmyState, conditions: Mapping[str, int]) -> ArmyState:
    """`army` with exactly these explicit conditions (values of 0 are dropped)."""
    # The sorted pairs `ArmySpec.__post_init__` makes of the dict (so no __post_init__).
    pairs = tuple(sorted((str(k), int(v)) for k, v in conditions.items() if v))
    return replace(army, spec=replace_normalised(army.spec, conditions=pairs))


def _params(army: ArmyState, reason: str | None, **params: Any) -> dict[str, Any]:
    result = {"army": army.key, **params}
    if reason:
        result["reason"] = reason
    return result


def add_condition(
    army: ArmyState, key: str, by: int, events: list[Event], reason: str | None = None
) -> ArmyState:
    """Valued condition +`by` (`army.<key>_added`), or gain a valueless one
    (`army.<key>_gained`). `reason` (e.g. "deploy_army.failure") goes into the event."""
    conditions = army.spec.condition_values
    if CONDITIONS[key].valued:
        now = conditions.get(key, 0) + by
        conditions[key] = now
        events.append(Event(f"army.{key}_added", _params(army, reason, by=by, now=now)))
    else:
        if key in conditions:
            return army
        conditions[key] = 1
        events.append(Event(f"army.{key}_gained", _params(army, reason)))
    return set_conditions(army, conditions)


def reduce_condition(
    army: ArmyState, key: str, by: int, events: list[Event], reason: str | None = None
) -> ArmyState:
    """Valued condition -`by` (not below 0; `army.<key>_reduced`); nothing if absent."""
    conditions = army.spec.condition_values
    old = conditions.get(key, 0)
    if not old:
        return army
    now = max(0, old - by)
    conditions[key] = now
    events.append(Event(f"army.{key}_reduced", _params(army, reason, by=old - now, now=now)))
    return set_conditions(army, conditions)


def remove_condition(
    army: ArmyState, key: str, events: list[Event], reason: str | None = None
) -> ArmyState:
    """Drop a condition entirely (`army.<key>_removed`); nothing if absent."""
    conditions = army.spec.condition_values
    if key not in conditions:
        return army
    del conditions[key]
    events.append(Event(f"army.{key}_removed", _params(army, reason)))
    return set_conditions(army, conditions)


def heal(army: ArmyState, by: int, events: list[Event], reason: str | None = None) -> ArmyState:
    """HP +`by` up to max HP (`army.hp_restored`); ends defeated once HP is above 0 (§9)."""
    now = min(army.max_hp, army.hp + by)
    if now > army.hp:
        events.append(Event("army.hp_restored", _params(army, reason, by=now - army.hp, now=now)))
        army = replace(army, hp=now)
    if army.hp > 0:
        army = remove_condition(army, "defeated", events, reason)
    return army


def end_garrison(army: ArmyState, events: list[Event]) -> ArmyState:
    """Garrison over: fortified and the consumption cut end (`army.garrison_ended`)."""
    if army.garrison is None and "fortified" not in army.spec.condition_values:
        return army
    events.append(Event("army.garrison_ended", {"army": army.key}))
    army = remove_condition(army, "fortified", events)
    return replace(army, garrison=None, garrison_consumption_cut=False)
