from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from kingdoms.forms import FactionRowForm, VersionedFormMixin, unique_name

from .models import Character, Force, Limit, Reputation, TroopType, Unit
from .services import PLAYER_FIELDS


class ForceForm(FactionRowForm):
    name_taken = _("This faction already has a force of that name.")

    class Meta(FactionRowForm.Meta):
        model = Force
        fields = ["name", "faction", "tl", "notes"]


class TroopTypeForm(VersionedFormMixin, forms.ModelForm):
    """A troop type (no version field: its edits are not checked for staleness)."""

    class Meta:
        model = TroopType
        fields = ["name", "ts_per_man", "notes"]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign

    def clean_name(self):
        return unique_name(
            self, TroopType.objects.filter(campaign=self.campaign),
            _("This campaign already has a troop type of that name."),
        )  # fmt: skip

    def _post_clean(self):
        # Uniqueness is checked above with a clear message.
        self.instance.campaign = self.campaign
        super()._post_clean()


class UnitForm(forms.ModelForm):
    prefix = "unit"

    class Meta:
        model = Unit
        fields = [
            "name", "troop_type", "men", "racial", "equipment", "armour", "quality", "morale",
            "battles",
        ]  # fmt: skip

    def __init__(self, *args, force, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["troop_type"].queryset = TroopType.objects.filter(campaign=force.campaign_id)
        self.fields["troop_type"].empty_label = None

    def clean_men(self):
        men = self.cleaned_data["men"]
        if men < 1:
            raise forms.ValidationError(_("A unit has at least one man."))
        return men


class CharacterForm(VersionedFormMixin, forms.ModelForm):
    """The GM's form has every field; a player's only the sheet fields (`PLAYER_FIELDS`)."""

    limits = forms.MultipleChoiceField(
        label=_("limits on Risk"),
        choices=Limit.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("§B.4: personality and posting limits on the Risk the character may take."),
    )

    class Meta:
        model = Character
        fields = [
            "name", "is_pc", "faction", "owner", "ht_max", "ht", "iq", "dr", "toughness",
            "luck", "tactics", "weapon_skill", "limits", "role", "rank", "status", "notes",
        ]  # fmt: skip
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, campaign, gm: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        if gm:
            self.fields["faction"].queryset = campaign.factions.all()
            self.fields["owner"].queryset = (
                get_user_model().objects.filter(memberships__campaign=campaign).order_by("username")
            )
        else:
            for name in list(self.fields):
                if name not in PLAYER_FIELDS:
                    del self.fields[name]
        self.add_version_field()

    def clean(self):
        cleaned = super().clean()
        if "ht" in cleaned and "ht_max" in cleaned and cleaned["ht"] > cleaned["ht_max"]:
            self.add_error("ht", _("Current HT cannot be above HT."))
        return cleaned


class ReputationForm(forms.ModelForm):
    prefix = "rep"

    class Meta:
        model = Reputation
        fields = ["value", "expires", "source"]
