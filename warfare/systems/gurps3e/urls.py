from django.urls import path

from . import views

app_name = "gurps3e"

_F = "campaigns/<int:campaign_id>/3e/forces/"
_C = "campaigns/<int:campaign_id>/3e/characters/"

urlpatterns = [
    *views.TROOP_TYPES.urls(_F + "troop-types/"),
    *views.FORCES.urls(_F),
    *views.FORCES.part_urls(
        _F, "unit", add=views.unit_add, edit=views.unit_edit, remove=views.unit_remove
    ),
    path(_C, views.character_list, name="character-list"),
    path(_C + "new/", views.character_create, name="character-create"),
    path(_C + "<int:character_id>/", views.character_detail, name="character-detail"),
    path(_C + "<int:character_id>/edit/", views.character_edit, name="character-edit"),
    path(_C + "<int:character_id>/delete/", views.character_delete, name="character-delete"),
    path(_C + "<int:character_id>/reputation/", views.reputation_add, name="reputation-add"),
    path(
        _C + "<int:character_id>/reputation/<int:entry_id>/delete/",
        views.reputation_remove,
        name="reputation-remove",
    ),
]
