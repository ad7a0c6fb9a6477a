"""URLs of the JSON API, mounted under /api/v1/ (see warfare.api)."""

from django.urls import path

from .api import views

app_name = "api"

urlpatterns = [
    path("campaigns/", views.CampaignListApi.as_view(), name="campaign-list"),
    path("campaigns/<int:campaign_id>/", views.CampaignDetailApi.as_view(), name="campaign-detail"),
    path(
        "campaigns/<int:campaign_id>/factions/",
        views.FactionListApi.as_view(),
        name="faction-list",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/armies/",
        views.FactionArmyListApi.as_view(),
        name="faction-army-list",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/",
        views.ArmyDetailApi.as_view(),
        name="army-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/activities/",
        views.ArmyActivityApi.as_view(),
        name="army-activities",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/log/",
        views.ArmyLogApi.as_view(),
        name="army-log",
    ),
]
