from django.contrib import admin

from .models import Army, Kingdom, LogEntry, Recruitment


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "army_type", "specialized", "hp", "hex", "status"]
    list_filter = ["status", "army_type"]
    list_select_related = ["faction"]
    search_fields = ["name"]
    readonly_fields = ["version", "created_at", "updated_at"]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "faction", "army", "turn", "code", "actor"]
    list_filter = ["code"]
    list_select_related = ["faction", "army", "actor"]


@admin.register(Recruitment)
class RecruitmentAdmin(admin.ModelAdmin):
    list_display = ["faction", "army_type", "specialized", "step", "army", "created_at"]
    list_select_related = ["faction", "army"]


@admin.register(Kingdom)
class KingdomAdmin(admin.ModelAdmin):
    list_display = ["faction", "level", "resource_points", "food", "unrest", "at_war"]
    list_select_related = ["faction"]
