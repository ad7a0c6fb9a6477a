"""Permission-checked fetches of forces (404 for non-members and for campaigns of other rule
systems); the element type pages fetch theirs through `kingdoms.crud.Library`."""

from kingdoms.access import (
    access_faction_row,
    access_rule_system,
    sees_faction_in_full,
)
from kingdoms.models import Membership, RuleSystem

from .models import Force


def access_gurps4e(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The membership of a GURPS Mass Combat campaign (other rule systems: 404)."""
    return access_rule_system(user, campaign_id, RuleSystem.GURPS4E, gm=gm, lock=lock)


def access_force(user, campaign_id: int, force_id: int, *, gm: bool = False, lock: bool = False):
    """(membership, force): a force of a faction the member knows of (others: 404)."""
    membership = access_gurps4e(user, campaign_id, gm=gm, lock=lock)
    forces = Force.objects.select_related("faction", "faction__command_staff")
    return membership, access_faction_row(membership, forces, force_id, lock=lock)


def sees_force_in_full(membership: Membership, force: Force) -> bool:
    """The GM and the force's own faction see its element rows and Troop Strength."""
    return sees_faction_in_full(membership, force.faction)
