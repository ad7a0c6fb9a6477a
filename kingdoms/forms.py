from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import SKILL_MESSAGE, Campaign, CommandStaff, Faction, Membership, Role, Settlement


class FactionChoiceField(forms.TypedChoiceField):
    """Choose one of a campaign's factions from a list fetched once per page.

    A ModelChoiceField would query its queryset again for every form that renders it, which
    turns a page with one form per member into a query per row.
    """

    def __init__(self, *, factions, empty_label, **kwargs):
        self.by_pk = {faction.pk: faction for faction in factions}
        super().__init__(
            choices=[("", empty_label), *((f.pk, f.name) for f in factions)],
            coerce=lambda value: self.by_pk[int(value)],
            empty_value=None,
            **kwargs,
        )

    def prepare_value(self, value):
        return getattr(value, "pk", value)

    def valid_value(self, value):
        return value in (None, "") or (str(value).isdigit() and int(value) in self.by_pk)


class VersionedFormMixin:
    """An edit form carries the row's `version` in a hidden field (see `models.Versioned`).

    Only forms of an existing row get it; `service_version()` is what the update service
    compares with the locked row. The pages always send it; a post without one (a script)
    skips the check, a malformed one is a 400."""

    def add_version_field(self):
        if self.instance.pk:
            self.fields["version"] = forms.IntegerField(
                widget=forms.HiddenInput,
                min_value=0,
                required=False,
                initial=self.instance.version,
            )

    def service_version(self) -> int | None:
        return self.cleaned_data.get("version")

    def model_data(self) -> dict:
        """The cleaned fields that are model fields (the version goes separately)."""
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


def unique_name(form, rows, message: str) -> str:
    """The form's cleaned `name`, refused with `message` where another of `rows` (its model's
    rows in the scope the name is unique in: the campaign, the faction) has it in any case."""
    name = form.cleaned_data["name"]
    clash = rows.filter(name__iexact=name)
    if form.instance.pk:
        clash = clash.exclude(pk=form.instance.pk)
    if clash.exists():
        raise forms.ValidationError(message)
    return name


class FactionRowForm(VersionedFormMixin, forms.ModelForm):
    """A row a faction owns (a rule system's army or force): its faction is one of the
    campaign's, chosen when it is created and fixed afterwards, and its name is its faction's
    only one of that name (`name_taken` says so)."""

    name_taken = ""

    class Meta:
        labels = {"faction": _("Faction")}
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["faction"].queryset = campaign.factions.all()
        self.fields["faction"].empty_label = None
        if self.instance.pk:
            del self.fields["faction"]
        self.add_version_field()

    def clean_name(self):
        faction = self.cleaned_data.get("faction") or getattr(self.instance, "faction", None)
        if faction is None:
            return self.cleaned_data["name"]
        return unique_name(self, self._meta.model.objects.filter(faction=faction), self.name_taken)


def campaign_factions(campaign: Campaign) -> list[Faction]:
    return list(Faction.objects.filter(campaign=campaign).only("pk", "name"))


class SignupForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)


class CampaignForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "description", "rule_system", "narrative_warfare"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            # Factions carry rule-system records: the system is chosen once, at creation.
            self.fields["rule_system"].disabled = True
            self.fields["rule_system"].help_text = _(
                "Chosen when the campaign was created; it cannot be changed."
            )
        self.add_version_field()


class FactionForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = Faction
        fields = ["name", "description", "controlled_by", "known_to_players"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.add_version_field()

    def clean_name(self):
        return unique_name(
            self, Faction.objects.filter(campaign=self.campaign),
            _("This campaign already has a faction of that name."),
        )  # fmt: skip


class CommandStaffForm(VersionedFormMixin, forms.ModelForm):
    prefix = "staff"

    class Meta:
        model = CommandStaff
        fields = [
            "commander",
            "strategy",
            "tactics",
            "leadership",
            "intelligence_officer",
            "intelligence_analysis",
            "logistics_officer",
            "administration",
        ]

    def __init__(self, *args, campaign: Campaign | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        used = CommandStaff.FIELDS_BY_SYSTEM.get(campaign.rule_system) if campaign else None
        for name in self.Meta.fields:
            if used is not None and name not in used:
                del self.fields[name]  # the campaign's battles do not use it
            elif isinstance(self.fields[name], forms.IntegerField):  # a skill level
                for limit in ("min_value", "max_value"):
                    self.fields[name].error_messages[limit] = SKILL_MESSAGE
        self.add_version_field()

    def service_data(self) -> dict:
        data = {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.fields}
        if "version" in self.fields:
            data["version"] = self.cleaned_data["version"]
        return data


class SettlementForm(VersionedFormMixin, forms.ModelForm):
    class Meta:
        model = Settlement
        fields = ["name", "faction", "hex", "is_capital", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, campaign: Campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.fields["faction"].queryset = Faction.objects.filter(campaign=campaign)
        self.fields["faction"].empty_label = None
        self.add_version_field()

    def clean_name(self):
        return unique_name(
            self, Settlement.objects.filter(campaign=self.campaign),
            _("This campaign already has a settlement of that name."),
        )  # fmt: skip


INVITE_LIFETIMES = {
    "never": (None, _("Never expires")),
    "1d": (timedelta(days=1), _("1 day")),
    "7d": (timedelta(days=7), _("7 days")),
    "30d": (timedelta(days=30), _("30 days")),
}


class InviteForm(forms.Form):
    lifetime = forms.ChoiceField(
        label=_("Expires"),
        choices=[(key, label) for key, (_delta, label) in INVITE_LIFETIMES.items()],
        initial="7d",
    )

    field_order = ["faction", "lifetime"]

    def __init__(self, *args, factions: list[Faction], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"] = FactionChoiceField(
            label=_("Plays faction"), factions=factions, empty_label=_("(none yet)"), required=False
        )
        self.order_fields(self.field_order)

    def clean_lifetime(self):
        return INVITE_LIFETIMES[self.cleaned_data["lifetime"]][0]


class MembershipForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["role", "faction"]

    def __init__(self, *args, factions: list[Faction], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["faction"] = FactionChoiceField(
            label=_("Faction"), factions=factions, empty_label=_("(none)"), required=False
        )
        self.fields["role"].choices = Role.choices


class CampaignDeleteForm(forms.Form):
    confirm_name = forms.CharField(
        label=_("Type the campaign's name to confirm"), max_length=200, strip=False
    )


class CampaignImportForm(forms.Form):
    file = forms.FileField(label=_("Campaign file"))

    def __init__(self, *args, max_bytes: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.max_bytes = max_bytes
        self.fields["file"].help_text = _(
            "A .json file exported from Warfare, at most %(size)s MB. You become the game "
            "master of the new campaign."
        ) % {"size": max_bytes // (1024 * 1024)}

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.max_bytes:
            raise forms.ValidationError(
                _("The file is too large: at most %(limit)s MB."),
                params={"limit": self.max_bytes // (1024 * 1024)},
                code="too_large",
            )
        return upload
