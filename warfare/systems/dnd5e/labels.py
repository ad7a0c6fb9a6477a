"""D&D 5e words of stat blocks in the page's language: abilities, speeds, damage types and the
names of the SRD library's attacks and spells (`warfare.engine.systems.dnd5e.creatures`).
Stored keys stay English (the creature form's text format reads them); pages show these.
A name typed by the GM for an attack of their own is shown as typed."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

ABILITY_LABELS = {
    "str": pgettext_lazy("dnd5e ability", "STR"),
    "dex": pgettext_lazy("dnd5e ability", "DEX"),
    "con": pgettext_lazy("dnd5e ability", "CON"),
    "int": pgettext_lazy("dnd5e ability", "INT"),
    "wis": pgettext_lazy("dnd5e ability", "WIS"),
    "cha": pgettext_lazy("dnd5e ability", "CHA"),
}
SPEED_LABELS = {
    "walk": pgettext_lazy("dnd5e speed", "walk"),
    "fly": pgettext_lazy("dnd5e speed", "fly"),
    "swim": pgettext_lazy("dnd5e speed", "swim"),
    "climb": pgettext_lazy("dnd5e speed", "climb"),
}
DAMAGE_TYPE_LABELS = {
    "acid": pgettext_lazy("dnd5e damage", "acid"),
    "bludgeoning": pgettext_lazy("dnd5e damage", "bludgeoning"),
    "cold": pgettext_lazy("dnd5e damage", "cold"),
    "fire": pgettext_lazy("dnd5e damage", "fire"),
    "force": pgettext_lazy("dnd5e damage", "force"),
    "lightning": pgettext_lazy("dnd5e damage", "lightning"),
    "necrotic": pgettext_lazy("dnd5e damage", "necrotic"),
    "piercing": pgettext_lazy("dnd5e damage", "piercing"),
    "poison": pgettext_lazy("dnd5e damage", "poison"),
    "psychic": pgettext_lazy("dnd5e damage", "psychic"),
    "radiant": pgettext_lazy("dnd5e damage", "radiant"),
    "slashing": pgettext_lazy("dnd5e damage", "slashing"),
    "thunder": pgettext_lazy("dnd5e damage", "thunder"),
}
SRD_ATTACK_LABELS = {
    "dagger": pgettext_lazy("dnd5e attack", "dagger"),
    "greataxe": pgettext_lazy("dnd5e attack", "greataxe"),
    "greatclub": pgettext_lazy("dnd5e attack", "greatclub"),
    "greatsword": pgettext_lazy("dnd5e attack", "greatsword"),
    "heavy_crossbow": pgettext_lazy("dnd5e attack", "heavy crossbow"),
    "javelin": pgettext_lazy("dnd5e attack", "javelin"),
    "longbow": pgettext_lazy("dnd5e attack", "longbow"),
    "longsword": pgettext_lazy("dnd5e attack", "longsword"),
    "rock": pgettext_lazy("dnd5e attack", "rock"),
    "scimitar": pgettext_lazy("dnd5e attack", "scimitar"),
    "shortbow": pgettext_lazy("dnd5e attack", "shortbow"),
    "shortsword": pgettext_lazy("dnd5e attack", "shortsword"),
    "spear": pgettext_lazy("dnd5e attack", "spear"),
    "fire_bolt": pgettext_lazy("dnd5e attack", "fire bolt"),
    "fireball": pgettext_lazy("dnd5e attack", "fireball"),
}


def attack_name(key: str) -> str:
    """An attack's (or spell's) name: the SRD's translated, a GM's own as typed."""
    label = SRD_ATTACK_LABELS.get(key)
    return str(label) if label else str(key).replace("_", " ")


def damage_type(key: str) -> str:
    label = DAMAGE_TYPE_LABELS.get((key or "").lower())
    return str(label) if label else key


def abilities_text(abilities: dict) -> str:
    """'STR +3, DEX +1, …' in the stat block's order."""
    return ", ".join(f"{ABILITY_LABELS.get(key, key.upper())} {value:+d}"
                     for key, value in abilities.items())  # fmt: skip


def speeds_text(speeds: dict) -> str:
    """'walk 30, fly 60' (feet)."""
    return ", ".join(f"{SPEED_LABELS.get(mode, mode)} {feet}" for mode, feet in speeds.items())


def attack_text(attack: dict) -> str:
    """'spear +3, 1d6+1 piercing, reach 5 ft, range 20/60 ft' (and '×2' for two a turn)."""
    parts = [f"{attack_name(attack.get('key', ''))} {int(attack['to_hit']):+d}"]
    parts.append(f"{attack.get('damage', '')} {damage_type(attack.get('damage_type', ''))}".strip())
    if attack.get("reach_ft") is not None:
        parts.append(_("reach %(feet)s ft") % {"feet": attack["reach_ft"]})
    if attack.get("range_ft") is not None:
        distance = attack["range_ft"]
        if attack.get("long_ft"):
            distance = f"{distance}/{attack['long_ft']}"
        parts.append(_("range %(feet)s ft") % {"feet": distance})
    if int(attack.get("count", 1)) != 1:
        parts.append(f"×{attack['count']}")
    return ", ".join(parts)
