from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from kingdoms.forms import FactionRowForm, VersionedFormMixin

from . import labels, mapping
from .models import Army, Creature, Solo, Unit, UnitKind


class CreatureForm(VersionedFormMixin, forms.ModelForm):
    """A stat block: the numbers as fields, speeds, saves and attacks as short text."""

    speeds_text = forms.CharField(
        label=_("Speeds (ft)"), initial="walk 30", help_text=_("E.g. walk 30, fly 60.")
    )
    saves_text = forms.CharField(
        label=_("Saving throws"),
        required=False,
        help_text=_("Only where they differ from the modifier, e.g. con +4, wis +2."),
    )
    attacks_text = forms.CharField(
        label=_("Attacks"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "class": "mono"}),
        help_text=_(
            "One a line: name | to-hit | damage | damage type | reach ft | range ft | count, "
            "e.g. Javelin | +5 | 1d6+3 | piercing | 5 | 30/120; an empty reach is 5 ft, “-” none."
        ),
    )

    class Meta:
        model = Creature
        fields = ["name", "key", "size", "ac", "hp", "stealth", "passive_perception"]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["key"].required = False
        self.fields["key"].help_text = _("Empty: made from the name.")
        for ability in mapping.ABILITIES:
            self.fields[ability] = forms.IntegerField(
                label=labels.ABILITY_LABELS[ability], initial=0, min_value=-5, max_value=15
            )
        if self.instance.pk:
            del self.fields["key"]
            for ability in mapping.ABILITIES:
                self.fields[ability].initial = self.instance.abilities.get(ability, 0)
            self.fields["speeds_text"].initial = mapping.pairs_text(self.instance.speeds)
            self.fields["saves_text"].initial = mapping.pairs_text(self.instance.saves)
            self.fields["attacks_text"].initial = mapping.attacks_text(self.instance.attacks)
        self.add_version_field()

    def clean_speeds_text(self):
        speeds = mapping.parse_pairs(self.cleaned_data["speeds_text"], mapping.SPEED_MODES)
        if any(v < 0 for v in speeds.values()):
            raise ValidationError(_("Speeds cannot be negative."))
        return speeds

    def clean_saves_text(self):
        return mapping.parse_pairs(self.cleaned_data["saves_text"], mapping.ABILITIES)

    def clean_attacks_text(self):
        return mapping.parse_attacks(self.cleaned_data["attacks_text"])

    def clean(self):
        cleaned = super().clean()
        if "key" in self.fields and not cleaned.get("key") and cleaned.get("name"):
            cleaned["key"] = slugify(cleaned["name"]).replace("-", "_")[:40] or "creature"
        return cleaned

    def _post_clean(self):
        # The key's uniqueness is the service's to check, with a clear message.
        self.instance.campaign = self.campaign

    def model_data(self) -> dict:
        data = {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.fields}
        if "key" in self.fields:
            data["key"] = self.cleaned_data["key"]
        data["abilities"] = {a: self.cleaned_data[a] for a in mapping.ABILITIES}
        data["speeds"] = self.cleaned_data["speeds_text"]
        data["saves"] = self.cleaned_data["saves_text"]
        data["attacks"] = self.cleaned_data["attacks_text"]
        return data


class ArmyForm(FactionRowForm):
    name_taken = _("This faction already has an army of that name.")

    class Meta(FactionRowForm.Meta):
        model = Army
        fields = ["name", "faction", "notes"]

    def _post_clean(self):
        self.instance.campaign = self.campaign
        super()._post_clean()


class UnitForm(forms.ModelForm):
    prefix = "unit"
    heal_stands = forms.BooleanField(
        label=_("Its stands are healed"),
        required=False,
        help_text=_("Clears the HP its surviving stands lost in battle."),
    )

    class Meta:
        model = Unit
        fields = ["name", "kind", "configuration", "creature", "stands", "commander"]
        labels = {"creature": _("Creature")}

    def __init__(self, *args, army, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["creature"].queryset = Creature.objects.filter(
            campaign=army.campaign_id
        ).exclude(size="gargantuan")
        self.fields["creature"].empty_label = None
        free = Solo.objects.filter(army=army, commands__isnull=True)
        if self.instance.pk and self.instance.commander_id:
            free = free | Solo.objects.filter(pk=self.instance.commander_id)
        self.fields["commander"].queryset = free
        self.fields["stands"].validators.append(MinValueValidator(1))
        self.fields["stands"].widget.attrs["min"] = 1
        if not self.instance.stand_damage:
            del self.fields["heal_stands"]

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("kind") == UnitKind.SKIRMISHER:
            cleaned["configuration"] = "march"
        return cleaned

    def _post_clean(self):
        pass  # the service validates the row it saves (full_clean)


class SoloForm(forms.ModelForm):
    prefix = "solo"

    class Meta:
        model = Solo
        fields = ["name", "creature", "pc"]
        labels = {"creature": _("Creature")}

    def __init__(self, *args, army, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["creature"].queryset = Creature.objects.filter(campaign=army.campaign_id)
        self.fields["creature"].empty_label = None

    def _post_clean(self):
        pass
