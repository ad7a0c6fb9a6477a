"""Read models of the D&D 5e army pages (fixed query counts, no rules here)."""

from django.db.models import Prefetch

from kingdoms.access import by_faction
from kingdoms.models import Membership

from .models import Army, Solo, Unit

UNITS = Prefetch("units", queryset=Unit.objects.select_related("creature", "commander"))
SOLOS = Prefetch("solos", queryset=Solo.objects.select_related("creature"))


def army_overview(*, membership: Membership) -> list[dict]:
    """Factions the member knows of, each with its armies; units and solos only where the
    member sees the faction in full. Four queries whatever the numbers."""

    def line(army: Army, full: bool) -> dict:
        if not full:
            return {"army": army}
        units = list(army.units.all())
        return {"army": army, "units": len(units), "stands": sum(u.stands for u in units),
                "solos": len(army.solos.all())}  # fmt: skip

    return by_faction(membership, Army.objects.prefetch_related(UNITS, SOLOS), line)


def army_sheet(army: Army) -> Army:
    """The army with its units (creature, commander) and solos loaded."""
    return Army.objects.select_related("faction").prefetch_related(UNITS, SOLOS).get(pk=army.pk)
