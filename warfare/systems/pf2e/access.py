"""Permission-checked fetches for armies (see kingdoms.access for the campaign rules)."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from kingdoms.access import access_campaign, access_faction
from kingdoms.models import Membership, RuleSystem
from kingdoms.selectors import faction_list_visible_to

from .models import Army


def sees_army_in_full(membership: Membership, army: Army) -> bool:
    return membership.is_gm or membership.faction_id == army.faction_id


def commands_army(membership: Membership, army: Army) -> bool:
    """GMs command every army; a player commands their own faction's armies."""
    return membership.is_gm or membership.faction_id == army.faction_id


def access_army(
    user, campaign_id: int, army_id: int, *, command: bool = False, gm: bool = False, lock=False
) -> tuple[Membership, Army]:
    """(membership, army). Armies of factions hidden from a player are 404 to them.

    `command=True` demands the right to act with the army (403 otherwise); `gm=True` the GM
    role. `lock=True` locks the army row (call inside a transaction).
    """
    membership = access_campaign(user, campaign_id, gm=gm)
    armies = Army.objects.select_related("faction__kingdom", "faction__campaign").filter(
        faction__in=faction_list_visible_to(membership=membership)
    )
    if lock:
        armies = armies.select_for_update(no_key=True, of=("self",))
    try:
        army = armies.get(pk=army_id)
    except Army.DoesNotExist:
        raise Http404 from None
    if command and not commands_army(membership, army):
        raise PermissionDenied(_("Only the GM and the army's own players can command it."))
    return membership, army


def access_kingdom(user, campaign_id: int, faction_id: int, *, gm: bool = False):
    """(membership, faction) for a faction's Pathfinder pages (its armies, recruitment, the
    kingdom turn): `kingdoms.access.access_faction`, and a campaign of another rule system
    is a 404 (those pages do not exist there)."""
    membership, faction = access_faction(user, campaign_id, faction_id, gm=gm)
    if membership.campaign.rule_system != RuleSystem.PF2E:
        raise Http404
    return membership, faction
