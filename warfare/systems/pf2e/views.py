"""Army pages: thin views over warfare.systems.pf2e.services and warfare.systems.pf2e.selectors."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from kingdoms.access import access_campaign, sees_faction_in_full
from kingdoms.pages import add_errors, edit_page, form_page

from . import selectors, services
from .access import access_army, access_kingdom, commands_army, sees_army_in_full
from .activity_forms import ACTIVITY_FORMS, ACTIVITY_LABELS, ActivityForm
from .forms import ArmyCreateForm, ArmyEditForm, ConditionForm, KingdomTurnForm
from .labels import specialized_name
from .models import Recruitment


@login_required
def army_list(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    """The kingdom's armies, consumption against Food, the activities step and the turn."""
    membership, faction = access_kingdom(request.user, campaign_id, faction_id)
    return _army_list_page(request, membership, faction)


def _army_list_page(request, membership, faction, *, status: int = 200) -> HttpResponse:
    full = sees_faction_in_full(membership, faction)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "faction": faction,
        "full": full,
    }
    if full:
        context.update(selectors.army_lines(faction=faction))
        context["log"] = selectors.faction_log(faction=faction)
        context["in_progress"] = selectors.open_recruitments(faction=faction)
        if membership.is_gm:
            context["turn_form"] = KingdomTurnForm(
                initial={"expected_turn": faction.kingdom.turn, "pay_with": "food"}
            )
    else:
        context["lines"] = [
            selectors.ArmyLine(army, None) for army in selectors.army_list(faction=faction).active()
        ]
    return render(request, "pf2e/army_list.html", context, status=status)


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
    return render(request, "pf2e/army_detail.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def army_create(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    membership, faction = access_kingdom(request.user, campaign_id, faction_id, gm=True)
    return form_page(
        request,
        "pf2e/army_form.html",
        {"campaign": membership.campaign, "faction": faction,
         "form": ArmyCreateForm(request.POST or None)},
        save=lambda f: services.army_create(
            user=request.user, campaign_id=campaign_id, faction_id=faction_id, **f.cleaned_data
        ),
        success=_("Army placed."),
    )  # fmt: skip


@login_required
@require_http_methods(["GET", "POST"])
def army_edit(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    """The GM's corrections to an army; a form drawn from an older version of it is a 409
    showing the army as it is now."""
    membership, army = access_army(request.user, campaign_id, army_id, gm=True)
    return edit_page(
        request,
        "pf2e/army_form.html",
        {"campaign": membership.campaign},
        noun="army",
        row=army,
        form=lambda data, instance: ArmyEditForm(data, instance=instance),
        update=lambda **fields: services.army_update(
            user=request.user, campaign_id=campaign_id, army_id=army_id, **fields
        ),
        success=_("Army saved."),
    )


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
    return render(request, "pf2e/army_detail.html#sheet", context, status=status)


def _activity_form(activity: str, army, data=None) -> ActivityForm:
    form_class = ACTIVITY_FORMS.get(activity)
    if form_class is None:
        raise Http404
    return form_class(data, army=army, initial={"version": army.version})


@login_required
@require_http_methods(["GET", "POST"])
def army_activity(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    """Pick an Army activity (GET ?activity=…), then take it (POST): the outcome in place.
    A post drawn from an older version of the army answers 409 with the form for the army as
    it is now; a disbanded or destroyed army takes no activities (none are offered)."""
    membership, army = access_army(request.user, campaign_id, army_id, command=True)
    activity = request.POST.get("activity") or request.GET.get("activity") or "deploy_army"
    previewing = request.method == "GET" and request.GET.get("preview")
    data = request.POST if request.method == "POST" else request.GET if previewing else None
    form = _activity_form(activity, army, data)
    if previewing and request.htmx:
        context = {"army": army, "campaign": membership.campaign, "activity": activity,
                   "preview": selectors.activity_preview(army=army, form=form)}  # fmt: skip
        return render(request, "pf2e/activity.html#activity-preview", context)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "army": army,
        "activity": activity,
        "activity_label": ACTIVITY_LABELS[activity],
        "activities": [(key, ACTIVITY_LABELS[key]) for key in ACTIVITY_FORMS],
        "form": form,
    }
    template = "pf2e/activity.html"
    partial = "#activity-form"
    status = 200
    if not army.is_active:
        context["closed"] = _("%(army)s is %(status)s: it takes no more Army activities.") % {
            "army": army.name,
            "status": army.get_status_display(),
        }
        status = 400 if request.method == "POST" else 200
    elif request.method == "POST" and ActivityForm.is_stale(request.POST, army):
        context["form"] = _stale_activity_form(request, activity, army)
        status = 409
    elif request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                outcome = services.army_activity(
                    user=request.user,
                    campaign_id=campaign_id,
                    army_id=army_id,
                    **form.service_kwargs(),
                )
            except services.StaleEdit as stale:
                context["form"] = _stale_activity_form(request, activity, stale.army)
                status = 409
            except ValidationError as error:
                add_errors(form, error)
            else:
                context["outcome"] = selectors.activity_outcome_view(outcome)
                army.refresh_from_db()
                context["form"] = _activity_form(activity, army)
                partial, status = "#activity-result", 200
    context["preview"] = selectors.activity_preview(army=army, form=context["form"])
    if request.htmx:
        template += partial
    return render(request, template, context, status=status)


def _stale_activity_form(request, activity: str, army) -> ActivityForm:
    """The activity's form drawn from the army as it is now, and the message saying why."""
    messages.error(request, _("This army changed meanwhile. Here it is now; try again."))
    return _activity_form(activity, army)


# --- Recruitment wizard (§3.1) ------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def recruit_start(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    """Step 1: choose the army. Types the kingdom cannot recruit are shown with the reason."""
    membership, faction = access_kingdom(request.user, campaign_id, faction_id)
    if not (membership.is_gm or membership.faction_id == faction.pk):
        raise PermissionDenied
    faction.campaign = membership.campaign
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "faction": faction,
        **selectors.recruit_start_view(faction=faction),
        "errors": [],
    }
    if request.method == "POST":
        field = "specialized" if request.POST.get("specialized") else "army_type"
        value = request.POST.get(field, "")
        valid = {c["value"] for c in context["choices"] if c["field"] == field}
        if value not in valid:
            context["errors"] = [_("Choose one of the armies listed.")]
            return render(request, "pf2e/recruit_start.html", context, status=400)
        try:
            recruitment = services.recruitment_start(
                user=request.user, campaign_id=campaign_id, faction_id=faction_id, **{field: value}
            )
        except services.RecruitmentInProgress as open_one:
            messages.info(
                request,
                _("A recruitment is in progress: finish it before starting another."),
            )
            return redirect(open_one.recruitment)
        except ValidationError as error:
            context["errors"] = error.messages
            return render(request, "pf2e/recruit_start.html", context, status=400)
        return redirect(recruitment)
    return render(request, "pf2e/recruit_start.html", context)


RECRUIT_ACTIONS = {"roll", "tactics", "place", "name"}


@login_required
@require_http_methods(["GET", "POST"])
def recruit_step(request: HttpRequest, campaign_id: int, recruitment_id: int) -> HttpResponse:
    """Steps 2-7. GET shows where the wizard stands (safe to reload); POST advances one step."""
    membership = access_campaign(request.user, campaign_id)
    recruitment = get_object_or_404(
        Recruitment.objects.select_related("faction__kingdom", "faction__campaign", "army"),
        faction__campaign=membership.campaign,
        pk=recruitment_id,
    )
    if not (membership.is_gm or membership.faction_id == recruitment.faction_id):
        raise Http404
    errors: list[str] = []
    status = 200
    ticked = None
    if request.method == "POST":
        action = request.POST.get("action", "")
        kwargs = {
            "user": request.user,
            "campaign_id": campaign_id,
            "recruitment_id": recruitment_id,
        }
        try:
            if action == "roll":
                typed = request.POST.get("typed_die", "").strip()
                if typed and not (typed.isdigit() and 1 <= int(typed) <= 20):
                    raise ValidationError(_("A d20 shows 1 to 20."))
                services.recruitment_roll(**kwargs, typed_die=int(typed) if typed else None)
            elif action == "tactics":
                services.recruitment_choose_tactics(
                    **kwargs, tactics=request.POST.getlist("tactics")
                )
            elif action == "place":
                services.recruitment_place(**kwargs, hex=request.POST.get("hex", "").strip())
            elif action == "name":
                name = request.POST.get("name", "").strip()
                if not name:
                    raise ValidationError(_("Give the army a name."))
                army = services.recruitment_finish(**kwargs, name=name)
                messages.success(request, _("%(name)s joins the kingdom.") % {"name": army.name})
                if request.htmx:
                    return HttpResponseClientRedirect(army.get_absolute_url())
                return redirect(army)
            else:
                raise ValidationError(_("Unknown step."))
        except ValidationError as error:
            errors, status = error.messages, 400
            if action == "tactics":
                ticked = request.POST.getlist("tactics")  # shown ticked again
        else:
            if not request.htmx:
                return redirect(recruitment)
        recruitment.refresh_from_db()
    view = selectors.recruitment_view(recruitment, ticked=ticked)
    shown = request.GET.get("step") if request.method == "GET" else None
    if ticked is not None:
        shown = "tactics"
    if shown not in {"tactics", "place"} or recruitment.step not in {"place", "name"}:
        shown = recruitment.step
    context = {
        "campaign": membership.campaign,
        "faction": recruitment.faction,
        "is_gm": membership.is_gm,
        "shown": shown,
        "errors": errors,
        **view,
    }
    template = "pf2e/recruit.html" + ("#wizard" if request.htmx else "")
    return render(request, template, context, status=status)


@login_required
@require_POST
def kingdom_turn(request: HttpRequest, campaign_id: int, faction_id: int) -> HttpResponse:
    """The GM starts the next kingdom turn (Upkeep: consumption, decay, narrative war)."""
    membership, faction = access_kingdom(request.user, campaign_id, faction_id, gm=True)
    form = KingdomTurnForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The kingdom turn form was not filled in correctly."))
        return _army_list_page(request, membership, faction, status=400)
    try:
        outcome = services.kingdom_turn_start(
            user=request.user, campaign_id=campaign_id, faction_id=faction_id, **form.cleaned_data
        )
    except services.StaleTurn as stale:
        messages.error(
            request,
            _("Turn %(turn)s has already begun: nothing was paid twice.")
            % {"turn": stale.kingdom.turn},
        )
        return _army_list_page(request, membership, faction, status=409)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return _army_list_page(request, membership, faction, status=400)
    messages.success(request, _("Kingdom turn %(turn)s begins.") % {"turn": outcome.kingdom.turn})
    return redirect("pf2e:army-list", campaign_id, faction_id)


@login_required
@require_POST
def army_gear_transfer(request: HttpRequest, campaign_id: int, army_id: int) -> HttpResponse:
    """Hand one piece of gear to another army in the same hex (no activity needed, §5)."""
    _membership, army = access_army(request.user, campaign_id, army_id, command=True)
    status = 200
    try:
        services.army_transfer_gear(
            user=request.user,
            campaign_id=campaign_id,
            army_id=army_id,
            to_army_id=int(request.POST.get("to_army", "0") or 0),
            gear=request.POST.get("gear", ""),
            version=int(request.POST.get("version", "0") or 0),
        )
    except services.StaleEdit:
        messages.error(request, _("This army changed meanwhile: look again and retry."))
        status = 409
    except (ValidationError, ValueError) as error:
        text = " ".join(error.messages) if isinstance(error, ValidationError) else ""
        messages.error(request, text or _("That hand-over was not understood."))
        status = 400
    else:
        messages.success(request, _("Gear handed over."))
    response = redirect(army)
    if status != 200:
        response = army_detail(request, campaign_id, army_id)
        response.status_code = status
    return response
