"""Campaigns, who plays in them, and the factions and settlements of their wars (the rule
systems' own records live in their apps: a Pathfinder kingdom in `warfare.systems.pf2e`)."""

import secrets
from collections.abc import Mapping

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import rulesystems


class RuleSystem(models.TextChoices):
    PF2E = "pf2e", _("Pathfinder 2e Kingmaker warfare")
    DND5E = "dnd5e", _("D&D 5e mass combat (When Armies Clash)")
    GURPS4E = "gurps4e", _("GURPS Mass Combat (4e)")
    GURPS3E = "gurps3e", _("GURPS 3e mass combat (Compendium II)")


class Versioned(models.Model):
    """A row whose edit forms detect stale posts: `version` goes up by one on every save.

    Forms carry the version they were drawn from; update services compare it with the locked
    row and refuse an older one (HTTP 409) instead of silently overwriting a newer change.
    Bumping in `save()` keeps the count right for every writer (the kingdom turn, army
    activities), not only the edit forms. `QuerySet.update()` does not bump it.
    """

    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            self.version += 1
            update_fields = kwargs.get("update_fields")
            if update_fields is not None and "version" not in update_fields:
                kwargs["update_fields"] = [*update_fields, "version"]
        super().save(*args, **kwargs)


class Campaign(Versioned):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    rule_system = models.CharField(
        _("rule system"), max_length=16, choices=RuleSystem.choices, default=RuleSystem.PF2E
    )
    narrative_warfare = models.BooleanField(
        _("narrative warfare"),
        default=False,
        help_text=_("Battles are narrated instead of played (Pathfinder §7.8)."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("kingdoms:campaign-detail", args=[self.pk])

    def clean_fields(self, exclude=None) -> None:
        """The column's choices are the systems it was made with; a campaign's rule system is
        valid when it is registered (`kingdoms.rulesystems`: also one an installation added
        without a migration), with the column's own message otherwise."""
        exclude = set(exclude or ())
        errors = {}
        try:
            super().clean_fields(exclude={*exclude, "rule_system"})
        except ValidationError as error:
            errors = error.error_dict
        if "rule_system" not in exclude and rulesystems.get(self.rule_system) is None:
            field = self._meta.get_field("rule_system")
            errors["rule_system"] = [
                ValidationError(
                    field.error_messages["invalid_choice"],
                    code="invalid_choice",
                    params={"value": self.rule_system},
                )
            ]
        if errors:
            raise ValidationError(errors)

    @property
    def uses_battles(self) -> bool:
        """Battles are fought on the board (its rule system says so: `kingdoms.rulesystems`)."""
        plugin = rulesystems.get(self.rule_system)
        return plugin is not None and plugin.has_battles

    @property
    def system_templates(self) -> Mapping[str, str]:
        """{slot: template} the core pages include for this campaign's rule system."""
        plugin = rulesystems.get(self.rule_system)
        return plugin.templates if plugin is not None else {}

    @property
    def uses_forces(self) -> bool:
        """GURPS Mass Combat (4e) forces of elements (warfare.systems.gurps4e)."""
        return self.rule_system == RuleSystem.GURPS4E

    @property
    def uses_command_staff(self) -> bool:
        return self.rule_system in {RuleSystem.GURPS4E, RuleSystem.GURPS3E}


class Role(models.TextChoices):
    GM = "gm", _("Game master")
    PLAYER = "player", _("Player")


class Controller(models.TextChoices):
    PLAYERS = "players", _("Players")
    GM = "gm", _("Game master")


class NamedInCampaign(Versioned):
    """Abstract: a row of a campaign known by a name no other row of its kind in the campaign
    has (a faction, a settlement). The subclass declares `campaign`; the constraint is named
    after the subclass ("faction_name_unique_in_campaign")."""

    name = models.CharField(_("name"), max_length=120)

    class Meta(Versioned.Meta):
        abstract = True
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"], name="%(class)s_name_unique_in_campaign"
            )
        ]

    def __str__(self) -> str:
        return self.name


class Faction(NamedInCampaign):
    """A side in the campaign's wars. For Pathfinder, a players' faction is a kingdom."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="factions")
    description = models.TextField(_("description"), blank=True)
    controlled_by = models.CharField(
        _("controlled by"), max_length=16, choices=Controller.choices, default=Controller.GM
    )
    known_to_players = models.BooleanField(
        _("known to players"),
        default=True,
        help_text=_("Players see its name and description; its numbers stay hidden."),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta(NamedInCampaign.Meta):
        verbose_name = _("faction")
        verbose_name_plural = _("factions")


#: A GURPS skill level of the command staff (gurps §0.2: 3d6 rolled against it; beyond 30 a
#: level only inflates the margins, and a roll of 3-4 succeeds whatever the level).
SKILL_MIN, SKILL_MAX = 1, 30
SKILL_MESSAGE = _("A skill level is a whole number from 1 to 30.")


def _skill(label) -> models.PositiveSmallIntegerField:
    return models.PositiveSmallIntegerField(
        label,
        default=10,
        validators=[MinValueValidator(SKILL_MIN, SKILL_MESSAGE),
                    MaxValueValidator(SKILL_MAX, SKILL_MESSAGE)],
    )  # fmt: skip


class CommandStaff(Versioned):
    """GURPS faction commanders: the skills their mass-combat rolls use (4e all of them,
    3e the commander's Strategy: `FIELDS_BY_SYSTEM`)."""

    faction = models.OneToOneField(Faction, on_delete=models.CASCADE, related_name="command_staff")
    commander = models.CharField(_("commander"), max_length=120, blank=True)
    strategy = _skill(_("Strategy"))
    tactics = _skill(_("Tactics"))
    leadership = _skill(_("Leadership"))
    intelligence_officer = models.CharField(_("intelligence officer"), max_length=120, blank=True)
    intelligence_analysis = _skill(_("Intelligence Analysis"))
    logistics_officer = models.CharField(_("logistics officer"), max_length=120, blank=True)
    administration = _skill(_("Administration"))

    #: The fields a rule system's battles use (None: all); a 3e battle reads only the
    #: commander's Strategy (gurps §B.8).
    FIELDS_BY_SYSTEM = {RuleSystem.GURPS3E: ("commander", "strategy")}

    class Meta:
        verbose_name = _("command staff")
        verbose_name_plural = _("command staffs")

    def __str__(self) -> str:
        return str(self.faction)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices, default=Role.PLAYER)
    faction = models.ForeignKey(
        Faction,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("faction"),
        help_text=_("The faction this player plays; they see it in full."),
    )
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["role", "user__username"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} @ {self.campaign} ({self.role})"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM


def _new_token() -> str:
    return secrets.token_urlsafe(24)


class Invite(models.Model):
    """A link that makes whoever follows it a player of the campaign."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=_new_token, editable=False)
    faction = models.ForeignKey(
        Faction,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("faction"),
        help_text=_("Players who join through this link play this faction."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("invite link")
        verbose_name_plural = _("invite links")

    def __str__(self) -> str:
        return f"{self.campaign} invite #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("kingdoms:invite-accept", args=[self.token])

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def is_usable(self) -> bool:
        return not self.is_revoked and not self.is_expired


class Settlement(NamedInCampaign):
    """A place where armies are raised and stationed."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="settlements")
    faction = models.ForeignKey(
        Faction,
        on_delete=models.PROTECT,
        related_name="settlements",
        verbose_name=_("faction"),
    )
    hex = models.CharField(
        _("hex"),
        max_length=16,
        blank=True,
        validators=[
            RegexValidator(
                r"^[A-Za-z0-9.,:\-]*$",
                _("Use letters, digits and . , : - only, e.g. C7 or 12.05."),
            )
        ],
        help_text=_("Map coordinate, e.g. C7 or 12.05."),
    )
    is_capital = models.BooleanField(_("capital"), default=False)
    notes = models.TextField(_("notes"), blank=True)

    class Meta(NamedInCampaign.Meta):
        ordering = ["-is_capital", "name", "pk"]
        verbose_name = _("settlement")
        verbose_name_plural = _("settlements")


class FactionForce(Versioned):
    """Abstract: what a faction of a rule system's campaign fields in battle (a GURPS force, a
    D&D army). The subclass declares `campaign` and `faction` (their reverse names are its
    own), its Meta's names with `FactionForce.name_unique(...)` among its constraints (each
    system named its own), and `detail_url`: the URL name of its page, which takes the
    campaign's id and the row's."""

    name = models.CharField(_("name"), max_length=120)
    notes = models.TextField(_("notes"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    detail_url = ""

    class Meta(Versioned.Meta):
        abstract = True
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse(self.detail_url, args=[self.campaign_id, self.pk])

    @staticmethod
    def name_unique(constraint: str) -> models.UniqueConstraint:
        """No two of a faction's forces share a name: the constraint, named `constraint`."""
        return models.UniqueConstraint(fields=["faction", "name"], name=constraint)
