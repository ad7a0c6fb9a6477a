"""Read models of the force pages; Troop Strength comes from the pure engine (no rules here)."""

from django.db.models import Count, Prefetch, Q

from battles.models import Battle, BattleStatus
from kingdoms.access import by_faction
from kingdoms.models import Membership

from . import mapping
from .models import Force, ForceElement

_ROWS = Prefetch(
    "elements", queryset=ForceElement.objects.select_related("element_type").order_by("pk")
)


def force_overview(*, membership: Membership) -> list[dict]:
    """Factions the member knows of, each with its forces; TS only where they see in full.

    Three queries whatever the number of forces: factions, forces, their element rows."""

    def line(force: Force, full: bool) -> dict:
        if not full:
            return {"force": force}
        return {"force": force, "elements": sum(row.count for row in force.elements.all()),
                "ts": mapping.display(mapping.troop_strength(force).total)}  # fmt: skip

    forces = (
        Force.objects.annotate(row_count=Count("elements"))
        .prefetch_related(_ROWS)
        .order_by("name", "pk")
    )
    return by_faction(membership, forces, line)


def force_sheet(*, membership: Membership, force: Force, enemy_id: int | None) -> dict:
    """A force's rows and TS working; the enemies it can be compared with and, when
    `enemy_id` names one of them, the comparison (relative TS, superiorities, BSM)."""
    force = Force.objects.prefetch_related(_ROWS).select_related("faction").get(pk=force.pk)
    sheet = mapping.force_sheet(force)
    context = {"sheet": sheet, "enemies": [], "comparison": None, "loot": force_loot(force)}
    if not membership.is_gm:
        return context  # an enemy's numbers are the GM's to reveal (§A.5.1 intelligence)
    context["enemies"] = list(
        Force.objects.filter(campaign=force.campaign_id)
        .exclude(faction=force.faction_id)
        .select_related("faction")
        .prefetch_related(_ROWS)
        .order_by("faction__name", "name")
    )
    enemy = next((e for e in context["enemies"] if e.pk == enemy_id), None)
    if enemy is not None:
        context["comparison"] = mapping.comparison(force, enemy)
    return context


def force_loot(force: Force) -> list[dict]:
    """The loot of the battles this force won and held the field of (§A.7.4), from their
    applied results: the battle, the loot's worth and the minutes to gather it. Kept as
    numbers, not as a note, so that each reader sees it in their language."""
    battles = Battle.objects.filter(
        Q(setup__sides__a__force_id=force.pk) | Q(setup__sides__b__force_id=force.pk),
        campaign_id=force.campaign_id, system="gurps4e", status=BattleStatus.APPLIED,
    ).order_by("created_at")  # fmt: skip
    loot = []
    for battle in battles:
        for key, entry in ((battle.outcome or {}).get("applied") or {}).items():
            side = (battle.setup.get("sides") or {}).get(key) or {}
            if side.get("force_id") == force.pk and entry.get("loot_value") is not None:
                loot.append({"battle": battle.name, "value": entry["loot_value"],
                             "minutes": entry.get("loot_minutes")})  # fmt: skip
    return loot
