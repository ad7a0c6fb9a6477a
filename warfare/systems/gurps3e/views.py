"""GURPS 3e force and character pages: thin views over services, selectors and access."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.pages import add_errors, form_page

from . import mapping, selectors, services
from .access import (
    access_character,
    access_force,
    access_gurps3e,
    plays,
    sees_character_in_full,
    sees_force_in_full,
)
from .forms import CharacterForm, ForceForm, ReputationForm, TroopTypeForm, UnitForm
from .models import TroopType, Unit


def _refused(request: HttpRequest, error: ValidationError) -> None:
    for message in error.messages:
        messages.error(request, message)


@login_required
def force_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every force the member knows of, by faction, with TS where they see it; and the
    characters."""
    membership = access_gurps3e(request.user, campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "factions": selectors.force_overview(membership=membership),
    }
    return render(request, "gurps3e/force_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def force_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_gurps3e(request.user, campaign_id, gm=True).campaign
    initial = {"faction": request.GET.get("faction")} if request.GET.get("faction") else None
    form = ForceForm(request.POST or None, campaign=campaign, initial=initial)
    return form_page(
        request,
        "gurps3e/force_form.html",
        {"campaign": campaign, "form": form},
        save=lambda f: services.force_create(
            user=request.user, campaign_id=campaign_id, **f.model_data()
        ),
        success=_("Force created: now add its units."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def force_edit(request: HttpRequest, campaign_id: int, g3force_id: int) -> HttpResponse:
    membership, force = access_force(request.user, campaign_id, g3force_id, gm=True)
    campaign = membership.campaign
    form = ForceForm(request.POST or None, instance=force, campaign=campaign)
    return form_page(
        request,
        "gurps3e/force_form.html",
        {"campaign": campaign, "form": form, "force": force},
        save=lambda f: services.force_update(
            user=request.user, campaign_id=campaign_id, force_id=g3force_id,
            version=f.service_version(), **f.model_data(),
        ),
        success=_("Force saved."),
        fresh=lambda row: {"form": ForceForm(instance=row, campaign=campaign), "force": row},
    )  # fmt: skip


@login_required
@require_POST
def force_delete(request: HttpRequest, campaign_id: int, g3force_id: int) -> HttpResponse:
    try:
        services.force_delete(user=request.user, campaign_id=campaign_id, force_id=g3force_id)
    except ValidationError as error:
        membership, force = access_force(request.user, campaign_id, g3force_id)
        _refused(request, error)
        return _force_page(request, membership, force, status=400)
    messages.success(request, _("Force deleted."))
    return redirect("gurps3e:force-list", campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def troop_type_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's troop types with their TS per man (§B.3a); the GM adds them here."""
    membership = access_gurps3e(request.user, campaign_id)
    campaign = membership.campaign
    form = None
    if membership.is_gm:
        form = TroopTypeForm(request.POST or None, campaign=campaign)
    elif request.method == "POST":
        access_gurps3e(request.user, campaign_id, gm=True)  # 403
    context = {
        "campaign": campaign,
        "membership": membership,
        "form": form,
        "troop_types": TroopType.objects.filter(campaign=campaign),
    }
    return form_page(
        request,
        "gurps3e/troop_type_list.html",
        context,
        save=lambda f: services.troop_type_create(
            user=request.user, campaign_id=campaign_id, **f.cleaned_data
        ),
        success=_("Troop type added."),
        done=lambda _row: reverse("gurps3e:troop-types", args=[campaign_id]),
    )


@login_required
@require_http_methods(["GET", "POST"])
def troop_type_edit(request: HttpRequest, campaign_id: int, troop_type_id: int) -> HttpResponse:
    campaign = access_gurps3e(request.user, campaign_id, gm=True).campaign
    troop_type = get_object_or_404(TroopType, campaign=campaign, pk=troop_type_id)
    form = TroopTypeForm(request.POST or None, instance=troop_type, campaign=campaign)
    return form_page(
        request,
        "gurps3e/troop_type_form.html",
        {"campaign": campaign, "form": form, "troop_type": troop_type},
        save=lambda f: services.troop_type_update(
            user=request.user, campaign_id=campaign_id, troop_type_id=troop_type_id,
            **f.cleaned_data,
        ),
        success=_("Troop type saved."),
        done=lambda _row: reverse("gurps3e:troop-types", args=[campaign_id]),
    )  # fmt: skip


@login_required
@require_POST
def troop_type_delete(request: HttpRequest, campaign_id: int, troop_type_id: int):
    try:
        services.troop_type_delete(
            user=request.user, campaign_id=campaign_id, troop_type_id=troop_type_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Troop type deleted."))
    return redirect("gurps3e:troop-types", campaign_id)


def _force_page(request, membership, force, *, unit_form=None, status=200) -> HttpResponse:
    full = sees_force_in_full(membership, force)
    context = {"campaign": membership.campaign, "membership": membership, "force": force}
    context["full"] = full
    if full:
        context["sheet"] = selectors.force_sheet(force)
        if membership.is_gm:
            context["unit_form"] = unit_form or UnitForm(campaign=membership.campaign)
    return render(request, "gurps3e/force_detail.html", context, status=status)


@login_required
def force_detail(request: HttpRequest, campaign_id: int, g3force_id: int) -> HttpResponse:
    """A force's units and its Troop Strength with the working (§B.3a)."""
    membership, force = access_force(request.user, campaign_id, g3force_id)
    return _force_page(request, membership, force)


@login_required
@require_POST
def unit_add(request: HttpRequest, campaign_id: int, g3force_id: int) -> HttpResponse:
    membership, force = access_force(request.user, campaign_id, g3force_id, gm=True)
    form = UnitForm(request.POST, campaign=membership.campaign)
    if form.is_valid():
        try:
            services.unit_add(
                user=request.user, campaign_id=campaign_id, force_id=g3force_id,
                **form.cleaned_data,
            )  # fmt: skip
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Unit added."))
            return redirect(force)
    return _force_page(request, membership, force, unit_form=form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def unit_edit(request: HttpRequest, campaign_id: int, g3force_id: int, unit_id: int):
    """The GM changes a unit: men after healing or replacements, Morale, battles fought."""
    membership, force = access_force(request.user, campaign_id, g3force_id, gm=True)
    unit = get_object_or_404(Unit, force=force, pk=unit_id)
    form = UnitForm(request.POST or None, instance=unit, campaign=membership.campaign)
    return form_page(
        request,
        "gurps3e/unit_form.html",
        {"campaign": membership.campaign, "force": force, "unit": unit, "form": form},
        save=lambda f: services.unit_update(
            user=request.user, campaign_id=campaign_id, force_id=g3force_id,
            unit_id=unit_id, **f.cleaned_data,
        ),
        success=_("Unit saved."),
        done=lambda _row: force,
    )  # fmt: skip


@login_required
@require_POST
def unit_remove(
    request: HttpRequest, campaign_id: int, g3force_id: int, unit_id: int
) -> HttpResponse:
    _membership, force = access_force(request.user, campaign_id, g3force_id, gm=True)
    try:
        services.unit_remove(
            user=request.user, campaign_id=campaign_id, force_id=g3force_id, unit_id=unit_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Unit removed."))
    return redirect(force)


@login_required
def character_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_gurps3e(request.user, campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "characters": selectors.character_list(membership=membership),
    }
    return render(request, "gurps3e/character_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_gurps3e(request.user, campaign_id, gm=True).campaign
    form = CharacterForm(request.POST or None, campaign=campaign, gm=True)
    return form_page(
        request,
        "gurps3e/character_form.html",
        {"campaign": campaign, "form": form},
        save=lambda f: services.character_create(
            user=request.user, campaign_id=campaign_id, **f.model_data()
        ),
        success=_("Character created."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_edit(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The GM edits every field; the character's player the sheet fields; others 403."""
    membership, character = access_character(request.user, campaign_id, character_id)
    if not plays(membership, character):
        raise PermissionDenied
    campaign, gm = membership.campaign, membership.is_gm
    form = CharacterForm(request.POST or None, instance=character, campaign=campaign, gm=gm)
    return form_page(
        request,
        "gurps3e/character_form.html",
        {"campaign": campaign, "form": form, "character": character},
        save=lambda f: services.character_update(
            user=request.user, campaign_id=campaign_id, character_id=character_id,
            version=f.service_version(), **f.model_data(),
        ),
        success=_("Character saved."),
        fresh=lambda row: {
            "form": CharacterForm(instance=row, campaign=campaign, gm=gm), "character": row,
        },
    )  # fmt: skip


def _character_page(request, membership, character, *, rep_form=None, status=200):
    full = sees_character_in_full(membership, character)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "character": character,
        "full": full,
        "may_edit": plays(membership, character),
        "reputation": list(character.reputation.order_by("pk")),
    }
    if full:
        context["sheet"] = mapping.character_sheet(character)
    if membership.is_gm:
        context["rep_form"] = rep_form or ReputationForm()
    return render(request, "gurps3e/character_detail.html", context, status=status)


@login_required
def character_detail(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A character: the sheet with Combat Skill worked out (§B.3) for those who see it,
    rank and reputation (§B.6) for everyone."""
    membership, character = access_character(request.user, campaign_id, character_id)
    return _character_page(request, membership, character)


@login_required
@require_POST
def character_delete(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    try:
        services.character_delete(
            user=request.user, campaign_id=campaign_id, character_id=character_id
        )
    except ValidationError as error:
        membership, character = access_character(request.user, campaign_id, character_id)
        _refused(request, error)
        return _character_page(request, membership, character, status=400)
    messages.success(request, _("Character deleted."))
    return redirect("gurps3e:character-list", campaign_id)


@login_required
@require_POST
def reputation_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    membership, character = access_character(request.user, campaign_id, character_id, gm=True)
    form = ReputationForm(request.POST)
    if form.is_valid():
        try:
            services.reputation_add(
                user=request.user, campaign_id=campaign_id, character_id=character_id,
                **form.cleaned_data,
            )  # fmt: skip
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Reputation entry added."))
            return redirect(character)
    return _character_page(request, membership, character, rep_form=form, status=400)


@login_required
@require_POST
def reputation_remove(
    request: HttpRequest, campaign_id: int, character_id: int, entry_id: int
) -> HttpResponse:
    _membership, character = access_character(request.user, campaign_id, character_id, gm=True)
    try:
        services.reputation_remove(
            user=request.user, campaign_id=campaign_id, character_id=character_id,
            entry_id=entry_id,
        )  # fmt: skip
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Reputation entry removed."))
    return redirect(character)
