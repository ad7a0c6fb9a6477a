"""Permission-checked fetches of D&D 5e armies (404 for non-members and for campaigns of other
rule systems); the creature pages fetch theirs through `kingdoms.crud.Library`."""

from kingdoms.access import (
    access_faction_row,
    access_rule_system,
    sees_faction_in_full,
)
from kingdoms.models import Membership, RuleSystem

from .models import Army


def access_dnd5e(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The membership of a D&D 5e campaign (other rule systems: 404)."""
    return access_rule_system(user, campaign_id, RuleSystem.DND5E, gm=gm, lock=lock)


def access_army(user, campaign_id: int, army_id: int, *, gm: bool = False, lock: bool = False):
    """(membership, army): an army of a faction the member knows of (others: 404)."""
    membership = access_dnd5e(user, campaign_id, gm=gm, lock=lock)
    armies = Army.objects.select_related("faction")
    return membership, access_faction_row(membership, armies, army_id, lock=lock)


def sees_army_in_full(membership: Membership, army: Army) -> bool:
    """The GM and the army's own faction see its units, stands and hit points."""
    return sees_faction_in_full(membership, army.faction)
