"""D&D 5e creature library and army pages: thin views over services, selectors and access."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from kingdoms.crud import Forces, Library

from . import labels, selectors, services
from .access import access_army, access_dnd5e
from .forms import ArmyForm, CreatureForm, SoloForm, UnitForm
from .models import Creature


def _creature_rows(campaign) -> list[dict]:
    return [
        {"creature": creature, "attacks": [labels.attack_text(a) for a in creature.attacks],
         "speeds": labels.speeds_text(creature.speeds),
         "abilities": labels.abilities_text(creature.abilities)}
        for creature in Creature.objects.filter(campaign=campaign)
    ]  # fmt: skip


#: The campaign's stat blocks; the GM adds new ones (or the SRD library) on the list.
CREATURES = Library(
    app="dnd5e", noun="creature", form=CreatureForm, access=access_dnd5e, rows=_creature_rows,
    create=services.creature_create, update=services.creature_update,
    delete=services.creature_delete, added=gettext_lazy("Creature added."),
    saved=gettext_lazy("Creature saved."), deleted=gettext_lazy("Creature deleted."),
)  # fmt: skip


@login_required
@require_POST
def library_load(request: HttpRequest, campaign_id: int) -> HttpResponse:
    added = services.library_load_srd(user=request.user, campaign_id=campaign_id)
    messages.success(request, _("%(count)s SRD creatures added.") % {"count": added})
    return redirect("dnd5e:creatures", campaign_id)


#: Every army the member knows of, by faction, with its units and stands where they see them;
#: an army's page shows its units (stands of one creature, commander) and solos with their
#: HP, to players of other factions its name only.
ARMIES = Forces(
    app="dnd5e", noun="army", form=ArmyForm, access=access_dnd5e, access_row=access_army,
    overview=selectors.army_overview, url_id="dnd_army_id", part_forms=(UnitForm, SoloForm),
    sheet=lambda _request, _membership, army: {"army": selectors.army_sheet(army)},
    create=services.army_create, update=services.army_update, delete=services.army_delete,
    created=gettext_lazy("Army created: now add its units and solos."),
    saved=gettext_lazy("Army saved."), deleted=gettext_lazy("Army deleted."),
)  # fmt: skip
unit_add = ARMIES.add_part_view(UnitForm, services.unit_add, gettext_lazy("Unit added."))
#: The GM's fix of a unit's stands, configuration or commander.
unit_edit = ARMIES.edit_part_view(UnitForm, services.unit_update, gettext_lazy("Unit saved."))
unit_remove = ARMIES.remove_part_view(services.unit_remove, gettext_lazy("Unit removed."))
solo_add = ARMIES.add_part_view(SoloForm, services.solo_add, gettext_lazy("Solo added."))
solo_remove = ARMIES.remove_part_view(services.solo_remove, gettext_lazy("Solo removed."))
