"""Use cases for GURPS Mass Combat forces; each is one user action and one transaction.

A force on an unfinished board (battles.holds) is not edited, given or stripped of element
rows, or deleted: the battle fights with its copy and writes its share of TS back. Element
types may change meanwhile: the battle keeps the rows as they went in, and its result is a
share of what the force is when applied."""

from typing import Any

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from battles.forces import ForceServices, force_part_delete, force_part_save
from kingdoms.services import LibraryServices
from kingdoms.transactions import write_transaction

from .access import access_force, access_gurps4e
from .models import ElementType, Force, ForceElement

#: Create, edit and delete an element type (`element_type_id`); one that forces use is not
#: deleted (it would change their TS).
_ELEMENT_TYPES = LibraryServices(
    model=ElementType, noun="element_type", access=access_gurps4e,
    in_use=lambda element_type: _("Forces still use %(name)s: remove it from them first.")
    % {"name": element_type},
)  # fmt: skip
element_type_create = _ELEMENT_TYPES.create
element_type_update, element_type_delete = _ELEMENT_TYPES.update, _ELEMENT_TYPES.delete


#: Create, edit and delete a force (`force_id`); see battles.forces.
_FORCES = ForceServices(model=Force, noun="force", access=access_gurps4e, access_row=access_force)
force_create, force_update, force_delete = _FORCES.create, _FORCES.update, _FORCES.delete


@write_transaction
def force_element_add(
    *, user, campaign_id: int, force_id: int, element_type: ElementType, **fields: Any
) -> ForceElement:
    """Add a row of `count` elements of one type to a force (the force's version goes up)."""
    membership, force = access_force(user, campaign_id, force_id, gm=True, lock=True)
    if element_type.campaign_id != membership.campaign.pk:
        raise ValidationError(
            {"element_type": _("That element type belongs to another campaign.")},
            code="foreign_element_type",
        )
    tl = fields.get("tl")
    if tl is not None and tl < element_type.tl:
        raise ValidationError(
            {
                "tl": _("The TL cannot be below the type's listed TL %(tl)s.")
                % {"tl": element_type.tl}
            },
            code="tl_below_listed",
        )
    return force_part_save(force, ForceElement(force=force, element_type=element_type), **fields)


@write_transaction
def force_element_remove(*, user, campaign_id: int, force_id: int, row_id: int) -> None:
    _membership, force = access_force(user, campaign_id, force_id, gm=True, lock=True)
    force_part_delete(
        force, force.elements, row_id, _("That element row is already gone."), "row_gone"
    )
