"""Pathfinder's part of the JSON API (under /api/v1/, `warfare.api_urls`): a faction's armies,
an army, its activities and its kingdom log. Built on the shared `warfare.api.base`: an access
helper, then a selector or a service, then an output shape; lists paginated and filtered after
they are scoped to what the reader may see.
"""

from typing import Any

import django_filters
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from kingdoms.access import sees_faction_in_full
from kingdoms.models import Membership
from warfare.api.base import (
    DENIED,
    LIST_ERRORS,
    WRITE_ERRORS,
    ApiListView,
    ApiView,
    OptionalBeyond,
    bad_request,
    flatten,
    form_errors,
    json_object,
    stale_response,
)
from warfare.api.filters import IntegerFilter
from warfare.engine.systems.pf2e.tables import MAX_LEVEL, MIN_LEVEL
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import selectors, services
from .access import access_army, access_kingdom, sees_army_in_full
from .activity_forms import ACTIVITY_FORMS, ActivityForm
from .events import log_text
from .mapping import army_stat_block
from .models import SPECIALIZED_CHOICES, Army, ArmyStatus, ArmyType, LogEntry

# --- Shapes ---------------------------------------------------------------------------------


class ArmyPublicOutput(serializers.Serializer):
    """What any member who may see the army learns: no numbers."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    type = serializers.CharField(source="army_type")
    status = serializers.CharField()
    faction = serializers.IntegerField(source="faction_id")


class ArmyFullOutput(ArmyPublicOutput):
    """The GM's and the army's own side's view: state and the stat block with its working.

    Pass `context={"gm": True}` to include the GM's notes.
    """

    specialized = serializers.CharField()
    level = serializers.IntegerField()
    level_override = serializers.IntegerField(allow_null=True)
    hp = serializers.IntegerField()
    conditions = serializers.JSONField()
    tactics = serializers.JSONField()
    gear = serializers.JSONField()
    potion_doses = serializers.IntegerField()
    hex = serializers.CharField()
    garrison = serializers.CharField()
    garrison_consumption_cut = serializers.BooleanField()
    timers = serializers.JSONField()
    activities_this_turn = serializers.IntegerField()
    fought_this_turn = serializers.BooleanField()
    version = serializers.IntegerField()
    stat_block = serializers.SerializerMethodField()
    updated_at = serializers.DateTimeField()

    def get_stat_block(self, army: Army) -> dict[str, Any]:
        return army_stat_block(army).to_dict()

    def to_representation(self, army: Army) -> dict[str, Any]:
        data = super().to_representation(army)
        if self.context.get("gm"):
            data["notes"] = army.notes
        return data


class LogEntryOutput(serializers.Serializer):
    id = serializers.IntegerField()
    code = serializers.CharField()
    text = serializers.SerializerMethodField()
    data = serializers.JSONField()
    turn = serializers.IntegerField()
    actor = serializers.CharField(source="actor.username", default=None, allow_null=True)
    created_at = serializers.DateTimeField()

    def get_text(self, entry) -> str:
        return log_text(entry.code, entry.data or {})


# --- Input ----------------------------------------------------------------------------------

PLACEABLE_TACTICS = [
    key for key, tactic in TACTICS.items() if not tactic.unique and not tactic.mandatory
]


class ArmyCreateInput(serializers.Serializer):
    """The GM's placement form (warfare.systems.pf2e.forms.ArmyCreateForm) as JSON."""

    name = serializers.CharField(max_length=120)
    army_type = serializers.ChoiceField(choices=ArmyType.choices)
    specialized = serializers.ChoiceField(
        choices=SPECIALIZED_CHOICES, required=False, allow_blank=True, default=""
    )
    level_override = serializers.IntegerField(
        min_value=MIN_LEVEL, max_value=MAX_LEVEL, required=False, allow_null=True, default=None
    )
    tactics = serializers.ListField(
        child=serializers.ChoiceField(choices=PLACEABLE_TACTICS), required=False, default=list
    )
    hex = serializers.CharField(max_length=16, required=False, allow_blank=True, default="")
    notes = serializers.CharField(required=False, allow_blank=True, default="")


class ArmyActivityInput(serializers.Serializer):
    """One Army activity. Besides these, send the fields of the activity's form (e.g. `skill`,
    `destination`, `hexes` for `deploy_army`), as on the army's activity page."""

    activity = serializers.ChoiceField(choices=list(ACTIVITY_FORMS))
    version = serializers.IntegerField(help_text="The army's `version` as you last read it.")
    typed_die = serializers.IntegerField(
        min_value=1,
        max_value=20,
        required=False,
        help_text="A d20 rolled at the table; leave it out to let the server roll.",
    )


class ArmyOutput(OptionalBeyond, ArmyFullOutput):
    """An army. Everything past its public face (id, name, type, status, faction) only for the
    GM and the army's own side; `notes` only for the GM."""

    public = ArmyPublicOutput
    stat_block = serializers.DictField(help_text="Each stat with its value and working.")
    notes = serializers.CharField()


class EventOutput(serializers.Serializer):
    code = serializers.CharField()
    params = serializers.DictField()
    text = serializers.CharField()


class ArmyActivityOutput(serializers.Serializer):
    activity = serializers.CharField()
    degree = serializers.CharField(allow_null=True)
    check = serializers.JSONField(allow_null=True, help_text="The rolled check, if any.")
    events = EventOutput(many=True)
    army = ArmyOutput()


class StaleOutput(serializers.Serializer):
    """The army changed since the `version` sent: here it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    army = ArmyOutput(allow_null=True)


# --- Filters -------------------------------------------------------------------------------


class ArmyFilter(django_filters.FilterSet):
    status = django_filters.ChoiceFilter(choices=ArmyStatus.choices)
    type = django_filters.ChoiceFilter(field_name="army_type", choices=ArmyType.choices)

    class Meta:
        model = Army
        fields = ["status", "type"]


class LogEntryFilter(django_filters.FilterSet):
    code = django_filters.CharFilter(help_text="An event code, e.g. `army.placed`.")
    turn = IntegerFilter(min_value=0, max_value=2**31 - 1)

    class Meta:
        model = LogEntry
        fields = ["code", "turn"]


# --- Views ---------------------------------------------------------------------------------


def _army_output(membership: Membership, army: Army) -> dict[str, Any]:
    if sees_army_in_full(membership, army):
        return ArmyFullOutput(army, context={"gm": membership.is_gm}).data
    return ArmyPublicOutput(army).data


class _ArmyErrors:
    """A stale army (`services.StaleEdit`): 409 with the army as it is now."""

    def handle_exception(self, exc):
        if isinstance(exc, services.StaleEdit):
            membership = getattr(self, "membership", None)
            army = Army.objects.select_related("faction__kingdom").get(pk=exc.army.pk)
            return stale_response(
                [_("This army changed meanwhile. Here it is now; try again.")],
                army=_army_output(membership, army) if membership else None,
            )
        return super().handle_exception(exc)


class FactionArmyListApi(_ArmyErrors, ApiListView):
    queryset = Army.objects.none()
    filterset_class = ArmyFilter
    serializer_class = ArmyCreateInput  # what OPTIONS describes for POST

    @extend_schema(tags=["armies"], responses={200: ArmyOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int, faction_id: int) -> Response:
        """The faction's armies: all of them, in full, for the GM and the faction's players;
        the active ones by their public face for the other members."""
        membership, faction = access_kingdom(request.user, campaign_id, faction_id)
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
        membership, _faction = access_kingdom(request.user, campaign_id, faction_id, gm=True)
        serializer = ArmyCreateInput(data=json_object(request))
        serializer.is_valid(raise_exception=True)
        army = services.army_create(
            user=request.user,
            campaign_id=campaign_id,
            faction_id=faction_id,
            **serializer.validated_data,
        )
        army = Army.objects.select_related("faction__kingdom").get(pk=army.pk)
        return Response(_army_output(membership, army), status=status.HTTP_201_CREATED)


class ArmyDetailApi(_ArmyErrors, ApiView):
    @extend_schema(tags=["armies"], responses={200: ArmyOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, army_id: int) -> Response:
        """An army: in full (with its stat block) for the GM and its own side."""
        membership, army = access_army(request.user, campaign_id, army_id)
        return Response(_army_output(membership, army))


class ArmyActivityApi(_ArmyErrors, ApiView):
    """Take one Army activity: `{"activity", "version", "typed_die"?, ...the activity's fields}`.

    The fields are those of the activity's HTML form (`warfare.systems.pf2e.activity_forms`),
    which validates them here too.
    """

    @extend_schema(
        tags=["armies"],
        request=ArmyActivityInput,
        responses={200: ArmyActivityOutput, **WRITE_ERRORS, 409: StaleOutput},
    )
    def post(self, request: Request, campaign_id: int, army_id: int) -> Response:
        self.membership, army = access_army(request.user, campaign_id, army_id, command=True)
        data = json_object(request)
        activity = data.get("activity")
        if not isinstance(activity, str) or activity not in ACTIVITY_FORMS:
            choices = ", ".join(ACTIVITY_FORMS)
            return bad_request(
                [_("Unknown activity. Choose one of: %(choices)s.") % {"choices": choices}],
                {"activity": [_("Unknown activity.")]},
            )
        nested = sorted(key for key, value in data.items() if isinstance(value, dict | list))
        if nested:
            fields = {key: [_("Expected a single value.")] for key in nested}
            return bad_request(flatten(fields), fields)
        if ActivityForm.is_stale(data, army):
            raise services.StaleEdit(army)  # 409 with the army as it is now
        form = ACTIVITY_FORMS[activity](data, army=army)
        if not form.is_valid():
            return form_errors(form)
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


class ArmyLogApi(_ArmyErrors, ApiListView):
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
