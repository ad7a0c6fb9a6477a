"""URLs of the JSON API, mounted under /api/v1/ (see warfare.api)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from battles import api as battle_api
from warfare.systems.pf2e import api as pf2e_api

from .api import views

app_name = "api"

urlpatterns = [
    # The OpenAPI schema (JSON with ?format=json, YAML otherwise) and its Swagger UI page. The
    # page's script comes from the same view (?script) and the UI from our static files, as
    # the Content-Security-Policy demands.
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(
            url_name="api:schema", template_name="api/swagger_ui.html"
        ),
        name="docs",
    ),
    path("campaigns/", views.CampaignListApi.as_view(), name="campaign-list"),
    path("campaigns/<int:campaign_id>/", views.CampaignDetailApi.as_view(), name="campaign-detail"),
    path(
        "campaigns/<int:campaign_id>/factions/",
        views.FactionListApi.as_view(),
        name="faction-list",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/armies/",
        pf2e_api.FactionArmyListApi.as_view(),
        name="faction-army-list",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/",
        pf2e_api.ArmyDetailApi.as_view(),
        name="army-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/activities/",
        pf2e_api.ArmyActivityApi.as_view(),
        name="army-activities",
    ),
    path(
        "campaigns/<int:campaign_id>/armies/<int:army_id>/log/",
        pf2e_api.ArmyLogApi.as_view(),
        name="army-log",
    ),
    # Battles (battles.api).
    path(
        "campaigns/<int:campaign_id>/battles/",
        battle_api.BattleListApi.as_view(),
        name="battle-list",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/",
        battle_api.BattleDetailApi.as_view(),
        name="battle-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/log/",
        battle_api.BattleLogApi.as_view(),
        name="battle-log",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/actions/",
        battle_api.BattleActionApi.as_view(),
        name="battle-actions",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/undo/",
        battle_api.BattleUndoApi.as_view(),
        name="battle-undo",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/apply/",
        battle_api.BattleApplyApi.as_view(),
        name="battle-apply",
    ),
    # Factions (detail), settlements and members.
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/",
        views.FactionDetailApi.as_view(),
        name="faction-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/settlements/",
        views.SettlementListApi.as_view(),
        name="settlement-list",
    ),
    path(
        "campaigns/<int:campaign_id>/settlements/<int:settlement_id>/",
        views.SettlementDetailApi.as_view(),
        name="settlement-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/members/",
        views.MemberListApi.as_view(),
        name="member-list",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/",
        views.MemberDetailApi.as_view(),
        name="member-detail",
    ),
]
