from django.urls import path

from . import board_views, views

app_name = "dnd5e"

_C = "campaigns/<int:campaign_id>/dnd5e/"
_ARMIES = _C + "armies/"

urlpatterns = [
    *views.CREATURES.urls(_C + "creatures/"),
    path(_C + "creatures/srd/", views.library_load, name="library-load"),
    *views.ARMIES.urls(_ARMIES),
    *views.ARMIES.part_urls(
        _ARMIES, "unit", add=views.unit_add, edit=views.unit_edit, remove=views.unit_remove
    ),
    *views.ARMIES.part_urls(_ARMIES, "solo", add=views.solo_add, remove=views.solo_remove),
    path(_C + "battles/<int:battle_id>/gm/", board_views.gm_command, name="battle-gm-command"),
]
