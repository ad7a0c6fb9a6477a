from django import forms
from django.utils.translation import gettext_lazy as _

from . import labels
from .engine.systems.pf2e.tactics import TACTICS
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
