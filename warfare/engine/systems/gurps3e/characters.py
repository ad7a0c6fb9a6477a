"""Characters of GURPS 3e mass combat (gurps §B.3, §B.4, §B.6, §B.10 Character3e): PCs and
named NPCs as frozen dataclasses, with Combat Skill, the Risk limits and reputation.

A character's numbers are his sheet's: HT (3e hit points, current and max), DR (overall),
Toughness level, Luck uses left, Tactics (None: untrained, defaults to IQ-6), best usable
weapon skill, reputation entries and Military Rank. `role` says what he commands: "trooper",
"unit_commander" (his Glory modifies his side's Strategy) or "army_commander" (by 1 more).
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warfare.engine.frozen import replace
from warfare.engine.systems.gurps3e.house_rules import house_value

TROOPER, UNIT_COMMANDER, ARMY_COMMANDER = "trooper", "unit_commander", "army_commander"
ROLES = (TROOPER, UNIT_COMMANDER, ARMY_COMMANDER)
# §B.4 personality and posting limits on Risk.
COWARD, IN_RESERVE, OVERCONFIDENT, BERSERK = "coward", "in_reserve", "overconfident", "berserk"
LIMITS = (COWARD, IN_RESERVE, OVERCONFIDENT, BERSERK)
RISK_MIN, RISK_MAX = -6, 6
# §B.4: (lowest, highest) Risk each limit allows.
RISK_LIMITS: Mapping[str, tuple[int, int]] = {
    COWARD: (-1, RISK_MAX),
    IN_RESERVE: (-1, RISK_MAX),
    OVERCONFIDENT: (RISK_MIN, 1),
    BERSERK: (RISK_MIN, 0),
}
FIT, UNCONSCIOUS, DEAD = "fit", "unconscious", "dead"
STATUSES = (FIT, UNCONSCIOUS, DEAD)

Term = tuple[str, int]


def int_field(data: Mapping[str, Any], key: str, default: int) -> int:
    """`data[key]` as an int; `default` when it is missing or None."""
    value = data.get(key)
    return default if value is None else int(value)


@dataclass(frozen=True, slots=True)
class Reputation:
    """A reputation entry (§B.6.1): `value` until campaign month `expires` (None: permanent).

    An entry gained in month m lasting d months has expires = m + d: it counts in months
    m..m+d-1."""

    value: int
    expires: int | None = None
    source: str = "glory"

    def active(self, month: int) -> bool:
        return self.expires is None or month < self.expires

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "expires": self.expires, "source": self.source}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Reputation":
        expires = data.get("expires")
        return cls(
            int(data["value"]),
            int(expires) if expires is not None else None,
            str(data.get("source", "glory")),
        )


@dataclass(frozen=True, slots=True)
class Character:
    key: str
    side: str
    ht: int
    ht_max: int
    iq: int = 10
    dr: int = 0
    toughness: int = 0
    luck: int = 0
    tactics: int | None = None
    weapon_skill: int = 10
    limits: tuple[str, ...] = ()
    reputation: tuple[Reputation, ...] = ()
    rank: int = 0
    role: str = TROOPER
    status: str = FIT
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "side": self.side,
            "name": self.name,
            "ht": self.ht,
            "ht_max": self.ht_max,
            "iq": self.iq,
            "dr": self.dr,
            "toughness": self.toughness,
            "luck": self.luck,
            "tactics": self.tactics,
            "weapon_skill": self.weapon_skill,
            "limits": list(self.limits),
            "reputation": [entry.to_dict() for entry in self.reputation],
            "rank": self.rank,
            "role": self.role,
            "status": self.status,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], side: str | None = None) -> "Character":
        """Build from plain JSON (`side` overrides the data's; HT defaults to HT max, the
        status to the one HT gives)."""
        ht_max = int_field(data, "ht_max", int_field(data, "ht", 10))
        tactics = data.get("tactics")
        ht = int_field(data, "ht", ht_max)
        return cls(
            key=str(data["key"]),
            side=str(side if side is not None else data["side"]),
            name=str(data.get("name", "")),
            ht=ht,
            ht_max=ht_max,
            iq=int_field(data, "iq", 10),
            dr=int_field(data, "dr", 0),
            toughness=int_field(data, "toughness", 0),
            luck=int_field(data, "luck", 0),
            tactics=int(tactics) if tactics is not None else None,
            weapon_skill=int_field(data, "weapon_skill", 10),
            limits=tuple(str(limit) for limit in data.get("limits") or ()),
            reputation=tuple(Reputation.from_dict(e) for e in data.get("reputation") or ()),
            rank=int_field(data, "rank", 0),
            role=str(data.get("role", TROOPER)),
            status=str(data.get("status") or status_for(ht, ht_max)),
        )


def effective_tactics(character: Character) -> tuple[int, tuple[Term, ...]]:
    """Tactics, or its IQ default when untrained (gurps §0.2, §B.3)."""
    if character.tactics is not None:
        return character.tactics, (("tactics", character.tactics),)
    default = house_value("tactics.default_from_iq")
    return character.iq + default, (("iq", character.iq), ("tactics_default", default))


def combat_skill(character: Character) -> tuple[int, tuple[Term, ...]]:
    """Combat Skill (gurps §B.3): Tactics and best weapon skill averaged, rounded down
    [inferred, house `combat_skill.divisor`]. Returns (value, breakdown of its inputs)."""
    tactics, tactics_terms = effective_tactics(character)
    divisor = house_value("combat_skill.divisor")
    value = (tactics + character.weapon_skill) // divisor
    return value, (*tactics_terms, ("weapon_skill", character.weapon_skill), ("divisor", divisor))


def risk_range(character: Character) -> tuple[int, int]:
    """The Risk values the character may choose (gurps §B.4): -6..+6, narrowed by being a
    coward or in reserve (not below -1), overconfident (not above +1), berserk (not above 0).
    Contradictory limits (a cowardly berserker) leave the intersection; if it is empty the
    upper bound wins (the GM should fix the sheet)."""
    low, high = RISK_MIN, RISK_MAX
    for limit in character.limits:
        limit_low, limit_high = RISK_LIMITS[limit]
        low, high = max(low, limit_low), min(high, limit_high)
    return min(low, high), high


def reputation_total(character: Character, month: int) -> int:
    """The sum of the reputation entries still active in campaign `month` (§B.6)."""
    return sum(entry.value for entry in character.reputation if entry.active(month))


def expire_reputation(character: Character, month: int) -> Character:
    """Drop the entries that no longer count in `month` (§B.10 reputation timers)."""
    kept = tuple(entry for entry in character.reputation if entry.active(month))
    return replace(character, reputation=kept)


def status_for(ht: int, ht_max: int) -> str:
    """Fit above 0 HT; unconscious (out of the fight) at 0 or less; dead at -HT x 5
    [B, 3e; house `death.multiple_of_ht`]. The HT rolls at each full -HT are `damage`'s."""
    if ht <= -ht_max * house_value("death.multiple_of_ht"):
        return DEAD
    return FIT if ht > 0 else UNCONSCIOUS
