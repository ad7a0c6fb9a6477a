"""The GURPS Mass Combat 4e set-up page, API create, log view and report context (thin: the
work is in `setup`, `board` and `services`)."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from rest_framework import exceptions

from battles.models import Battle
from battles.report import log_by_round
from battles.views import setup_page
from battles.visibility import viewpoint_of
from kingdoms.models import Controller, Faction, Membership, Role
from warfare.engine.systems.gurps4e.battle.state import SIDE_KEYS
from warfare.systems.gurps4e.models import Force, ForceElement

from . import board, labels
from .board_forms import BattleCreateForm, BattleCreateInput
from .setup import gurps4e_battle_create


def _form(membership: Membership, data=None) -> BattleCreateForm:
    campaign = membership.campaign
    forces = (
        Force.objects.filter(campaign=campaign)
        .select_related("faction")
        .order_by("faction__name", "name")
    )
    players = (
        Membership.objects.filter(campaign=campaign, role=Role.PLAYER)
        .select_related("user", "faction")
        .order_by("user__username")
    )
    factions = Faction.objects.filter(campaign=campaign, controlled_by=Controller.PLAYERS)
    rows = (
        ForceElement.objects.filter(force__campaign=campaign)
        .select_related("force", "element_type")
        .order_by("force__name", "pk")
    )
    return BattleCreateForm(
        data, forces=forces, players=list(players), factions=list(factions), rows=list(rows)
    )


def create_view(request: HttpRequest, membership: Membership) -> HttpResponse:
    """GET: the set-up form; POST: start the battle and go to the board (bad input: 400 and
    the form with its messages, nothing saved)."""
    form = _form(membership, request.POST if request.method == "POST" else None)
    return setup_page(
        request, membership, "battles/gurps4e/battle_form.html", form,
        lambda form: gurps4e_battle_create(
            user=request.user, campaign_id=membership.campaign_id, data=form.battle_input()
        ),
    )  # fmt: skip


def api_create(user, campaign_id: int, data) -> Battle:
    """The API's set-up: `forms.BattleCreateInput`; a rule problem is a 400."""
    if not isinstance(data, dict):
        raise exceptions.ParseError(_("Send a JSON object."))
    serializer = BattleCreateInput(data=data)
    serializer.is_valid(raise_exception=True)
    try:
        return gurps4e_battle_create(
            user=user, campaign_id=campaign_id, data=serializer.battle_input()
        )
    except ValidationError as error:
        raise exceptions.ValidationError({"errors": error.messages}) from None


def report_context(membership: Membership, battle: Battle) -> dict:
    """The battle report's context (`templates/battles/report.html` and its Markdown): each
    side's force with its casualties, its PCs, the outcome and the log round by round."""
    view = board.Gurps4eView(battle, viewpoint_of(membership, battle))
    state = view.engine_state
    who = view.names
    sides = []
    for i, key in enumerate(SIDE_KEYS):
        side = state.sides[i]
        state_text = _("casualties %(pct)s %%") % {"pct": side.casualties}
        if side.left:
            state_text += ", " + _("left the field")
        rows = [{"key": key, "name": who[key], "state": state_text}]
        for pc in state.pcs:
            if pc.side != i:
                continue
            status = str(labels.PC_STATUS_LABELS.get(pc.status, pc.status))
            if view.sees(pc.key):
                hp = pgettext("GURPS hit points", "HP %(hp)s of %(max)s")
                status += " · " + hp % {"hp": pc.hp, "max": pc.max_hp}
            row = {"key": pc.key, "name": who[pc.key], "state": status}
            rows.append(row)
        sides.append({"key": key, "name": who[key], "pcs": False, "armies": rows})
    outcome = view.outcome()
    result = None
    if outcome is not None:
        result = {
            "text": _("Victory for %(side)s.") % {"side": outcome["winner_name"]}
            if outcome["winner"]
            else _("Nobody holds the field."),
            "rounds": state.round,
            "destroyed": [s["name"] for s in outcome["sides"] if (s.get("final") or 0) >= 100],
            "fled": [who[key] for i, key in enumerate(SIDE_KEYS) if state.sides[i].left],
            "xp": [],
        }
    return {
        "battle": battle,
        "campaign": battle.campaign,
        "membership": membership,
        "status": battle.get_status_display(),
        "round": state.round,
        "terrain": [
            str(labels.BATTLE_TYPE_LABELS.get(state.battle_type, state.battle_type)),
            labels.terrain_with_rating(state.terrain, state.terrain_rating),
        ],
        "sides": sides,
        "outcome": result,
        "rounds": log_by_round(view, battle),
    }
