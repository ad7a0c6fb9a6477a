"""Read models of the D&D 5e army pages (fixed query counts, no rules here)."""

from django.db.models import Prefetch

from kingdoms.access import sees_faction_in_full
from kingdoms.models import Membership
from kingdoms.selectors import faction_list_visible_to

from .models import Army, Solo, Unit

UNITS = Prefetch("units", queryset=Unit.objects.select_related("creature", "commander"))
SOLOS = Prefetch("solos", queryset=Solo.objects.select_related("creature"))


def army_overview(*, membership: Membership) -> list[dict]:
    """Factions the member knows of, each with its armies; units and solos only where the
    member sees the faction in full. Four queries whatever the numbers."""
    factions = list(faction_list_visible_to(membership=membership))
    armies = Army.objects.filter(faction__in=factions).prefetch_related(UNITS, SOLOS)
    by_faction: dict[int, list[Army]] = {}
    for army in armies:
        by_faction.setdefault(army.faction_id, []).append(army)
    groups = []
    for faction in factions:
        full = sees_faction_in_full(membership, faction)
        lines = []
        for army in by_faction.get(faction.pk, []):
            line: dict = {"army": army}
            if full:
                units = list(army.units.all())
                line["units"] = len(units)
                line["stands"] = sum(u.stands for u in units)
                line["solos"] = len(army.solos.all())
            lines.append(line)
        groups.append({"faction": faction, "full": full, "armies": lines})
    return groups


def army_sheet(army: Army) -> Army:
    """The army with its units (creature, commander) and solos loaded."""
    return Army.objects.select_related("faction").prefetch_related(UNITS, SOLOS).get(pk=army.pk)
