"""GURPS Mass Combat force pages: thin views over services, selectors and access."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.pages import add_errors, form_page

from . import selectors, services
from .access import access_element_type, access_force, access_gurps4e, sees_force_in_full
from .forms import ElementTypeForm, ForceElementForm, ForceForm
from .models import ElementType


@login_required
def force_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every force the member knows of, by faction, with Troop Strength where they see it."""
    membership = access_gurps4e(request.user, campaign_id)
    context = {"campaign": membership.campaign, "membership": membership}
    context["factions"] = selectors.force_overview(membership=membership)
    return render(request, "gurps4e/force_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def element_type_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's element types; the GM adds new ones here."""
    membership = access_gurps4e(request.user, campaign_id)
    campaign = membership.campaign
    form = None
    if membership.is_gm:
        form = ElementTypeForm(request.POST or None, campaign=campaign)
    elif request.method == "POST":
        access_gurps4e(request.user, campaign_id, gm=True)  # 403
    context = {
        "campaign": campaign,
        "membership": membership,
        "form": form,
        "element_types": ElementType.objects.filter(campaign=campaign),
    }
    return form_page(
        request,
        "gurps4e/element_type_list.html",
        context,
        save=lambda form: services.element_type_create(
            user=request.user, campaign_id=campaign_id, **form.model_data()
        ),
        success=_("Element type added."),
        done=lambda _row: reverse("gurps4e:element-types", args=[campaign_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
def element_type_edit(request: HttpRequest, campaign_id: int, element_type_id: int) -> HttpResponse:
    membership, element_type = access_element_type(
        request.user, campaign_id, element_type_id, gm=True
    )
    campaign = membership.campaign
    form = ElementTypeForm(request.POST or None, instance=element_type, campaign=campaign)
    return form_page(
        request,
        "gurps4e/element_type_form.html",
        {"campaign": campaign, "form": form, "element_type": element_type},
        save=lambda form: services.element_type_update(
            user=request.user,
            campaign_id=campaign_id,
            element_type_id=element_type_id,
            version=form.service_version(),
            **form.model_data(),
        ),
        success=_("Element type saved."),
        fresh=lambda row: {
            "form": ElementTypeForm(instance=row, campaign=campaign),
            "element_type": row,
        },
        done=lambda _row: reverse("gurps4e:element-types", args=[campaign_id]),
    )


@login_required
@require_POST
def element_type_delete(
    request: HttpRequest, campaign_id: int, element_type_id: int
) -> HttpResponse:
    try:
        services.element_type_delete(
            user=request.user, campaign_id=campaign_id, element_type_id=element_type_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Element type deleted."))
    return redirect("gurps4e:element-types", campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def force_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_gurps4e(request.user, campaign_id, gm=True).campaign
    initial = {"faction": request.GET.get("faction")} if request.GET.get("faction") else None
    form = ForceForm(request.POST or None, campaign=campaign, initial=initial)
    return form_page(
        request,
        "gurps4e/force_form.html",
        {"campaign": campaign, "form": form},
        save=lambda form: services.force_create(
            user=request.user, campaign_id=campaign_id, **form.model_data()
        ),
        success=_("Force created: now add its elements."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def force_edit(request: HttpRequest, campaign_id: int, force_id: int) -> HttpResponse:
    membership, force = access_force(request.user, campaign_id, force_id, gm=True)
    campaign = membership.campaign
    form = ForceForm(request.POST or None, instance=force, campaign=campaign)
    return form_page(
        request,
        "gurps4e/force_form.html",
        {"campaign": campaign, "form": form, "force": force},
        save=lambda form: services.force_update(
            user=request.user,
            campaign_id=campaign_id,
            force_id=force_id,
            version=form.service_version(),
            **form.model_data(),
        ),
        success=_("Force saved."),
        fresh=lambda row: {"form": ForceForm(instance=row, campaign=campaign), "force": row},
    )


@login_required
@require_POST
def force_delete(request: HttpRequest, campaign_id: int, force_id: int) -> HttpResponse:
    try:
        services.force_delete(user=request.user, campaign_id=campaign_id, force_id=force_id)
    except ValidationError as error:
        membership, force = access_force(request.user, campaign_id, force_id)
        for message in error.messages:
            messages.error(request, message)
        return _force_page(request, membership, force, status=400)
    messages.success(request, _("Force deleted."))
    return redirect("gurps4e:force-list", campaign_id)


def _force_page(request, membership, force, *, row_form=None, status=200) -> HttpResponse:
    full = sees_force_in_full(membership, force)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "force": force,
        "full": full,
    }
    if full:
        enemy_id = request.GET.get("enemy")
        context.update(
            selectors.force_sheet(
                membership=membership,
                force=force,
                enemy_id=int(enemy_id) if enemy_id and enemy_id.isdigit() else None,
            )
        )
        if membership.is_gm:
            context["row_form"] = row_form or ForceElementForm(
                element_types=ElementType.objects.filter(campaign=membership.campaign)
            )
    return render(request, "gurps4e/force_detail.html", context, status=status)


@login_required
def force_detail(request: HttpRequest, campaign_id: int, force_id: int) -> HttpResponse:
    """A force's element rows and its Troop Strength with the working shown (§A.2.4); the GM
    (and the force's side, against forces they see in full) compares it with an enemy."""
    membership, force = access_force(request.user, campaign_id, force_id)
    return _force_page(request, membership, force)


@login_required
@require_POST
def force_row_add(request: HttpRequest, campaign_id: int, force_id: int) -> HttpResponse:
    membership, force = access_force(request.user, campaign_id, force_id, gm=True)
    form = ForceElementForm(
        request.POST, element_types=ElementType.objects.filter(campaign=membership.campaign)
    )
    if form.is_valid():
        try:
            services.force_element_add(
                user=request.user, campaign_id=campaign_id, force_id=force_id, **form.cleaned_data
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Elements added."))
            return redirect(force)
    return _force_page(request, membership, force, row_form=form, status=400)


@login_required
@require_POST
def force_row_remove(
    request: HttpRequest, campaign_id: int, force_id: int, row_id: int
) -> HttpResponse:
    _membership, force = access_force(request.user, campaign_id, force_id, gm=True)
    try:
        services.force_element_remove(
            user=request.user, campaign_id=campaign_id, force_id=force_id, row_id=row_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Elements removed."))
    return redirect(reverse("gurps4e:force-detail", args=[campaign_id, force.pk]))
