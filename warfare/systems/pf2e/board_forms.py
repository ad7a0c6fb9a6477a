"""The Pathfinder 2e board's forms: the set-up, the GM's correction, the apply form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from kingdoms.models import Controller
from warfare.engine.systems.pf2e.battle.aftermath import CONDITION_CHOICES, DEFAULT_CHOICE
from warfare.engine.systems.pf2e.battle.rules import FORTIFICATIONS, TERRAIN

from .board_problems import FORTIFICATION_LABELS

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


# How a side's reactions (Counterattack, False Retreat…, §0.5) are taken.
REACTION_CHOICES = [
    ("", _("asked if a players' faction fights on the side, else automatic")),
    ("auto", _("used automatically")),
    ("ask", _("asked each time (whoever commands the army decides)")),
]


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
    reveal_checks = forms.BooleanField(
        label=_("Players see the enemy's modifiers and DCs"),
        required=False,
        help_text=_(
            "Otherwise a player sees their own armies' modifiers and the degree of every "
            "check, not the enemy's exact modifiers or DCs."
        ),
    )
    reactions_a = forms.ChoiceField(label=_("Reactions of side A"), required=False)
    reactions_b = forms.ChoiceField(label=_("Reactions of side B"), required=False)

    def __init__(self, *args, armies, **kwargs):
        super().__init__(*args, **kwargs)
        self.armies = list(armies)
        for side in ("a", "b"):
            self.fields[f"reactions_{side}"].choices = REACTION_CHOICES
        sides = [("", _("stays out")), ("a", _("side A")), ("b", _("side B"))]
        fort_label = _("%(name)s (AC %(ac)s, HP %(hp)s, up to %(armies)s armies)")
        fort_choices = [("", _("none"))] + [
            (
                key,
                fort_label
                % {
                    "name": FORTIFICATION_LABELS.get(key, key),
                    "ac": ac,
                    "hp": hp,
                    "armies": armies,
                },
            )  # fmt: skip
            for key, (ac, hp, armies) in FORTIFICATIONS.items()
        ]
        fort_sides = (("a", _("Fortification of side A")), ("b", _("Fortification of side B")))
        for side, label in fort_sides:
            self.fields[f"fort_{side}"] = forms.ChoiceField(
                label=label, required=False, choices=fort_choices
            )
        default_sides = self._default_sides()
        for army in self.armies:
            self.fields[f"army_{army.pk}"] = forms.ChoiceField(
                label=f"{army.name} ({army.faction.name})", required=False, choices=sides,
                initial=default_sides.get(army.pk, ""),
            )  # fmt: skip
            self.fields[f"inside_{army.pk}"] = forms.BooleanField(
                label=_("%(army)s: inside the fortification") % {"army": army.name},
                required=False,
            )
            self.fields[f"initiative_{army.pk}"] = forms.IntegerField(
                label=_("%(army)s: initiative die (typed)") % {"army": army.name},
                required=False, min_value=1, max_value=20,
                widget=forms.NumberInput(attrs={"placeholder": "d20", "inputmode": "numeric",
                                                "title": _("Empty: the server rolls.")}),
            )  # fmt: skip
            starts = self._start_choices(army)
            if starts:
                self.fields[f"start_{army.pk}"] = forms.ChoiceField(
                    label=_("%(army)s: starting position (optional pre-choice)")
                    % {"army": army.name},
                    required=False,
                    choices=[
                        ("", _("ask after initiative, if it may choose")),
                        ("near", _("near (the usual start)")),
                        *starts,
                    ],
                )

    def _default_sides(self) -> dict[int, str]:
        """The sides the page proposes (issue 14: fewer clicks): the players' factions' armies
        on side A, the others on side B, when there are both; else every army stays out."""
        players = {a.pk for a in self.armies if a.faction.controlled_by == Controller.PLAYERS}
        if not players or len(players) == len(self.armies):
            return {}
        return {army.pk: "a" if army.pk in players else "b" for army in self.armies}

    def _start_choices(self, army) -> list[tuple[str, str]]:
        """§7.3: Opening Salvo may start distant; Ambush and Swamp Charge engaged with an
        enemy (which must end up on the other side). Left empty, the choice is offered to
        whoever commands the army once initiative shows whether it may choose."""
        tactics = set(army.tactics or ())
        choices = []
        if "opening_salvo" in tactics:
            choices.append(("distant", _("distant (Opening Salvo)")))
        engaging = [t for t in ("ambush", "swamp_charge") if t in tactics]
        if engaging:
            how = _("Ambush") if "ambush" in engaging else _("Swamp Charge")
            for other in self.armies:
                if other.pk != army.pk and other.faction_id != army.faction_id:
                    label = _("engaged with %(army)s (%(tactic)s)") % {
                        "army": other.name, "tactic": how,
                    }  # fmt: skip
                    choices.append((f"engaged:{other.pk}", label))
        return choices

    def army_fields(self):
        return [self[f"army_{army.pk}"] for army in self.armies]

    def army_rows(self):
        """(side, inside, start or None, initiative die) bound fields per army."""
        return [
            (
                self[f"army_{army.pk}"],
                self[f"inside_{army.pk}"],
                self[f"start_{army.pk}"] if f"start_{army.pk}" in self.fields else None,
                self[f"initiative_{army.pk}"],
            )
            for army in self.armies
        ]

    def sides(self) -> dict[str, list[int]]:
        sides: dict[str, list[int]] = {"a": [], "b": []}
        for army in self.armies:
            side = self.cleaned_data.get(f"army_{army.pk}")
            if side:
                sides[side].append(army.pk)
        return sides

    def auto_reactions(self) -> dict[str, bool | None]:
        """{side: True automatic | False asked | None the default} for `battle_create`."""
        values = {"auto": True, "ask": False}
        return {side: values.get(self.cleaned_data.get(f"reactions_{side}") or "") for side in "ab"}

    def fortifications(self) -> dict[str, str]:
        return {
            side: self.cleaned_data[f"fort_{side}"]
            for side in ("a", "b")
            if self.cleaned_data.get(f"fort_{side}")
        }

    def inside(self) -> set[int]:
        return {
            army.pk
            for army in self.armies
            if self.cleaned_data.get(f"inside_{army.pk}")
            and self.cleaned_data.get(f"army_{army.pk}")
        }

    def starts(self) -> dict[int, tuple[str, int | None]]:
        starts: dict[int, tuple[str, int | None]] = {}
        for army in self.armies:
            value = self.cleaned_data.get(f"start_{army.pk}")
            if not value or not self.cleaned_data.get(f"army_{army.pk}"):
                continue
            if value in ("near", "distant"):
                starts[army.pk] = (value, None)
            else:
                starts[army.pk] = ("engaged", int(value.split(":", 1)[1]))
        return starts

    def initiative_dice(self) -> dict[int, int]:
        """{army id: the d20 of its initiative typed in} for the armies that fight."""
        return {
            army.pk: self.cleaned_data[f"initiative_{army.pk}"]
            for army in self.armies
            if self.cleaned_data.get(f"initiative_{army.pk}") is not None
            and self.cleaned_data.get(f"army_{army.pk}")
        }

    def clean(self):
        data = super().clean()
        for army in self.armies:
            if data.get(f"inside_{army.pk}"):
                side = data.get(f"army_{army.pk}")
                if not side or not data.get(f"fort_{side}"):
                    self.add_error(
                        f"inside_{army.pk}",
                        _("Give its side a fortification first (and put the army on a side)."),
                    )
        return data


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


PC_ENCOUNTER_CHOICES = [
    ("", _("no such fight")),
    ("won", _("the PCs won: one degree better")),
    ("lost", _("the PCs lost or the foe escaped: one degree worse")),
]
CONDITION_LABELS = {"weary": _("weary"), "shaken": _("shaken")}


class ApplyResultsForm(forms.Form):
    """The GM's inputs to the §7.6 kingdom checks: per side the PCs' own fight (§7.7), a d20
    (and a d4 on a defeat) rolled at the table, the damaged army the players pick; per army
    weary or shaken (the players' choice, default weary). The `seq` is read by the view."""

    def __init__(self, *args, sides, **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = sides
        for side in sides:
            key = side["key"]
            self.fields[f"pc_{key}"] = forms.ChoiceField(
                label=_("The PCs' own fight"), required=False, choices=PC_ENCOUNTER_CHOICES
            )
            self.fields[f"die_{key}"] = forms.IntegerField(
                label=_("d20 rolled at the table"), required=False, min_value=1, max_value=20,
                help_text=_("Empty: the server rolls."),
            )  # fmt: skip
            if side["result"] == "defeat":
                self.fields[f"d4_{key}"] = forms.IntegerField(
                    label=_("d4 for Unrest (critical failure)"), required=False,
                    min_value=1, max_value=4,
                )  # fmt: skip
                if side["regain"]:
                    self.fields[f"regain_{key}"] = forms.ChoiceField(
                        label=_("The damaged army that regains 1 HP"),
                        required=False,
                        choices=[("", _("the one with the fewest HP")), *side["regain"]],
                    )
            for army_key, name in side["choosers"]:
                self.fields[f"cond_{army_key}"] = forms.ChoiceField(
                    label=name,
                    required=False,
                    initial=DEFAULT_CHOICE,
                    choices=[(c, CONDITION_LABELS[c]) for c in CONDITION_CHOICES],
                    widget=forms.RadioSelect,
                )

    def side_fields(self):
        """Per side: (side, [its fields], [its armies' weary/shaken fields])."""
        rows = []
        for side in self.sides:
            key = side["key"]
            names = [f"pc_{key}", f"die_{key}", f"d4_{key}", f"regain_{key}"]
            rows.append(
                (
                    side,
                    [self[name] for name in names if name in self.fields],
                    [self[f"cond_{army_key}"] for army_key, _name in side["choosers"]],
                )
            )
        return rows

    def choices(self) -> dict:
        """The keyword arguments of `services.battle_apply_results`."""
        data = self.cleaned_data
        keys = [side["key"] for side in self.sides]
        return {
            "pc_encounter": {key: data.get(f"pc_{key}") or None for key in keys},
            "choices": {
                army_key: data.get(f"cond_{army_key}") or DEFAULT_CHOICE
                for side in self.sides
                for army_key, _name in side["choosers"]
            },
            "regain": {key: data.get(f"regain_{key}") or None for key in keys},
            "typed_dice": {key: (data.get(f"die_{key}"), data.get(f"d4_{key}")) for key in keys},
        }
