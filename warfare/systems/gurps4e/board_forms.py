"""The set-up form, the board's action form and the API's set-up input of GURPS Mass Combat
4e battles (gurps §A.3-A.6)."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from battles.forms import ActForm, parse_dice, shared_fields
from warfare.engine.systems.gurps4e.battle.engine import RISKS
from warfare.engine.systems.gurps4e.tables import BATTLE_TYPES, TERRAIN_RATING

from .labels import BATTLE_TYPE_LABELS, CLASS_LABELS, KIND_LABELS, terrain_with_rating_lazy
from .setup import BattleInput, PCInput

PC_ROWS = 4
RECON_FIELDS = ("march", "road", "terrain_feature", "flying", "recon_bonus", "extra")
#: §A.4.2: the contest rolls 3d6 for each side; only those may be typed in at set-up.
RECON_DICE = 6
RECON_DICE_WITHOUT_CONTEST = _("Dice rolled at the table go with a reconnaissance contest.")
RECON_DICE_TOO_MANY = _("The reconnaissance contest rolls 6 dice (3d6 a side): type in at most 6.")
EXTRA_CLASSES = ("Eng", "Nav", "Rec")
SIDE_CHOICES = [("a", _("side A")), ("b", _("side B"))]
MARCH_CHOICES = [(0, _("not marching")), (1, _("on the march (−1)")), (2, _("on the march (−2)"))]
ROAD_CHOICES = [
    ("none", _("no road")),
    ("road", _("along a road (−1)")),
    ("strict", _("strictly to one road (−3)")),
]
FEATURE_CHOICES = [
    ("none", _("no terrain feature")),
    ("some", _("some elements have it (+1)")),
    ("all", _("all elements have it (+4)")),
]
RISK_CHOICES = [(r, f"{r:+d}") for r in RISKS]
ON_CRITICAL_CHOICES = [
    ("injury", _("take the 6d injury")),
    ("surrender", _("surrender")),
]


class BattleCreateForm(forms.Form):
    """Name, the two forces, the kind of battle and its conditions, the PCs."""

    name = forms.CharField(label=_("Name"), max_length=120)
    force_a = forms.ModelChoiceField(label=_("Side A: force"), queryset=None)
    force_b = forms.ModelChoiceField(label=_("Side B: force"), queryset=None)
    battle_type = forms.ChoiceField(
        label=_("Type of battle"),
        choices=[(key, BATTLE_TYPE_LABELS[key]) for key in BATTLE_TYPES],
        initial="land",
    )
    terrain = forms.ChoiceField(
        label=_("Terrain"),
        choices=[
            (key, terrain_with_rating_lazy(key, rating)) for key, rating in TERRAIN_RATING.items()
        ],
        initial="plains",
    )
    extra_classes = forms.MultipleChoiceField(
        label=_("Superiority also counts for"),
        required=False,
        choices=[(key, CLASS_LABELS[key]) for key in EXTRA_CLASSES],
        widget=forms.CheckboxSelectMultiple,
    )
    siege = forms.BooleanField(label=_("Siege"), required=False)
    obscured = forms.BooleanField(label=_("Bad weather or night"), required=False)
    recon = forms.BooleanField(
        label=_("Reconnaissance contest (§A.4)"),
        required=False,
        help_text=_("Otherwise a set-piece battle of the kind and initiative below."),
    )
    recon_dice = forms.CharField(
        label=_("Reconnaissance dice rolled at the table"),
        max_length=60,
        required=False,
        help_text=_("3d6 of side A, then 3d6 of side B (“3 5 2, 4 4 1”); empty: the server "
                    "rolls."),
    )  # fmt: skip
    kind = forms.ChoiceField(
        label=_("Kind of battle (without reconnaissance)"),
        choices=[(key, KIND_LABELS[key]) for key in ("pitched", "encounter")],
        initial="pitched",
    )
    initiative = forms.ChoiceField(
        label=_("Initiative (without reconnaissance)"),
        required=False,
        choices=[("", _("neither side")), *SIDE_CHOICES],
    )
    db_a = forms.IntegerField(
        label=_("Side A: Defense Bonus"), required=False, min_value=0, max_value=10,
        help_text=_("Empty: rolled (§A.5.4) if this side holds it."),
    )  # fmt: skip
    db_b = forms.IntegerField(
        label=_("Side B: Defense Bonus"), required=False, min_value=0, max_value=10,
        help_text=_("Empty: rolled (§A.5.4) if this side holds it."),
    )  # fmt: skip
    players_may_act = forms.BooleanField(
        label=_("Players choose for their own side and PCs"), required=False, initial=True
    )
    gm_sees_choices = forms.BooleanField(
        label=_("The GM sees a players' side's strategy before choosing for the other side"),
        required=False,
        help_text=_(
            "Otherwise a strategy chosen by the players stays secret from the GM too until "
            "the GM's own side has chosen (§A.6.3)."
        ),
    )

    def __init__(self, *args, forces, players, factions, rows, **kwargs):
        super().__init__(*args, **kwargs)
        for key in ("force_a", "force_b"):
            self.fields[key].queryset = forces
            self.fields[key].label_from_instance = lambda f: f"{f.name} ({f.faction.name})"
        for side, label in SIDE_CHOICES:
            self.fields[f"recon_{side}_march"] = forms.TypedChoiceField(
                label=_("%(side)s: march") % {"side": label}, choices=MARCH_CHOICES,
                coerce=int, required=False, initial=0,
            )  # fmt: skip
            self.fields[f"recon_{side}_road"] = forms.ChoiceField(
                label=_("%(side)s: roads") % {"side": label}, choices=ROAD_CHOICES,
                required=False, initial="none",
            )  # fmt: skip
            self.fields[f"recon_{side}_terrain_feature"] = forms.ChoiceField(
                label=_("%(side)s: terrain feature") % {"side": label}, choices=FEATURE_CHOICES,
                required=False, initial="none",
            )  # fmt: skip
            self.fields[f"recon_{side}_flying"] = forms.BooleanField(
                label=_("%(side)s: flying") % {"side": label}, required=False
            )
            self.fields[f"recon_{side}_recon_bonus"] = forms.IntegerField(
                label=_("%(side)s: Recon modifier instead of the Rec elements'") % {"side": label},
                required=False, min_value=-5, max_value=5,
                help_text=_("Empty: −1 without Recon elements, +2 if all are Recon (§A.4.3)."),
            )  # fmt: skip
            self.fields[f"recon_{side}_extra"] = forms.IntegerField(
                label=_("%(side)s: other GM modifier") % {"side": label}, required=False,
                min_value=-10, max_value=10,
            )  # fmt: skip
            self.fields[f"neutralize_{side}"] = forms.BooleanField(
                label=_("%(side)s uses its neutralizers (§A.5.3)") % {"side": label},
                required=False, initial=True,
            )  # fmt: skip
        owner_choices = [("", _("the GM (an NPC)"))]
        owner_choices += [
            (f"user:{m.user_id}", f"{m.user.username} ({m.faction.name if m.faction else '—'})")
            for m in players
        ]
        owner_choices += [
            (f"faction:{f.pk}", _("any player of %(faction)s") % {"faction": f.name})
            for f in factions
        ]
        element_choices = [("", _("none in particular"))] + [
            (str(row.pk), f"{row.force.name}: {row.element_type.name}") for row in rows
        ]
        for number in range(1, PC_ROWS + 1):
            self.fields[f"pc{number}_name"] = forms.CharField(
                label=_("PC %(n)s: name") % {"n": number}, max_length=60, required=False
            )
            self.fields[f"pc{number}_side"] = forms.ChoiceField(
                label=_("PC %(n)s: side") % {"n": number}, choices=SIDE_CHOICES, required=False
            )
            self.fields[f"pc{number}_owner"] = forms.ChoiceField(
                label=_("PC %(n)s: played by") % {"n": number}, choices=owner_choices,
                required=False,
            )  # fmt: skip
            self.fields[f"pc{number}_element"] = forms.ChoiceField(
                label=_("PC %(n)s: fights in") % {"n": number}, choices=element_choices,
                required=False,
            )  # fmt: skip
            self.fields[f"pc{number}_hp"] = forms.IntegerField(
                label=_("PC %(n)s: HP") % {"n": number}, min_value=1, max_value=99,
                required=False, initial=10,
            )  # fmt: skip
            self.fields[f"pc{number}_skill_15"] = forms.BooleanField(
                label=_("PC %(n)s: skill 15+ for this battle") % {"n": number}, required=False
            )
            self.fields[f"pc{number}_commands_element"] = forms.BooleanField(
                label=_("PC %(n)s: commands an element") % {"n": number}, required=False
            )
            self.fields[f"pc{number}_exempt"] = forms.BooleanField(
                label=_("PC %(n)s: no Misfortunes of War") % {"n": number}, required=False
            )

    def recon_rows(self):
        return [
            [self[f"recon_{side}_{name}"] for name in RECON_FIELDS] for side, _label in SIDE_CHOICES
        ]

    def pc_rows(self):
        names = ("name", "side", "owner", "element", "hp", "skill_15", "commands_element",
                 "exempt")  # fmt: skip
        return [[self[f"pc{n}_{name}"] for name in names] for n in range(1, PC_ROWS + 1)]

    def clean_recon_dice(self) -> list[int]:
        return parse_dice(self.cleaned_data["recon_dice"], 6) or []

    def clean(self):
        data = super().clean()
        if data.get("recon_dice") and not data.get("recon"):
            self.add_error("recon_dice", RECON_DICE_WITHOUT_CONTEST)
        elif len(data.get("recon_dice") or ()) > RECON_DICE:
            self.add_error("recon_dice", RECON_DICE_TOO_MANY)
        for number in range(1, PC_ROWS + 1):
            if data.get(f"pc{number}_name") and not data.get(f"pc{number}_side"):
                self.add_error(f"pc{number}_side", _("Choose the PC's side."))
        return data

    def battle_input(self) -> BattleInput:
        data = self.cleaned_data
        pcs = []
        for number in range(1, PC_ROWS + 1):
            if not data.get(f"pc{number}_name"):
                continue
            kind, _sep, pk = (data.get(f"pc{number}_owner") or "").partition(":")
            element = data.get(f"pc{number}_element")
            pcs.append(
                PCInput(
                    name=data[f"pc{number}_name"],
                    side=data[f"pc{number}_side"],
                    owner=int(pk) if kind == "user" else None,
                    faction=int(pk) if kind == "faction" else None,
                    element=int(element) if element else None,
                    hp=data.get(f"pc{number}_hp") or 10,
                    skill_15=data[f"pc{number}_skill_15"],
                    commands_element=data[f"pc{number}_commands_element"],
                    exempt=data[f"pc{number}_exempt"],
                )
            )
        recon = {
            side: {
                "march": data.get(f"recon_{side}_march") or 0,
                "road": data.get(f"recon_{side}_road") or "none",
                "terrain_feature": data.get(f"recon_{side}_terrain_feature") or "none",
                "flying": data.get(f"recon_{side}_flying", False),
                "extra": data.get(f"recon_{side}_extra") or 0,
            }
            for side, _label in SIDE_CHOICES
        }
        for side, _label in SIDE_CHOICES:
            if data.get(f"recon_{side}_recon_bonus") is not None:
                recon[side]["recon_bonus"] = data[f"recon_{side}_recon_bonus"]
        db = {side: data[f"db_{side}"] for side in ("a", "b") if data.get(f"db_{side}") is not None}
        return BattleInput(
            name=data["name"],
            forces={"a": data["force_a"].pk, "b": data["force_b"].pk},
            battle_type=data["battle_type"],
            terrain=data["terrain"],
            siege=data["siege"],
            obscured=data["obscured"],
            extra_classes=tuple(data["extra_classes"]),
            recon=data["recon"],
            recon_conditions=recon,
            recon_dice=tuple(data.get("recon_dice") or ()),
            kind=data["kind"],
            initiative=data["initiative"] or None,
            db=db,
            neutralize={side: data[f"neutralize_{side}"] for side, _label in SIDE_CHOICES},
            pcs=tuple(pcs),
            players_may_act=data["players_may_act"],
            gm_sees_choices=data["gm_sees_choices"],
        )

    def neutralize_fields(self):
        return [self[f"neutralize_{side}"] for side, _label in SIDE_CHOICES]


STRATEGY_KINDS = ("choose_strategy", "change_strategy")
PC_KINDS = ("choose_risk", "significant_action")


@shared_fields
class GurpsActForm(ActForm):
    """One choice on the board. Strategy forms send the chosen `option` (JSON params of one
    of the engine's options) with the commander's `risk` and `raid_logistics`; a PC's form
    sends `risk` and `on_critical`; the GM's tools send their own fields. `dice`: d6 results
    rolled at the table ("3 5 2, 4 4 1"), used in order before the server's dice by the
    command's 3d6 rolls (the service refuses those it would not roll)."""

    actor = forms.CharField(max_length=40, required=False)
    option = forms.JSONField(required=False)
    risk = forms.TypedChoiceField(
        choices=RISK_CHOICES, coerce=int, required=False, empty_value=None
    )
    on_critical = forms.ChoiceField(choices=ON_CRITICAL_CHOICES, required=False)
    raid_logistics = forms.BooleanField(required=False)
    side = forms.ChoiceField(choices=SIDE_CHOICES, required=False)
    value = forms.IntegerField(min_value=-3, max_value=3, required=False)
    pc = forms.CharField(max_length=40, required=False)
    success = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1", required=False
    )
    victor = forms.ChoiceField(choices=[("", "—"), *SIDE_CHOICES], required=False)
    dice = forms.CharField(max_length=200, required=False)

    def clean_dice(self) -> list[int] | None:
        return parse_dice(self.cleaned_data["dice"], 6)

    def command(self) -> dict:
        data = self.cleaned_data
        kind = data["kind"]
        params = data.get("params") or {}
        if not isinstance(params, dict):
            raise forms.ValidationError(_("That action was not understood."))
        risk = data.get("risk")
        if kind in STRATEGY_KINDS:
            option = data.get("option")
            if isinstance(option, dict):
                params = {**params, **option}
            params["risk"] = risk if risk is not None else 0
            params["raid_logistics"] = bool(data.get("raid_logistics"))
        elif kind in PC_KINDS:
            params = {"risk": risk if risk is not None else 0,
                      "on_critical": data.get("on_critical") or "injury"}  # fmt: skip
        elif kind == "gm_circumstance":
            params = {"side": data.get("side"), "value": data.get("value") or 0}
        elif kind == "gm_commander_out":
            params = {"side": data.get("side")}
        elif kind == "gm_detailed_action":
            params = {"pc": data.get("pc"), "success": bool(data.get("success"))}
        elif kind == "gm_end_battle":
            params = {"victor": data.get("victor") or None, "reason": "gm"}
        return {
            "actor": data.get("actor") or None,
            "kind": kind,
            "params": params,
            "typed_dice": data.get("dice"),
        }


def option_value(params: dict) -> str:
    return json.dumps(dict(params), sort_keys=True)


# --- API -------------------------------------------------------------------------------------


class _ReconInput(serializers.Serializer):
    march = serializers.ChoiceField(choices=[0, 1, 2], required=False, default=0)
    road = serializers.ChoiceField(
        choices=["none", "road", "strict"], required=False, default="none"
    )
    terrain_feature = serializers.ChoiceField(
        choices=["none", "some", "all"], required=False, default="none"
    )
    flying = serializers.BooleanField(required=False, default=False)
    recon_bonus = serializers.IntegerField(
        min_value=-5, max_value=5, required=False,
        help_text="Replaces the Rec-element modifier (e.g. a Recon-superiority reading).",
    )  # fmt: skip
    extra = serializers.IntegerField(min_value=-10, max_value=10, required=False, default=0)


class _PCInput(serializers.Serializer):
    name = serializers.CharField(max_length=60)
    side = serializers.ChoiceField(choices=["a", "b"])
    owner = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, allow_null=True, default=None,
        help_text="The user id of the player who plays it.",
    )  # fmt: skip
    faction = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, allow_null=True, default=None,
        help_text="Without an owner: the faction whose players choose for it (neither: an NPC "
        "of the GM).",
    )  # fmt: skip
    element = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, required=False, allow_null=True, default=None,
        help_text="The id of the element row of its side's force it fights in.",
    )  # fmt: skip

    def validate(self, data):
        if data.get("owner") is not None and data.get("faction") is not None:
            raise serializers.ValidationError(_("A PC has an owner or a faction, not both."))
        return data

    hp = serializers.IntegerField(min_value=1, max_value=99, required=False, default=10)
    skill_15 = serializers.BooleanField(required=False, default=False)
    commands_element = serializers.BooleanField(required=False, default=False)
    exempt = serializers.BooleanField(required=False, default=False)


class _ForcesInput(serializers.Serializer):
    a = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    b = serializers.IntegerField(min_value=1, max_value=2**63 - 1)


class _NeutralizeInput(serializers.Serializer):
    a = serializers.BooleanField(required=False, default=True)
    b = serializers.BooleanField(required=False, default=True)


class _DBInput(serializers.Serializer):
    a = serializers.IntegerField(min_value=0, max_value=10, required=False)
    b = serializers.IntegerField(min_value=0, max_value=10, required=False)


class BattleCreateInput(serializers.Serializer):
    """A GURPS Mass Combat battle (gurps §A.3-A.5), as the set-up page asks it."""

    name = serializers.CharField(max_length=120)
    forces = _ForcesInput(help_text="The force id of each side.")
    battle_type = serializers.ChoiceField(choices=list(BATTLE_TYPES), required=False,
                                          default="land")  # fmt: skip
    terrain = serializers.ChoiceField(choices=list(TERRAIN_RATING), required=False,
                                      default="plains")  # fmt: skip
    extra_classes = serializers.ListField(
        child=serializers.ChoiceField(choices=list(EXTRA_CLASSES)), required=False,
        default=list, max_length=3,
    )  # fmt: skip
    siege = serializers.BooleanField(required=False, default=False)
    obscured = serializers.BooleanField(required=False, default=False)
    recon = serializers.BooleanField(required=False, default=False)
    recon_conditions = serializers.DictField(child=_ReconInput(), required=False, default=dict)
    recon_dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=6), required=False, default=list,
        help_text="The d6 of the reconnaissance contest rolled at the table: 3d6 of side A, "
        "then 3d6 of side B (the server rolls the rest).",
    )  # fmt: skip
    kind = serializers.ChoiceField(choices=["pitched", "encounter"], required=False,
                                   default="pitched")  # fmt: skip
    initiative = serializers.ChoiceField(choices=["a", "b"], required=False, allow_null=True,
                                         default=None)  # fmt: skip
    db = _DBInput(required=False, default=dict)
    neutralize = _NeutralizeInput(
        required=False, default=dict, help_text="{side: use its neutralizers (§A.5.3)}."
    )
    pcs = _PCInput(many=True, required=False, default=list, max_length=20)
    players_may_act = serializers.BooleanField(required=False, default=True)
    gm_sees_choices = serializers.BooleanField(
        required=False, default=False,
        help_text="The GM sees a players' side's pending strategy before the GM's own side "
        "(a side of no players' faction) has chosen; default: secret until then (§A.6.3).",
    )  # fmt: skip

    def validate_recon_conditions(self, value):
        if set(value) - {"a", "b"}:
            raise serializers.ValidationError(_("The sides are a and b."))
        return value

    def validate(self, data):
        if data.get("recon_dice") and not data.get("recon"):
            raise serializers.ValidationError({"recon_dice": [RECON_DICE_WITHOUT_CONTEST]})
        if len(data.get("recon_dice") or ()) > RECON_DICE:
            raise serializers.ValidationError({"recon_dice": [RECON_DICE_TOO_MANY]})
        return data

    def battle_input(self) -> BattleInput:
        data = self.validated_data
        return BattleInput(
            name=data["name"],
            forces={"a": data["forces"]["a"], "b": data["forces"]["b"]},
            battle_type=data["battle_type"],
            terrain=data["terrain"],
            siege=data["siege"],
            obscured=data["obscured"],
            extra_classes=tuple(data["extra_classes"]),
            recon=data["recon"],
            recon_conditions={k: dict(v) for k, v in data["recon_conditions"].items()},
            recon_dice=tuple(data["recon_dice"]),
            kind=data["kind"],
            initiative=data["initiative"],
            db=dict(data["db"]),
            neutralize=dict(data["neutralize"]),
            pcs=tuple(PCInput(**dict(pc)) for pc in data["pcs"]),
            players_may_act=data["players_may_act"],
            gm_sees_choices=data["gm_sees_choices"],
        )
