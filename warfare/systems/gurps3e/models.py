"""GURPS 3e mass combat records (gurps Part B, §B.10): forces of units, and characters.

A force belongs to a faction and has a TL; each of its units is of a troop type of the
campaign, whose per-man Troop Strength the GM enters once (the troop-type table is a [gap],
§B.3a). Unit and force TS are never stored: the pure engine
(warfare.engine.systems.gurps3e.forces) derives them.

A character (a PC or a named NPC) is owned by a campaign member or by a faction as a whole;
Combat Skill is derived by the engine (§B.3). Reputation entries expire in a campaign month
(§B.6.1).
"""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from kingdoms.models import Campaign, Faction, FactionForce, Versioned
from warfare.engine.systems.gurps3e.survival import MAX_TL


class Armour(models.TextChoices):
    """§B.8.2 armour classes (Casualty Table rows down)."""

    HEAVY = "heavy", _("heavy")
    MEDIUM = "medium", _("medium")
    LIGHT = "light", _("light (or spearmen)")
    NONE = "none", _("none")


class Quality(models.TextChoices):
    """§B.8.3 Troop Quality."""

    GREEN = "green", _("green")
    AVERAGE = "average", _("average")
    SEASONED = "seasoned", _("seasoned")
    VETERAN = "veteran", _("veteran")
    ELITE = "elite", _("elite")


class CharacterRole(models.TextChoices):
    """What the character does in a battle (§B.6.1: commanders' Glory moves Strategy)."""

    TROOPER = "trooper", _("trooper")
    UNIT_COMMANDER = "unit_commander", _("unit commander")
    ARMY_COMMANDER = "army_commander", _("army commander")


class CharacterStatus(models.TextChoices):
    FIT = "fit", _("fit")
    UNCONSCIOUS = "unconscious", _("unconscious")
    DEAD = "dead", _("dead")


class Limit(models.TextChoices):
    """§B.4 limits on Risk."""

    COWARD = "coward", _("coward (Risk not below −1)")
    IN_RESERVE = "in_reserve", _("in reserve (Risk not below −1)")
    OVERCONFIDENT = "overconfident", _("overconfident (Risk not above +1)")
    BERSERK = "berserk", _("berserk (Risk not above 0)")


class Force(FactionForce):
    """A faction's force (§B.10 Force3e): its units and its tech level."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="g3_forces")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="g3_forces")
    tl = models.PositiveSmallIntegerField(
        _("TL"), default=3, validators=[MaxValueValidator(MAX_TL)], help_text=_("Tech level.")
    )

    detail_url = "gurps3e:force-detail"

    class Meta(FactionForce.Meta):
        verbose_name = _("force (3e)")
        verbose_name_plural = _("forces (3e)")
        constraints = [FactionForce.name_unique("g3_force_name_in_faction")]


class TroopType(models.Model):
    """A troop type of the campaign with its per-man Troop Strength (§B.3a), entered once by
    the GM and used by every unit of that type: the 3e troop-type table is a [gap]."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="g3_troop_types")
    name = models.CharField(
        _("name"), max_length=60, help_text=_("E.g. heavy infantry, light cavalry.")
    )
    ts_per_man = models.PositiveSmallIntegerField(
        _("TS per man"),
        validators=[MaxValueValidator(1000)],
        help_text=_("GM-entered (the 3e troop-type table is not sourced)."),
    )
    notes = models.CharField(_("notes"), max_length=200, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("troop type")
        verbose_name_plural = _("troop types")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="g3_troop_type_in_campaign")
        ]

    def __str__(self) -> str:
        return f"{self.name} (TS {self.ts_per_man})"


class Unit(models.Model):
    """A unit of 10-500 men (§B.3a, §B.10 Unit3e) of one troop type."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(_("name"), max_length=120)
    troop_type = models.ForeignKey(
        TroopType, on_delete=models.PROTECT, related_name="units", verbose_name=_("troop type")
    )
    men = models.PositiveIntegerField(_("men"), validators=[MaxValueValidator(500)])
    racial = models.SmallIntegerField(
        _("racial TS modifier"),
        default=0,
        help_text=_("½ × (ST mod + HT mod + extra HP); lizard-men +3, halflings −1 (§B.3a)."),
    )
    equipment = models.PositiveSmallIntegerField(
        _("missile and armour TS bonus"), default=0, help_text=_("Added after the racial minimum.")
    )
    armour = models.CharField(
        _("armour"), max_length=8, choices=Armour.choices, default=Armour.NONE
    )
    quality = models.CharField(
        _("troop quality"), max_length=10, choices=Quality.choices, default=Quality.AVERAGE
    )
    morale = models.PositiveSmallIntegerField(
        _("Base Morale"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(30)],
        help_text=_("Blank: 15 for veterans, 10 otherwise (§B.8.3)."),
    )
    battles = models.PositiveSmallIntegerField(_("battles fought"), default=0)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("unit")
        verbose_name_plural = _("units")

    def __str__(self) -> str:
        return self.name


class Character(Versioned):
    """A PC or a named NPC (§B.10 Character3e). `owner` (a member) or, without one, the
    whole `faction` plays it; neither: the GM's."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="g3_characters")
    name = models.CharField(_("name"), max_length=120)
    is_pc = models.BooleanField(_("player character"), default=True)
    faction = models.ForeignKey(
        Faction,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="g3_characters",
        verbose_name=_("faction"),
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("player"),
        help_text=_("Blank: the whole faction plays it (or the GM, without a faction)."),
    )
    ht_max = models.PositiveSmallIntegerField(
        _("HT"), default=10, validators=[MinValueValidator(1), MaxValueValidator(30)]
    )
    ht = models.SmallIntegerField(
        _("current HT"), default=10, help_text=_("Hit points left (HT minus damage).")
    )
    iq = models.PositiveSmallIntegerField(_("IQ"), default=10, validators=[MaxValueValidator(30)])
    dr = models.PositiveSmallIntegerField(_("DR"), default=0, validators=[MaxValueValidator(100)])
    toughness = models.PositiveSmallIntegerField(
        _("Toughness"), default=0, validators=[MaxValueValidator(2)]
    )
    luck = models.PositiveSmallIntegerField(
        _("Luck"), default=0, validators=[MaxValueValidator(3)], help_text=_("Uses per battle.")
    )
    tactics = models.PositiveSmallIntegerField(
        _("Tactics"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(30)],
        help_text=_("Blank: untrained (IQ−6)."),
    )
    weapon_skill = models.PositiveSmallIntegerField(
        _("best weapon skill"), default=10, validators=[MaxValueValidator(30)]
    )
    limits = models.JSONField(_("limits on Risk"), default=list, blank=True)
    role = models.CharField(
        _("role"), max_length=16, choices=CharacterRole.choices, default=CharacterRole.TROOPER
    )
    rank = models.PositiveSmallIntegerField(_("military rank"), default=0)
    status = models.CharField(
        _("status"), max_length=12, choices=CharacterStatus.choices, default=CharacterStatus.FIT
    )
    notes = models.TextField(_("notes"), blank=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("character")
        verbose_name_plural = _("characters")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("gurps3e:character-detail", args=[self.campaign_id, self.pk])


REPUTATION_SOURCES = {"gm": _("set by the GM"), "glory": _("Glory roll")}


class Reputation(models.Model):
    """A reputation entry (§B.6.1): `value` until campaign month `expires` (blank: for good)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="reputation")
    value = models.SmallIntegerField(
        _("value"), validators=[MinValueValidator(-10), MaxValueValidator(10)]
    )
    expires = models.PositiveIntegerField(
        _("expires in month"), null=True, blank=True, help_text=_("Blank: permanent.")
    )
    source = models.CharField(_("source"), max_length=60, default="gm", blank=True)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("reputation entry")
        verbose_name_plural = _("reputation entries")

    def __str__(self) -> str:
        return f"{self.value:+d}"

    @property
    def source_label(self) -> str:
        """Where the entry comes from: the app's own sources in words, a GM's note as typed."""
        return str(REPUTATION_SOURCES.get(self.source, self.source))
