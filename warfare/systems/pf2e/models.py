"""Kingdoms, armies and the kingdom log (Pathfinder 2e Kingmaker warfare).

An army's rule-relevant state lives in plain fields and JSON that `mapping` turns into
the engine's `ArmySpec`/`ArmyState`; derived numbers (AC, saves, HP…) are never stored.
Armies are never deleted: disbanded and destroyed armies stay for history.

These models were the `warfare` app's (Army, LogEntry, Recruitment) and the `kingdoms` app's
(Kingdom) until issue 12; they keep those apps' tables (`db_table`), so an upgraded database
keeps its rows (migration 0001 moves them in the migration state only).
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from kingdoms.models import Faction, Versioned
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.engine.systems.pf2e.activities.structures import STRUCTURES
from warfare.engine.systems.pf2e.gear import MAX_POTION_DOSES
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import MAX_LEVEL, MIN_LEVEL
from warfare.systems.pf2e import labels


class FameKind(models.TextChoices):
    FAME = "fame", _("Fame")
    INFAMY = "infamy", _("Infamy")


def _default_skills() -> dict:
    return pf2e_kingdom.default_skills()


class Kingdom(Versioned):
    """Pathfinder 2e kingdom numbers that warfare reads and writes (reference §10)."""

    faction = models.OneToOneField(Faction, on_delete=models.CASCADE, related_name="kingdom")
    level = models.PositiveSmallIntegerField(
        _("level"),
        default=1,
        validators=[
            MinValueValidator(pf2e_kingdom.MIN_LEVEL),
            MaxValueValidator(pf2e_kingdom.MAX_LEVEL),
        ],
    )
    xp = models.PositiveIntegerField(_("XP"), default=0)
    size_hexes = models.PositiveIntegerField(
        _("size (hexes)"), default=1, help_text=_("Claimed hexes; sets the Control DC modifier.")
    )
    resource_points = models.PositiveIntegerField(_("resource points (RP)"), default=0)
    food = models.PositiveIntegerField(_("Food"), default=0)
    unrest = models.PositiveIntegerField(_("Unrest"), default=0)
    corruption = models.PositiveIntegerField(_("Corruption"), default=0)
    crime = models.PositiveIntegerField(_("Crime"), default=0)
    decay = models.PositiveIntegerField(_("Decay"), default=0)
    strife = models.PositiveIntegerField(_("Strife"), default=0)
    corruption_threshold = models.PositiveIntegerField(
        _("Corruption threshold"), default=pf2e_kingdom.DEFAULT_RUIN_THRESHOLD
    )
    crime_threshold = models.PositiveIntegerField(
        _("Crime threshold"), default=pf2e_kingdom.DEFAULT_RUIN_THRESHOLD
    )
    decay_threshold = models.PositiveIntegerField(
        _("Decay threshold"), default=pf2e_kingdom.DEFAULT_RUIN_THRESHOLD
    )
    strife_threshold = models.PositiveIntegerField(
        _("Strife threshold"), default=pf2e_kingdom.DEFAULT_RUIN_THRESHOLD
    )
    fame_kind = models.CharField(
        _("fame or infamy"), max_length=8, choices=FameKind.choices, default=FameKind.FAME
    )
    fame_points = models.PositiveSmallIntegerField(_("Fame/Infamy points"), default=0)
    at_war = models.BooleanField(_("at war"), default=False)
    ruler_vacant = models.BooleanField(_("Ruler vacant"), default=False)
    skills = models.JSONField(_("kingdom skills"), default=_default_skills)
    structures = models.JSONField(
        _("structures"),
        default=list,
        blank=True,
        help_text=_("Structures that give item bonuses to army activities (Pathfinder §4.9)."),
    )
    turn = models.PositiveIntegerField(_("kingdom turn"), default=1)
    recruit_blocked_until_turn = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        db_table = "kingdoms_kingdom"
        verbose_name = _("kingdom")
        verbose_name_plural = _("kingdoms")
        constraints = [
            models.CheckConstraint(
                condition=Q(level__gte=pf2e_kingdom.MIN_LEVEL, level__lte=pf2e_kingdom.MAX_LEVEL),
                name="kingdom_level_1_to_20",
            )
        ]

    def __str__(self) -> str:
        return str(self.faction)

    def clean(self):
        problems = pf2e_kingdom.validate_skills(self.skills)
        if problems:
            raise ValidationError(
                {"skills": _("Invalid kingdom skills: %(problems)s") % {"problems": problems}}
            )
        unknown = [key for key in self.structures or [] if key not in STRUCTURES]
        if unknown:
            raise ValidationError(
                {"structures": _("Unknown structures: %(keys)s") % {"keys": ", ".join(unknown)}}
            )

    @property
    def control_dc(self) -> pf2e_kingdom.ControlDC:
        return pf2e_kingdom.control_dc(self.level, self.size_hexes, ruler_vacant=self.ruler_vacant)

    def ruins(self) -> list[tuple[str, int, int]]:
        """(ruin, value, threshold) for each of the four Ruins."""
        return [
            (ruin, getattr(self, ruin), getattr(self, f"{ruin}_threshold"))
            for ruin in pf2e_kingdom.RUINS
        ]


class ArmyType(models.TextChoices):
    INFANTRY = "infantry", _("Infantry")
    CAVALRY = "cavalry", _("Cavalry")
    SKIRMISHER = "skirmisher", _("Skirmishers")
    SIEGE = "siege", _("Siege engines")


class ArmyStatus(models.TextChoices):
    ACTIVE = "active", _("active")
    DISBANDED = "disbanded", _("disbanded")
    DESTROYED = "destroyed", _("destroyed")


class Garrison(models.TextChoices):
    NONE = "", _("not garrisoned")
    UNTIL_DEPLOYED = "until_deployed", _("fortified until deployed")
    UNTIL_NEXT_TURN = "until_next_turn", _("fortified until the next kingdom turn")


SPECIALIZED_CHOICES = [("", _("(basic army)"))] + [
    (key, pgettext_lazy(labels.SPECIALIZED, army.name_en))
    for key, army in sorted(SPECIALIZED_ARMIES.items())
]


class ArmyQuerySet(models.QuerySet):
    def active(self):
        return self.filter(status=ArmyStatus.ACTIVE)


class Army(models.Model):
    faction = models.ForeignKey(
        Faction, on_delete=models.PROTECT, related_name="armies", verbose_name=_("faction")
    )
    name = models.CharField(_("name"), max_length=120)
    army_type = models.CharField(_("type"), max_length=16, choices=ArmyType.choices)
    specialized = models.CharField(
        _("specialized army"), max_length=40, blank=True, choices=SPECIALIZED_CHOICES
    )
    level_override = models.PositiveSmallIntegerField(
        _("level override"),
        null=True,
        blank=True,
        validators=[MinValueValidator(MIN_LEVEL), MaxValueValidator(MAX_LEVEL)],
        help_text=_("Leave empty to follow the kingdom's level (players' armies always do)."),
    )
    hp = models.PositiveSmallIntegerField(_("hit points"))
    conditions = models.JSONField(_("conditions"), default=dict, blank=True)
    tactics = models.JSONField(_("tactics"), default=list, blank=True)
    gear = models.JSONField(_("gear"), default=list, blank=True)
    custom_stats = models.JSONField(_("custom stat block"), null=True, blank=True)
    potion_doses = models.PositiveSmallIntegerField(
        _("potion doses"), default=0, validators=[MaxValueValidator(MAX_POTION_DOSES)]
    )
    hex = models.CharField(_("hex"), max_length=16, blank=True)
    garrison = models.CharField(
        _("garrison"), max_length=16, choices=Garrison.choices, default=Garrison.NONE, blank=True
    )
    garrison_consumption_cut = models.BooleanField(default=False)
    timers = models.JSONField(default=dict, blank=True)
    activities_this_turn = models.PositiveSmallIntegerField(default=0)
    fought_this_turn = models.BooleanField(default=False)
    initiative_bonus = models.SmallIntegerField(
        _("initiative bonus in the next war encounter"),
        default=0,
        help_text=_("From an Offensive Gambit (Pathfinder §4.5); used up by the next battle."),
    )
    status = models.CharField(
        _("status"), max_length=16, choices=ArmyStatus.choices, default=ArmyStatus.ACTIVE
    )
    notes = models.TextField(_("notes"), blank=True)
    version = models.PositiveIntegerField(default=1, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = ArmyQuerySet.as_manager()

    class Meta:
        db_table = "warfare_army"
        ordering = ["status", "name", "pk"]
        verbose_name = _("army")
        verbose_name_plural = _("armies")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("pf2e:army-detail", args=[self.faction.campaign_id, self.pk])

    @property
    def level(self) -> int:
        """The army's level: its kingdom's (§10.5), unless the GM set one for an enemy army."""
        if self.level_override:
            return self.level_override
        return self.faction.kingdom.level

    @property
    def is_active(self) -> bool:
        return self.status == ArmyStatus.ACTIVE


class LogEntry(models.Model):
    """One thing that happened to a kingdom or its armies, with the dice that decided it.

    `code` is a dotted event code (`army.recruited`, `kingdom.unrest`), rendered by a gettext
    entry; `data` holds its parameters, the check (die, modifiers, DC, degree) and the rolls.
    """

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="log_entries")
    army = models.ForeignKey(
        Army, on_delete=models.CASCADE, null=True, blank=True, related_name="log_entries"
    )
    turn = models.PositiveIntegerField(default=0)
    code = models.CharField(max_length=64)
    data = models.JSONField(default=dict)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "warfare_logentry"
        ordering = ["-created_at", "-pk"]
        verbose_name = _("log entry")
        verbose_name_plural = _("log entries")
        indexes = [models.Index(fields=["faction", "-created_at"])]

    def __str__(self) -> str:
        return self.code


class RecruitmentStep(models.TextChoices):
    ROLL = "roll", _("Recruit Army check")
    TACTICS = "tactics", _("Starting tactics")
    PLACE = "place", _("Placement")
    NAME = "name", _("Consumption and name")
    DONE = "done", _("Recruited")
    FAILED = "failed", _("Not recruited")


class RecruitmentQuerySet(models.QuerySet):
    def open(self):
        """Recruitments not finished yet (neither recruited nor failed)."""
        return self.exclude(step__in=[RecruitmentStep.DONE, RecruitmentStep.FAILED])


class Recruitment(models.Model):
    """A recruitment wizard in progress (§3.1). The army exists only once it is finished.

    Keeping the wizard on the server means a reload or the back button neither re-rolls the
    Recruit Army check nor creates a second army.
    """

    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="recruitments")
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    army_type = models.CharField(max_length=16, choices=ArmyType.choices, blank=True)
    specialized = models.CharField(max_length=40, blank=True, choices=SPECIALIZED_CHOICES)
    step = models.CharField(
        max_length=16, choices=RecruitmentStep.choices, default=RecruitmentStep.ROLL
    )
    check_result = models.JSONField(null=True, blank=True)
    efficient = models.BooleanField(default=False)
    tactics = models.JSONField(default=list, blank=True)
    hex = models.CharField(max_length=16, blank=True)
    army = models.OneToOneField(
        Army, on_delete=models.SET_NULL, null=True, blank=True, related_name="recruitment"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = RecruitmentQuerySet.as_manager()

    class Meta:
        db_table = "warfare_recruitment"
        ordering = ["-created_at"]
        verbose_name = _("recruitment")
        verbose_name_plural = _("recruitments")

    def __str__(self) -> str:
        return f"{self.faction} recruitment #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("pf2e:recruit-step", args=[self.faction.campaign_id, self.pk])

    @property
    def is_open(self) -> bool:
        return self.step not in {RecruitmentStep.DONE, RecruitmentStep.FAILED}
