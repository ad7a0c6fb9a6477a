"""The battles' JSON API (mounted under /api/v1/ by warfare.api_urls), in the style of
warfare.api.views: an access helper, then a selector or a service, then an output shape.

A battle's state (the detail, and the answer of create, action, undo and apply) is one
envelope every rule system shares (`id`, `name`, `system`, `status`, `status_label`, `seq`,
`players_may_act`) around the board the system draws (`BoardPlugin.api_state`); the schema
documents it as one of every system's (`BattleStateOutput`, told apart by `system`). A
created battle answers 201 with its URL in `Location`.

Errors: a non-member 404, a member without the role 403 (anonymous 403 too), bad input or a
rule problem 400 `{"errors": [...]}` (nothing changed), a stale `seq` 409
`{"errors": [...], "battle": <the board as it is now>}`.

What a viewer sees is the board's, from the same viewpoint filter (battles.visibility): an
army's numbers (hp, max_hp, rout_threshold, shots, potions) only for the GM and the army's own
side — the keys are absent otherwise; the log drops the HP-revealing params and the enemy's
check numbers of the armies the viewer does not see in full. Legal actions are listed only to
a viewer who may act for the army whose turn it is.
"""

from typing import Any

import django_filters
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from kingdoms.access import access_campaign
from kingdoms.models import Membership
from warfare.api.base import (
    DENIED,
    LIST_ERRORS,
    WRITE_ERRORS,
    ApiListView,
    ApiView,
    stale_response,
)
from warfare.api.filters import IntegerFilter

from . import selectors, services
from .autoplay import auto_sides_at_start, parse_auto_sides
from .models import Battle, BattleEvent, BattleStatus
from .plugins import apply_inputs, create_inputs, plugin_for, state_outputs
from .visibility import live_events, member_view

# --- Output ---------------------------------------------------------------------------------


def envelope(battle: Battle) -> dict[str, Any]:
    """What every rule system's battle state has at its top level (`BattleEnvelopeOutput`)."""
    return {
        "id": battle.pk,
        "name": battle.name,
        "system": battle.system,
        "status": battle.status,
        "status_label": str(battle.get_status_display()),
        "seq": battle.seq,
        "players_may_act": battle.players_may_act,
    }


def battle_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    """The board as `membership` sees it (plain JSON): the envelope, then the board drawn by
    the battle's rule system (`BattleStateOutput`, one of the systems')."""
    return {**envelope(battle), **plugin_for(battle.system).api_state(membership, battle)}


# --- Shapes (input, and output for the schema) -----------------------------------------------


class BattleListOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    system = serializers.CharField()
    status = serializers.CharField()
    seq = serializers.IntegerField()
    created_at = serializers.DateTimeField()


#: A battle's state in the schema: one of every rule system's, told apart by `system`.
BattleStateOutput = PolymorphicProxySerializer(
    component_name="BattleStateOutput",
    serializers=lambda: state_outputs(),
    resource_type_field_name="system",
)


@extend_schema_field(BattleStateOutput)
class _BattleStateField(serializers.DictField):
    """A battle's state inside another answer."""


class BattleStaleOutput(serializers.Serializer):
    """The board changed since the `seq` sent: here it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    battle = _BattleStateField()


class BattleEventOutput(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    code = serializers.CharField()
    params = serializers.DictField(
        help_text="Dice and degrees are public; the HP left, potion doses, the GM's "
        "corrections and (unless the battle's `reveal_checks`) the check modifiers, totals and "
        "DCs of armies the reader does not see in full are left out."
    )
    text = serializers.CharField()


class BattleActionInput(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="The board's `seq` as you saw it.")
    actor = serializers.CharField(
        max_length=40, required=False, allow_null=True, default=None,
        help_text="The army key acting (null for a GM correction).",
    )  # fmt: skip
    kind = serializers.CharField(max_length=40, help_text="A legal action's `key`.")
    params = serializers.DictField(required=False, default=dict)
    typed_dice = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=100),
        required=False, allow_null=True, default=None, max_length=20,
        help_text="Dice rolled at the table, used before any server die.",
    )  # fmt: skip


class SeqInput(serializers.Serializer):
    seq = serializers.IntegerField(min_value=0, help_text="The board's `seq` as you saw it.")


class BattleFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=BattleStatus.choices)

    class Meta:
        model = Battle
        fields = ["status"]


class BattleEventFilter(django_filters.FilterSet):
    after = IntegerFilter(
        field_name="pk", lookup_expr="gt", min_value=0,
        help_text="Only events after this event id (poll for news).",
    )  # fmt: skip
    round = IntegerFilter(min_value=1, max_value=2**31 - 1)

    class Meta:
        model = BattleEvent
        fields = ["after", "round"]


# --- Views ----------------------------------------------------------------------------------


def _input(serializer_class, request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise exceptions.ParseError(_("Send a JSON object."))
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


class _StaleBoard:
    """A stale `seq`: 409 with the board as it is now, for this reader."""

    membership: Membership | None = None

    def handle_exception(self, exc):
        if isinstance(exc, services.StaleBoard) and self.membership is not None:
            return stale_response(
                [_("The board changed meanwhile: here it is now.")],
                battle=battle_state(self.membership, exc.battle),
            )
        return super().handle_exception(exc)


class BattleApiView(_StaleBoard, ApiView):
    def battle(self, request: Request, campaign_id: int, battle_id: int, *, gm=False) -> Battle:
        self.membership = access_campaign(request.user, campaign_id, gm=gm)
        battle = get_object_or_404(Battle, campaign=self.membership.campaign, pk=battle_id)
        battle.campaign = self.membership.campaign  # read with the membership
        return battle


#: The 201 of a created battle names its URL (the battle's state: GET it again, poll it).
CREATED_LOCATION = OpenApiParameter(
    "Location", OpenApiTypes.URI, OpenApiParameter.HEADER, required=True, response=[201],
    description="The new battle's URL in the API (`GET` it for its state).",
)  # fmt: skip


class BattleListApi(ApiListView):
    queryset = Battle.objects.none()
    filterset_class = BattleFilter

    @extend_schema(tags=["battles"], responses={200: BattleListOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int) -> Response:
        """The campaign's battles, newest first (any member)."""
        membership = access_campaign(request.user, campaign_id)
        battles = self.page(selectors.battle_list(membership=membership))
        return self.get_paginated_response(BattleListOutput(battles, many=True).data)

    @extend_schema(
        tags=["battles"],
        request=PolymorphicProxySerializer(
            component_name="BattleCreateBody",
            serializers=lambda: create_inputs(),
            resource_type_field_name=None,
        ),
        responses={201: BattleStateOutput, **WRITE_ERRORS},
        parameters=[CREATED_LOCATION],
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """The GM sets forces of the campaign against each other; initiative is rolled at
        once. The body is the campaign's rule system's (one of the schemas): Pathfinder
        2e `BattleCreateInput`, D&D 5e `Dnd5eBattleCreateInput`, GURPS 4e
        `Gurps4eBattleCreateInput`, GURPS 3e `Gurps3eBattleCreateInput`; a campaign whose
        system has no board is a 404."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        plugin = plugin_for(membership.campaign.rule_system)
        if plugin.api_create is None:
            raise Http404
        body = request.data if isinstance(request.data, dict) else {}
        with auto_sides_at_start(parse_auto_sides(body.get("auto_sides"))):  # battles.autoplay
            battle = plugin.api_create(request.user, campaign_id, request.data)
        location = reverse("api:battle-detail", args=[campaign_id, battle.pk])
        return Response(
            battle_state(membership, battle),
            status=status.HTTP_201_CREATED,
            headers={"Location": request.build_absolute_uri(location)},
        )


class BattleDetailApi(BattleApiView):
    @extend_schema(tags=["battles"], responses={200: BattleStateOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The board as I see it, with my legal actions when it is my army's turn."""
        battle = self.battle(request, campaign_id, battle_id)
        return Response(battle_state(self.membership, battle))


class BattleLogApi(ApiListView):
    queryset = BattleEvent.objects.none()
    filterset_class = BattleEventFilter

    @extend_schema(tags=["battles"], responses={200: BattleEventOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """The battle's events, oldest first (undone actions left out), each with its
        sentence. Enemy HP, potion doses and the GM's corrections of armies I don't see in
        full are left out of their params and texts."""
        membership = access_campaign(request.user, campaign_id)
        battle = get_object_or_404(Battle, campaign=membership.campaign, pk=battle_id)
        view = member_view(membership, battle)
        data = []
        for event in self.page(live_events(battle)):
            params, text = view.event(event.code, event.params)
            data.append(
                {"id": event.pk, "round": event.round, "code": event.code, "params": params,
                 "text": text}
            )  # fmt: skip
        return self.get_paginated_response(data)


class BattleActionApi(BattleApiView):
    @extend_schema(
        tags=["battles"],
        request=BattleActionInput,
        responses={200: BattleStateOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
    )
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        """Take one action on the board (a war action, the end of a turn; the GM's
        `gm_correction`). Players act only for their own armies, if the battle lets them."""
        battle = self.battle(request, campaign_id, battle_id)
        data = _input(BattleActionInput, request)
        battle, _events = services.battle_act(  # the member and the battle not read again
            user=request.user,
            campaign_id=campaign_id,
            battle_id=battle_id,
            expected_seq=data["seq"],
            command={
                "actor": data["actor"],
                "kind": data["kind"],
                "params": data["params"],
                "typed_dice": data["typed_dice"],
            },
            membership=self.membership,
            battle=battle,
        )
        return Response(battle_state(self.membership, battle))


class _BattleGmWriteApi(BattleApiView):
    """A GM's board-wide write: the seq the client saw (`input_class`, a `SeqInput`), and
    whatever else `arguments` makes of the input for the service."""

    service = None  # a battles.services function taking user, ids and expected_seq
    input_class = SeqInput

    def arguments(self, battle: Battle, data: dict[str, Any]) -> dict[str, Any]:
        return {}

    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        battle = self.battle(request, campaign_id, battle_id, gm=True)
        data = _input(self.input_class, request)
        battle = type(self).service(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"], **self.arguments(battle, data),
        )  # fmt: skip
        return Response(battle_state(self.membership, battle))


_GM_WRITE_SCHEMA = {
    "tags": ["battles"],
    "responses": {200: BattleStateOutput, **WRITE_ERRORS, 409: BattleStaleOutput},
}


@extend_schema_view(post=extend_schema(
    description="The GM takes back the last action (it stays in the log, marked undone), "
    "with the end of turn the board took by itself after it (Pathfinder: no action left).",
    request=SeqInput, **_GM_WRITE_SCHEMA))  # fmt: skip
class BattleUndoApi(_BattleGmWriteApi):
    service = staticmethod(services.battle_undo)


@extend_schema_view(post=extend_schema(
    description="The GM writes a finished battle's results to the campaign's forces (and, in "
    "Pathfinder 2e, its kingdoms). The body is the rule system's (one of the schemas: "
    "Pathfinder 2e `BattleApplyInput`; the others take `seq`); anything the board's apply "
    "form would not offer is a 400.",
    request=PolymorphicProxySerializer(
        component_name="BattleApplyBody",
        serializers=lambda: [*apply_inputs(), SeqInput],
        resource_type_field_name=None,
    ),
    **_GM_WRITE_SCHEMA))  # fmt: skip
class BattleApplyApi(BattleApiView):
    def post(self, request: Request, campaign_id: int, battle_id: int) -> Response:
        battle = self.battle(request, campaign_id, battle_id, gm=True)
        plugin = plugin_for(battle.system)
        if plugin.apply_results is None:
            raise Http404
        data = _input(SeqInput, request)
        battle = plugin.apply_results(
            user=request.user, campaign_id=campaign_id, battle_id=battle_id,
            expected_seq=data["seq"], data=request.data,
        )  # fmt: skip
        return Response(battle_state(self.membership, battle))
