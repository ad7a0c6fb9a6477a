from django import forms
from django.utils.translation import gettext_lazy as _

from kingdoms.forms import VersionedFormMixin
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import labels
from .labels import PROFICIENCY_LABELS, RUIN_LABELS, SKILL_LABELS, STRUCTURE_LABELS
from .models import Army, Kingdom


class ArmyCreateForm(forms.ModelForm):
    """A GM places an army directly (no Recruit Army check)."""

    tactics = forms.MultipleChoiceField(
        label=_("Starting tactics"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Basic armies only: cavalry get Overrun and siege engines Engines of War by "
            "themselves. Specialized armies come with their own tactics."
        ),
    )

    class Meta:
        model = Army
        fields = ["name", "army_type", "specialized", "level_override", "tactics", "hex", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tactics"].choices = [
            (key, labels.tactic_name(key))
            for key, tactic in TACTICS.items()
            if not tactic.unique and not tactic.mandatory
        ]


class ArmyEditForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = Army
        fields = ["name", "hex", "hp", "potion_doses", "level_override", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_version_field()


class ConditionForm(forms.Form):
    condition = forms.CharField()
    delta = forms.TypedChoiceField(choices=[("1", "+1"), ("-1", "-1")], coerce=int)
    version = forms.IntegerField()


class KingdomTurnForm(forms.Form):
    expected_turn = forms.IntegerField(widget=forms.HiddenInput)
    pay_with = forms.ChoiceField(
        label=_("If Food runs short"),
        choices=[
            ("food", _("pay everything in Food")),
            ("rp", _("pay the rest with 5 RP per point")),
            ("unrest", _("leave it unpaid: Unrest +1d4, armies weary and shaken")),
        ],
    )
    other_consumption = forms.IntegerField(
        label=_("Consumption of settlements (minus farmland)"),
        min_value=-100,
        max_value=500,
        initial=0,
    )
    ruin = forms.ChoiceField(
        label=_("Ruin to raise if one is called for"),
        choices=[("", "—"), *((ruin, label) for ruin, label in RUIN_LABELS.items())],
        required=False,
    )


class KingdomForm(VersionedFormMixin, forms.ModelForm):
    """Kingdom numbers plus one modifier and one proficiency per warfare skill."""

    prefix = "kingdom"

    class Meta:
        model = Kingdom
        fields = [
            "level",
            "xp",
            "size_hexes",
            "resource_points",
            "food",
            "unrest",
            "corruption",
            "corruption_threshold",
            "crime",
            "crime_threshold",
            "decay",
            "decay_threshold",
            "strife",
            "strife_threshold",
            "fame_kind",
            "fame_points",
            "at_war",
            "ruler_vacant",
            "structures",
        ]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["structures"] = forms.MultipleChoiceField(
            label=_("Structures with army bonuses"),
            choices=list(STRUCTURE_LABELS.items()),
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=self.instance.structures if self.instance.pk else [],
            help_text=_("Their item bonuses to army activities do not stack: the best counts."),
        )
        skills = self.instance.skills or pf2e_kingdom.default_skills()
        for skill in pf2e_kingdom.WARFARE_SKILLS:
            current = skills.get(skill, {})
            self.fields[f"{skill}_modifier"] = forms.IntegerField(
                label=SKILL_LABELS[skill],
                min_value=-10,
                max_value=60,
                initial=current.get("modifier", 0),
            )
            self.fields[f"{skill}_rank"] = forms.ChoiceField(
                label=_("%(skill)s proficiency") % {"skill": SKILL_LABELS[skill]},
                choices=list(PROFICIENCY_LABELS.items()),
                initial=current.get("rank", "untrained"),
            )
        self.add_version_field()

    @classmethod
    def for_faction(cls, data, *, instance=None, campaign=None) -> "KingdomForm":
        """The faction page's kingdom form (`kingdoms.rulesystems.FactionRecord.form`)."""
        return cls(data, instance=instance)

    def skill_rows(self):
        """(label, modifier field, rank field) per skill, for the template's table."""
        return [
            (SKILL_LABELS[s], self[f"{s}_modifier"], self[f"{s}_rank"])
            for s in pf2e_kingdom.WARFARE_SKILLS
        ]

    def model_fields(self):
        return [self[name] for name in self.Meta.fields]

    def clean(self):
        cleaned = super().clean()
        if not any(f"{s}_modifier" in self.errors for s in pf2e_kingdom.WARFARE_SKILLS):
            cleaned["skills"] = {
                s: {"modifier": cleaned.get(f"{s}_modifier"), "rank": cleaned.get(f"{s}_rank")}
                for s in pf2e_kingdom.WARFARE_SKILLS
            }
        return cleaned

    def service_data(self) -> dict:
        data = {name: self.cleaned_data[name] for name in self.Meta.fields}
        data["skills"] = self.cleaned_data["skills"]
        if "version" in self.fields:
            data["version"] = self.cleaned_data["version"]
        return data
