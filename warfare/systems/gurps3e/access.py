"""Permission-checked fetches of 3e forces and characters (404 for non-members)."""

from django.http import Http404

from kingdoms.access import access_faction_row, access_rule_system, sees_faction_in_full
from kingdoms.models import Membership, RuleSystem
from kingdoms.selectors import faction_list_visible_to

from .models import Character, Force


def access_gurps3e(user, campaign_id: int, *, gm: bool = False, lock: bool = False) -> Membership:
    """The membership of a GURPS 3e campaign (other rule systems: 404)."""
    return access_rule_system(user, campaign_id, RuleSystem.GURPS3E, gm=gm, lock=lock)


def access_force(user, campaign_id: int, force_id: int, *, gm: bool = False, lock: bool = False):
    """(membership, force): a force of a faction the member knows of (others: 404)."""
    membership = access_gurps3e(user, campaign_id, gm=gm, lock=lock)
    forces = Force.objects.select_related("faction")
    return membership, access_faction_row(membership, forces, force_id, lock=lock)


def visible_characters(membership: Membership):
    """The characters a member knows of: the GM all; a player those of no faction or of a
    faction they know of (a hidden faction's NPCs stay hidden)."""
    characters = Character.objects.filter(campaign=membership.campaign)
    if membership.is_gm:
        return characters
    known = faction_list_visible_to(membership=membership)
    return characters.filter(faction__isnull=True) | characters.filter(faction__in=known)


def access_character(
    user, campaign_id: int, character_id: int, *, gm: bool = False, lock: bool = False
):
    """(membership, character) for a character the member knows of (others: 404)."""
    membership = access_gurps3e(user, campaign_id, gm=gm, lock=lock)
    characters = visible_characters(membership).select_related("faction", "owner")
    if lock:
        characters = Character.objects.select_for_update(no_key=True, of=("self",)).filter(
            pk__in=characters.values("pk")
        )
    try:
        return membership, characters.get(pk=character_id)
    except Character.DoesNotExist:
        raise Http404 from None


def plays(membership: Membership, character: Character) -> bool:
    """Does this member play the character (its owner, or its faction when it has no owner)?
    The GM plays every character."""
    if membership.is_gm:
        return True
    if character.owner_id is not None:
        return character.owner_id == membership.user_id
    return character.faction_id is not None and character.faction_id == membership.faction_id


def sees_character_in_full(membership: Membership, character: Character) -> bool:
    """The GM, its player and its own faction see its sheet; others its name, rank and
    reputation (what the world knows)."""
    return plays(membership, character) or (
        character.faction_id is not None and character.faction_id == membership.faction_id
    )


def sees_force_in_full(membership: Membership, force: Force) -> bool:
    """The GM and the force's own faction see its units and Troop Strength."""
    return sees_faction_in_full(membership, force.faction)
