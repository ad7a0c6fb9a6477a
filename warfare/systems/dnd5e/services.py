"""Use cases for D&D 5e creatures and armies; each is one user action and one transaction.

An army on an unfinished board (battles.holds) is not edited, given or stripped of units or
solos, or deleted, nor are its units changed: the battle fights with its copy and writes the
losses back. Creatures may change meanwhile (the battle keeps their stat blocks as they went
in)."""

from typing import Any

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from battles.forces import ForceServices, force_part_delete, force_part_save
from kingdoms.services import LibraryServices, save_row
from kingdoms.transactions import write_transaction
from warfare.engine.systems.dnd5e.creatures import LIBRARY

from .access import access_army, access_dnd5e
from .models import Army, Creature, Solo, Unit


@write_transaction
def library_load_srd(*, user, campaign_id: int) -> int:
    """Copy the engine's SRD starting library into the campaign (creatures it already has, by
    key, are left as the GM edited them). Returns how many were added."""
    membership = access_dnd5e(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    have = set(Creature.objects.filter(campaign=campaign).values_list("key", flat=True))
    rows = []
    for key, creature in LIBRARY.items():
        if key in have:
            continue
        data = creature.to_dict()
        rows.append(Creature(campaign=campaign, from_srd=True, **data))
    Creature.objects.bulk_create(rows)
    return len(rows)


def _check_key(campaign, key: str, instance: Creature | None = None) -> None:
    clash = Creature.objects.filter(campaign=campaign, key=key)
    if instance is not None:
        clash = clash.exclude(pk=instance.pk)
    if clash.exists():
        raise ValidationError({"key": _("This campaign already has a creature with that key.")})


@write_transaction
def creature_create(*, user, campaign_id: int, **fields: Any) -> Creature:
    membership = access_dnd5e(user, campaign_id, gm=True, lock=True)
    _check_key(membership.campaign, fields["key"])
    return save_row(Creature(campaign=membership.campaign), **fields)


#: Edit and delete a stat block (`creature_id`): one that units or solos use is not deleted.
_CREATURES = LibraryServices(
    model=Creature, noun="creature", access=access_dnd5e,
    in_use=lambda creature: _("Units or solos still use %(name)s: remove them first.")
    % {"name": creature},
)  # fmt: skip
creature_delete = _CREATURES.delete


def creature_update(*, user, campaign_id: int, creature_id: int, **fields: Any) -> Creature:
    """Edit a stat block; its key stays (battles already set up name it)."""
    fields.pop("key", None)
    return _CREATURES.update(user=user, campaign_id=campaign_id, creature_id=creature_id, **fields)


#: Create, edit and delete an army (`army_id`); see battles.forces.
_ARMIES = ForceServices(model=Army, noun="army", access=access_dnd5e, access_row=access_army)
army_create, army_update, army_delete = _ARMIES.create, _ARMIES.update, _ARMIES.delete


def _check_creature(creature: Creature, army: Army) -> None:
    if creature.campaign_id != army.campaign_id:
        raise ValidationError({"creature": _("That creature belongs to another campaign.")})


def _check_unit_creature(creature: Creature, army: Army) -> None:
    """A unit's stands are of a creature of the campaign, Huge or smaller (§4.1)."""
    _check_creature(creature, army)
    if creature.size == "gargantuan":
        raise ValidationError({"creature": _("Gargantuan creatures fight as solos (§4.1).")})


@write_transaction
def unit_add(
    *,
    user,
    campaign_id: int,
    army_id: int,
    creature: Creature,
    commander: Solo | None = None,
    **fields: Any,
) -> Unit:
    """Add a unit of stands of one creature type (§4.1: Huge or smaller) to an army."""
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    _check_unit_creature(creature, army)
    if commander is not None and (commander.army_id != army.pk or hasattr(commander, "commands")):
        raise ValidationError({"commander": _("Pick a solo of this army who commands no unit.")})
    return force_part_save(army, Unit(army=army, creature=creature, commander=commander), **fields)


@write_transaction
def unit_update(
    *,
    user,
    campaign_id: int,
    army_id: int,
    unit_id: int,
    creature: Creature,
    commander: Solo | None = None,
    heal_stands: bool = False,
    **fields: Any,
) -> Unit:
    """Change a unit: its name, type, configuration, creature, stands or commander;
    `heal_stands` clears the HP its stands lost in battle (`Unit.stand_damage`)."""
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    unit = get_object_or_404(Unit.objects.select_for_update(), army=army, pk=unit_id)
    _check_unit_creature(creature, army)
    if commander is not None and (
        commander.army_id != army.pk or Unit.objects.filter(commander=commander)
        .exclude(pk=unit.pk).exists()
    ):  # fmt: skip
        raise ValidationError({"commander": _("Pick a solo of this army who commands no unit.")})
    stands = fields.get("stands", unit.stands)
    healed = heal_stands or creature != unit.creature
    fields["stand_damage"] = [] if healed else unit.stand_damage[:stands]
    return force_part_save(army, unit, creature=creature, commander=commander, **fields)


@write_transaction
def unit_remove(*, user, campaign_id: int, army_id: int, unit_id: int) -> None:
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    force_part_delete(army, army.units, unit_id, _("That unit is already gone."))


@write_transaction
def solo_add(*, user, campaign_id: int, army_id: int, creature: Creature, **fields: Any) -> Solo:
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    _check_creature(creature, army)
    return force_part_save(army, Solo(army=army, creature=creature), **fields)


@write_transaction
def solo_remove(*, user, campaign_id: int, army_id: int, solo_id: int) -> None:
    _membership, army = access_army(user, campaign_id, army_id, gm=True, lock=True)
    force_part_delete(army, army.solos, solo_id, _("That solo is already gone."))
