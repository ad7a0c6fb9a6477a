from django.contrib import admin

from .models import Character, Force, Reputation, Unit


class UnitInline(admin.TabularInline):
    model = Unit
    extra = 0


@admin.register(Force)
class ForceAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "campaign", "tl"]
    list_filter = ["campaign"]
    search_fields = ["name"]
    inlines = [UnitInline]


class ReputationInline(admin.TabularInline):
    model = Reputation
    extra = 0


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "is_pc", "faction", "owner", "campaign", "rank", "status"]
    list_filter = ["campaign"]
    search_fields = ["name"]
    inlines = [ReputationInline]
