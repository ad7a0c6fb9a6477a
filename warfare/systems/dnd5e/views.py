"""D&D 5e creature library and army pages: thin views over services, selectors and access."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.pages import add_errors, form_page

from . import labels, selectors, services
from .access import access_army, access_creature, access_dnd5e, sees_army_in_full
from .forms import ArmyForm, CreatureForm, SoloForm, UnitForm
from .models import Creature, Unit


@login_required
@require_http_methods(["GET", "POST"])
def creature_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """The campaign's stat blocks; the GM adds new ones (or the SRD library) here."""
    membership = access_dnd5e(request.user, campaign_id)
    campaign = membership.campaign
    form = None
    if membership.is_gm:
        form = CreatureForm(request.POST or None, campaign=campaign)
    elif request.method == "POST":
        access_dnd5e(request.user, campaign_id, gm=True)  # 403
    creatures = [
        {"creature": creature, "attacks": [labels.attack_text(a) for a in creature.attacks],
         "speeds": labels.speeds_text(creature.speeds),
         "abilities": labels.abilities_text(creature.abilities)}
        for creature in Creature.objects.filter(campaign=campaign)
    ]  # fmt: skip
    context = {"campaign": campaign, "membership": membership, "form": form,
               "creatures": creatures}  # fmt: skip
    return form_page(
        request,
        "dnd5e/creature_list.html",
        context,
        save=lambda f: services.creature_create(
            user=request.user, campaign_id=campaign_id, **f.model_data()
        ),
        success=_("Creature added."),
        done=lambda _row: reverse("dnd5e:creatures", args=[campaign_id]),
    )


@login_required
@require_POST
def library_load(request: HttpRequest, campaign_id: int) -> HttpResponse:
    added = services.library_load_srd(user=request.user, campaign_id=campaign_id)
    messages.success(request, _("%(count)s SRD creatures added.") % {"count": added})
    return redirect("dnd5e:creatures", campaign_id)


@login_required
@require_http_methods(["GET", "POST"])
def creature_edit(request: HttpRequest, campaign_id: int, creature_id: int) -> HttpResponse:
    membership, creature = access_creature(request.user, campaign_id, creature_id, gm=True)
    campaign = membership.campaign
    form = CreatureForm(request.POST or None, instance=creature, campaign=campaign)
    return form_page(
        request,
        "dnd5e/creature_form.html",
        {"campaign": campaign, "form": form, "creature": creature},
        save=lambda f: services.creature_update(
            user=request.user,
            campaign_id=campaign_id,
            creature_id=creature_id,
            version=f.service_version(),
            **f.model_data(),
        ),
        success=_("Creature saved."),
        fresh=lambda row: {"form": CreatureForm(instance=row, campaign=campaign), "creature": row},
        done=lambda _row: reverse("dnd5e:creatures", args=[campaign_id]),
    )


@login_required
@require_POST
def creature_delete(request: HttpRequest, campaign_id: int, creature_id: int) -> HttpResponse:
    try:
        services.creature_delete(
            user=request.user, campaign_id=campaign_id, creature_id=creature_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Creature deleted."))
    return redirect("dnd5e:creatures", campaign_id)


@login_required
def army_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """Every army the member knows of, by faction; units and stands where they see them."""
    membership = access_dnd5e(request.user, campaign_id)
    context = {"campaign": membership.campaign, "membership": membership,
               "factions": selectors.army_overview(membership=membership)}  # fmt: skip
    return render(request, "dnd5e/army_list.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def army_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign = access_dnd5e(request.user, campaign_id, gm=True).campaign
    initial = {"faction": request.GET.get("faction")} if request.GET.get("faction") else None
    form = ArmyForm(request.POST or None, campaign=campaign, initial=initial)
    return form_page(
        request,
        "dnd5e/army_form.html",
        {"campaign": campaign, "form": form},
        save=lambda f: services.army_create(
            user=request.user, campaign_id=campaign_id, **f.model_data()
        ),
        success=_("Army created: now add its units and solos."),
    )


@login_required
@require_http_methods(["GET", "POST"])
def army_edit(request: HttpRequest, campaign_id: int, dnd_army_id: int) -> HttpResponse:
    membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    campaign = membership.campaign
    form = ArmyForm(request.POST or None, instance=army, campaign=campaign)
    return form_page(
        request,
        "dnd5e/army_form.html",
        {"campaign": campaign, "form": form, "army": army},
        save=lambda f: services.army_update(
            user=request.user,
            campaign_id=campaign_id,
            army_id=dnd_army_id,
            version=f.service_version(),
            **f.model_data(),
        ),
        success=_("Army saved."),
        fresh=lambda row: {"form": ArmyForm(instance=row, campaign=campaign), "army": row},
    )


@login_required
@require_POST
def army_delete(request: HttpRequest, campaign_id: int, dnd_army_id: int) -> HttpResponse:
    try:
        services.army_delete(user=request.user, campaign_id=campaign_id, army_id=dnd_army_id)
    except ValidationError as error:
        membership, army = access_army(request.user, campaign_id, dnd_army_id)
        for message in error.messages:
            messages.error(request, message)
        return _army_page(request, membership, army, status=400)
    messages.success(request, _("Army deleted."))
    return redirect("dnd5e:army-list", campaign_id)


def _army_page(request, membership, army, *, unit_form=None, solo_form=None, status=200):
    full = sees_army_in_full(membership, army)
    context = {"campaign": membership.campaign, "membership": membership, "army": army,
               "full": full}  # fmt: skip
    if full:
        context["army"] = selectors.army_sheet(army)
        if membership.is_gm:
            context["unit_form"] = unit_form or UnitForm(army=army)
            context["solo_form"] = solo_form or SoloForm(army=army)
    return render(request, "dnd5e/army_detail.html", context, status=status)


@login_required
def army_detail(request: HttpRequest, campaign_id: int, dnd_army_id: int) -> HttpResponse:
    """An army's units (stands of one creature, commander) and solos with their HP; players
    of other factions see its name only."""
    membership, army = access_army(request.user, campaign_id, dnd_army_id)
    return _army_page(request, membership, army)


@login_required
@require_POST
def unit_add(request: HttpRequest, campaign_id: int, dnd_army_id: int) -> HttpResponse:
    membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    form = UnitForm(request.POST, army=army)
    if form.is_valid():
        try:
            services.unit_add(
                user=request.user, campaign_id=campaign_id, army_id=dnd_army_id, **form.cleaned_data
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Unit added."))
            return redirect(army)
    return _army_page(request, membership, army, unit_form=form, status=400)


@login_required
@require_http_methods(["GET", "POST"])
def unit_edit(request: HttpRequest, campaign_id: int, dnd_army_id: int, unit_id: int):
    """Change a unit (the GM's fix of stands, configuration or commander)."""
    membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    unit = get_object_or_404(Unit, army=army, pk=unit_id)
    form = UnitForm(request.POST or None, instance=unit, army=army)
    return form_page(
        request,
        "dnd5e/unit_form.html",
        {"campaign": membership.campaign, "army": army, "unit": unit, "form": form},
        save=lambda f: services.unit_update(
            user=request.user, campaign_id=campaign_id, army_id=dnd_army_id,
            unit_id=unit_id, **f.cleaned_data,
        ),
        success=_("Unit saved."),
        done=lambda _row: army,
    )  # fmt: skip


@login_required
@require_POST
def unit_remove(request: HttpRequest, campaign_id: int, dnd_army_id: int, unit_id: int):
    _membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    try:
        services.unit_remove(
            user=request.user, campaign_id=campaign_id, army_id=dnd_army_id, unit_id=unit_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Unit removed."))
    return redirect(army)


@login_required
@require_POST
def solo_add(request: HttpRequest, campaign_id: int, dnd_army_id: int) -> HttpResponse:
    membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    form = SoloForm(request.POST, army=army)
    if form.is_valid():
        try:
            services.solo_add(
                user=request.user, campaign_id=campaign_id, army_id=dnd_army_id, **form.cleaned_data
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            messages.success(request, _("Solo added."))
            return redirect(army)
    return _army_page(request, membership, army, solo_form=form, status=400)


@login_required
@require_POST
def solo_remove(request: HttpRequest, campaign_id: int, dnd_army_id: int, solo_id: int):
    _membership, army = access_army(request.user, campaign_id, dnd_army_id, gm=True)
    try:
        services.solo_remove(
            user=request.user, campaign_id=campaign_id, army_id=dnd_army_id, solo_id=solo_id
        )
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, _("Solo removed."))
    return redirect(army)
