"""One small form per Army activity (§4.2-4.8): what the player chooses before the roll."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from warfare.engine.systems.pf2e.gear import GEAR, Weapon
from warfare.engine.systems.pf2e.tables import level_row
from warfare.engine.systems.pf2e.validation import (
    counted_tactics,
    learnable_tactics,
    replaceable_tactics,
)

from . import labels
from .labels import SKILL_LABELS
from .mapping import army_spec
from .models import Army

ACTIVITY_LABELS = {
    "deploy_army": _("Deploy Army"),
    "disband_army": _("Disband Army"),
    "garrison_army": _("Garrison Army"),
    "offensive_gambit": _("Offensive Gambit"),
    "outfit_army": _("Outfit Army"),
    "recover_army": _("Recover Army"),
    "train_army": _("Train Army"),
    "recruit_army": _("Recruit Army"),
}


def _skills(*keys: str) -> list[tuple[str, str]]:
    return [(key, SKILL_LABELS[key]) for key in keys]


def _stand_in(field: forms.Field):
    """A value a required field accepts, for the preview of a form not filled in yet."""
    if isinstance(field, forms.ChoiceField):
        values = [value for value, _label in field.choices if value not in (None, "")]
        return values[0] if values else None
    if isinstance(field, forms.IntegerField):
        return field.min_value if field.min_value is not None else 0
    return "?"


class ActivityForm(forms.Form):
    """Common fields: the army's version (stale-edit guard) and an optional typed die."""

    activity = ""
    version = forms.IntegerField(widget=forms.HiddenInput)
    typed_die = forms.IntegerField(
        label=_("Die rolled at the table"),
        required=False,
        min_value=1,
        max_value=20,
        help_text=_("Leave empty and the server rolls the d20."),
    )

    def __init__(self, *args, army: Army, **kwargs):
        super().__init__(*args, **kwargs)
        self.army = army

    @staticmethod
    def is_stale(data, army: Army) -> bool:
        """Was the posted form drawn from an older version of the army? Checked before the
        fields: a form drawn from an older army may no longer be valid for the current one
        (a tactic learnt meanwhile), and the answer is the army as it is now (409), not a
        misleading field error."""
        version = str(data.get("version", "")).strip()
        return version.isdigit() and int(version) != army.version

    def skill(self) -> str | None:
        return self.cleaned_data.get("skill") or None

    def options(self) -> dict:
        return {}

    def preview_kwargs(self) -> dict | None:
        """`service_kwargs` for the check shown before the activity is taken: the choices made
        so far (this form's data, if any), the fields still empty at a stand-in value (the
        first choice, the smallest number, "?" for a hex); None if even so they do not fit."""
        data = {}
        for name, field in self.fields.items():
            value = self.data.get(name) if self.is_bound else None
            if value in (None, ""):
                value = self.initial.get(name, field.initial)
            if value in (None, "") and field.required:
                value = _stand_in(field)
            if value is not None and value is not False:
                data[name] = value
        preview = type(self)(data, army=self.army)
        return preview.service_kwargs() if preview.is_valid() else None

    def service_kwargs(self) -> dict:
        """What `services.army_activity` needs from a valid form."""
        return {
            "activity": self.activity,
            "version": self.cleaned_data["version"],
            "skill": self.skill(),
            "options": self.options(),
            "typed_die": self.cleaned_data.get("typed_die"),
        }


class DeployForm(ActivityForm):
    activity = "deploy_army"
    skill = forms.ChoiceField(label=_("Skill"), choices=_skills("exploration", "boating", "magic"))
    destination = forms.CharField(label=_("Destination hex"), max_length=16)
    hexes = forms.IntegerField(label=_("Hexes moved"), min_value=1, max_value=60)
    two_hex_costs = forms.IntegerField(
        label=_("Of which count double"),
        min_value=0,
        max_value=60,
        initial=0,
        help_text=_("Roadless swamp or mountain hexes, rivers and lakes crossed without a bridge."),
    )
    road = forms.BooleanField(label=_("Start and end connected by a road"), required=False)
    forced_march = forms.BooleanField(label=_("Forced march (+4, weary +1)"), required=False)
    border = forms.ChoiceField(
        label=_("Crosses a border"),
        choices=[("", _("no")), ("own", _("our own")), ("enemy", _("an enemy kingdom's"))],
        required=False,
    )

    def options(self) -> dict:
        data = self.cleaned_data
        return {
            "destination": data["destination"],
            "hexes": data["hexes"],
            "two_hex_costs": data["two_hex_costs"] or 0,
            "road": data["road"],
            "forced_march": data["forced_march"],
            "border": data["border"] or None,
        }


class DisbandForm(ActivityForm):
    activity = "disband_army"
    typed_die = None
    transfer_to = forms.TypedChoiceField(
        label=_("Hand the gear over to"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, army: Army, **kwargs):
        super().__init__(*args, army=army, **kwargs)
        neighbours = Army.objects.active().filter(faction=army.faction, hex=army.hex)
        self.fields["transfer_to"].choices = [("", _("nobody (the gear is lost)"))] + [
            (other.pk, other.name) for other in neighbours.exclude(pk=army.pk)
        ]

    def options(self) -> dict:
        return {"transfer_to": self.cleaned_data["transfer_to"]}


class GarrisonForm(ActivityForm):
    activity = "garrison_army"
    location = forms.ChoiceField(
        label=_("The hex has"),
        choices=[
            ("settlement", _("a settlement (Politics)")),
            ("refuge", _("a Refuge (Defense)")),
            ("work_site", _("a Work Site (Engineering)")),
        ],
    )
    territory = forms.ChoiceField(
        label=_("The hex is"),
        choices=[
            ("own", _("in our kingdom")),
            ("outside", _("outside our kingdom (+5 DC)")),
            ("enemy", _("in an enemy kingdom (+10 DC)")),
        ],
    )

    def options(self) -> dict:
        return {
            "location": self.cleaned_data["location"],
            "territory": self.cleaned_data["territory"],
        }


class GambitForm(ActivityForm):
    activity = "offensive_gambit"
    skill = forms.ChoiceField(
        label=_("Seek an advantage"),
        choices=[("", _("no check, just attack"))] + _skills("intrigue", "warfare"),
        required=False,
    )
    target = forms.TypedChoiceField(
        label=_("Enemy army (its Scouting DC)"), required=False, coerce=int, empty_value=None
    )

    def __init__(self, *args, army: Army, **kwargs):
        super().__init__(*args, army=army, **kwargs)
        enemies = (
            Army.objects.active()
            .filter(faction__campaign_id=army.faction.campaign_id, hex=army.hex)
            .exclude(faction=army.faction)
        )
        self.fields["target"].choices = [("", "—")] + [(e.pk, e.name) for e in enemies]

    def options(self) -> dict:
        return {
            "seek_advantage": bool(self.cleaned_data["skill"]),
            "target": self.cleaned_data["target"],
        }


class OutfitForm(ActivityForm):
    activity = "outfit_army"
    gear = forms.ChoiceField(label=_("Gear"))
    tier = forms.TypedChoiceField(
        label=_("Tier"), choices=[(1, "1"), (2, _("2 (greater)")), (3, _("3 (major)"))], coerce=int
    )
    weapon = forms.ChoiceField(
        label=_("For the weapon"),
        choices=[("", "—"), (Weapon.MELEE.value, _("melee")), (Weapon.RANGED.value, _("ranged"))],
        required=False,
    )
    doses = forms.IntegerField(label=_("Potion doses"), min_value=0, max_value=3, required=False)
    source = forms.ChoiceField(
        label=_("How"),
        choices=[
            ("purchased", _("buy or craft with RP (Trade)")),
            ("spoils", _("distribute battle spoils (Warfare)")),
        ],
    )
    spoils_level = forms.IntegerField(
        label=_("Highest level of an enemy army defeated"),
        min_value=1,
        max_value=20,
        required=False,
    )

    def __init__(self, *args, army: Army, **kwargs):
        super().__init__(*args, army=army, **kwargs)
        self.fields["gear"].choices = [(key, labels.gear_name(key)) for key in GEAR]

    def options(self) -> dict:
        data = self.cleaned_data
        gear = {"key": data["gear"], "tier": data["tier"], "weapon": data["weapon"] or None}
        if data.get("doses"):
            gear["doses"] = data["doses"]
        options = {"gear": gear, "source": data["source"]}
        if data["source"] == "spoils":
            options["spoils_level"] = data.get("spoils_level")
        return options

    def skill(self) -> str:
        return "warfare" if self.cleaned_data["source"] == "spoils" else "trade"


AFFLICTIONS = {
    "damaged": _("damaged (HP below max)"),
    "defeated": pgettext_lazy("affliction", "defeated"),
    "lost": pgettext_lazy("affliction", "lost"),
    "mired": pgettext_lazy("affliction", "mired"),
    "pinned": pgettext_lazy("affliction", "pinned"),
    "shaken": pgettext_lazy("affliction", "shaken"),
    "weary": pgettext_lazy("affliction", "weary"),
}


class RecoverForm(ActivityForm):
    activity = "recover_army"
    affliction = forms.ChoiceField(label=_("Recover from"), choices=list(AFFLICTIONS.items()))
    skill = forms.ChoiceField(
        label=_("Skill"),
        choices=_skills(
            "defense",
            "folklore",
            "politics",
            "warfare",
            "exploration",
            "wilderness",
            "engineering",
            "magic",
            "arts",
        ),  # fmt: skip
    )
    new_hex = forms.CharField(label=_("Found again in hex (lost)"), required=False, max_length=16)

    def options(self) -> dict:
        options = {"affliction": self.cleaned_data["affliction"]}
        if self.cleaned_data.get("new_hex"):
            options["new_hex"] = self.cleaned_data["new_hex"]
        return options


class TrainForm(ActivityForm):
    activity = "train_army"
    skill = forms.ChoiceField(label=_("Skill"), choices=_skills("scholarship", "warfare"))
    tactic = forms.ChoiceField(label=_("Tactic"))
    replace = forms.ChoiceField(label=_("Replacing (when at max tactics)"), required=False)

    def __init__(self, *args, army: Army, **kwargs):
        super().__init__(*args, army=army, **kwargs)
        spec = army_spec(army)
        self.fields["tactic"].choices = [
            (tactic.key, labels.tactic_name(tactic.key)) for tactic in learnable_tactics(spec)
        ]
        if not self.fields["tactic"].choices:
            self.fields["tactic"].help_text = _("This army has no tactic left to learn now.")
        if counted_tactics(spec) < level_row(spec.level).max_tactics:
            del self.fields["replace"]  # a free slot: nothing is replaced (§4.8)
        else:
            replace = self.fields["replace"]
            replace.required = True
            replace.choices = [(key, labels.tactic_name(key)) for key in replaceable_tactics(spec)]
            if not replace.choices:
                replace.help_text = _(
                    "The army knows its most tactics and must keep each of them (unique or "
                    "mandatory): it can learn more when its level rises."
                )

    def options(self) -> dict:
        options = {"tactic": self.cleaned_data["tactic"]}
        if self.cleaned_data.get("replace"):
            options["replace"] = self.cleaned_data["replace"]
        return options


ACTIVITY_FORMS: dict[str, type[ActivityForm]] = {
    form.activity: form
    for form in (DeployForm, DisbandForm, GarrisonForm, GambitForm, OutfitForm, RecoverForm,
                 TrainForm)
}  # fmt: skip
