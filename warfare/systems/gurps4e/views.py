"""GURPS Mass Combat force pages: thin views over services, selectors and access."""

from django.utils.translation import gettext_lazy

from kingdoms.crud import Forces, Library

from . import selectors, services
from .access import access_force, access_gurps4e
from .forms import ElementTypeForm, ForceElementForm, ForceForm

#: The campaign's element types; the GM adds new ones on the list.
ELEMENT_TYPES = Library(
    app="gurps4e", noun="element_type", form=ElementTypeForm, access=access_gurps4e,
    create=services.element_type_create, update=services.element_type_update,
    delete=services.element_type_delete, added=gettext_lazy("Element type added."),
    saved=gettext_lazy("Element type saved."), deleted=gettext_lazy("Element type deleted."),
)  # fmt: skip


def _force_sheet(request, membership, force) -> dict:
    """The force's rows and TS working; compared with the enemy `?enemy=<id>` names."""
    enemy_id = request.GET.get("enemy")
    return selectors.force_sheet(
        membership=membership,
        force=force,
        enemy_id=int(enemy_id) if enemy_id and enemy_id.isdigit() else None,
    )


#: Every force the member knows of, by faction, with Troop Strength where they see it; a
#: force's page shows its element rows and its Troop Strength with the working shown (§A.2.4),
#: and the GM (and the force's side, against forces they see in full) compares it with an
#: enemy.
FORCES = Forces(
    app="gurps4e", noun="force", form=ForceForm, access=access_gurps4e, access_row=access_force,
    overview=selectors.force_overview, url_id="force_id", part_forms=(ForceElementForm,),
    sheet=_force_sheet,
    create=services.force_create, update=services.force_update, delete=services.force_delete,
    created=gettext_lazy("Force created: now add its elements."),
    saved=gettext_lazy("Force saved."), deleted=gettext_lazy("Force deleted."),
)  # fmt: skip
force_row_add = FORCES.add_part_view(
    ForceElementForm, services.force_element_add, gettext_lazy("Elements added.")
)
force_row_remove = FORCES.remove_part_view(
    services.force_element_remove, gettext_lazy("Elements removed.")
)
