"""The Pathfinder 2e board's own pages and writes (the board plugin's `create_view`,
`act_form` and `apply_results`)."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404
from rest_framework import exceptions

from battles.forms import ActForm
from battles.models import Battle, BattleStatus
from battles.views import setup_page
from kingdoms.models import Membership
from warfare.systems.pf2e.models import Army

from .board import GM_CONDITION_CHOICES, aftermath_sides
from .board_api import BattleApplyInput, _valid, apply_problems
from .board_forms import ApplyResultsForm, BattleCreateForm, CorrectionForm
from .results import battle_apply_results
from .setup import battle_create


def create_view(request: HttpRequest, membership: Membership) -> HttpResponse:
    """The set-up page: name, terrain, who fights on which side, fortifications, starts."""
    campaign_id = membership.campaign_id
    armies = (
        Army.objects.active()
        .filter(faction__campaign=membership.campaign)
        .select_related("faction")
        .order_by("faction__name", "name")
    )
    form = BattleCreateForm(request.POST or None, armies=armies)

    def start(form):
        return battle_create(
            user=request.user,
            campaign_id=campaign_id,
            name=form.cleaned_data["name"],
            sides=form.sides(),
            pcs_side=form.cleaned_data["pcs_side"] or None,
            terrain=tuple(form.cleaned_data["terrain"]),
            players_may_act=form.cleaned_data["players_may_act"],
            reveal_checks=form.cleaned_data["reveal_checks"],
            fortifications=form.fortifications(),
            inside=form.inside(),
            starts=form.starts(),
            initiative_dice=form.initiative_dice(),
            auto_reactions=form.auto_reactions(),
        )

    return setup_page(request, membership, "battles/battle_form.html", form, start)


def act_form(data, battle: Battle):
    """The board's act form: the GM's correction of an army, else one war action."""
    if data.get("kind") == "gm_correction":
        return CorrectionForm(data, conditions=GM_CONDITION_CHOICES)
    return ActForm(data)


def apply_results(*, user, campaign_id: int, battle_id: int, expected_seq: int, data) -> Battle:
    """The GM's choices for the §7.6 kingdom checks, from the board's apply form (a
    QueryDict) or the API's body (`BattleApplyInput`), then `battle_apply_results`. Choices
    the form would not offer are refused (a 400)."""
    if isinstance(data, QueryDict):
        battle = get_object_or_404(Battle, campaign_id=campaign_id, pk=battle_id)
        form = ApplyResultsForm(data, sides=aftermath_sides(battle))
        if not form.is_valid():
            raise ValidationError([str(e) for field in form for e in field.errors])
        choices = form.choices()
    else:
        valid = _valid(BattleApplyInput, data)
        battle = get_object_or_404(Battle, campaign_id=campaign_id, pk=battle_id)
        # Checked against the battle as read; a changed one is the service's 409 or 400.
        if battle.status == BattleStatus.FINISHED and battle.seq == expected_seq:
            errors = apply_problems(valid, aftermath_sides(battle))
            if errors:
                raise exceptions.ValidationError(errors)
        choices = {
            "pc_encounter": valid["pc_encounter"],
            "choices": valid["choices"],
            "regain": valid["regain"],
            "typed_dice": {
                side: (dice["d20"], dice["d4"]) for side, dice in valid["typed_dice"].items()
            },
        }
    return battle_apply_results(
        user=user, campaign_id=campaign_id, battle_id=battle_id, expected_seq=expected_seq,
        **choices,
    )  # fmt: skip
