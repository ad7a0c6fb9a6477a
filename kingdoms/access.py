"""The one permission-checked fetch per entity, used by HTML views and the API alike.

A user who is not a member of a campaign gets 404 (the campaign's existence does not leak);
a member without the needed role gets 403.
"""

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from .models import Faction, Membership, Role, Settlement
from .selectors import faction_list_visible_to, faction_relations


def access_campaign(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The user's membership of the campaign, with the campaign loaded.

    `gm=True` demands the GM role. `lock=True` takes `SELECT ... FOR NO KEY UPDATE` on the
    campaign row: call it inside a transaction, before reading the campaign's children, so
    writers of one campaign queue in a fixed order.
    """
    if not user.is_authenticated:
        raise Http404
    memberships = Membership.objects.select_related("campaign", "faction")
    if lock:
        memberships = memberships.select_for_update(no_key=True, of=("campaign",))
    try:
        membership = memberships.get(campaign_id=campaign_id, user=user)
    except Membership.DoesNotExist:
        raise Http404 from None
    if gm and membership.role != Role.GM:
        raise PermissionDenied(_("Only the campaign's game masters can do this."))
    return membership


def access_faction(user, campaign_id: int, faction_id: int, *, gm: bool = False):
    """(membership, faction). Players may open any faction known to them (public view)."""
    membership = access_campaign(user, campaign_id, gm=gm)
    factions = faction_list_visible_to(membership=membership).select_related(
        *faction_relations(membership.campaign.rule_system)
    )
    try:
        return membership, factions.get(pk=faction_id)
    except Faction.DoesNotExist:
        raise Http404 from None


def access_settlement(user, campaign_id: int, settlement_id: int, *, gm: bool = False):
    membership = access_campaign(user, campaign_id, gm=gm)
    try:
        settlement = Settlement.objects.select_related("faction").get(
            campaign_id=campaign_id, pk=settlement_id
        )
    except Settlement.DoesNotExist:
        raise Http404 from None
    return membership, settlement


def sees_faction_in_full(membership: Membership, faction: Faction) -> bool:
    """GMs see every faction in full; a player only their own."""
    return membership.is_gm or membership.faction_id == faction.pk


def access_rule_system(
    user, campaign_id: int, rule_system: str, *, gm: bool = False, lock: bool = False
) -> Membership:
    """The membership of a campaign of `rule_system` (a campaign of another system: 404, as
    its pages do not exist there)."""
    membership = access_campaign(user, campaign_id, gm=gm, lock=lock)
    if membership.campaign.rule_system != rule_system:
        raise Http404
    return membership


def access_faction_row(membership: Membership, rows, pk: int, *, lock: bool = False):
    """One row of `rows` (a queryset of a model with `campaign` and `faction`) of the member's
    campaign and of a faction known to them (others: 404). `lock` takes the row's lock."""
    rows = rows.filter(
        campaign=membership.campaign,
        faction__in=faction_list_visible_to(membership=membership),
    )
    if lock:
        rows = rows.select_for_update(no_key=True, of=("self",))
    try:
        return rows.get(pk=pk)
    except rows.model.DoesNotExist:
        raise Http404 from None


def access_campaign_row(membership: Membership, rows, pk: int):
    """One row of `rows` (a model with `campaign`, e.g. a library entry) of the member's
    campaign (others: 404)."""
    try:
        return rows.get(campaign=membership.campaign, pk=pk)
    except rows.model.DoesNotExist:
        raise Http404 from None


def by_faction(membership, rows, line: Callable[[Any, bool], dict]) -> list[dict]:
    """The overview of a kind of faction rows (armies, forces): the factions the member knows
    of, each with its `rows` (a queryset of a model with a `faction`) as
    `{"faction", "full", "rows": [line(row, full), ...]}`, `full` where the member sees the
    faction in full. Two queries, and those `rows` prefetches."""
    factions = list(faction_list_visible_to(membership=membership))
    by_id: dict[int, list] = {}
    for row in rows.filter(faction__in=factions):
        by_id.setdefault(row.faction_id, []).append(row)
    groups = []
    for faction in factions:
        full = sees_faction_in_full(membership, faction)
        lines = [line(row, full) for row in by_id.get(faction.pk, [])]
        groups.append({"faction": faction, "full": full, "rows": lines})
    return groups
