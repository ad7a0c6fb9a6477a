from django.urls import path

from . import autoplay_views, report, views

app_name = "battles"

urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/", views.battle_list, name="list"),
    path("campaigns/<int:campaign_id>/battles/new/", autoplay_views.battle_create, name="create"),
    path(
        "campaigns/<int:campaign_id>/battles/forecast/",
        autoplay_views.setup_forecast,
        name="setup-forecast",
    ),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/", views.board, name="board"),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/live/",
        views.board_events,
        name="live",
    ),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/log/", views.board_log, name="log"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/act/", views.act, name="act"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/undo/", views.undo, name="undo"),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/apply/",
        views.apply_results,
        name="apply",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/report/",
        report.report,
        name="report",
    ),
    # Auto-play and the forecast (battles.autoplay_views).
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/autoplay/",
        autoplay_views.autoplay_view,
        name="autoplay",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/autoplay/undo/",
        autoplay_views.undo_autoplay_view,
        name="undo-autoplay",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/forecast/",
        autoplay_views.board_forecast,
        name="forecast",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/forecast/share/",
        autoplay_views.share_forecast,
        name="forecast-share",
    ),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/report/charts/<slug:chart>.svg",
        report.report_chart,
        name="report-chart",
    ),
]
