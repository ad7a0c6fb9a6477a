"""Persistent 3e records ⇄ the pure engine's plain JSON (no rules here: the engine derives
Troop Strength and Combat Skill)."""

from typing import Any

from django.utils.translation import gettext as _

from warfare.engine.systems.gurps3e.characters import Character as EngineCharacter
from warfare.engine.systems.gurps3e.characters import combat_skill, risk_range
from warfare.engine.systems.gurps3e.forces import Unit as EngineUnit
from warfare.engine.systems.gurps3e.forces import man_ts

from .models import Character, Unit


def unit_key(unit: Unit) -> str:
    return f"u{unit.pk}"


def character_key(character: Character) -> str:
    return f"c{character.pk}"


def unit_setup(unit: Unit) -> dict[str, Any]:
    """A unit as the engine's setup reads it (§B.3a, §B.8.3)."""
    data: dict[str, Any] = {
        "key": unit_key(unit),
        "name": unit.name,
        "troop_type": unit.troop_type.name,
        "men": unit.men,
        "ts_per_man": unit.troop_type.ts_per_man,
        "racial": unit.racial,
        "equipment": unit.equipment,
        "armour": unit.armour,
        "quality": unit.quality,
        "battles": unit.battles,
    }
    if unit.morale is not None:
        data["morale"] = unit.morale
    return data


def unit_sheet(unit: Unit) -> dict[str, Any]:
    """A unit's TS with its working: men × (base + racial, at least 1, + equipment)."""
    engine = EngineUnit.from_dict(unit_setup(unit))
    each = man_ts(engine.ts_per_man, engine.racial, engine.equipment)
    return {"unit": unit, "each": each, "ts": engine.ts, "morale": engine.morale}


def character_setup(character: Character, month: int | None = None) -> dict[str, Any]:
    """A character as the engine reads it (§B.10 Character3e); `month` drops expired
    reputation entries (the engine does it too, at the battle's start)."""
    return {
        "key": character_key(character),
        "name": character.name,
        "ht": character.ht,
        "ht_max": character.ht_max,
        "iq": character.iq,
        "dr": character.dr,
        "toughness": character.toughness,
        "luck": character.luck,
        "tactics": character.tactics,
        "weapon_skill": character.weapon_skill,
        "limits": list(character.limits or ()),
        "role": character.role,
        "rank": character.rank,
        "status": character.status,
        "reputation": [
            {"value": entry.value, "expires": entry.expires, "source": entry.source or "gm"}
            for entry in character.reputation.all()
        ],
    }


def character_sheet(character: Character) -> dict[str, Any]:
    """Derived numbers of a character: Combat Skill with its working (§B.3), the Risk range
    its limits allow (§B.4)."""
    engine = EngineCharacter.from_dict({**character_setup(character), "side": ""})
    skill, terms = combat_skill(engine)
    low, high = risk_range(engine)
    values = dict(terms)
    if "tactics" in values:
        tactics = _("Tactics %(tactics)s") % {"tactics": values["tactics"]}
    else:
        tactics = _("IQ %(iq)s − 6 (Tactics untrained)") % {"iq": values["iq"]}
    working = _("(%(tactics)s + weapon skill %(weapon)s) ÷ %(divisor)s, rounded down") % {
        "tactics": tactics,
        "weapon": values["weapon_skill"],
        "divisor": values["divisor"],
    }
    return {"combat_skill": skill, "working": working, "risk": f"{_signed(low)}…{_signed(high)}"}


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value).replace("-", "−")
