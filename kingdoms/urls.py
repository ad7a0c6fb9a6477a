from django.urls import path

from . import views

app_name = "kingdoms"

urlpatterns = [
    path("campaigns/", views.campaign_list, name="campaign-list"),
    path("campaigns/new/", views.campaign_create, name="campaign-create"),
    path("campaigns/import/", views.campaign_import, name="campaign-import"),
    path("campaigns/<int:campaign_id>/", views.campaign_detail, name="campaign-detail"),
    path("campaigns/<int:campaign_id>/edit/", views.campaign_edit, name="campaign-edit"),
    path("campaigns/<int:campaign_id>/export/", views.campaign_export, name="campaign-export"),
    path("campaigns/<int:campaign_id>/delete/", views.campaign_delete, name="campaign-delete"),
    path("campaigns/<int:campaign_id>/factions/new/", views.faction_create, name="faction-create"),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/",
        views.faction_detail,
        name="faction-detail",
    ),
    path(
        "campaigns/<int:campaign_id>/factions/<int:faction_id>/edit/",
        views.faction_edit,
        name="faction-edit",
    ),
    path(
        "campaigns/<int:campaign_id>/settlements/new/",
        views.settlement_create,
        name="settlement-create",
    ),
    path(
        "campaigns/<int:campaign_id>/settlements/<int:settlement_id>/edit/",
        views.settlement_edit,
        name="settlement-edit",
    ),
    path("campaigns/<int:campaign_id>/members/", views.members, name="members"),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/",
        views.member_update,
        name="member-update",
    ),
    path(
        "campaigns/<int:campaign_id>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member-remove",
    ),
    path("campaigns/<int:campaign_id>/invites/", views.invite_create, name="invite-create"),
    path(
        "campaigns/<int:campaign_id>/invites/<int:invite_id>/revoke/",
        views.invite_revoke,
        name="invite-revoke",
    ),
    path("join/<str:token>/", views.invite_accept, name="invite-accept"),
]
