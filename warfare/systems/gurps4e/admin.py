from django.contrib import admin

from .models import ElementType, Force, ForceElement


@admin.register(ElementType)
class ElementTypeAdmin(admin.ModelAdmin):
    list_display = ["name", "tl", "base_ts", "is_support", "campaign"]
    list_filter = ["campaign"]
    search_fields = ["name"]


class ForceElementInline(admin.TabularInline):
    model = ForceElement
    extra = 0
    raw_id_fields = ["element_type"]


@admin.register(Force)
class ForceAdmin(admin.ModelAdmin):
    list_display = ["name", "faction", "campaign", "strength_percent"]
    list_filter = ["campaign"]
    search_fields = ["name"]
    inlines = [ForceElementInline]
