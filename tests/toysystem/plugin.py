"""The toy rule system's board plugin (`battles.plugins.BoardPlugin`): set-up page and API,
board page, API state, viewpoint and view, results. Built only on the core's public pieces."""

from functools import cached_property
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from rest_framework import exceptions, serializers

from battles.events import event_text
from battles.forms import ActForm
from battles.models import Battle, BattleStatus
from battles.plugins import BoardPlugin, register
from battles.schema import state_output
from battles.services import apply_begin, apply_lock, battle_start, may_command
from battles.visibility import BYSTANDER, BattleView, Viewpoint, viewpoint_of
from kingdoms import rulesystems
from kingdoms.access import access_campaign
from kingdoms.models import Membership
from kingdoms.transactions import write_transaction
from warfare.engine.battle.registry import get_battle_system, register_battle_system

from . import portability
from .engine import KEY, SIDES, SYSTEM

register_battle_system(SYSTEM)
rulesystems.register(
    rulesystems.RuleSystemPlugin(
        key=KEY, label="Toy rule system", position=900, has_battles=True,
        campaign_file=portability.SECTION,
    )
)  # fmt: skip

EVENT_TEXTS = {
    "toy.started": "The toy battle begins: %(first)s strikes first.",
    "toy.attack": "%(side)s attacks %(target)s: d6 %(roll)s, %(result)s.",
    "toy.round_started": "Round %(round)s begins.",
    "toy.won": "%(side)s scores its third hit and wins.",
}
PROBLEM_TEXTS = {
    "toy.setup.two_sides": "A toy battle needs sides a and b.",
    "toy.not_your_turn": "It is not the turn of %(side)s.",
    "toy.over": "The battle is over.",
    "toy.unknown_command": "A toy side only attacks.",
}


def _setup(name_a: str, name_b: str, faction_a: int | None, faction_b: int | None) -> dict:
    return {
        "sides": [
            {"key": "a", "name": name_a, "faction": faction_a},
            {"key": "b", "name": name_b, "faction": faction_b},
        ]
    }


class CreateInput(serializers.Serializer):
    """A toy battle: a name, and the two sides' names and factions (ids, optional)."""

    name = serializers.CharField(max_length=120)
    side_a = serializers.CharField(max_length=60)
    side_b = serializers.CharField(max_length=60)
    faction_a = serializers.IntegerField(required=False, allow_null=True, default=None)
    faction_b = serializers.IntegerField(required=False, allow_null=True, default=None)
    players_may_act = serializers.BooleanField(required=False, default=True)


ToyBattleCreateInput = type("ToyBattleCreateInput", (CreateInput,), {})


@write_transaction
def battle_create(user, campaign_id: int, data: dict) -> Battle:
    membership = access_campaign(user, campaign_id, gm=True, lock=True)
    factions = set(membership.campaign.factions.values_list("pk", flat=True))
    for key in ("faction_a", "faction_b"):
        if data.get(key) is not None and data[key] not in factions:
            raise exceptions.ValidationError({key: ["Not a faction of this campaign."]})
    setup = _setup(data["side_a"], data["side_b"], data.get("faction_a"), data.get("faction_b"))
    return battle_start(
        user=user, campaign=membership.campaign, name=data["name"], setup=setup,
        players_may_act=data.get("players_may_act", True),
        problem_messages=lambda problems: [PROBLEM_TEXTS[p.code] for p in problems],
    )  # fmt: skip


def api_create(user, campaign_id: int, data) -> Battle:
    if not isinstance(data, dict):
        raise exceptions.ParseError("Send a JSON object.")
    serializer = CreateInput(data=data)
    serializer.is_valid(raise_exception=True)
    return battle_create(user, campaign_id, serializer.validated_data)


class SetupForm(forms.Form):
    name = forms.CharField(max_length=120)
    side_a = forms.CharField(max_length=60)
    side_b = forms.CharField(max_length=60)


def create_view(request: HttpRequest, membership: Membership) -> HttpResponse:
    form = SetupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        battle = battle_create(request.user, membership.campaign_id, form.cleaned_data)
        return redirect(battle)
    status = 400 if request.method == "POST" else 200
    context = {"campaign": membership.campaign, "form": form}
    return render(request, "toysystem/setup.html", context, status=status)


def actor_factions(battle: Battle) -> dict[str, int | None]:
    return {side["key"]: side.get("faction") for side in battle.setup["sides"]}


def viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
    sides = frozenset(
        side for side, faction in actor_factions(battle).items()
        if faction is not None and faction == membership.faction_id
    )  # fmt: skip
    return Viewpoint(sides=sides) if sides else BYSTANDER


class ToyView(BattleView):
    """A toy battle hides nothing: every viewpoint reads every roll."""

    @cached_property
    def state(self):
        return get_battle_system(KEY).state_from_dict(self.battle.snapshot)

    def side_factions(self):
        return {side: {faction} for side, faction in actor_factions(self.battle).items()}

    def _names(self) -> dict[str, str]:
        return dict(self.side_names)

    def sees(self, key) -> bool:
        return True

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        return dict(params), event_text(code, params, self.names, KEY)

    def outcome(self) -> dict[str, Any] | None:
        return self.battle.outcome or None


def event_params(code: str, params: dict, names: dict[str, str]) -> dict:
    shown = {key: names.get(value, value) if isinstance(value, str) else value
             for key, value in params.items()}  # fmt: skip
    if code == "toy.attack":
        shown["result"] = "a hit" if params.get("hit") else "a miss"
    return shown


def _actions(membership: Membership, battle: Battle, state) -> list[dict]:
    if battle.status != BattleStatus.ACTIVE or state.turn is None:
        return []
    if not may_command(membership, battle, state.turn):
        return []
    return [
        {"key": spec.key, "actor": state.turn}
        for spec in get_battle_system(KEY).legal_actions(state, state.turn)
    ]


def board_context(membership: Membership, battle: Battle) -> dict:
    view = ToyView(battle, viewpoint_of(membership, battle))
    state = view.state
    return {
        "battle": battle,
        "membership": membership,
        "sides": [(side, view.names[side], state.hits[side]) for side in SIDES],
        "turn": view.names.get(state.turn) if state.turn else None,
        "actions": _actions(membership, battle, state),
        "log": view.log(limit=40),
        "outcome": view.outcome(),
        "winner": view.names.get(state.winner) if state.winner else None,
    }


def api_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    view = ToyView(battle, viewpoint_of(membership, battle))
    state = view.state
    actions = _actions(membership, battle, state)
    return {
        "names": dict(view.names),
        "hits": dict(state.hits),
        "turn": state.turn,
        "round": state.round,
        "may_act": bool(actions),
        "actions": actions,
        "outcome": view.outcome(),
    }


STATE_OUTPUT = state_output(
    "ToyBattleStateOutput", KEY, "A toy battle's board.",
    names=serializers.DictField(child=serializers.CharField()),
    hits=serializers.DictField(child=serializers.IntegerField()),
    turn=serializers.CharField(allow_null=True),
    round=serializers.IntegerField(),
    may_act=serializers.BooleanField(),
    actions=serializers.ListField(child=serializers.DictField()),
    outcome=serializers.DictField(allow_null=True),
)  # fmt: skip


@write_transaction
def apply_results(*, user, campaign_id: int, battle_id: int, expected_seq: int, data) -> Battle:
    """A toy battle changes no persistent row: applying it only closes it."""
    battle = apply_lock(apply_begin(user, campaign_id, battle_id), expected_seq)
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "updated_at"])
    return battle


PLUGIN = register(
    BoardPlugin(
        key=KEY,
        board_template="toysystem/board.html",
        board_context=board_context,
        create_view=create_view,
        actor_factions=actor_factions,
        api_state=api_state,
        api_state_output=STATE_OUTPUT,
        api_create=api_create,
        api_create_input=ToyBattleCreateInput,
        apply_results=apply_results,
        event_texts=EVENT_TEXTS,
        event_params=event_params,
        act_form=lambda data, battle: ActForm(data),
        viewpoint=viewpoint,
        view=ToyView,
        problem_texts=PROBLEM_TEXTS,
        held_rows=lambda setup: {},
    )
)
