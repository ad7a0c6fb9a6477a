"""The state of a GURPS 3e battle: frozen dataclasses that serialise to plain JSON."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warfare.engine.events import Event
from warfare.engine.frozen import replace
from warfare.engine.systems.gurps3e.characters import Character
from warfare.engine.systems.gurps3e.forces import Force

CHOICES, CASUALTIES, ENDED = "choices", "casualties", "ended"
# How a battle's winner is found (`BattleState.winner_rule`, the battle.ended "decided_by").
LEFT_FIELD, DAYS, DAY, LAST_DAY = "left_field", "days", "day", "last_day"


@dataclass(frozen=True, slots=True)
class BattleState:
    """A battle between two forces (`forces`, in setup order), with its characters.

    `day` of `days` (an extended battle resolves once per day); `phase` is "choices" (Risk
    of every fit PC and each commander's commitment still to come: `risks`, `committed`),
    "casualties" (the GM enters them: `pending` holds what the day's resolution left to do)
    or "ended". `month` is the campaign month (reputation expiry). `history` has one summary
    per resolved day; `winner` the battle's winner once ended. `winner_rule`: how an
    extended battle that neither side left is won: "days" (the house default of
    `results.battle_winner`) or "last_day" (the last day's winner: battles set up before
    that rule, so that they replay as they were played)."""

    forces: tuple[Force, ...]
    characters: tuple[Character, ...]
    days: int = 1
    day: int = 1
    month: int = 0
    casualty_mode: str = "house"
    intensity: int = 0
    phase: str = CHOICES
    risks: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    committed: tuple[str, ...] = ()
    pending: Mapping[str, Any] | None = None
    history: tuple[Mapping[str, Any], ...] = ()
    winner: str | None = None
    winner_rule: str = LAST_DAY
    opening: tuple[Event, ...] = ()

    @property
    def sides(self) -> tuple[str, ...]:
        return tuple(force.key for force in self.forces)

    def force(self, key: str) -> Force:
        return next(force for force in self.forces if force.key == key)

    def enemy(self, key: str) -> Force:
        return next(force for force in self.forces if force.key != key)

    def with_force(self, new: Force) -> "BattleState":
        return replace(self, forces=tuple(new if f.key == new.key else f for f in self.forces))

    def character(self, key: str) -> Character:
        return next(c for c in self.characters if c.key == key)

    def has_character(self, key: str) -> bool:
        return any(c.key == key for c in self.characters)

    def with_character(self, new: Character) -> "BattleState":
        chars = tuple(new if c.key == new.key else c for c in self.characters)
        return replace(self, characters=chars)

    def to_dict(self) -> dict[str, Any]:
        return {
            "forces": [force.to_dict() for force in self.forces],
            "characters": [character.to_dict() for character in self.characters],
            "days": self.days,
            "day": self.day,
            "month": self.month,
            "casualty_mode": self.casualty_mode,
            "intensity": self.intensity,
            "phase": self.phase,
            "risks": {key: dict(value) for key, value in self.risks.items()},
            "committed": list(self.committed),
            "pending": dict(self.pending) if self.pending is not None else None,
            "history": [dict(day) for day in self.history],
            "winner": self.winner,
            # Left out when "last_day": the snapshots of battles set up before the rule stay
            # exactly what a replay gives.
            **({"winner_rule": self.winner_rule} if self.winner_rule != LAST_DAY else {}),
            "opening": [event.to_dict() for event in self.opening],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BattleState":
        pending = data.get("pending")
        return cls(
            forces=tuple(Force.from_dict(force) for force in data["forces"]),
            characters=tuple(Character.from_dict(c) for c in data.get("characters") or ()),
            days=int(data.get("days", 1)),
            day=int(data.get("day", 1)),
            month=int(data.get("month", 0)),
            casualty_mode=str(data.get("casualty_mode", "house")),
            intensity=int(data.get("intensity", 0)),
            phase=str(data.get("phase", CHOICES)),
            risks={str(k): dict(v) for k, v in (data.get("risks") or {}).items()},
            committed=tuple(str(key) for key in data.get("committed") or ()),
            pending=dict(pending) if pending is not None else None,
            history=tuple(dict(day) for day in data.get("history") or ()),
            winner=data.get("winner"),
            winner_rule=str(data.get("winner_rule", LAST_DAY)),
            opening=tuple(Event.from_dict(e) for e in data.get("opening") or ()),
        )
