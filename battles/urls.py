from django.urls import path

from . import report, views

app_name = "battles"

urlpatterns = [
    path("campaigns/<int:campaign_id>/battles/", views.battle_list, name="list"),
    path("campaigns/<int:campaign_id>/battles/new/", views.battle_create, name="create"),
    path("campaigns/<int:campaign_id>/battles/<int:battle_id>/", views.board, name="board"),
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/live/",
        views.board_events,
        name="live",
    ),
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
    path(
        "campaigns/<int:campaign_id>/battles/<int:battle_id>/report/charts/<slug:chart>.svg",
        report.report_chart,
        name="report-chart",
    ),
]
