"""API views: each one an access helper, then a selector or a service, then an output shape.

Errors map as the HTML views do: a non-member gets 404 (Http404 from the access helpers), a
member without the role 403 (PermissionDenied), a rule problem 400 `{"errors": [...]}` (the
services' ValidationError; nothing changed), a stale `version` 409 with the object (army,
campaign, faction, settlement) as it is now.
Lists are paginated (`?page=`) and filtered (django-filter, warfare.api.filters) after they are
scoped to what the reader may see; writes are throttled (warfare.api.throttling). Every view is
annotated with its input and output shapes for the OpenAPI schema (/api/v1/schema/).
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.forms.models import model_to_dict
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import exceptions, generics, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kingdoms import services as kingdom_services
from kingdoms.access import (
    access_campaign,
    access_faction,
    access_settlement,
    sees_faction_in_full,
)
from kingdoms.forms import (
    CampaignForm,
    CommandStaffForm,
    FactionForm,
    KingdomForm,
    MembershipForm,
    SettlementForm,
    campaign_factions,
)
from kingdoms.models import (
    Campaign,
    CommandStaff,
    Faction,
    Kingdom,
    Membership,
    RuleSystem,
    Settlement,
)
from kingdoms.selectors import (
    campaign_list_for,
    faction_list_visible_to,
    settlement_list_visible_to,
)
from warfare import selectors, services
from warfare.access import access_army, sees_army_in_full
from warfare.activity_forms import ACTIVITY_FORMS, ActivityForm
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.events import log_text
from warfare.models import Army, LogEntry

from .filters import (
    ArmyFilter,
    CampaignFilter,
    FactionFilter,
    LogEntryFilter,
    MemberFilter,
    SettlementFilter,
)
from .serializers import (
    ArmyActivityInput,
    ArmyActivityOutput,
    ArmyCreateInput,
    ArmyFullOutput,
    ArmyOutput,
    ArmyPublicOutput,
    CampaignCreateInput,
    CampaignDetailOutput,
    CampaignListOutput,
    CampaignStaleOutput,
    CampaignUpdateInput,
    DetailOutput,
    ErrorsOutput,
    FactionCreateInput,
    FactionFullOutput,
    FactionOutput,
    FactionPublicOutput,
    FactionStaleOutput,
    FactionUpdateInput,
    LogEntryOutput,
    MemberOutput,
    MemberUpdateInput,
    SettlementCreateInput,
    SettlementFullOutput,
    SettlementOutput,
    SettlementPublicOutput,
    SettlementStaleOutput,
    SettlementUpdateInput,
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


# --- Helpers of the campaign, faction, settlement and member writes -------------------------
# The input shape (warfare.api.serializers) checks types and bounds; then the HTML page's form
# (kingdoms.forms) validates the same values by the page's rules, and the page's service saves
# them. An edit (PATCH) fills the form with the row's current values overlaid with what was
# sent, and passes the service only the fields that were sent.


def _input(serializer_class, request: Request, *, partial: bool = False) -> dict[str, Any]:
    serializer = serializer_class(data=_json_object(request), partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _merged(instance, fields: list[str], sent: dict[str, Any]) -> dict[str, Any]:
    """Form data: `instance`'s current values (a new instance: the defaults), then `sent`."""
    return {**model_to_dict(instance, fields=fields), **sent}


def _prefixed(form_class, data: dict[str, Any]) -> dict[str, Any]:
    return {f"{form_class.prefix}-{key}": value for key, value in data.items()}


def _errors_of(forms: dict[str, Any]) -> Response:
    """400 with the errors of several forms; a nested form's fields as `kingdom.level`."""
    fields: dict[str, list[str]] = {}
    for key, form in forms.items():
        for name, messages in form.errors.items():
            label = name if not key else key if name == "__all__" else f"{key}.{name}"
            fields.setdefault(label, []).extend(str(message) for message in messages)
    return _bad_request(_flatten(fields), fields)


def _stale_errors() -> list[str]:
    return [_("Nothing was saved: someone changed this meanwhile.")]


def _kingdom_form(kingdom: Kingdom | None, sent: dict[str, Any]) -> KingdomForm:
    """KingdomForm over the kingdom (or a new one's defaults); sent skills overlay its own."""
    base = kingdom or Kingdom()
    data = _merged(base, KingdomForm.Meta.fields, {k: v for k, v in sent.items() if k != "skills"})
    skills = base.skills or {}
    for skill in pf2e_kingdom.WARFARE_SKILLS:
        current = {"modifier": 0, "rank": "untrained", **skills.get(skill, {})}
        current.update(sent.get("skills", {}).get(skill, {}))
        data[f"{skill}_modifier"] = current["modifier"]
        data[f"{skill}_rank"] = current["rank"]
    return KingdomForm(_prefixed(KingdomForm, data), instance=kingdom)


def _faction_forms(campaign: Campaign, faction: Faction | None, sent: dict[str, Any]):
    """The faction page's forms over the sent values: {"": faction, "kingdom"?, "command_staff"?}
    (the records only if sent), or a 400 for a record the campaign's rule system lacks."""
    lacking = {}
    if "kingdom" in sent and not campaign.uses_kingdoms:
        lacking["kingdom"] = [_("Only Pathfinder campaigns have kingdoms.")]
    if "command_staff" in sent and not campaign.uses_command_staff:
        lacking["command_staff"] = [_("Only GURPS campaigns have a command staff.")]
    if lacking:
        return _bad_request(_flatten(lacking), lacking)
    own = {k: v for k, v in sent.items() if k not in ("kingdom", "command_staff")}
    forms = {
        "": FactionForm(
            _merged(faction or Faction(campaign=campaign), FactionForm.Meta.fields, own),
            instance=faction,
            campaign=campaign,
        )
    }
    if "kingdom" in sent:
        forms["kingdom"] = _kingdom_form(getattr(faction, "kingdom", None), sent["kingdom"])
    if "command_staff" in sent:
        staff = getattr(faction, "command_staff", None)
        data = _merged(staff or CommandStaff(), CommandStaffForm.Meta.fields, sent["command_staff"])
        forms["command_staff"] = CommandStaffForm(_prefixed(CommandStaffForm, data), instance=staff)
    return forms


def _sent_values(form, sent: dict[str, Any]) -> dict[str, Any]:
    """The form's cleaned values of the fields that were sent (the version separately)."""
    return {k: form.cleaned_data[k] for k in sent if k != "version" and k in form.cleaned_data}


def _record_kwargs(forms: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
    """`kingdom=` and `command_staff=` of the faction services: the sent fields, the version."""
    kwargs = {}
    for key in ("kingdom", "command_staff"):
        if key in forms:
            values = _sent_values(forms[key], sent[key])
            if "version" in forms[key].fields:
                values["version"] = forms[key].service_version()
            kwargs[key] = values
    return kwargs


def _faction_output(membership: Membership, faction: Faction) -> dict[str, Any]:
    if sees_faction_in_full(membership, faction):
        return FactionFullOutput(faction).data
    return FactionPublicOutput(faction).data


def _settlement_output(membership: Membership, settlement: Settlement) -> dict[str, Any]:
    if membership.is_gm:
        return SettlementFullOutput(settlement).data
    return SettlementPublicOutput(settlement).data


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
    serializer_class = CampaignCreateInput  # what OPTIONS describes for POST

    @extend_schema(
        tags=["campaigns"], responses={200: CampaignListOutput(many=True), **LIST_ERRORS}
    )
    def get(self, request: Request) -> Response:
        """The campaigns I belong to, with my role in each."""
        campaigns = self.page(campaign_list_for(user=request.user))
        return self.get_paginated_response(CampaignListOutput(campaigns, many=True).data)

    @extend_schema(
        tags=["campaigns"],
        request=CampaignCreateInput,
        responses={201: CampaignDetailOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request) -> Response:
        """Start a campaign: whoever creates it becomes its game master."""
        sent = _input(CampaignCreateInput, request)
        form = CampaignForm(_merged(Campaign(), CampaignForm.Meta.fields, sent))
        if not form.is_valid():
            return _form_errors(form)
        campaign = kingdom_services.campaign_create(user=request.user, **form.cleaned_data)
        membership = access_campaign(request.user, campaign.pk)
        return Response(CampaignDetailOutput(membership).data, status=status.HTTP_201_CREATED)


class CampaignDetailApi(ApiView):
    @extend_schema(tags=["campaigns"], responses={200: CampaignDetailOutput, **DENIED})
    def get(self, request: Request, campaign_id: int) -> Response:
        """The campaign as I see it: my role and my faction."""
        membership = access_campaign(request.user, campaign_id)
        return Response(CampaignDetailOutput(membership).data)

    @extend_schema(
        tags=["campaigns"],
        request=CampaignUpdateInput,
        responses={200: CampaignDetailOutput, **WRITE_ERRORS, 409: CampaignStaleOutput},
    )
    def patch(self, request: Request, campaign_id: int) -> Response:
        """The GM edits the campaign. Its rule system is chosen at creation for good."""
        campaign = access_campaign(request.user, campaign_id, gm=True).campaign
        sent = _input(CampaignUpdateInput, request, partial=True)
        if sent.get("rule_system", campaign.rule_system) != campaign.rule_system:
            fields = {
                "rule_system": [_("Chosen when the campaign was created; it cannot be changed.")]
            }
            return _bad_request(_flatten(fields), fields)
        form = CampaignForm(_merged(campaign, CampaignForm.Meta.fields, sent), instance=campaign)
        if not form.is_valid():
            return _form_errors(form)
        changes = _sent_values(form, sent)
        changes.pop("rule_system", None)
        try:
            kingdom_services.campaign_update(
                user=request.user,
                campaign_id=campaign_id,
                version=form.service_version(),
                **changes,
            )
        except kingdom_services.StaleEdit:
            membership = access_campaign(request.user, campaign_id)
            body = {"errors": _stale_errors(), "campaign": CampaignDetailOutput(membership).data}
            return Response(body, status=status.HTTP_409_CONFLICT)
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
            faction_list_visible_to(membership=membership).select_related(
                "kingdom", "command_staff"
            )
        )
        data = [
            FactionFullOutput(faction).data
            if sees_faction_in_full(membership, faction)
            else FactionPublicOutput(faction).data
            for faction in factions
        ]
        return self.get_paginated_response(data)

    @extend_schema(
        tags=["factions"],
        request=FactionCreateInput,
        responses={201: FactionOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """The GM adds a faction: with its kingdom numbers and skills in a Pathfinder campaign
        (`kingdom`), its command staff in a GURPS one (`command_staff`)."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        sent = _input(FactionCreateInput, request)
        forms = _faction_forms(membership.campaign, None, sent)
        if isinstance(forms, Response):
            return forms
        if not all(form.is_valid() for form in forms.values()):
            return _errors_of(forms)
        faction = kingdom_services.faction_create(
            user=request.user,
            campaign_id=campaign_id,
            **_record_kwargs(forms, sent),
            **forms[""].model_data(),
        )
        membership, faction = access_faction(request.user, campaign_id, faction.pk)
        return Response(_faction_output(membership, faction), status=status.HTTP_201_CREATED)


class FactionDetailApi(ApiView):
    @extend_schema(tags=["factions"], responses={200: FactionOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, faction_id: int) -> Response:
        """A faction the member may see; its numbers only for the GM and its own players."""
        membership, faction = access_faction(request.user, campaign_id, faction_id)
        return Response(_faction_output(membership, faction))

    @extend_schema(
        tags=["factions"],
        request=FactionUpdateInput,
        responses={200: FactionOutput, **WRITE_ERRORS, 409: FactionStaleOutput},
    )
    def patch(self, request: Request, campaign_id: int, faction_id: int) -> Response:
        """The GM edits a faction, its kingdom (`kingdom`) or command staff (`command_staff`).
        Each carries its own `version`; any stale one refuses the whole edit (409)."""
        membership, faction = access_faction(request.user, campaign_id, faction_id, gm=True)
        sent = _input(FactionUpdateInput, request, partial=True)
        forms = _faction_forms(membership.campaign, faction, sent)
        if isinstance(forms, Response):
            return forms
        if not all(form.is_valid() for form in forms.values()):
            return _errors_of(forms)
        try:
            kingdom_services.faction_update(
                user=request.user,
                campaign_id=campaign_id,
                faction_id=faction_id,
                version=forms[""].service_version(),
                **_record_kwargs(forms, sent),
                **_sent_values(forms[""], sent),
            )
        except kingdom_services.StaleEdit:
            membership, faction = access_faction(request.user, campaign_id, faction_id)
            body = {"errors": _stale_errors(), "faction": _faction_output(membership, faction)}
            return Response(body, status=status.HTTP_409_CONFLICT)
        membership, faction = access_faction(request.user, campaign_id, faction_id)
        return Response(_faction_output(membership, faction))


# --- Settlements ----------------------------------------------------------------------------


class SettlementListApi(ApiListView):
    queryset = Settlement.objects.none()
    filterset_class = SettlementFilter
    serializer_class = SettlementCreateInput  # what OPTIONS describes for POST

    @extend_schema(
        tags=["settlements"], responses={200: SettlementOutput(many=True), **LIST_ERRORS}
    )
    def get(self, request: Request, campaign_id: int) -> Response:
        """The settlements of the factions the member may see (all of them for the GM)."""
        membership = access_campaign(request.user, campaign_id)
        settlements = self.page(settlement_list_visible_to(membership=membership))
        data = [_settlement_output(membership, settlement) for settlement in settlements]
        return self.get_paginated_response(data)

    @extend_schema(
        tags=["settlements"],
        request=SettlementCreateInput,
        responses={201: SettlementOutput, **WRITE_ERRORS},
    )
    def post(self, request: Request, campaign_id: int) -> Response:
        """The GM founds a settlement for one of the campaign's factions."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        campaign = membership.campaign
        sent = _input(SettlementCreateInput, request)
        form = SettlementForm(
            _merged(Settlement(campaign=campaign), SettlementForm.Meta.fields, sent),
            campaign=campaign,
        )
        if not form.is_valid():
            return _form_errors(form)
        settlement = kingdom_services.settlement_create(
            user=request.user, campaign_id=campaign_id, **form.cleaned_data
        )
        return Response(_settlement_output(membership, settlement), status=status.HTTP_201_CREATED)


class SettlementDetailApi(ApiView):
    @extend_schema(tags=["settlements"], responses={200: SettlementOutput, **DENIED})
    def get(self, request: Request, campaign_id: int, settlement_id: int) -> Response:
        """A settlement of a faction the member may see; its notes only for the GM."""
        membership = access_campaign(request.user, campaign_id)
        settlement = get_object_or_404(
            settlement_list_visible_to(membership=membership), pk=settlement_id
        )
        return Response(_settlement_output(membership, settlement))

    @extend_schema(
        tags=["settlements"],
        request=SettlementUpdateInput,
        responses={200: SettlementOutput, **WRITE_ERRORS, 409: SettlementStaleOutput},
    )
    def patch(self, request: Request, campaign_id: int, settlement_id: int) -> Response:
        """The GM edits a settlement."""
        membership, settlement = access_settlement(
            request.user, campaign_id, settlement_id, gm=True
        )
        sent = _input(SettlementUpdateInput, request, partial=True)
        form = SettlementForm(
            _merged(settlement, SettlementForm.Meta.fields, sent),
            instance=settlement,
            campaign=membership.campaign,
        )
        if not form.is_valid():
            return _form_errors(form)
        try:
            kingdom_services.settlement_update(
                user=request.user,
                campaign_id=campaign_id,
                settlement_id=settlement_id,
                version=form.service_version(),
                **_sent_values(form, sent),
            )
        except kingdom_services.StaleEdit:
            current = Settlement.objects.get(pk=settlement_id)
            body = {
                "errors": _stale_errors(),
                "settlement": _settlement_output(membership, current),
            }
            return Response(body, status=status.HTTP_409_CONFLICT)
        current = Settlement.objects.get(pk=settlement_id)
        return Response(_settlement_output(membership, current))


# --- Members --------------------------------------------------------------------------------


class MemberListApi(ApiListView):
    queryset = Membership.objects.none()
    filterset_class = MemberFilter

    @extend_schema(tags=["members"], responses={200: MemberOutput(many=True), **LIST_ERRORS})
    def get(self, request: Request, campaign_id: int) -> Response:
        """Who plays in the campaign: username, role and faction (a faction the reader may not
        see shows as null)."""
        membership = access_campaign(request.user, campaign_id)
        members = self.page(
            Membership.objects.filter(campaign_id=campaign_id).select_related("user")
        )
        visible = set(faction_list_visible_to(membership=membership).values_list("pk", flat=True))
        data = MemberOutput(members, many=True, context={"visible_factions": visible}).data
        return self.get_paginated_response(data)


class MemberDetailApi(ApiView):
    @extend_schema(
        tags=["members"],
        request=MemberUpdateInput,
        responses={200: MemberOutput, **WRITE_ERRORS},
    )
    def patch(self, request: Request, campaign_id: int, membership_id: int) -> Response:
        """The GM changes a member's role or faction. The last GM cannot become a player."""
        membership = access_campaign(request.user, campaign_id, gm=True)
        member = get_object_or_404(
            Membership.objects.select_related("user"), campaign_id=campaign_id, pk=membership_id
        )
        sent = _input(MemberUpdateInput, request, partial=True)
        form = MembershipForm(
            {"role": member.role, "faction": member.faction_id, **sent},
            instance=member,
            factions=campaign_factions(membership.campaign),
        )
        if not form.is_valid():
            return _form_errors(form)
        member = kingdom_services.membership_update(
            user=request.user,
            campaign_id=campaign_id,
            membership_id=membership_id,
            **form.cleaned_data,
        )
        return Response(MemberOutput(member).data)

    @extend_schema(tags=["members"], responses={204: None, **WRITE_ERRORS})
    def delete(self, request: Request, campaign_id: int, membership_id: int) -> Response:
        """The GM removes a member; a player may remove only themselves (leave). The last GM
        cannot leave."""
        kingdom_services.membership_remove(
            user=request.user, campaign_id=campaign_id, membership_id=membership_id
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


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
        if ActivityForm.is_stale(data, army):
            raise services.StaleEdit(army)  # 409 with the army as it is now
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
