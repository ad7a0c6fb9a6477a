from django import forms
from django.utils.translation import gettext_lazy as _

from kingdoms.forms import FactionRowForm, VersionedFormMixin

from .models import ElementClass, ElementType, Force, ForceElement


class ElementTypeForm(VersionedFormMixin, forms.ModelForm):
    classes = forms.MultipleChoiceField(
        label=_("classes"),
        choices=ElementClass.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "chips"}),
        help_text=_("Special classes its TS counts toward (§A.2.2)."),
    )
    neutralizes = forms.MultipleChoiceField(
        label=_("neutralizes"),
        choices=[c for c in ElementClass.choices if c[0] != ElementClass.T],
        required=False,
        widget=forms.CheckboxSelectMultiple(attrs={"class": "chips"}),
        help_text=_("Classes it can neutralize, e.g. air defence neutralizes Air."),
    )

    class Meta:
        model = ElementType
        fields = [
            "name",
            "tl",
            "base_ts",
            "ts_doubles_per_tl",
            "is_support",
            "classes",
            "neutralizes",
            "mobility",
            "features",
            "raise_cost",
            "monthly_cost",
            "notes",
        ]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        self.add_version_field()

    def clean(self):
        cleaned = super().clean()
        clash = ElementType.objects.filter(
            campaign=self.campaign,
            name__iexact=cleaned.get("name", ""),
            tl=cleaned.get("tl"),
        )
        if self.instance.pk:
            clash = clash.exclude(pk=self.instance.pk)
        if clash.exists():
            self.add_error(
                "name", _("This campaign already has an element type of that name and TL.")
            )
        return cleaned

    def _post_clean(self):
        # Uniqueness is checked above with a clear message; the model's own check would
        # repeat it with Django's generic text.
        self.instance.campaign = self.campaign
        super()._post_clean()


class ForceForm(FactionRowForm):
    name_taken = _("This faction already has a force of that name.")

    class Meta(FactionRowForm.Meta):
        model = Force
        fields = ["name", "faction", "mobile", "posture", "strength_percent", "notes"]


class ForceElementForm(forms.ModelForm):
    prefix = "row"

    class Meta:
        model = ForceElement
        fields = ["element_type", "count", "tl", "troop_quality", "equipment_quality"]
        labels = {"element_type": _("Element type")}

    def __init__(self, *args, force, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["element_type"].queryset = ElementType.objects.filter(
            campaign=force.campaign_id
        )
        self.fields["element_type"].empty_label = None
