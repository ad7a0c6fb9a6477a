"""GURPS 3e force and character pages: thin views over services, selectors and access."""

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from kingdoms.crud import Forces, Library, add_part, delete_row, remove_part
from kingdoms.pages import edit_page, form_page, member_page

from . import mapping, selectors, services
from .access import (
    access_character,
    access_force,
    access_gurps3e,
    plays,
    sees_character_in_full,
)
from .forms import CharacterForm, ForceForm, ReputationForm, TroopTypeForm, UnitForm

#: The campaign's troop types with their TS per man (§B.3a); the GM adds them on the list.
TROOP_TYPES = Library(
    app="gurps3e", noun="troop_type", form=TroopTypeForm, access=access_gurps3e,
    create=services.troop_type_create, update=services.troop_type_update,
    delete=services.troop_type_delete, added=gettext_lazy("Troop type added."),
    saved=gettext_lazy("Troop type saved."), deleted=gettext_lazy("Troop type deleted."),
)  # fmt: skip


#: Every force the member knows of, by faction, with TS where they see it; a force's page
#: shows its units and its Troop Strength with the working (§B.3a). The GM changes a unit:
#: men after healing or replacements, Morale, battles fought.
FORCES = Forces(
    app="gurps3e", noun="force", form=ForceForm, access=access_gurps3e, access_row=access_force,
    overview=selectors.force_overview, url_id="g3force_id", part_forms=(UnitForm,),
    sheet=lambda _request, _membership, force: {"sheet": selectors.force_sheet(force)},
    create=services.force_create, update=services.force_update, delete=services.force_delete,
    created=gettext_lazy("Force created: now add its units."),
    saved=gettext_lazy("Force saved."), deleted=gettext_lazy("Force deleted."),
)  # fmt: skip
unit_add = FORCES.add_part_view(UnitForm, services.unit_add, gettext_lazy("Unit added."))
unit_edit = FORCES.edit_part_view(UnitForm, services.unit_update, gettext_lazy("Unit saved."))
unit_remove = FORCES.remove_part_view(services.unit_remove, gettext_lazy("Unit removed."))


@login_required
def character_list(request: HttpRequest, campaign_id: int) -> HttpResponse:
    membership = access_gurps3e(request.user, campaign_id)
    characters = selectors.character_list(membership=membership)
    return member_page(request, "gurps3e/character_list.html", membership, characters=characters)


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
    return edit_page(
        request,
        "gurps3e/character_form.html",
        {"campaign": campaign},
        noun="character",
        row=character,
        form=lambda data, instance: CharacterForm(
            data, instance=instance, campaign=campaign, gm=gm
        ),
        update=lambda **fields: services.character_update(
            user=request.user, campaign_id=campaign_id, character_id=character_id, **fields
        ),
        success=_("Character saved."),
    )


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
    def page():
        membership, character = access_character(request.user, campaign_id, character_id)
        return _character_page(request, membership, character, status=400)

    return delete_row(
        request,
        lambda: services.character_delete(
            user=request.user, campaign_id=campaign_id, character_id=character_id
        ),
        _("Character deleted."),
        reverse("gurps3e:character-list", args=[campaign_id]),
        page,
    )


@login_required
@require_POST
def reputation_add(request: HttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    membership, character = access_character(request.user, campaign_id, character_id, gm=True)
    return add_part(
        request, ReputationForm(request.POST),
        lambda data: services.reputation_add(
            user=request.user, campaign_id=campaign_id, character_id=character_id, **data
        ),
        _("Reputation entry added."), character,
        lambda form: _character_page(request, membership, character, rep_form=form, status=400),
    )  # fmt: skip


@login_required
@require_POST
def reputation_remove(
    request: HttpRequest, campaign_id: int, character_id: int, entry_id: int
) -> HttpResponse:
    _membership, character = access_character(request.user, campaign_id, character_id, gm=True)
    return remove_part(
        request,
        lambda: services.reputation_remove(
            user=request.user, campaign_id=campaign_id, character_id=character_id,
            entry_id=entry_id,
        ),
        _("Reputation entry removed."),
        character,
    )  # fmt: skip
