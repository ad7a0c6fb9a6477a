"""The state of a GURPS Mass Combat 4e battle: frozen, JSON-ready (`to_dict` / `from_dict`).

* `BattleState`: the battle (type, terrain, kind, recon result, phase, round), both sides,
  the PCs, this round's pending choices, the end;
* `SideState`: a force in the battle (TS, BSM, DB, PB, casualties, confusion, who commands);
* `PC`: a player character (or named NPC) on a side;
* `SideChoice` / `PCChoice`: what a commander or a PC chose this round. A side's pending
  strategy is SECRET until the round is revealed: `engine.public_state` hides it.

Sides are indexed 0 ("a") and 1 ("b") inside the engine.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from warfare.engine.events import Event
from warfare.engine.frozen import replace
from warfare.engine.systems.gurps4e.forces import Force, Officer, parsed_fraction

SIDE_KEYS = ("a", "b")
ACTIVE, DOWN, CAPTURED = "active", "down", "captured"

# phases
BATTLE_KIND, CHOOSING, PARLEY, CHANGE, PURSUIT, FINISHED = (
    "battle_kind",
    "choosing",
    "parley",
    "change",
    "pursuit",
    "finished",
)


@dataclass(frozen=True)
class PC:
    """A PC or named NPC (§A.6.2, §A.6.5): HP, the element row it fights in, whether it has a
    battle-usable skill at 15+ (or a useful ability), commands an element, is the force
    commander, is exempt from Misfortunes of War; `status` active / down (rescued) /
    captured."""

    key: str
    side: int
    name: str = ""
    hp: int = 10
    max_hp: int = 10
    element: str | None = None
    skill_15: bool = False
    commands_element: bool = False
    commander: bool = False
    exempt: bool = False
    status: str = ACTIVE

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key, "side": self.side, "name": self.name, "hp": self.hp,
            "max_hp": self.max_hp, "element": self.element, "skill_15": self.skill_15,
            "commands_element": self.commands_element, "commander": self.commander,
            "exempt": self.exempt, "status": self.status,
        }  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PC":
        return cls(**dict(data))


@dataclass(frozen=True)
class SideChoice:
    """A commander's choice for the round (§A.6.2-A.6.3): strategy, Desperate, Risk, and for a
    Raid whether a win hits the enemy's logistics."""

    strategy: str
    desperate: bool = False
    risk: int = 0
    raid_logistics: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {"strategy": self.strategy, "desperate": self.desperate, "risk": self.risk,
                "raid_logistics": self.raid_logistics}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SideChoice":
        return cls(**dict(data))


@dataclass(frozen=True)
class PCChoice:
    """A PC's choice for the round: Risk, what it does on a critical misfortune ("injury":
    6d, or "surrender"), and its significant action (the roll's event params and the effect),
    or a GM-resolved detailed action (no Misfortunes that round)."""

    risk: int = 0
    on_critical: str = "injury"
    significant: Mapping[str, Any] | None = None
    effect: int = 0
    detailed: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "risk": self.risk,
            "on_critical": self.on_critical,
            "significant": dict(self.significant) if self.significant is not None else None,
            "effect": self.effect,
            "detailed": self.detailed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "PCChoice":
        return cls(**dict(data))


@dataclass(frozen=True)
class SideState:
    """One force in the battle. `ts` is its TS at the start (exact); `bsm` the terms of its
    Basic Strategy Modifier fixed at the start (relative TS, superiority; casualties are
    added per round); `superiority` its class bonuses; `commander` the index in the chain
    (0 = the force commander, n = the n-th successor)."""

    force: Force
    ts: Fraction
    bsm: tuple[tuple[str, int], ...] = ()
    superiority: Mapping[str, int] = field(default_factory=dict)
    db: int = 0
    pb: int = 0
    casualties: int = 0
    logistics: int = 0
    confused: bool = False
    started_confused: bool = False
    ambusher: bool = False
    left: bool = False
    commander: int = 0
    indirect_uses: int = 0
    previous: str | None = None
    circumstance: int = 0

    @property
    def officer(self) -> Officer | None:
        """The officer now in command (None when the chain of command is exhausted)."""
        chain = (self.force.staff.commander, *self.force.staff.chain)
        return chain[self.commander] if self.commander < len(chain) else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "force": self.force.to_dict(),
            "ts": str(self.ts),
            "bsm": [list(term) for term in self.bsm],
            "superiority": dict(self.superiority),
            "db": self.db,
            "pb": self.pb,
            "casualties": self.casualties,
            "logistics": self.logistics,
            "confused": self.confused,
            "started_confused": self.started_confused,
            "ambusher": self.ambusher,
            "left": self.left,
            "commander": self.commander,
            "indirect_uses": self.indirect_uses,
            "previous": self.previous,
            "circumstance": self.circumstance,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SideState":
        values = dict(data)
        values["force"] = Force.from_dict(data["force"])
        ts = data["ts"]
        values["ts"] = parsed_fraction(ts) if isinstance(ts, str) else Fraction(ts)
        values["bsm"] = tuple((str(c), int(v)) for c, v in data.get("bsm") or ())
        values["superiority"] = dict(data.get("superiority") or {})
        return cls(**values)


@dataclass(frozen=True)
class BattleState:
    """A whole battle. `choices` are the two commanders' pending choices (secret until the
    reveal); `pc_choices` the PCs' by key; `parley` the answer to a one-sided Parley
    ("accepted"/"refused"); `changed` whether the slow-strategy change window was used."""

    battle_type: str
    terrain: str
    terrain_rating: int
    classes: tuple[str, ...]
    sides: tuple[SideState, SideState]
    pcs: tuple[PC, ...] = ()
    siege: bool = False
    obscured: bool = False
    overrides: Mapping[str, Any] = field(default_factory=dict)
    neutralize: tuple[bool, bool] = (True, True)
    """GM decision per side: use its neutralizers (§A.5.3)."""
    gm_db: Mapping[str, int] = field(default_factory=dict)
    """Defense Bonus the GM set per side key (§A.5.4); other holders roll it."""
    recon: Mapping[str, Any] | None = None
    initiative: int | None = None
    kind: str | None = None
    phase: str = CHOOSING
    round: int = 1
    round_length: int = 15
    choices: tuple[SideChoice | None, SideChoice | None] = (None, None)
    pc_choices: Mapping[str, PCChoice] = field(default_factory=dict)
    parley: str | None = None
    changed: bool = False
    finished: bool = False
    victor: int | None = None
    end_reason: str | None = None
    aftermath: Mapping[str, Any] | None = None
    opening: tuple[Event, ...] = ()

    def pc(self, key: str) -> PC:
        for pc in self.pcs:
            if pc.key == key:
                return pc
        raise KeyError(key)

    def with_side(self, index: int, side: SideState) -> "BattleState":
        sides = list(self.sides)
        sides[index] = side
        return replace(self, sides=(sides[0], sides[1]))

    def with_pc(self, pc: PC) -> "BattleState":
        return replace(self, pcs=tuple(pc if p.key == pc.key else p for p in self.pcs))

    def to_dict(self, *, opening: bool = True) -> dict[str, Any]:
        """The state as JSON; without its `opening` events when not `opening` (a player's
        view of it leaves them out)."""
        data = {
            "battle_type": self.battle_type,
            "terrain": self.terrain,
            "terrain_rating": self.terrain_rating,
            "classes": list(self.classes),
            "sides": [side.to_dict() for side in self.sides],
            "pcs": [pc.to_dict() for pc in self.pcs],
            "siege": self.siege,
            "obscured": self.obscured,
            "overrides": dict(self.overrides),
            "neutralize": list(self.neutralize),
            "gm_db": dict(self.gm_db),
            "recon": dict(self.recon) if self.recon is not None else None,
            "initiative": self.initiative,
            "kind": self.kind,
            "phase": self.phase,
            "round": self.round,
            "round_length": self.round_length,
            "choices": [c.to_dict() if c is not None else None for c in self.choices],
            "pc_choices": {key: c.to_dict() for key, c in self.pc_choices.items()},
            "parley": self.parley,
            "changed": self.changed,
            "finished": self.finished,
            "victor": self.victor,
            "end_reason": self.end_reason,
            "aftermath": dict(self.aftermath) if self.aftermath is not None else None,
        }
        if opening:
            data["opening"] = [event.to_dict() for event in self.opening]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BattleState":
        values = dict(data)
        values["classes"] = tuple(data["classes"])
        sides = [SideState.from_dict(side) for side in data["sides"]]
        values["sides"] = (sides[0], sides[1])
        values["pcs"] = tuple(PC.from_dict(pc) for pc in data.get("pcs") or ())
        values["overrides"] = dict(data.get("overrides") or {})
        neutralize = data.get("neutralize") or (True, True)
        values["neutralize"] = (bool(neutralize[0]), bool(neutralize[1]))
        values["gm_db"] = dict(data.get("gm_db") or {})
        choices = [SideChoice.from_dict(c) if c else None for c in data["choices"]]
        values["choices"] = (choices[0], choices[1])
        values["pc_choices"] = {
            key: PCChoice.from_dict(c) for key, c in (data.get("pc_choices") or {}).items()
        }
        values["opening"] = tuple(Event.from_dict(e) for e in data.get("opening") or ())
        return cls(**values)
