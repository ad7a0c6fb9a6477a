from django.contrib import admin

from .models import Army, Creature, Solo, Unit


@admin.register(Creature)
class CreatureAdmin(admin.ModelAdmin):
    list_display = ["name", "key", "size", "ac", "hp", "campaign"]
    list_filter = ["campaign"]
    search_fields = ["name", "key"]


class UnitInline(admin.TabularInline):
    model = Unit
    extra = 0
    raw_id_fields = ["creature", "commander"]


class SoloInline(admin.TabularInline):
    model = Solo
    extra = 0
    raw_id_fields = ["creature"]


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "campaign"]
    list_filter = ["campaign"]
    search_fields = ["name"]
    inlines = [UnitInline, SoloInline]
