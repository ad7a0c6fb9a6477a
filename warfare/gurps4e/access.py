"""Permission-checked fetches of forces and element types (404 for non-members)."""

from django.http import Http404

from kingdoms.access import access_campaign, sees_faction_in_full
from kingdoms.models import Membership, RuleSystem
from kingdoms.selectors import faction_list_visible_to

from .models import ElementType, Force


def access_gurps4e(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The membership of a GURPS Mass Combat campaign (other rule systems: 404)."""
    membership = access_campaign(user, campaign_id, gm=gm, lock=lock)
    if membership.campaign.rule_system != RuleSystem.GURPS4E:
        raise Http404
    return membership


def access_force(user, campaign_id: int, force_id: int, *, gm: bool = False, lock: bool = False):
    """(membership, force): a force of a faction the member knows of (others: 404)."""
    membership = access_gurps4e(user, campaign_id, gm=gm, lock=lock)
    forces = Force.objects.select_related("faction", "faction__command_staff").filter(
        campaign=membership.campaign,
        faction__in=faction_list_visible_to(membership=membership),
    )
    if lock:
        forces = forces.select_for_update(no_key=True, of=("self",))
    try:
        return membership, forces.get(pk=force_id)
    except Force.DoesNotExist:
        raise Http404 from None


def access_element_type(user, campaign_id: int, element_type_id: int, *, gm: bool = False):
    membership = access_gurps4e(user, campaign_id, gm=gm)
    try:
        element_type = ElementType.objects.get(campaign=membership.campaign, pk=element_type_id)
    except ElementType.DoesNotExist:
        raise Http404 from None
    return membership, element_type


def sees_force_in_full(membership: Membership, force: Force) -> bool:
    """The GM and the force's own faction see its element rows and Troop Strength."""
    return sees_faction_in_full(membership, force.faction)
