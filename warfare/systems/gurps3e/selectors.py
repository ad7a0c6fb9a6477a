"""Read models of the 3e pages; TS and Combat Skill come from the pure engine."""

from django.db.models import Prefetch

from kingdoms.access import by_faction
from kingdoms.models import Membership

from . import mapping
from .access import sees_character_in_full, visible_characters
from .models import Force, Reputation, Unit

_UNITS = Prefetch("units", queryset=Unit.objects.select_related("troop_type").order_by("pk"))
_REPUTATION = Prefetch("reputation", queryset=Reputation.objects.order_by("pk"))


def force_overview(*, membership: Membership) -> list[dict]:
    """Factions the member knows of, each with its forces; men and TS only where they see
    in full. Three queries whatever the number of forces: factions, forces, units."""

    def line(force: Force, full: bool) -> dict:
        if not full:
            return {"force": force}
        sheets = [mapping.unit_sheet(unit) for unit in force.units.all()]
        return {"force": force, "men": sum(sheet["unit"].men for sheet in sheets),
                "ts": sum(sheet["ts"] for sheet in sheets)}  # fmt: skip

    forces = Force.objects.prefetch_related(_UNITS).order_by("name", "pk")
    return by_faction(membership, forces, line)


def force_sheet(force: Force) -> dict:
    """A force's units with their TS and the force's TS (§B.3a: Σ men × per-man TS)."""
    units = [
        mapping.unit_sheet(unit) for unit in force.units.select_related("troop_type").order_by("pk")
    ]
    return {
        "units": units,
        "ts": sum(u["ts"] for u in units),
        "men": sum(u["unit"].men for u in units),
    }


def character_list(*, membership: Membership) -> list[dict]:
    """The characters the member knows of, with Combat Skill where they see the sheet. Three
    queries: characters (with faction and player), their reputation entries."""
    characters = (
        visible_characters(membership)
        .select_related("faction", "owner")
        .prefetch_related(_REPUTATION)
        .order_by("name", "pk")
    )
    rows = []
    for character in characters:
        full = sees_character_in_full(membership, character)
        row = {"character": character, "full": full,
               "reputation": sum(e.value for e in character.reputation.all())}  # fmt: skip
        if full:
            row.update(mapping.character_sheet(character))
        rows.append(row)
    return rows
