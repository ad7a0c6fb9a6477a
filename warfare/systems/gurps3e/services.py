"""Use cases for GURPS 3e forces and characters; each is one user action and one transaction.

A force or a character on an unfinished board (battles.holds) is not edited, given or
stripped of units or reputation entries, or deleted: the battle fights with its copy and
writes back what it changed. Troop types may change meanwhile (the battle keeps the units
as they went in)."""

from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from battles.forces import ForceServices, force_part_delete, force_part_save
from battles.holds import delete_unless_held, update_unless_held
from kingdoms.models import Membership
from kingdoms.services import (
    LibraryServices,
    check_faction_in_campaign,
    save_row,
)
from kingdoms.transactions import write_transaction

from .access import access_character, access_force, access_gurps3e, plays
from .models import Character, Force, Reputation, TroopType, Unit

#: The fields of a character sheet its player keeps up to date (the stats of the character
#: sheet, §B.3 "write it in pencil"); the GM alone sets what battles and high command decide
#: (current HT, status, rank, reputation, role, Risk limits) and who plays it.
PLAYER_FIELDS = ("name", "ht_max", "iq", "dr", "toughness", "luck", "tactics", "weapon_skill")


#: Create, edit and delete a force (`force_id`); see battles.forces.
_FORCES = ForceServices(
    model=Force,
    noun="force",
    access=access_gurps3e,
    access_row=access_force,
    faction_required=False,
)
force_create, force_update, force_delete = _FORCES.create, _FORCES.update, _FORCES.delete


#: Create, edit and delete a troop type (`troop_type_id`): a change carries to the TS of
#: every unit of the type; one that units use is not deleted.
_TROOP_TYPES = LibraryServices(
    model=TroopType, noun="troop_type", access=access_gurps3e,
    in_use=lambda troop_type: _("Units of the type %(name)s still exist: change or remove "
                                "them first.") % {"name": troop_type.name},
)  # fmt: skip
troop_type_create, troop_type_update = _TROOP_TYPES.create, _TROOP_TYPES.update
troop_type_delete = _TROOP_TYPES.delete


def _check_troop_type(fields: dict[str, Any], campaign) -> None:
    troop_type = fields.get("troop_type")
    if troop_type is not None and troop_type.campaign_id != campaign.pk:
        raise ValidationError(
            {"troop_type": _("That troop type belongs to another campaign.")},
            code="foreign_troop_type",
        )


@write_transaction
def unit_add(*, user, campaign_id: int, force_id: int, **fields: Any) -> Unit:
    """Add a unit to a force (the force's version goes up)."""
    membership, force = access_force(user, campaign_id, force_id, gm=True, lock=True)
    _check_troop_type(fields, membership.campaign)
    return force_part_save(force, Unit(force=force), **fields)


@write_transaction
def unit_update(*, user, campaign_id: int, force_id: int, unit_id: int, **fields: Any) -> Unit:
    """Change a unit (casualties healed, replacements, a new Base Morale…); the force's
    version goes up."""
    membership, force = access_force(user, campaign_id, force_id, gm=True, lock=True)
    _check_troop_type(fields, membership.campaign)
    unit = get_object_or_404(Unit.objects.select_for_update(no_key=True), force=force, pk=unit_id)
    return force_part_save(force, unit, **fields)


@write_transaction
def unit_remove(*, user, campaign_id: int, force_id: int, unit_id: int) -> None:
    _membership, force = access_force(user, campaign_id, force_id, gm=True, lock=True)
    force_part_delete(force, force.units, unit_id, _("That unit is already gone."), "unit_gone")


def _check_owner(owner, campaign) -> None:
    if owner is not None and not Membership.objects.filter(campaign=campaign, user=owner).exists():
        raise ValidationError(
            {"owner": _("The player must be a member of the campaign.")}, code="foreign_owner"
        )


@write_transaction
def character_create(*, user, campaign_id: int, **fields: Any) -> Character:
    membership = access_gurps3e(user, campaign_id, gm=True, lock=True)
    check_faction_in_campaign(fields.get("faction"), membership.campaign)
    _check_owner(fields.get("owner"), membership.campaign)
    fields.setdefault("ht", fields.get("ht_max", 10))
    return save_row(Character(campaign=membership.campaign), **fields)


@write_transaction
def character_update(
    *, user, campaign_id: int, character_id: int, version: int | None = None, **fields: Any
) -> Character:
    """The GM edits every field; the character's player only `PLAYER_FIELDS`."""
    membership, character = access_character(user, campaign_id, character_id, lock=True)
    if not plays(membership, character):
        raise PermissionDenied
    if not membership.is_gm and set(fields) - set(PLAYER_FIELDS):
        raise PermissionDenied
    check_faction_in_campaign(fields.get("faction"), membership.campaign)
    _check_owner(fields.get("owner"), membership.campaign)
    return update_unless_held(character, version, **fields)


@write_transaction
def character_delete(*, user, campaign_id: int, character_id: int) -> None:
    _membership, character = access_character(user, campaign_id, character_id, gm=True, lock=True)
    delete_unless_held(character)


@write_transaction
def reputation_add(*, user, campaign_id: int, character_id: int, **fields: Any) -> Reputation:
    _m, character = access_character(user, campaign_id, character_id, gm=True, lock=True)
    return force_part_save(character, Reputation(character=character), **fields)


@write_transaction
def reputation_remove(*, user, campaign_id: int, character_id: int, entry_id: int) -> None:
    _m, character = access_character(user, campaign_id, character_id, gm=True, lock=True)
    force_part_delete(
        character, character.reputation, entry_id,
        _("That reputation entry is already gone."), "entry_gone",
    )  # fmt: skip
