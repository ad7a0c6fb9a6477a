"""API views: each one an access helper, then a selector or a service, then an output shape.

Errors map as the HTML views do: a non-member gets 404 (Http404 from the access helpers), a
member without the role 403 (PermissionDenied), a rule problem 400 `{"errors": [...]}` (the
services' ValidationError; nothing changed), a stale `version` 409 with the army as it is now.
Lists are paginated (`?page=`) and filtered (django-filter, warfare.api.filters) after they are
scoped to what the reader may see; writes are throttled (warfare.api.throttling). Every view is
annotated with its input and output shapes for the OpenAPI schema (/api/v1/schema/).
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kingdoms.access import access_campaign, access_faction, sees_faction_in_full
from kingdoms.models import Campaign, Faction, Membership, RuleSystem
from kingdoms.selectors import campaign_list_for, faction_list_visible_to
from warfare import selectors, services
from warfare.access import access_army, sees_army_in_full
from warfare.activity_forms import ACTIVITY_FORMS
from warfare.events import log_text
from warfare.models import Army, LogEntry

from .filters import ArmyFilter, CampaignFilter, FactionFilter, LogEntryFilter
from .serializers import (
    ArmyActivityInput,
    ArmyActivityOutput,
    ArmyCreateInput,
    ArmyFullOutput,
    ArmyOutput,
    ArmyPublicOutput,
    CampaignDetailOutput,
    CampaignListOutput,
    DetailOutput,
    ErrorsOutput,
    FactionFullOutput,
    FactionOutput,
    FactionPublicOutput,
    LogEntryOutput,
    StaleOutput,
)

#: Error responses of every operation, for the schema (403 also for anonymous requests).
DENIED = {403: DetailOutput, 404: DetailOutput}
#: …and of lists, whose filters answer 400 to a bad value.
LIST_ERRORS = {400: ErrorsOutput, **DENIED}
#: …and of writes: bad input or a rule problem (400), too many writes (429).
WRITE_ERRORS = {400: ErrorsOutput, **DENIED, 429: DetailOutput}


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    """DRF error detail (nested dicts and lists) as 'field: message' lines."""
    if isinstance(detail, dict):
        lines = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "__all__") else str(key)
            lines += _flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return lines
    if isinstance(detail, list):
        return [line for item in detail for line in _flatten(item, prefix)]
    return [f"{prefix}: {detail}" if prefix else str(detail)]


def _bad_request(errors: list[str], fields: Any = None) -> Response:
    body: dict[str, Any] = {"errors": errors}
    if fields:
        body["fields"] = fields
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def _form_errors(form) -> Response:
    fields = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
    return _bad_request(_flatten(fields), fields)


def _army_output(membership: Membership, army: Army) -> dict[str, Any]:
    if sees_army_in_full(membership, army):
        return ArmyFullOutput(army, context={"gm": membership.is_gm}).data
    return ArmyPublicOutput(army).data


def _require_pf2e(campaign) -> None:
    """Armies exist for Pathfinder campaigns only (as on the HTML pages)."""
    if campaign.rule_system != RuleSystem.PF2E:
        raise Http404


def _json_object(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise exceptions.ParseError(_("Send a JSON object."))
    return request.data


class _ApiErrors:
    # Maps the services' exceptions to responses; DRF already maps Http404 and PermissionDenied.
    # `throttle_scope`: the writes of every API view share one rate per user.

    throttle_scope = "api-write"

    def handle_exception(self, exc):
        if isinstance(exc, services.StaleEdit):
            membership = getattr(self, "membership", None)
            army = Army.objects.select_related("faction__kingdom").get(pk=exc.army.pk)
            body = {
                "errors": [_("This army changed meanwhile. Here it is now; try again.")],
                "army": _army_output(membership, army) if membership else None,
            }
            return Response(body, status=status.HTTP_409_CONFLICT)
        if isinstance(exc, DjangoValidationError):
            return _bad_request(exc.messages)
        if isinstance(exc, exceptions.ValidationError):
            return _bad_request(_flatten(exc.detail), exc.detail)
        if isinstance(exc, exceptions.ParseError):
            return _bad_request([str(exc.detail)])
        return super().handle_exception(exc)


class ApiView(_ApiErrors, APIView):
    pass


class _Metadata(SimpleMetadata):
    """OPTIONS: describe the POST body only where the view names its `serializer_class`."""

    def determine_actions(self, request, view):
        if getattr(view, "serializer_class", None) is None:
            return {}
        return super().determine_actions(request, view)


class ApiListView(_ApiErrors, generics.GenericAPIView):
    """A list: scope the queryset to the reader first, then `self.page(queryset)` filters and
    paginates it. `queryset` names the model for the filters and the schema only."""

    metadata_class = _Metadata

    def page(self, queryset) -> list:
        return self.paginate_queryset(self.filter_queryset(queryset))


# --- Campaigns ------------------------------------------------------------------------------


class CampaignListApi(ApiListView):
    queryset = Campaign.objects.none()
    filterset_class = CampaignFilter

    @extend_schema(
        tags=["campaigns"], responses={200: CampaignListOutput(many=True), **LIST_ERRORS}
    )
    def get(self, request: Request) -> Response:
        """The campaigns I belong to, with my role in each."""
        campaigns = self.page(campaign_list_for(user=request.user))
        return self.get_paginated_response(CampaignListOutput(campaigns, many=True).data)


class CampaignDetailApi(ApiView):
    @extend_schema(tags=["campaigns"], responses={200: CampaignDetailOutput, **DENIED})
    def get(self, request: Request, campaign_id: int) -> Response:
        """The campaign as I see it: my role and my faction."""
        membership = access_campaign(request.user, campaign_id)
        return Response(CampaignDetailOutput(membership).data)


# --- Factions -------------------------------------------------------------------------------


class FactionListApi(ApiListView):
    queryset = Faction.objects.none()
    filterset_class = FactionFilter

    @extend_schema(tags=["factions"], responses={200: FactionOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int) -> Response:
        """Visible factions; kingdom numbers only for the GM and the faction's own players."""
        membership = access_campaign(request.user, campaign_id)
        factions = self.page(
            faction_list_visible_to(membership=membership).select_related("kingdom")
        )
        data = [
            FactionFullOutput(faction).data
            if sees_faction_in_full(membership, faction)
            else FactionPublicOutput(faction).data
            for faction in factions
        ]
        return self.get_paginated_response(data)


# --- Armies ---------------------------------------------------------------------------------


class FactionArmyListApi(ApiListView):
    queryset = Army.objects.none()
    filterset_class = ArmyFilter
    serializer_class = ArmyCreateInput  # what OPTIONS describes for POST

    @extend_schema(tags=["armies"], responses={200: ArmyOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int, faction_id: int) -> Response:
        """The faction's armies: all of them, in full, for the GM and the faction's players;
        the active ones by their public face for the other members."""
        membership, faction = access_faction(request.user, campaign_id, faction_id)
        _require_pf2e(membership.campaign)
        armies = selectors.army_list(faction=faction)
        if sees_faction_in_full(membership, faction):
            page = self.page(armies)
            data = ArmyFullOutput(page, many=True, context={"gm": membership.is_gm}).data
        else:
            data = ArmyPublicOutput(self.page(armies.active()), many=True).data
        return self.get_paginated_response(data)

    @extend_schema(
        tags=["armies"], request=ArmyCreateInput, responses={201: ArmyOutput, **WRITE_ERRORS}
    )
    def post(self, request: Request, campaign_id: int, faction_id: int) -> Response:
        """The GM places an army (no Recruit Army check), as on the placement page."""
        membership, _faction = access_faction(request.user, campaign_id, faction_id, gm=True)
        _require_pf2e(membership.campaign)
        serializer = ArmyCreateInput(data=_json_object(request))
        serializer.is_valid(raise_exception=True)
        army = services.army_create(
            user=request.user,
            campaign_id=campaign_id,
            faction_id=faction_id,
            **serializer.validated_data,
        )
        army = Army.objects.select_related("faction__kingdom").get(pk=army.pk)
        return Response(_army_output(membership, army), status=status.HTTP_201_CREATED)


class ArmyDetailApi(ApiView):
    @extend_schema(tags=["armies"], responses={200: ArmyOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, army_id: int) -> Response:
        """An army: in full (with its stat block) for the GM and its own side."""
        membership, army = access_army(request.user, campaign_id, army_id)
        return Response(_army_output(membership, army))


class ArmyActivityApi(ApiView):
    """Take one Army activity: `{"activity", "version", "typed_die"?, ...the activity's fields}`.

    The fields are those of the activity's HTML form (warfare.activity_forms), which validates
    them here too.
    """

    @extend_schema(
        tags=["armies"],
        request=ArmyActivityInput,
        responses={200: ArmyActivityOutput, **WRITE_ERRORS, 409: StaleOutput},
    )
    def post(self, request: Request, campaign_id: int, army_id: int) -> Response:
        self.membership, army = access_army(request.user, campaign_id, army_id, command=True)
        data = _json_object(request)
        activity = data.get("activity")
        if not isinstance(activity, str) or activity not in ACTIVITY_FORMS:
            choices = ", ".join(ACTIVITY_FORMS)
            return _bad_request(
                [_("Unknown activity. Choose one of: %(choices)s.") % {"choices": choices}],
                {"activity": [_("Unknown activity.")]},
            )
        nested = sorted(key for key, value in data.items() if isinstance(value, dict | list))
        if nested:
            fields = {key: [_("Expected a single value.")] for key in nested}
            return _bad_request(_flatten(fields), fields)
        form = ACTIVITY_FORMS[activity](data, army=army)
        if not form.is_valid():
            return _form_errors(form)
        outcome = services.army_activity(
            user=request.user,
            campaign_id=campaign_id,
            army_id=army_id,
            **form.service_kwargs(),
        )
        army = Army.objects.select_related("faction__kingdom").get(pk=army.pk)
        result = outcome.to_dict()
        body = {
            "activity": activity,
            "degree": result["degree"],
            "check": result["check"],
            "events": [
                {**event, "text": log_text(event["code"], event["params"])}
                for event in result["events"]
            ],
            "army": _army_output(self.membership, army),
        }
        return Response(body)


class ArmyLogApi(ApiListView):
    queryset = LogEntry.objects.none()
    filterset_class = LogEntryFilter

    @extend_schema(tags=["armies"], responses={200: LogEntryOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int, army_id: int) -> Response:
        """The army's kingdom-log entries, newest first (GM and the army's own side)."""
        membership, army = access_army(request.user, campaign_id, army_id)
        if not sees_army_in_full(membership, army):
            raise exceptions.PermissionDenied(
                _("Only its own side and the game master see this army's log.")
            )
        entries = self.page(LogEntry.objects.filter(army=army).select_related("actor"))
        return self.get_paginated_response(LogEntryOutput(entries, many=True).data)
