"""The API's shared pieces, which every app's API builds on (the campaigns', the board's,
each rule system's): the error shapes, how errors answer, the base views, a whole-number
filter. It imports no app."""

from typing import Any

import django_filters
from django import forms
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import exceptions, generics, serializers, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.response import Response
from rest_framework.views import APIView


class ErrorsOutput(serializers.Serializer):
    """Bad input or a rule problem: nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    fields = serializers.DictField(required=False)


class DetailOutput(serializers.Serializer):
    """Not logged in (403), not allowed (403), not found (404) or throttled (429)."""

    detail = serializers.CharField()


#: Error responses of every operation, for the schema (403 also for anonymous requests).
DENIED = {403: DetailOutput, 404: DetailOutput}
#: …and of lists, whose filters answer 400 to a bad value.
LIST_ERRORS = {400: ErrorsOutput, **DENIED}
#: …and of writes: bad input or a rule problem (400), too many writes (429).
WRITE_ERRORS = {400: ErrorsOutput, **DENIED, 429: DetailOutput}


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    """DRF error detail (nested dicts and lists) as 'field: message' lines."""
    if isinstance(detail, dict):
        lines = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "__all__") else str(key)
            lines += _flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return lines
    if isinstance(detail, list):
        return [line for item in detail for line in _flatten(item, prefix)]
    return [f"{prefix}: {detail}" if prefix else str(detail)]


def _bad_request(errors: list[str], fields: Any = None) -> Response:
    body: dict[str, Any] = {"errors": errors}
    if fields:
        body["fields"] = fields
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


@extend_schema_field(OpenApiTypes.INT)
class IntegerFilter(django_filters.Filter):
    """A whole number (bound it with min_value/max_value: PostgreSQL refuses huge ones)."""

    field_class = forms.IntegerField


class _ApiErrors:
    # Maps the services' exceptions to responses; DRF already maps Http404 and PermissionDenied.
    # `throttle_scope`: the writes of every API view share one rate per user.

    throttle_scope = "api-write"

    def handle_exception(self, exc):
        if isinstance(exc, DjangoValidationError):
            return _bad_request(exc.messages)
        if isinstance(exc, exceptions.ValidationError):
            return _bad_request(_flatten(exc.detail), exc.detail)
        if isinstance(exc, exceptions.ParseError):
            return _bad_request([str(exc.detail)])
        return super().handle_exception(exc)


class ApiView(_ApiErrors, APIView):
    """A view of the API (a detail or a write)."""


class _Metadata(SimpleMetadata):
    """OPTIONS: describe the POST body only where the view names its `serializer_class`."""

    def determine_actions(self, request, view):
        if getattr(view, "serializer_class", None) is None:
            return {}
        return super().determine_actions(request, view)


class ApiListView(_ApiErrors, generics.GenericAPIView):
    """A list: scope the queryset to the reader first, then `self.page(queryset)` filters and
    paginates it. `queryset` names the model for the filters and the schema only."""

    metadata_class = _Metadata

    def page(self, queryset) -> list:
        return self.paginate_queryset(self.filter_queryset(queryset))
