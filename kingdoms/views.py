"""Thin views: parse, authorise (access_*), call one service, render a page or a partial."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from . import portability, rulesystems, selectors, services
from .access import access_campaign, access_faction, access_settlement, sees_faction_in_full
from .forms import (
    CampaignDeleteForm,
    CampaignForm,
    CampaignImportForm,
    CommandStaffForm,
    FactionForm,
    InviteForm,
    MembershipForm,
    SettlementForm,
    campaign_factions,
)
from .models import Invite
from .pages import add_errors, edit_page, form_page, invalid, stale


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("kingdoms:campaign-list")
    return redirect("login")


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    campaigns = selectors.campaign_list_for(user=request.user)
    return render(request, "kingdoms/campaign_list.html", {"campaigns": campaigns})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            try:
                campaign = services.campaign_create(user=request.user, **form.cleaned_data)
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, _("Campaign created. You are its game master."))
                return redirect(campaign)
        return invalid(request, "kingdoms/campaign_form.html", {"form": form})
    return render(request, "kingdoms/campaign_form.html", {"form": form})


@login_required
def campaign_detail(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id)
    context = selectors.campaign_dashboard(membership=membership)
    return render(request, "kingdoms/campaign_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    campaign = membership.campaign
    form = CampaignForm(request.POST or None, instance=campaign)
    context = {"form": form, "campaign": campaign}
    if request.method == "POST":
        if form.is_valid():
            data = {k: v for k, v in form.model_data().items() if k != "rule_system"}
            try:
                services.campaign_update(
                    user=request.user,
                    campaign_id=campaign_id,
                    version=form.service_version(),
                    **data,
                )
            except services.StaleEdit as changed:
                form = CampaignForm(instance=changed.instance)
                context = {"form": form, "campaign": changed.instance}
                return stale(request, "kingdoms/campaign_form.html", context)
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(request, _("Campaign saved."))
                return redirect(campaign)
        campaign.refresh_from_db()
        return invalid(request, "kingdoms/campaign_form.html", context)
    return render(request, "kingdoms/campaign_form.html", context)


@login_required
def campaign_export(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign as one JSON file, downloaded as an attachment (GMs only)."""
    campaign = access_campaign(request.user, campaign_id, gm=True).campaign
    response = HttpResponse(
        portability.campaign_export_bytes(campaign), content_type="application/json"
    )
    filename = f"{slugify(campaign.name) or 'campaign'}-campaign.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@login_required
@require_http_methods(["GET", "POST"])
def campaign_import(request: HttpRequest) -> HttpResponse:
    """Upload an exported file: a new campaign whose game master is the uploader."""
    form = CampaignImportForm(
        request.POST or None, request.FILES or None, max_bytes=portability.MAX_UPLOAD_BYTES
    )
    if request.method == "POST":
        if form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                limit = portability.MAX_UPLOAD_BYTES
                data = portability.parse_document(upload.read(limit + 1), max_bytes=limit)
                campaign = portability.campaign_import(user=request.user, data=data)
            except portability.ImportRefused as refused:
                form.add_error("file", refused)
            else:
                messages.success(
                    request,
                    _("Campaign “%(name)s” imported. You are its game master.")
                    % {"name": campaign.name},
                )
                if campaign.import_skipped:
                    messages.warning(
                        request,
                        _("These members have no account here and were left out: %(names)s.")
                        % {"names": ", ".join(campaign.import_skipped)},
                    )
                return redirect(campaign)
        return invalid(request, "kingdoms/campaign_import.html", {"form": form})
    return render(request, "kingdoms/campaign_import.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def campaign_delete(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The one hard delete: the GM types the campaign's exact name to confirm."""
    campaign = access_campaign(request.user, campaign_id, gm=True).campaign
    form = CampaignDeleteForm(request.POST or None)
    context = {"form": form, "campaign": campaign}
    if request.method == "POST":
        if form.is_valid():
            try:
                services.campaign_delete(
                    user=request.user,
                    campaign_id=campaign_id,
                    confirm_name=form.cleaned_data["confirm_name"],
                )
            except ValidationError as error:
                add_errors(form, error)
            else:
                messages.success(
                    request, _("Campaign “%(name)s” deleted.") % {"name": campaign.name}
                )
                return redirect("kingdoms:campaign-list")
        return invalid(request, "kingdoms/campaign_delete.html", context)
    return render(request, "kingdoms/campaign_delete.html", context)


def _faction_forms(request, campaign, faction=None, *, bound: bool = True):
    data = request.POST if bound and request.method == "POST" else None
    forms = {"form": FactionForm(data, instance=faction, campaign=campaign)}
    for record in rulesystems.faction_records(campaign.rule_system):
        instance = getattr(faction, record.key, None) if faction is not None else None
        forms[f"{record.key}_form"] = record.form(data, instance=instance, campaign=campaign)
    if campaign.uses_command_staff:
        forms["staff_form"] = CommandStaffForm(
            data, instance=getattr(faction, "command_staff", None), campaign=campaign
        )
    return forms


def _faction_context(campaign, forms, faction=None) -> dict:
    records = [form for name, form in forms.items() if name not in ("form", "staff_form")]
    return {
        "campaign": campaign,
        **({"faction": faction} if faction is not None else {}),
        **forms,
        # Called by the template once the forms were validated (the page's error banner).
        "records_invalid": lambda: any(form.errors for form in records),
    }


def _faction_save(request, campaign, forms, faction=None):
    """Validate every form of the faction page and save them in one service call."""
    if not all(form.is_valid() for form in forms.values()):
        return None
    kwargs = forms["form"].model_data()
    if faction is not None:
        kwargs["version"] = forms["form"].service_version()
    kwargs["records"] = {
        record.key: forms[f"{record.key}_form"].service_data()
        for record in rulesystems.faction_records(campaign.rule_system)
    }
    if "staff_form" in forms:
        kwargs["command_staff"] = forms["staff_form"].service_data()
    try:
        if faction is None:
            return services.faction_create(user=request.user, campaign_id=campaign.pk, **kwargs)
        return services.faction_update(
            user=request.user, campaign_id=campaign.pk, faction_id=faction.pk, **kwargs
        )
    except ValidationError as error:
        add_errors(forms["form"], error)
        return None


@login_required
@require_http_methods(["GET", "POST"])
def faction_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_campaign(request.user, campaign_id, gm=True).campaign
    forms = _faction_forms(request, campaign)
    context = _faction_context(campaign, forms)
    if request.method == "POST":
        faction = _faction_save(request, campaign, forms)
        if faction is not None:
            messages.success(request, _("Faction “%(name)s” created.") % {"name": faction.name})
            return redirect("kingdoms:faction-detail", campaign_id, faction.pk)
        return invalid(request, "kingdoms/faction_form.html", context)
    return render(request, "kingdoms/faction_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def faction_edit(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    membership, faction = access_faction(request.user, campaign_id, faction_id, gm=True)
    campaign = membership.campaign
    forms = _faction_forms(request, campaign, faction)
    context = _faction_context(campaign, forms, faction)
    if request.method == "POST":
        try:
            saved = _faction_save(request, campaign, forms, faction)
        except services.StaleEdit:
            membership, faction = access_faction(request.user, campaign_id, faction_id, gm=True)
            forms = _faction_forms(request, membership.campaign, faction, bound=False)
            context = _faction_context(membership.campaign, forms, faction)
            return stale(request, "kingdoms/faction_form.html", context)
        if saved is not None:
            messages.success(request, _("Faction saved."))
            return redirect("kingdoms:faction-detail", campaign_id, faction.pk)
        return invalid(request, "kingdoms/faction_form.html", context)
    return render(request, "kingdoms/faction_form.html", context)


@login_required
def faction_detail(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    membership, faction = access_faction(request.user, campaign_id, faction_id)
    full = sees_faction_in_full(membership, faction)
    settlements = selectors.settlement_list_visible_to(membership=membership).filter(
        faction=faction
    )
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "faction": faction,
        "full": full,
        "settlements": settlements,
    }
    for record in rulesystems.faction_records(membership.campaign.rule_system) if full else ():
        if record.sheet is not None and hasattr(faction, record.key):
            context.update(record.sheet(getattr(faction, record.key)))
    return render(request, "kingdoms/faction_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def settlement_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_campaign(request.user, campaign_id, gm=True).campaign
    initial = {"faction": request.GET.get("faction")} if request.GET.get("faction") else None
    form = SettlementForm(request.POST or None, campaign=campaign, initial=initial)
    return form_page(
        request,
        "kingdoms/settlement_form.html",
        {"campaign": campaign, "form": form},
        save=lambda f: services.settlement_create(
            user=request.user, campaign_id=campaign_id, **f.cleaned_data
        ),
        success=_("Settlement created."),
        done=lambda _row: campaign,
    )


@login_required
@require_http_methods(["GET", "POST"])
def settlement_edit(request: HttpRequest, campaign_id: int, settlement_id: int) -> HttpResponse:
    membership, settlement = access_settlement(request.user, campaign_id, settlement_id, gm=True)
    campaign = membership.campaign
    return edit_page(
        request,
        "kingdoms/settlement_form.html",
        {"campaign": campaign},
        noun="settlement",
        row=settlement,
        form=lambda data, instance: SettlementForm(data, instance=instance, campaign=campaign),
        update=lambda **fields: services.settlement_update(
            user=request.user, campaign_id=campaign_id, settlement_id=settlement_id, **fields
        ),
        success=_("Settlement saved."),
        done=lambda _row: campaign,
    )


def _members_context(membership, *, member_forms=None, invite_form=None) -> dict:
    campaign = membership.campaign
    factions = campaign_factions(campaign)
    members = selectors.member_list(campaign_id=campaign.pk)
    member_forms = member_forms or {}
    return {
        "campaign": campaign,
        "membership": membership,
        "member_rows": [
            (m, member_forms.get(m.pk) or MembershipForm(instance=m, factions=factions))
            for m in members
        ],
        "invites": selectors.invite_list(campaign_id=campaign.pk),
        "invite_form": invite_form or InviteForm(factions=factions),
    }


def _members_response(request, membership, *, partial: str, status: int = 200, **forms):
    """The members page, or just the swapped panel for an htmx request."""
    template = "kingdoms/members.html"
    if request.htmx:
        template += f"#{partial}"
    context = _members_context(membership, **forms)
    return render(request, template, context, status=status)


def _members_done(request, membership, message: str, *, partial: str) -> HttpResponse:
    """A change on the members page made: its message, then the swapped panel for an htmx
    request, the members page again otherwise."""
    messages.success(request, message)
    if request.htmx:
        return _members_response(request, membership, partial=partial)
    return redirect("kingdoms:members", membership.campaign_id)


@login_required
def members(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    return render(request, "kingdoms/members.html", _members_context(membership))


@login_required
@require_POST
def member_update(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    member = get_object_or_404(
        membership.campaign.memberships.select_related("user"), pk=membership_id
    )
    form = MembershipForm(
        request.POST, instance=member, factions=campaign_factions(membership.campaign)
    )
    if form.is_valid():
        try:
            services.membership_update(
                user=request.user,
                campaign_id=campaign_id,
                membership_id=membership_id,
                **form.cleaned_data,
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            membership = access_campaign(request.user, campaign_id)
            if not membership.is_gm:
                # A GM made themselves a player: the members page is no longer theirs.
                messages.success(request, _("Member updated."))
                url = membership.campaign.get_absolute_url()
                return HttpResponseClientRedirect(url) if request.htmx else redirect(url)
            return _members_done(request, membership, _("Member updated."), partial="member-list")
    member.refresh_from_db()
    return _members_response(
        request,
        membership,
        partial="member-list",
        status=400,
        member_forms={member.pk: form},
    )


@login_required
@require_POST
def member_remove(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id)
    leaving = membership.pk == membership_id
    try:
        services.membership_remove(
            user=request.user, campaign_id=campaign_id, membership_id=membership_id
        )
    except ValidationError as error:
        # Only a GM can hit this: the campaign's last GM tried to leave. Refuse and say why.
        messages.error(request, " ".join(error.messages))
        return _members_response(request, membership, partial="member-list", status=409)
    if leaving:
        messages.success(request, _("You left the campaign."))
        return redirect("kingdoms:campaign-list")
    return _members_done(request, membership, _("Member removed."), partial="member-list")


@login_required
@require_POST
def invite_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    form = InviteForm(request.POST, factions=campaign_factions(membership.campaign))
    if not form.is_valid():
        return _members_response(
            request, membership, partial="invite-panel", status=400, invite_form=form
        )
    services.invite_create(
        user=request.user,
        campaign_id=campaign_id,
        faction=form.cleaned_data["faction"],
        lifetime=form.cleaned_data["lifetime"],
    )
    return _members_done(
        request, membership, _("Invite link created. Send it to your player."),
        partial="invite-panel",
    )  # fmt: skip


@login_required
@require_POST
def invite_revoke(request: HttpRequest, campaign_id: int, invite_id: int) -> HttpResponse:
    membership = access_campaign(request.user, campaign_id, gm=True)
    services.invite_revoke(user=request.user, campaign_id=campaign_id, invite_id=invite_id)
    return _members_done(
        request, membership, _("Invite link revoked: it no longer works."),
        partial="invite-panel",
    )  # fmt: skip


@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("campaign", "faction"), token=token)
    try:
        services.invite_check(invite)
    except services.InviteUnusable as unusable:
        return render(
            request, "kingdoms/invite_accept.html", {"reason": unusable.reason}, status=410
        )
    if not request.user.is_authenticated:
        if request.method == "POST":
            raise PermissionDenied
        return render(
            request,
            "kingdoms/invite_accept.html",
            {"invite": invite, "next": invite.get_absolute_url()},
        )
    if request.method == "POST":
        membership, created = services.invite_accept(user=request.user, token=token)
        if created:
            messages.success(
                request,
                _("You joined “%(campaign)s” as a player.") % {"campaign": invite.campaign.name},
            )
        else:
            messages.info(request, _("You are already a member of this campaign."))
        return redirect(membership.campaign)
    already = invite.campaign.memberships.filter(user=request.user).exists()
    return render(
        request, "kingdoms/invite_accept.html", {"invite": invite, "already_member": already}
    )
