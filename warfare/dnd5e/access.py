"""Permission-checked fetches of D&D 5e creatures and armies (404 for non-members and for
campaigns of other rule systems)."""

from django.http import Http404

from kingdoms.access import access_campaign, sees_faction_in_full
from kingdoms.models import Membership, RuleSystem
from kingdoms.selectors import faction_list_visible_to

from .models import Army, Creature


def access_dnd5e(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The membership of a D&D 5e campaign (other rule systems: 404)."""
    membership = access_campaign(user, campaign_id, gm=gm, lock=lock)
    if membership.campaign.rule_system != RuleSystem.DND5E:
        raise Http404
    return membership


def access_army(user, campaign_id: int, army_id: int, *, gm: bool = False, lock: bool = False):
    """(membership, army): an army of a faction the member knows of (others: 404)."""
    membership = access_dnd5e(user, campaign_id, gm=gm, lock=lock)
    armies = Army.objects.select_related("faction").filter(
        campaign=membership.campaign,
        faction__in=faction_list_visible_to(membership=membership),
    )
    if lock:
        armies = armies.select_for_update(no_key=True, of=("self",))
    try:
        return membership, armies.get(pk=army_id)
    except Army.DoesNotExist:
        raise Http404 from None


def access_creature(user, campaign_id: int, creature_id: int, *, gm: bool = False):
    membership = access_dnd5e(user, campaign_id, gm=gm)
    try:
        creature = Creature.objects.get(campaign=membership.campaign, pk=creature_id)
    except Creature.DoesNotExist:
        raise Http404 from None
    return membership, creature


def sees_army_in_full(membership: Membership, army: Army) -> bool:
    """The GM and the army's own faction see its units, stands and hit points."""
    return sees_faction_in_full(membership, army.faction)
