"""The use cases of a rule system's forces (D&D 5e armies, GURPS forces), written once,
and the two steps every change to a force's parts (units, solos, element rows, a character's
reputation) ends with.

Each is one user action and one transaction (`kingdoms.transactions.write_transaction`),
authorised by the system's own access functions (GM only; a force of a faction the member
does not know of is a 404). A force on an unfinished board is not edited or deleted
(`battles.holds`): the battle fights with its copy and writes back what it changed.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet

from kingdoms.models import Faction
from kingdoms.services import StaleEdit, check_faction_in_campaign, check_version, save_row
from kingdoms.transactions import write_transaction

from .holds import delete_unless_held, refuse_change


@dataclass(frozen=True, kw_only=True)
class ForceServices:
    """`create`, `update` and `delete` of one rule system's forces. `access(user,
    campaign_id, gm=, lock=)` is the membership of a campaign of the system; `access_row(user,
    campaign_id, pk, gm=, lock=)` (membership, row). The row is named `<noun>_id`; its
    faction must be one of the campaign's (`faction_required`: and given). A stale edit raises
    `stale` (a `StaleEdit`: Pathfinder's names its army); a model that counts its versions by
    hand instead of `kingdoms.models.Versioned.save` (`versioned=False`, Pathfinder's army)
    has its version raised by the edit."""

    model: type
    noun: str
    access: Callable[..., Any]
    access_row: Callable[..., Any]
    faction_required: bool = True
    stale: type[StaleEdit] = StaleEdit
    versioned: bool = True

    def _row(self, user, campaign_id: int, pk: int):
        _membership, row = self.access_row(user, campaign_id, pk, gm=True, lock=True)
        return row

    @write_transaction
    def create(self, *, user, campaign_id: int, faction: Faction, **fields: Any):
        membership = self.access(user, campaign_id, gm=True, lock=True)
        check_faction_in_campaign(faction, membership.campaign, required=self.faction_required)
        return save_row(self.model(campaign=membership.campaign, faction=faction), **fields)

    @write_transaction
    def update(self, *, user, campaign_id: int, version: int | None = None, **fields: Any):
        """Edit the force `<noun>_id`: refused when the form is stale (409) or the force is
        on a board (400)."""
        row = self._row(user, campaign_id, fields.pop(f"{self.noun}_id"))
        check_version(row, version, self.stale)
        refuse_change(campaign_id, [row])
        if not self.versioned:
            fields["version"] = row.version + 1
        return save_row(row, **fields)

    @write_transaction
    def delete(self, *, user, campaign_id: int, **ids: int) -> None:
        delete_unless_held(self._row(user, campaign_id, ids[f"{self.noun}_id"]))


def force_part_save(force, part, **fields: Any):
    """Save `part` of `force` (a unit, a solo, an element row, a reputation entry, its
    checks done; `force` locked by the caller) with `fields`: refused while a board holds the
    force; the force's version goes up, so its forms drawn before are stale."""
    refuse_change(force.campaign_id, [force])
    part = save_row(part, **fields)
    force.save(update_fields=["version"])
    return part


def force_part_delete(force, parts: QuerySet, pk: int, gone: str, code: str | None = None):
    """Delete the part `pk` of `parts` (the force's parts of one kind; `force` locked by the
    caller): refused while a board holds the force, and with `gone` when it is already gone;
    the force's version goes up."""
    refuse_change(force.campaign_id, [force])
    deleted, _rows = parts.filter(pk=pk).delete()
    if not deleted:
        raise ValidationError(gone, code=code)
    force.save(update_fields=["version"])
