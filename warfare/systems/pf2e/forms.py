from django import forms
from django.utils.translation import gettext_lazy as _

from kingdoms.labels import RUIN_LABELS
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import labels
from .models import Army


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


class ArmyEditForm(forms.ModelForm):
    version = forms.IntegerField(widget=forms.HiddenInput)

    class Meta:
        model = Army
        fields = ["name", "hex", "hp", "potion_doses", "level_override", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}


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
