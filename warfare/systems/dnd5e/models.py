"""D&D 5e "When Armies Clash" forces (dnd5e §4): a campaign's creature stat blocks, and its
armies, each a faction's units (stands of one creature type, §4.1-§4.2) and solos (§4.4).

A stat block is entered once and reused by every unit and solo of that creature; it is kept in
the engine's JSON shape (`warfare.engine.systems.dnd5e.creatures.Creature`) so a battle's setup
carries it as is. A unit's `stands` is what it brings to its next battle: a battle's results
write the stands left back here, and a solo's `hp` (None: full).
"""

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from kingdoms.models import Campaign, Faction, FactionForce, Versioned


class Size(models.TextChoices):
    """§2 size categories, in order."""

    TINY = "tiny", _("Tiny")
    SMALL = "small", _("Small")
    MEDIUM = "medium", _("Medium")
    LARGE = "large", _("Large")
    HUGE = "huge", _("Huge")
    GARGANTUAN = "gargantuan", _("Gargantuan")


class UnitKind(models.TextChoices):
    """§4.2: fixed before the battle, never changed."""

    SKIRMISHER = "skirmisher", _("skirmishers")
    REGIMENT = "regiment", _("regiment")


class Configuration(models.TextChoices):
    """§4.3: a regiment's starting configuration."""

    MARCH = "march", _("March")
    AID = "aid", _("Aid")
    DEFEND = "defend", _("Defend")


class Creature(Versioned):
    """A 5e stat block as much as mass combat needs (§4.1 "derived stand stat block").

    `key` names it in battle setups (unique in the campaign); `attacks` are engine
    `Attack.to_dict()` rows: key, to_hit, damage, damage_type, reach_ft, range_ft, long_ft,
    count."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="creatures")
    key = models.SlugField(_("key"), max_length=40)
    name = models.CharField(_("name"), max_length=120)
    size = models.CharField(_("size"), max_length=12, choices=Size.choices, default=Size.MEDIUM)
    ac = models.PositiveSmallIntegerField(
        pgettext_lazy("dnd5e", "AC"), validators=[MaxValueValidator(40)]
    )
    hp = models.PositiveSmallIntegerField(
        pgettext_lazy("dnd5e", "HP"), validators=[MinValueValidator(1), MaxValueValidator(999)]
    )
    speeds = models.JSONField(_("speeds (ft)"), default=dict)
    abilities = models.JSONField(_("ability modifiers"), default=dict)
    saves = models.JSONField(_("saving throws"), default=dict, blank=True)
    attacks = models.JSONField(_("attacks"), default=list, blank=True)
    spells = models.JSONField(_("spells"), default=list, blank=True)
    stealth = models.SmallIntegerField(_("Stealth"), null=True, blank=True)
    passive_perception = models.PositiveSmallIntegerField(
        _("passive Perception"), null=True, blank=True
    )
    immunities = models.JSONField(_("damage immunities"), default=list, blank=True)
    from_srd = models.BooleanField(_("from the SRD library"), default=False)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("creature")
        verbose_name_plural = _("creatures")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="creature_key_unique")
        ]

    def __str__(self) -> str:
        return self.name

    def to_engine(self) -> dict:
        """The stat block as `Creature.from_dict` reads it (keyed by this row's key)."""
        return {
            "key": self.key,
            "name": self.name,
            "size": self.size,
            "ac": self.ac,
            "hp": self.hp,
            "speeds": dict(self.speeds),
            "abilities": dict(self.abilities),
            "attacks": list(self.attacks),
            "saves": dict(self.saves),
            "spells": list(self.spells),
            "stealth": self.stealth,
            "passive_perception": self.passive_perception,
            "immunities": list(self.immunities),
        }


class Army(FactionForce):
    """A faction's army: its units and solos (§4)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="dnd5e_armies")
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="dnd5e_armies")

    detail_url = "dnd5e:army-detail"

    class Meta(FactionForce.Meta):
        verbose_name = _("army")
        verbose_name_plural = _("armies")
        constraints = [FactionForce.name_unique("dnd5e_army_name_unique")]


class Solo(models.Model):
    """A significant individual (§4.4): a PC, a hero or a monster, with its full stat block.
    `hp` None: at full hit points."""

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="solos")
    name = models.CharField(_("name"), max_length=120)
    creature = models.ForeignKey(Creature, on_delete=models.PROTECT, related_name="solos")
    pc = models.BooleanField(
        _("player character"), default=False, help_text=_("PCs make death saves at 0 HP.")
    )
    hp = models.PositiveSmallIntegerField(_("current HP"), null=True, blank=True)
    dead = models.BooleanField(_("dead"), default=False)

    class Meta:
        ordering = ["pk"]
        verbose_name = _("solo")
        verbose_name_plural = _("solos")

    def __str__(self) -> str:
        return self.name

    @property
    def current_hp(self) -> int:
        return self.creature.hp if self.hp is None else self.hp


def validate_stand_damage(value) -> None:
    """HP lost per stand: a list of at most 50 whole numbers from 0 to 10,000."""
    if (
        not isinstance(value, list)
        or len(value) > 50
        or any(type(hp) is not int or not 0 <= hp <= 10_000 for hp in value)
    ):
        raise ValidationError(
            _("The HP its stands lost are whole numbers from 0, one per stand at most."),
            code="bad_stand_damage",
        )


class Unit(models.Model):
    """A unit of `stands` stands of one creature type (§4.1-§4.2); its commander (§4.5) is a
    solo of the same army, joined to its first stand when a battle is set up."""

    army = models.ForeignKey(Army, on_delete=models.CASCADE, related_name="units")
    name = models.CharField(_("name"), max_length=120)
    kind = models.CharField(
        _("type"), max_length=12, choices=UnitKind.choices, default=UnitKind.REGIMENT
    )
    configuration = models.CharField(
        _("starting configuration"),
        max_length=8,
        choices=Configuration.choices,
        default=Configuration.MARCH,
        help_text=_("Regiments only (§4.3)."),
    )
    creature = models.ForeignKey(Creature, on_delete=models.PROTECT, related_name="units")
    stands = models.PositiveSmallIntegerField(
        _("stands"),
        default=1,
        validators=[MaxValueValidator(50)],
        help_text=_("Ten creatures each; the battles' losses are written back here."),
    )
    stand_damage = models.JSONField(
        _("HP lost by its stands"),
        default=list,
        blank=True,
        validators=[validate_stand_damage],
        help_text=_(
            "HP each damaged surviving stand has lost in battle, written back when a battle's "
            "results are applied (a house default); empty: every stand at full HP."
        ),
    )
    commander = models.OneToOneField(
        Solo,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="commands",
        verbose_name=_("commander"),
    )

    class Meta:
        ordering = ["pk"]
        verbose_name = _("unit")
        verbose_name_plural = _("units")

    def __str__(self) -> str:
        return self.name
