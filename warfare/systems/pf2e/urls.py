from django.urls import path

from . import views

app_name = "pf2e"

urlpatterns = [
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/turn/",
        views.kingdom_turn,
        name="kingdom-turn",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/recruit/",
        views.recruit_start,
        name="recruit-start",
    ),
    path(
        "campaigns/<int:campaign_id>/recruitments/<int:recruitment_id>/",
        views.recruit_step,
        name="recruit-step",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/armies/",
        views.army_list,
        name="army-list",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/armies/new/",
        views.army_create,
        name="army-create",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/", views.army_detail, name="army-detail"
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/edit/", views.army_edit, name="army-edit"
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/activity/",
        views.army_activity,
        name="army-activity",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/gear/",
        views.army_gear_transfer,
        name="army-gear-transfer",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/conditions/",
        views.army_condition,
        name="army-condition",
    ),
]
