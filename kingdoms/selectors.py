"""Reads: what a member may see of a campaign, fetched in a fixed number of queries."""

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery

from . import rulesystems
from .models import Campaign, Faction, Invite, Membership, Settlement


def campaign_list_for(*, user) -> QuerySet[Campaign]:
    """The campaigns `user` belongs to, each with `my_role`, `faction_count`, `member_count`."""
    my_membership = Membership.objects.filter(campaign=OuterRef("pk"), user=user)
    # Filtering by `pk__in` (not by a join on memberships) keeps every membership in the count.
    mine = Membership.objects.filter(user=user).values("campaign")
    return (
        Campaign.objects.filter(pk__in=mine)
        .annotate(
            my_role=Subquery(my_membership.values("role")[:1]),
            member_count=Count("memberships", distinct=True),
            faction_count=Count("factions", distinct=True),
        )
        .order_by("name", "pk")
    )


def faction_list_visible_to(*, membership: Membership) -> QuerySet[Faction]:
    """All factions for a GM; for a player their own faction and those known to players."""
    factions = Faction.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        visible = Q(known_to_players=True)
        if membership.faction_id:
            visible |= Q(pk=membership.faction_id)
        factions = factions.filter(visible)
    return factions


def settlement_list_visible_to(*, membership: Membership) -> QuerySet[Settlement]:
    return Settlement.objects.filter(
        faction__in=faction_list_visible_to(membership=membership)
    ).select_related("faction")


def faction_relations(rule_system: str) -> list[str]:
    """A faction's one-to-one records to fetch with it: its rule system's, the command staff."""
    return [record.key for record in rulesystems.faction_records(rule_system)] + ["command_staff"]


def campaign_dashboard(*, membership: Membership) -> dict:
    """Everything the campaign page shows, in a number of queries that does not grow with rows."""
    settlements = settlement_list_visible_to(membership=membership)
    factions = list(
        faction_list_visible_to(membership=membership)
        .select_related(*faction_relations(membership.campaign.rule_system))
        .prefetch_related(Prefetch("settlements", queryset=settlements))
        .annotate(member_count=Count("members", distinct=True))
    )
    members = list(
        Membership.objects.filter(campaign_id=membership.campaign_id).select_related(
            "user", "faction"
        )
    )
    context = {
        "membership": membership,
        "campaign": membership.campaign,
        "factions": factions,
        "settlement_count": sum(len(f.settlements.all()) for f in factions),
        "members": members,
    }
    if membership.is_gm:
        context["invites"] = invite_list(campaign_id=membership.campaign_id)
    return context


def invite_list(*, campaign_id: int) -> list[Invite]:
    return list(Invite.objects.filter(campaign_id=campaign_id).select_related("faction"))


def member_list(*, campaign_id: int) -> list[Membership]:
    return list(
        Membership.objects.filter(campaign_id=campaign_id).select_related("user", "faction")
    )
