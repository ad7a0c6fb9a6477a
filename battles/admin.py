from django.contrib import admin

from .models import Battle, BattleCommand, BattleEvent


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "system", "status", "seq", "created_at"]
    list_filter = ["status", "system"]
    list_select_related = ["campaign"]
    readonly_fields = ["seed", "seq", "snapshot", "setup", "outcome"]


@admin.register(BattleCommand)
class BattleCommandAdmin(admin.ModelAdmin):
    list_display = ["battle", "position", "actor", "created_at", "undone_at"]
    list_select_related = ["battle", "actor"]


@admin.register(BattleEvent)
class BattleEventAdmin(admin.ModelAdmin):
    list_display = ["battle", "round", "code", "created_at"]
    list_filter = ["code"]
    list_select_related = ["battle"]
