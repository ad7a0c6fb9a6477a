"""D&D 5e battle pages: the set-up (the battles app's create page for dnd5e campaigns) and
the GM's commands (begin after deployment, award a custom objective, settle a tie, correct
a piece), answered like every board action (battles.views)."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from rest_framework import serializers

from battles import services
from battles.forms import ActForm, parse_dice, shared_fields
from battles.models import Battle
from battles.schema import form_input
from battles.views import _board_write, setup_page
from kingdoms.access import access_campaign
from warfare.systems.dnd5e.access import access_dnd5e

from .setup import (
    ENGINE_LABELS,
    MAX_ENGINES,
    OPTION_LABELS,
    SIDES,
    BattleSetupForm,
    battle_create,
)

GM_COMMANDS = ("begin", "award", "declare_draw", "extra_round", "gm_correction")


def create_view(request: HttpRequest, membership) -> HttpResponse:
    """GET: the set-up form; POST: start the battle and go to its board (bad input: 400)."""
    campaign = membership.campaign
    form = BattleSetupForm(request.POST or None, campaign=campaign)
    return setup_page(
        request, membership, "battles/dnd5e/setup.html", form,
        lambda form: _start(request.user, campaign, form),
    )  # fmt: skip


def _start(user, campaign, form: BattleSetupForm):
    data = form.cleaned_data
    return battle_create(
        user=user, campaign_id=campaign.pk, name=data["name"], army_a=data["army_a"],
        army_b=data["army_b"], players_may_act=data["players_may_act"], width=data["width"],
        height=data["height"], depth=data["depth"], squares=data["squares"],
        objectives=form.objectives(), options=form.options(), auto_deploy=data["auto_deploy"],
        engines=data["engines"], surprised=form.surprised(),
        initiative_dice=form.initiative_dice(),
    )  # fmt: skip


def api_create(user, campaign_id: int, data) -> Battle:
    """The API's set-up: the set-up form's fields as JSON (armies by id, the form's initial
    values where left out), with `engines` ([{kind, side, pos: [x, y] | null, crew: unit
    id | null}]) and `initiative_dice` ({"u<unit id>" | "s<solo id>": d20}) as the form's
    `engine_<n>_*` and `initiative_<key>` fields; a bad one is a ValidationError with the
    form's messages (400)."""
    membership = access_dnd5e(user, campaign_id, gm=True)
    blank = BattleSetupForm(campaign=membership.campaign)
    defaults = {name: blank[name].initial for name in blank.fields
                if blank[name].initial not in (None, "")}  # fmt: skip
    form = BattleSetupForm({**defaults, **form_data(data)}, campaign=membership.campaign)
    unknown = [key for key in data.get("initiative_dice") or {}
               if f"initiative_{key}" not in form.fields]  # fmt: skip
    if unknown:
        raise ValidationError(
            _("initiative_dice: no unit or solo %(keys)s.") % {"keys": ", ".join(unknown)}
        )
    if not form.is_valid():
        raise ValidationError(
            [
                f"{name}: {error}" if name != "__all__" else str(error)
                for name, errors in form.errors.items()
                for error in errors
            ]
        )
    return _start(user, membership.campaign, form)


class _EngineInput(serializers.Serializer):
    """One siege engine (dnd5e §8)."""

    kind = serializers.ChoiceField(choices=list(ENGINE_LABELS))
    side = serializers.ChoiceField(choices=list(SIDES))
    pos = serializers.ListField(
        child=serializers.IntegerField(min_value=0), min_length=2, max_length=2,
        required=False, allow_null=True,
        help_text="[x, y] of its top-left square; null: at the back of its side's zone.",
    )  # fmt: skip
    crew = serializers.IntegerField(
        min_value=1, required=False, allow_null=True, help_text="The id of a unit of its side."
    )


def create_input() -> type[serializers.Serializer]:
    """The API's create body for the OpenAPI schema: the set-up form's fields, the seed's
    variants, `engines` and `initiative_dice`."""
    fields = dict(BattleSetupForm.base_fields)
    fields.update({key: forms.BooleanField(label=label) for key, label in OPTION_LABELS.items()})
    return form_input(
        "Dnd5eBattleCreateInput", fields,
        "A D&D 5e battle (dnd5e §5.1, §7, §8): the set-up form's fields as JSON (armies by "
        "id; left out: the form's initial values).",
        defaults=True,
        engines=_EngineInput(many=True, required=False, max_length=MAX_ENGINES),
        initiative_dice=serializers.DictField(
            child=serializers.IntegerField(min_value=1, max_value=20), required=False,
            help_text='{"u<unit id>" | "s<solo id>": d20} rolled at the table (§5.2); the '
            "server rolls for the others. Logged as typed.",
        ),
    )  # fmt: skip


def form_data(data) -> dict:
    """The API body as the set-up form's fields: `engines` and `initiative_dice` spread
    into `engine_<n>_*` and `initiative_<key>` (a malformed one is a 400)."""
    if not isinstance(data, dict):
        raise ValidationError(_("Send a JSON object."))
    result = {k: v for k, v in data.items() if k not in ("engines", "initiative_dice")}
    engines = data.get("engines") or []
    dice = data.get("initiative_dice") or {}
    if not isinstance(engines, list) or not all(isinstance(e, dict) for e in engines):
        raise ValidationError(_("engines: a list of objects."))
    if not isinstance(dice, dict):
        raise ValidationError(_("initiative_dice: an object of d20s."))
    for n, engine in enumerate(engines, 1):
        pos = engine.get("pos")
        if pos is not None and not (isinstance(pos, list) and len(pos) == 2):
            raise ValidationError(_("engines: pos is [x, y] or null."))
        result.update({
            f"engine_{n}_kind": engine.get("kind", ""),
            f"engine_{n}_side": engine.get("side", ""),
            f"engine_{n}_square": "" if pos is None else f"{pos[0]},{pos[1]}",
            f"engine_{n}_crew": engine.get("crew") or "",
        })  # fmt: skip
    result.update({f"initiative_{key}": die for key, die in dice.items()})
    return result


@shared_fields  # (checked, never changed: the board's every click; not inherited)
class DndActForm(ActForm):
    """The board's action form with `dice`: results rolled at the table (d20s, damage dice)
    typed in once in the actions panel and sent with the next action; used in order before
    the server's dice (the service refuses those it would not roll)."""

    dice = forms.CharField(max_length=200, required=False)

    def clean_dice(self) -> list[int] | None:
        return parse_dice(self.cleaned_data["dice"], 20)

    def command(self) -> dict:
        command = super().command()
        if self.cleaned_data.get("dice"):
            command["typed_dice"] = self.cleaned_data["dice"]
        return command


class GMCommandForm(forms.Form):
    """A GM command: `kind`, and for a correction the piece, its HP and a solo's conditions;
    for an award the custom objective."""

    seq = forms.IntegerField(min_value=0)
    kind = forms.ChoiceField(choices=[(k, k) for k in GM_COMMANDS])
    objective = forms.CharField(required=False, max_length=40)
    piece = forms.CharField(required=False, max_length=40)
    hp = forms.IntegerField(required=False, min_value=0, max_value=999)
    conditions = forms.CharField(required=False, max_length=200)

    def command(self) -> dict:
        data = self.cleaned_data
        params: dict = {}
        if data["kind"] == "award":
            params["objective"] = data["objective"]
        if data["kind"] == "gm_correction":
            params["piece"] = data["piece"]
            if data.get("hp") is not None:
                params["hp"] = data["hp"]
            if data.get("conditions"):
                params["conditions"] = [c.strip() for c in data["conditions"].split(",")
                                        if c.strip()]  # fmt: skip
        return {"actor": None, "kind": data["kind"], "params": params}


@login_required
@require_POST
def gm_command(request: HttpRequest, campaign_id: int, battle_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    battle = get_object_or_404(Battle, campaign=membership.campaign, pk=battle_id)
    if battle.system != "dnd5e":
        raise Http404  # the D&D 5e GM tools exist on D&D 5e boards only
    form = GMCommandForm(request.POST)

    def write():
        if not form.is_valid():
            raise ValidationError(_("That action was not understood."))
        battle_after, _events = services.battle_act(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=form.cleaned_data["seq"], command=form.command(),
            membership=membership, battle=battle,
        )  # fmt: skip
        return battle_after

    return _board_write(request, membership, battle, write, _("Done."))
