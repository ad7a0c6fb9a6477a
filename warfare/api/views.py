"""API views of campaigns, factions, settlements and members: each one an access helper, then a
selector or a service, then an output shape (a rule system's rows have their own: Pathfinder's
armies in `warfare.systems.pf2e.api`).

Errors map as the HTML views do (`warfare.api.base`): a non-member gets 404, a member without
the role 403, a rule problem 400 `{"errors": [...]}` (nothing changed), a stale `version` 409
with the object (campaign, faction, settlement) as it is now.
Lists are paginated (`?page=`) and filtered (django-filter, warfare.api.filters) after they are
scoped to what the reader may see; writes are throttled (warfare.api.throttling). Every view is
annotated with its input and output shapes for the OpenAPI schema (/api/v1/schema/).
"""

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

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
    MembershipForm,
    SettlementForm,
    campaign_factions,
)
from kingdoms.models import Campaign, CommandStaff, Faction, Membership, RuleSystem, Settlement
from kingdoms.selectors import (
    campaign_list_for,
    faction_list_visible_to,
    settlement_list_visible_to,
)
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.systems.pf2e.forms import KingdomForm
from warfare.systems.pf2e.models import Kingdom

from .base import (
    DENIED,
    LIST_ERRORS,
    WRITE_ERRORS,
    ApiListView,
    ApiView,
    bad_request,
    errors_of,
    flatten,
    form_errors,
    input_data,
    merged,
    prefixed,
    stale_response,
)
from .filters import (
    CampaignFilter,
    FactionFilter,
    MemberFilter,
    SettlementFilter,
)
from .serializers import (
    CampaignCreateInput,
    CampaignDetailOutput,
    CampaignListOutput,
    CampaignStaleOutput,
    CampaignUpdateInput,
    FactionCreateInput,
    FactionFullOutput,
    FactionOutput,
    FactionPublicOutput,
    FactionStaleOutput,
    FactionUpdateInput,
    MemberOutput,
    MemberUpdateInput,
    SettlementCreateInput,
    SettlementFullOutput,
    SettlementOutput,
    SettlementPublicOutput,
    SettlementStaleOutput,
    SettlementUpdateInput,
)

# --- Helpers of the campaign, faction, settlement and member writes -------------------------
# The input shape (warfare.api.serializers) checks types and bounds; then the HTML page's form
# (kingdoms.forms) validates the same values by the page's rules, and the page's service saves
# them. An edit (PATCH) fills the form with the row's current values overlaid with what was
# sent, and passes the service only the fields that were sent.


def _kingdom_form(kingdom: Kingdom | None, sent: dict[str, Any]) -> KingdomForm:
    """KingdomForm over the kingdom (or a new one's defaults); sent skills overlay its own."""
    base = kingdom or Kingdom()
    data = merged(base, KingdomForm.Meta.fields, {k: v for k, v in sent.items() if k != "skills"})
    skills = base.skills or {}
    for skill in pf2e_kingdom.WARFARE_SKILLS:
        current = {"modifier": 0, "rank": "untrained", **skills.get(skill, {})}
        current.update(sent.get("skills", {}).get(skill, {}))
        data[f"{skill}_modifier"] = current["modifier"]
        data[f"{skill}_rank"] = current["rank"]
    return KingdomForm(prefixed(KingdomForm, data), instance=kingdom)


def _faction_forms(campaign: Campaign, faction: Faction | None, sent: dict[str, Any]):
    """The faction page's forms over the sent values: {"": faction, "kingdom"?, "command_staff"?}
    (the records only if sent), or a 400 for a record the campaign's rule system lacks."""
    lacking = {}
    if "kingdom" in sent and campaign.rule_system != RuleSystem.PF2E:
        lacking["kingdom"] = [_("Only Pathfinder campaigns have kingdoms.")]
    if "command_staff" in sent and not campaign.uses_command_staff:
        lacking["command_staff"] = [_("Only GURPS campaigns have a command staff.")]
    if lacking:
        return bad_request(flatten(lacking), lacking)
    own = {k: v for k, v in sent.items() if k not in ("kingdom", "command_staff")}
    forms = {
        "": FactionForm(
            merged(faction or Faction(campaign=campaign), FactionForm.Meta.fields, own),
            instance=faction,
            campaign=campaign,
        )
    }
    if "kingdom" in sent:
        forms["kingdom"] = _kingdom_form(getattr(faction, "kingdom", None), sent["kingdom"])
    if "command_staff" in sent:
        staff = getattr(faction, "command_staff", None)
        data = merged(staff or CommandStaff(), CommandStaffForm.Meta.fields, sent["command_staff"])
        forms["command_staff"] = CommandStaffForm(prefixed(CommandStaffForm, data), instance=staff)
    return forms


def _sent_values(form, sent: dict[str, Any]) -> dict[str, Any]:
    """The form's cleaned values of the fields that were sent (the version separately)."""
    return {k: form.cleaned_data[k] for k in sent if k != "version" and k in form.cleaned_data}


def _record_kwargs(forms: dict[str, Any], sent: dict[str, Any]) -> dict[str, Any]:
    """`records=` ({"kingdom": ...}) and `command_staff=` of the faction services: the sent
    fields, the version."""
    kwargs: dict[str, Any] = {"records": {}}
    for key in ("kingdom", "command_staff"):
        if key in forms:
            values = _sent_values(forms[key], sent[key])
            if "version" in forms[key].fields:
                values["version"] = forms[key].service_version()
            if key == "command_staff":
                kwargs[key] = values
            else:
                kwargs["records"][key] = values
    return kwargs


def _faction_output(membership: Membership, faction: Faction) -> dict[str, Any]:
    if sees_faction_in_full(membership, faction):
        return FactionFullOutput(faction).data
    return FactionPublicOutput(faction).data


def _settlement_output(membership: Membership, settlement: Settlement) -> dict[str, Any]:
    if membership.is_gm:
        return SettlementFullOutput(settlement).data
    return SettlementPublicOutput(settlement).data


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
        sent = input_data(CampaignCreateInput, request)
        form = CampaignForm(merged(Campaign(), CampaignForm.Meta.fields, sent))
        if not form.is_valid():
            return form_errors(form)
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
        sent = input_data(CampaignUpdateInput, request, partial=True)
        if sent.get("rule_system", campaign.rule_system) != campaign.rule_system:
            fields = {
                "rule_system": [_("Chosen when the campaign was created; it cannot be changed.")]
            }
            return bad_request(flatten(fields), fields)
        form = CampaignForm(merged(campaign, CampaignForm.Meta.fields, sent), instance=campaign)
        if not form.is_valid():
            return form_errors(form)
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
            return stale_response(campaign=CampaignDetailOutput(membership).data)
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
        sent = input_data(FactionCreateInput, request)
        forms = _faction_forms(membership.campaign, None, sent)
        if isinstance(forms, Response):
            return forms
        if not all(form.is_valid() for form in forms.values()):
            return errors_of(forms)
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
        sent = input_data(FactionUpdateInput, request, partial=True)
        forms = _faction_forms(membership.campaign, faction, sent)
        if isinstance(forms, Response):
            return forms
        if not all(form.is_valid() for form in forms.values()):
            return errors_of(forms)
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
            return stale_response(faction=_faction_output(membership, faction))
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
        sent = input_data(SettlementCreateInput, request)
        form = SettlementForm(
            merged(Settlement(campaign=campaign), SettlementForm.Meta.fields, sent),
            campaign=campaign,
        )
        if not form.is_valid():
            return form_errors(form)
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
        sent = input_data(SettlementUpdateInput, request, partial=True)
        form = SettlementForm(
            merged(settlement, SettlementForm.Meta.fields, sent),
            instance=settlement,
            campaign=membership.campaign,
        )
        if not form.is_valid():
            return form_errors(form)
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
            return stale_response(settlement=_settlement_output(membership, current))
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
        sent = input_data(MemberUpdateInput, request, partial=True)
        form = MembershipForm(
            {"role": member.role, "faction": member.faction_id, **sent},
            instance=member,
            factions=campaign_factions(membership.campaign),
        )
        if not form.is_valid():
            return form_errors(form)
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
