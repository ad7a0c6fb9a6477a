"""Army pages: thin views over warfare.services and warfare.selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.access import access_faction, sees_faction_in_full
from kingdoms.models import RuleSystem

from . import selectors, services
from .access import access_army, commands_army, sees_army_in_full
from .forms import ArmyCreateForm, ArmyEditForm, ConditionForm
from .labels import specialized_name


def _require_pf2e(campaign) -> None:
    if campaign.rule_system != RuleSystem.PF2E:
        raise Http404


def _form_errors(form, error: ValidationError) -> None:
    for message in error.messages:
        form.add_error(None, message)


@login_required
def army_list(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    membership, faction = access_faction(request.user, campaign_id, faction_id)
    _require_pf2e(membership.campaign)
    full = sees_faction_in_full(membership, faction)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "faction": faction,
        "full": full,
    }
    if full:
        context.update(selectors.army_lines(faction=faction))
    else:
        context["lines"] = [
            selectors.ArmyLine(army, None) for army in selectors.army_list(faction=faction).active()
        ]
    return render(request, "warfare/army_list.html", context)


@login_required
def army_detail(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    membership, army = access_army(request.user, campaign_id, army_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "army": army,
        "full": sees_army_in_full(membership, army),
        "commands": commands_army(membership, army),
        "specialized_name": specialized_name(army.specialized) if army.specialized else "",
    }
    if context["full"]:
        context.update(selectors.army_sheet(army=army))
    return render(request, "warfare/army_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def army_create(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    membership, faction = access_faction(request.user, campaign_id, faction_id, gm=True)
    _require_pf2e(membership.campaign)
    form = ArmyCreateForm(request.POST or None)
    context = {"campaign": membership.campaign, "faction": faction, "form": form}
    if request.method == "POST":
        if form.is_valid():
            try:
                army = services.army_create(
                    user=request.user,
                    campaign_id=campaign_id,
                    faction_id=faction_id,
                    **form.cleaned_data,
                )
            except ValidationError as error:
                _form_errors(form, error)
            else:
                messages.success(request, _("Army placed."))
                return redirect(army)
        return render(request, "warfare/army_form.html", context, status=400)
    return render(request, "warfare/army_form.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def army_edit(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    membership, army = access_army(request.user, campaign_id, army_id, gm=True)
    form = ArmyEditForm(request.POST or None, instance=army, initial={"version": army.version})
    context = {"campaign": membership.campaign, "army": army, "form": form}
    if request.method == "POST":
        if form.is_valid():
            data = {k: v for k, v in form.cleaned_data.items() if k != "version"}
            try:
                services.army_update(
                    user=request.user,
                    campaign_id=campaign_id,
                    army_id=army_id,
                    version=form.cleaned_data["version"],
                    **data,
                )
            except services.StaleEdit:
                form.add_error(None, _("Someone changed this army meanwhile. Reload to see it."))
                return render(request, "warfare/army_form.html", context, status=409)
            except ValidationError as error:
                _form_errors(form, error)
            else:
                messages.success(request, _("Army saved."))
                return redirect(army)
        return render(request, "warfare/army_form.html", context, status=400)
    return render(request, "warfare/army_form.html", context)


@login_required
@require_POST
def army_condition(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    """+/− on a condition (GM). Answers with the refreshed sheet partial for htmx."""
    membership, army = access_army(request.user, campaign_id, army_id, gm=True)
    form = ConditionForm(request.POST)
    status = 200
    if not form.is_valid():
        messages.error(request, _("That change was not understood."))
        status = 400
    else:
        try:
            army = services.army_adjust_condition(
                user=request.user, campaign_id=campaign_id, army_id=army_id, **form.cleaned_data
            )
        except services.StaleEdit as stale:
            army = stale.army
            messages.error(request, _("Someone changed this army meanwhile: here it is now."))
            status = 409
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
    if not request.htmx:
        return redirect(army)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "army": army,
        "full": True,
        "commands": True,
        **selectors.army_sheet(army=army),
    }
    return render(request, "warfare/army_detail.html#sheet", context, status=status)
