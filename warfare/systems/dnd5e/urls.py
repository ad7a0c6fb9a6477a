from django.urls import path

from . import board_views, views

app_name = "dnd5e"

_C = "campaigns/<int:campaign_id>/dnd5e/"
_A = _C + "armies/<int:dnd_army_id>/"

urlpatterns = [
    *views.CREATURES.urls(_C + "creatures/"),
    path(_C + "creatures/srd/", views.library_load, name="library-load"),
    *views.ARMIES.urls(_C + "armies/"),
    path(_A + "units/", views.unit_add, name="unit-add"),
    path(_A + "units/<int:unit_id>/edit/", views.unit_edit, name="unit-edit"),
    path(_A + "units/<int:unit_id>/delete/", views.unit_remove, name="unit-remove"),
    path(_A + "solos/", views.solo_add, name="solo-add"),
    path(_A + "solos/<int:solo_id>/delete/", views.solo_remove, name="solo-remove"),
    path(_C + "battles/<int:battle_id>/gm/", board_views.gm_command, name="battle-gm-command"),
]
