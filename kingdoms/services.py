"""Use cases for campaigns, members, invites, factions and settlements.

Each function is one user action and one transaction. Callers pass a membership obtained from
`access_campaign`; rules about roles (the last GM stays) are enforced here, with the campaign
row locked so that two GMs acting at once cannot both step down.
"""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.db.models.deletion import ProtectedError
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from . import rulesystems
from .access import access_campaign
from .models import Campaign, CommandStaff, Faction, Invite, Membership, Role, Settlement
from .transactions import write_transaction


class StaleEdit(Exception):
    """The row changed since the form was drawn (HTTP 409). `instance` is the current row."""

    def __init__(self, instance):
        super().__init__("stale")
        self.instance = instance


def check_version(instance, version: int | None, stale: type[StaleEdit] = StaleEdit) -> None:
    """Refuse a form drawn from an older version of `instance` (locked by the caller) with
    `stale(instance)`.

    `version=None` skips the check (callers without a form, such as the demo loader)."""
    if version is not None and instance.version != version:
        raise stale(instance)


class InviteUnusable(Exception):
    """The invite link exists but can no longer be used (revoked or expired)."""

    def __init__(self, invite: Invite, reason: str):
        super().__init__(reason)
        self.invite = invite
        self.reason = reason


def save_row(instance, **fields):
    """Set `fields` on `instance`, validate it as its model does (a ValidationError names the
    fields) and save it."""
    for name, value in fields.items():
        setattr(instance, name, value)
    instance.full_clean()
    instance.save()
    return instance


@transaction.atomic
def campaign_create(*, user, **fields: Any) -> Campaign:
    """Create a campaign; its creator becomes its first game master."""
    campaign = save_row(Campaign(created_by=user), **fields)
    Membership.objects.create(campaign=campaign, user=user, role=Role.GM)
    return campaign


@transaction.atomic
def campaign_update(
    *, user, campaign_id: int, version: int | None = None, **fields: Any
) -> Campaign:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    check_version(membership.campaign, version)
    return save_row(membership.campaign, **fields)


@transaction.atomic(durable=True)
def campaign_delete(*, user, campaign_id: int, confirm_name: str) -> None:
    """Delete a campaign and everything in it: the one hard delete, for its GMs only.

    `confirm_name` must be the campaign's exact name. Settlements (and a rule system's rows,
    such as Pathfinder's armies) protect their factions from accidental deletion, so they are
    deleted first, explicitly (the system's through `before_campaign_delete`).
    """
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    if confirm_name != campaign.name:
        raise ValidationError(
            {"confirm_name": _("That is not the campaign's name. Nothing was deleted.")},
            code="wrong_name",
        )
    plugin = rulesystems.get(campaign.rule_system)
    if plugin is not None and plugin.before_campaign_delete is not None:
        plugin.before_campaign_delete(campaign)
    Settlement.objects.filter(campaign=campaign).delete()
    campaign.delete()


def _save_system_records(faction: Faction, *, records, command_staff) -> None:
    """Give a faction the records its campaign's rule system needs (a Pathfinder kingdom, a
    GURPS command staff) and save the sent ones; a stale `version` refuses the whole save.

    `records` maps a `rulesystems.FactionRecord` key to its fields; a key the rule system
    does not have is ignored (the views and the API refuse it before)."""
    campaign = faction.campaign
    for record in rulesystems.faction_records(campaign.rule_system):
        record.save(faction, (records or {}).get(record.key))
    if campaign.uses_command_staff:
        save_faction_record(CommandStaff, faction, command_staff)


def save_faction_record(model, faction: Faction, fields: dict[str, Any] | None) -> None:
    """The faction's one record of `model` (a GURPS command staff, a Pathfinder kingdom),
    created with it; `fields` (a form's, with the `version` it was drawn from: an older one
    is a `StaleEdit`) saved over it, locked. Part of the caller's transaction."""
    model.objects.get_or_create(faction=faction)
    if fields:
        fields = dict(fields)
        row = model.objects.select_for_update(no_key=True).get(faction=faction)
        check_version(row, fields.pop("version", None))
        save_row(row, **fields)


@transaction.atomic
def faction_create(
    *,
    user,
    campaign_id: int,
    records: dict[str, dict[str, Any]] | None = None,
    command_staff: dict[str, Any] | None = None,
    **fields: Any,
) -> Faction:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    faction = save_row(Faction(campaign=membership.campaign), **fields)
    _save_system_records(faction, records=records, command_staff=command_staff)
    return faction


@transaction.atomic
def faction_update(
    *,
    user,
    campaign_id: int,
    faction_id: int,
    version: int | None = None,
    records: dict[str, dict[str, Any]] | None = None,
    command_staff: dict[str, Any] | None = None,
    **fields: Any,
) -> Faction:
    """Save a faction and its rule system's records (`records`, e.g. {"kingdom": {...}}) or
    command staff. Each may carry the `version` its form was drawn from; any stale one
    refuses the whole save."""
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    faction = get_object_or_404(
        Faction.objects.select_for_update(no_key=True), campaign=membership.campaign, pk=faction_id
    )
    check_version(faction, version)
    save_row(faction, **fields)
    _save_system_records(faction, records=records, command_staff=command_staff)
    return faction


@transaction.atomic
def settlement_create(*, user, campaign_id: int, **fields: Any) -> Settlement:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    check_faction_in_campaign(fields.get("faction"), membership.campaign)
    return save_row(Settlement(campaign=membership.campaign), **fields)


@transaction.atomic
def settlement_update(
    *, user, campaign_id: int, settlement_id: int, version: int | None = None, **fields: Any
) -> Settlement:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    check_faction_in_campaign(fields.get("faction"), membership.campaign)
    settlement = get_object_or_404(
        Settlement.objects.select_for_update(no_key=True),
        campaign=membership.campaign,
        pk=settlement_id,
    )
    check_version(settlement, version)
    return save_row(settlement, **fields)


def check_faction_in_campaign(
    faction: Faction | None, campaign: Campaign, *, required: bool = False, field: str = "faction"
) -> None:
    """Refuse a faction of another campaign (and none at all when one is `required`); the
    error names the form's `field`."""
    if (faction is None and required) or (
        faction is not None and faction.campaign_id != campaign.pk
    ):
        raise ValidationError(
            {field: _("That faction belongs to another campaign.")}, code="foreign_faction"
        )


@transaction.atomic
def invite_create(
    *, user, campaign_id: int, faction: Faction | None, lifetime: timedelta | None
) -> Invite:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    check_faction_in_campaign(faction, membership.campaign)
    return Invite.objects.create(
        campaign=membership.campaign,
        faction=faction,
        created_by=user,
        expires_at=timezone.now() + lifetime if lifetime else None,
    )


@transaction.atomic
def invite_revoke(*, user, campaign_id: int, invite_id: int) -> Invite:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    invite = get_object_or_404(Invite, campaign=membership.campaign, pk=invite_id)
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def invite_check(invite: Invite) -> None:
    """Raise InviteUnusable if the link can no longer be used."""
    if invite.is_revoked:
        raise InviteUnusable(invite, _("This invite link has been revoked by the game master."))
    if invite.is_expired:
        raise InviteUnusable(invite, _("This invite link has expired. Ask the GM for a new one."))


@transaction.atomic
def invite_accept(*, user, token: str) -> tuple[Membership, bool]:
    """Join the invite's campaign as a player. Returns (membership, created).

    Someone who is already a member keeps their role: following a link never demotes a GM.
    """
    invite = get_object_or_404(
        Invite.objects.select_for_update(no_key=True).select_related("campaign"), token=token
    )
    invite_check(invite)
    membership, created = Membership.objects.get_or_create(
        campaign=invite.campaign,
        user=user,
        defaults={"role": Role.PLAYER, "faction": invite.faction},
    )
    if created:
        Invite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return membership, created


def _gm_count(campaign_id: int) -> int:
    return Membership.objects.filter(campaign_id=campaign_id, role=Role.GM).count()


@transaction.atomic
def membership_update(
    *, user, campaign_id: int, membership_id: int, role: str, faction: Faction | None
) -> Membership:
    """Change a member's role or faction. The last GM cannot be demoted."""
    actor = access_campaign(user, campaign_id, gm=True, lock=True)
    check_faction_in_campaign(faction, actor.campaign)
    member = get_object_or_404(
        Membership.objects.select_related("user"), campaign_id=campaign_id, pk=membership_id
    )
    if member.role == Role.GM and role != Role.GM and _gm_count(campaign_id) == 1:
        raise ValidationError(
            _("%(name)s is the campaign's only game master. Make someone else a GM first.")
            % {"name": member.user.get_username()},
            code="last_gm",
        )
    return save_row(member, role=role, faction=faction)


@transaction.atomic
def membership_remove(*, user, campaign_id: int, membership_id: int) -> None:
    """A GM removes a member, or anyone leaves (membership_id of their own). The last GM stays."""
    actor = access_campaign(user, campaign_id, lock=True)
    member = get_object_or_404(
        Membership.objects.select_related("user"), campaign_id=campaign_id, pk=membership_id
    )
    if member.pk != actor.pk and not actor.is_gm:
        raise PermissionDenied(_("Only game masters can remove other members."))
    if member.role == Role.GM and _gm_count(campaign_id) == 1:
        raise ValidationError(
            _("The campaign's only game master cannot leave. Make someone else a GM first."),
            code="last_gm",
        )
    member.delete()


def delete_unless_used(instance, message: str, code: str) -> None:
    """Delete a row other rows protect (`on_delete=PROTECT`); while they still use it the
    refusal is a ValidationError with `message`, and nothing changes."""
    try:
        with transaction.atomic():
            instance.delete()
    except ProtectedError:
        raise ValidationError(message, code=code) from None


@dataclass(frozen=True, kw_only=True)
class LibraryServices:
    """`create`, `update` and `delete` of a campaign's library of one kind of row (D&D 5e
    creatures, GURPS element types and troop types), the GM's, each one transaction.
    `access(user, campaign_id, gm=, lock=)` is the membership of a campaign of the rule
    system; the services name the row `<noun>_id`; `in_use(row)` is the refusal to delete a
    row forces still use (code `<noun>_in_use`)."""

    model: type
    noun: str
    access: Callable[..., Membership]
    in_use: Callable[[Any], str]

    def _membership(self, user, campaign_id: int) -> Membership:
        return self.access(user, campaign_id, gm=True, lock=True)

    def _row(self, membership: Membership, pk: int, *, no_key: bool = True):
        """The row, locked (another campaign's: 404); to delete it, `no_key=False` (a
        FOR UPDATE lock, which waits for rows being added that name it)."""
        rows = self.model.objects.select_for_update(no_key=no_key)
        return get_object_or_404(rows, campaign=membership.campaign, pk=pk)

    @write_transaction
    def create(self, *, user, campaign_id: int, **fields: Any):
        membership = self._membership(user, campaign_id)
        return save_row(self.model(campaign=membership.campaign), **fields)

    @write_transaction
    def update(self, *, user, campaign_id: int, version: int | None = None, **fields: Any):
        """Edit the row `<noun>_id`: a stale form refused (`StaleEdit`), then saved."""
        pk = fields.pop(f"{self.noun}_id")
        row = self._row(self._membership(user, campaign_id), pk)
        check_version(row, version)
        return save_row(row, **fields)

    @write_transaction
    def delete(self, *, user, campaign_id: int, **ids: int) -> None:
        """Delete the row `<noun>_id` unless forces still use it."""
        membership = self._membership(user, campaign_id)
        row = self._row(membership, ids[f"{self.noun}_id"], no_key=False)
        delete_unless_used(row, self.in_use(row), code=f"{self.noun}_in_use")
