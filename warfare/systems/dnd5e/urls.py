from django.urls import path

from . import board_views, views

app_name = "dnd5e"

_C = "campaigns/<int:campaign_id>/dnd5e/"
_A = _C + "armies/<int:dnd_army_id>/"

urlpatterns = [
    path(_C + "creatures/", views.creature_list, name="creatures"),
    path(_C + "creatures/srd/", views.library_load, name="library-load"),
    path(_C + "creatures/<int:creature_id>/edit/", views.creature_edit, name="creature-edit"),
    path(_C + "creatures/<int:creature_id>/delete/", views.creature_delete, name="creature-delete"),
    path(_C + "armies/", views.army_list, name="army-list"),
    path(_C + "armies/new/", views.army_create, name="army-create"),
    path(_A, views.army_detail, name="army-detail"),
    path(_A + "edit/", views.army_edit, name="army-edit"),
    path(_A + "delete/", views.army_delete, name="army-delete"),
    path(_A + "units/", views.unit_add, name="unit-add"),
    path(_A + "units/<int:unit_id>/edit/", views.unit_edit, name="unit-edit"),
    path(_A + "units/<int:unit_id>/delete/", views.unit_remove, name="unit-remove"),
    path(_A + "solos/", views.solo_add, name="solo-add"),
    path(_A + "solos/<int:solo_id>/delete/", views.solo_remove, name="solo-remove"),
    path(_C + "battles/<int:battle_id>/gm/", board_views.gm_command, name="battle-gm-command"),
]
