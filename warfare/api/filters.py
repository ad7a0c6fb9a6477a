"""Filters of the API lists (django-filter). Only on what every reader of the list may see:
a filter on a hidden number would tell a player that number by what it lets through."""

import django_filters
from django import forms
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field

from kingdoms.models import Campaign, Controller, Faction, Membership, Role, RuleSystem, Settlement


@extend_schema_field(OpenApiTypes.INT)
class IntegerFilter(django_filters.Filter):
    """A whole number (bound it with min_value/max_value: PostgreSQL refuses huge ones)."""

    field_class = forms.IntegerField


class CampaignFilter(django_filters.FilterSet):
    rule_system = django_filters.ChoiceFilter(choices=RuleSystem.choices)

    class Meta:
        model = Campaign
        fields = ["rule_system"]


class FactionFilter(django_filters.FilterSet):
    controlled_by = django_filters.ChoiceFilter(choices=Controller.choices)

    class Meta:
        model = Faction
        fields = ["controlled_by"]


class SettlementFilter(django_filters.FilterSet):
    faction = IntegerFilter(field_name="faction_id", min_value=1, max_value=2**31 - 1)
    is_capital = django_filters.BooleanFilter()

    class Meta:
        model = Settlement
        fields = ["faction", "is_capital"]


class MemberFilter(django_filters.FilterSet):
    role = django_filters.ChoiceFilter(choices=Role.choices)

    class Meta:
        model = Membership
        fields = ["role"]
