from django.contrib import admin

from .models import Campaign, CommandStaff, Faction, Invite, Membership, Settlement


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "rule_system", "created_by", "created_at"]
    list_filter = ["rule_system"]
    search_fields = ["name"]
    inlines = [MembershipInline]


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "controlled_by", "known_to_players"]
    list_filter = ["controlled_by", "campaign"]
    search_fields = ["name"]
    list_select_related = ["campaign"]


@admin.register(CommandStaff)
class CommandStaffAdmin(admin.ModelAdmin):
    list_display = ["faction", "commander", "strategy", "tactics", "leadership"]
    list_select_related = ["faction"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "campaign", "role", "faction"]
    list_filter = ["role"]
    list_select_related = ["user", "campaign", "faction"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["campaign", "faction", "created_at", "expires_at", "revoked_at", "uses"]
    list_select_related = ["campaign", "faction"]
    readonly_fields = ["token"]


@admin.register(Settlement)
class SettlementAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "faction", "hex", "is_capital"]
    list_select_related = ["campaign", "faction"]
    search_fields = ["name"]
