"""GURPS Mass Combat (4e) forces (gurps §A.2): a campaign's element types and its forces.

An element type is a line of the element tables (TS, classes, mobility…); a force is a list of
element rows (type × count, with troop and equipment quality) belonging to a faction, commanded
by the faction's command staff (kingdoms.CommandStaff). Troop Strength is never stored: it is
derived by the pure engine (warfare.engine.systems.gurps4e) from these rows, except the share of
the force left after its battles (`strength_percent`, §A.7.3: TS × (1 − casualties)).
"""

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from kingdoms.models import Campaign, Faction, FactionForce, Versioned


class ElementClass(models.TextChoices):
    """§A.2.2 special classes (codes as printed in the element tables)."""

    AIR = "Air", _("Air")
    ARM = "Arm", _("Armor")
    ART = "Art", _("Artillery")
    C3I = "C3I", _("C3I")
    CAV = "Cav", _("Cavalry")
    F = "F", _("Fire")
    ENG = "Eng", _("Engineering")
    NAV = "Nav", _("Naval")
    REC = "Rec", _("Recon")
    T = "T", _("Transport")


CLASS_CODES = {
    "Air": pgettext_lazy("gurps4e class code", "Air"),
    "Arm": pgettext_lazy("gurps4e class code", "Arm"),
    "Art": pgettext_lazy("gurps4e class code", "Art"),
    "C3I": pgettext_lazy("gurps4e class code", "C3I"),
    "Cav": pgettext_lazy("gurps4e class code", "Cav"),
    "F": pgettext_lazy("gurps4e class code", "F"),
    "Eng": pgettext_lazy("gurps4e class code", "Eng"),
    "Nav": pgettext_lazy("gurps4e class code", "Nav"),
    "Rec": pgettext_lazy("gurps4e class code", "Rec"),
    "T": pgettext_lazy("gurps4e class code", "T"),
}
"""The class codes as a badge shows them ("Cav"), in the page's language."""


def class_badges(codes) -> list[tuple[str, str]]:
    """(short code, class name) of each class code, both translated."""
    names = dict(ElementClass.choices)
    return [(str(CLASS_CODES.get(code, code)), str(names.get(code, code))) for code in codes]


class TroopQuality(models.TextChoices):
    """§A.2.4 troop quality [impl, unverified]."""

    INFERIOR = "inferior", _("inferior")
    AVERAGE = "average", _("average")
    GOOD = "good", _("good")
    ELITE = "elite", _("elite")


class EquipmentQuality(models.TextChoices):
    """§A.2.4 equipment quality [impl, unverified]."""

    POOR = "poor", _("poor")
    AVERAGE = "average", _("average")
    GOOD = "good", _("good")
    FINE = "fine", _("fine")


class Posture(models.TextChoices):
    """§A.3.2 / §A.9.1 what the force is doing when the enemy finds it."""

    MARCHING = "marching", _("marching")
    LAX = "lax", _("lax security")
    ENTRENCHED = "entrenched", _("entrenched")
    PATROL = "patrol", _("patrolling")


class ElementType(Versioned):
    """A line of the element tables (§A.2.1), kept once per campaign and reused by forces."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="element_types")
    name = models.CharField(_("name"), max_length=120)
    tl = models.PositiveSmallIntegerField(
        _("TL"), default=3, validators=[MaxValueValidator(12)], help_text=_("Tech level.")
    )
    base_ts = models.DecimalField(
        _("Troop Strength"),
        max_digits=9,
        decimal_places=2,
        validators=[MinValueValidator(0)],
        help_text=_("TS at the listed TL, from the element tables."),
    )
    ts_doubles_per_tl = models.BooleanField(
        _("TS doubles per TL (*)"),
        default=False,
        help_text=_("Marked * in the tables: TS doubles for each TL above the listed one."),
    )
    is_support = models.BooleanField(
        _("support TS (in parentheses)"),
        default=False,
        help_text=_(
            "Counts at 10% toward the force's TS (0 if its only class is C3I) and in full "
            "toward class superiority."
        ),
    )
    classes = models.JSONField(_("classes"), default=list, blank=True)
    neutralizes = models.JSONField(_("neutralizes"), default=list, blank=True)
    mobility = models.CharField(_("mobility"), max_length=40, blank=True)
    features = models.CharField(
        _("features"),
        max_length=200,
        blank=True,
        help_text=_("E.g. Fanatic, Impetuous, All-Weather, terrain speciality, night vision."),
    )
    raise_cost = models.PositiveIntegerField(_("raise cost ($)"), default=0)
    monthly_cost = models.PositiveIntegerField(_("maintenance per month ($)"), default=0)
    notes = models.CharField(_("notes"), max_length=200, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("element type")
        verbose_name_plural = _("element types")
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name", "tl"], name="element_type_unique_in_campaign"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} (TL{self.tl})"

    @property
    def class_badges(self) -> list[tuple[str, str]]:
        return class_badges(self.classes)

    @property
    def neutralize_badges(self) -> list[tuple[str, str]]:
        return class_badges(self.neutralizes)


class Force(FactionForce):
    """A faction's force (§A.2, §A.9.1): element rows, posture, and what battles left of it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="forces")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="forces")
    mobile = models.BooleanField(
        _("mobile"), default=True, help_text=_("Mobile, or in camp (at anchor).")
    )
    posture = models.CharField(
        _("posture"), max_length=16, choices=Posture.choices, default=Posture.MARCHING
    )
    strength_percent = models.PositiveSmallIntegerField(
        _("strength left (%)"),
        default=100,
        validators=[MaxValueValidator(100)],
        help_text=_("What its battles left of the force (§A.7.3): TS × this share."),
    )

    detail_url = "gurps4e:force-detail"

    class Meta(FactionForce.Meta):
        verbose_name = _("force")
        verbose_name_plural = _("forces")
        constraints = [FactionForce.name_unique("force_name_unique_in_faction")]


class ForceElement(models.Model):
    """A row of a force: `count` elements of one type, of one troop and equipment quality."""

    force = models.ForeignKey(Force, on_delete=models.CASCADE, related_name="elements")
    element_type = models.ForeignKey(
        ElementType, on_delete=models.PROTECT, related_name="force_rows"
    )
    count = models.PositiveIntegerField(_("count"), default=1, validators=[MinValueValidator(1)])
    tl = models.PositiveSmallIntegerField(
        _("TL"),
        null=True,
        blank=True,
        validators=[MaxValueValidator(12)],
        help_text=_("Only for types marked *: the TL these elements are at (blank: listed TL)."),
    )
    troop_quality = models.CharField(
        _("troop quality"),
        max_length=12,
        choices=TroopQuality.choices,
        default=TroopQuality.AVERAGE,
    )
    equipment_quality = models.CharField(
        _("equipment quality"),
        max_length=12,
        choices=EquipmentQuality.choices,
        default=EquipmentQuality.AVERAGE,
    )

    class Meta:
        ordering = ["pk"]
        verbose_name = _("element row")
        verbose_name_plural = _("element rows")

    def __str__(self) -> str:
        return f"{self.count} × {self.element_type}"
