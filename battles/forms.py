from django import forms
from django.utils.translation import gettext_lazy as _

from warfare.engine.systems.pf2e.battle.rules import TERRAIN

TERRAIN_LABELS = {
    "strong_wind": _("strong wind"),
    "windstorm": _("windstorm"),
    "difficult_terrain": _("difficult terrain"),
    "darkness": _("darkness"),
    "heavy_fog": _("heavy fog"),
    "dim_light": _("dim light"),
    "light_fog_or_rain": _("light fog or rain"),
    "swamp": _("swamp"),
    "water": _("water"),
}


class BattleCreateForm(forms.Form):
    """Name, terrain and who fights on which side (one choice per army of the campaign)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    terrain = forms.MultipleChoiceField(
        label=_("Terrain and weather"),
        required=False,
        choices=[(key, TERRAIN_LABELS.get(key, key)) for key in TERRAIN],
        widget=forms.CheckboxSelectMultiple,
    )
    pcs_side = forms.ChoiceField(
        label=_("The PCs fight alongside"),
        required=False,
        choices=[("", _("neither side")), ("a", _("side A")), ("b", _("side B"))],
    )
    players_may_act = forms.BooleanField(
        label=_("Players act for their own armies"), required=False, initial=True
    )

    def __init__(self, *args, armies, **kwargs):
        super().__init__(*args, **kwargs)
        self.armies = list(armies)
        for army in self.armies:
            self.fields[f"army_{army.pk}"] = forms.ChoiceField(
                label=f"{army.name} ({army.faction.name})",
                required=False,
                choices=[("", _("stays out")), ("a", _("side A")), ("b", _("side B"))],
            )

    def army_fields(self):
        return [self[f"army_{army.pk}"] for army in self.armies]

    def sides(self) -> dict[str, list[int]]:
        sides: dict[str, list[int]] = {"a": [], "b": []}
        for army in self.armies:
            side = self.cleaned_data.get(f"army_{army.pk}")
            if side:
                sides[side].append(army.pk)
        return sides


class ActForm(forms.Form):
    seq = forms.IntegerField(min_value=0)
    actor = forms.CharField(max_length=40)
    kind = forms.CharField(max_length=40)
    params = forms.JSONField(required=False)
    typed_die = forms.IntegerField(required=False, min_value=1, max_value=20)

    def command(self) -> dict:
        params = self.cleaned_data.get("params") or {}
        if not isinstance(params, dict):
            raise forms.ValidationError(_("That action was not understood."))
        typed = self.cleaned_data.get("typed_die")
        return {
            "actor": self.cleaned_data["actor"],
            "kind": self.cleaned_data["kind"],
            "params": params,
            "typed_dice": [typed] if typed else None,
        }


class CorrectionForm(forms.Form):
    """A GM's correction of one army on the board; empty fields change nothing."""

    seq = forms.IntegerField(min_value=0)
    army = forms.CharField(max_length=40)
    hp = forms.IntegerField(label=_("HP"), required=False, min_value=0, max_value=99)
    condition = forms.ChoiceField(label=_("Condition"), required=False)
    value = forms.IntegerField(label=_("value"), required=False, min_value=0, max_value=99)
    position = forms.ChoiceField(
        label=_("Position"),
        required=False,
        choices=[("", "—"), ("near", _("near")), ("distant", _("distant"))],
    )

    def __init__(self, *args, conditions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["condition"].choices = [("", "—"), *conditions]

    def command(self) -> dict:
        data = self.cleaned_data
        params: dict = {"army": data["army"]}
        if data.get("hp") is not None:
            params["hp"] = data["hp"]
        if data.get("condition"):
            params["conditions"] = {data["condition"]: data.get("value") or 0}
        if data.get("position"):
            params["position"] = data["position"]
        return {"actor": None, "kind": "gm_correction", "params": params}
