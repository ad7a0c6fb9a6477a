"""What every API view shares, whatever it serves (campaigns, a rule system's rows, battles):
the error shapes and their mapping, the base views, and the helpers that turn forms' and
serializers' errors into a 400 `{"errors": [...], "fields": {...}}`.

Errors map as the HTML views do: a non-member gets 404 (Http404 from the access helpers), a
member without the role 403 (PermissionDenied), a rule problem 400 `{"errors": [...]}` (the
services' ValidationError; nothing changed). A view whose services raise more (a stale row:
409) maps them in its own `handle_exception` before calling this one.
"""

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.forms.models import model_to_dict
from django.utils.translation import gettext as _
from rest_framework import exceptions, generics, serializers, status
from rest_framework.metadata import SimpleMetadata
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

# --- Shapes ---------------------------------------------------------------------------------


class ErrorsOutput(serializers.Serializer):
    """Bad input or a rule problem: nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    fields = serializers.DictField(required=False)


class DetailOutput(serializers.Serializer):
    """Not logged in (403), not allowed (403), not found (404) or throttled (429)."""

    detail = serializers.CharField()


class OptionalBeyond:
    """Marks every field not in `public` optional (for the schema)."""

    public: type[serializers.Serializer]

    def get_fields(self):
        fields = super().get_fields()
        for name, field in fields.items():
            if name not in self.public._declared_fields:
                field.required = False
        return fields


#: Error responses of every operation, for the schema (403 also for anonymous requests).
DENIED = {403: DetailOutput, 404: DetailOutput}
#: …and of lists, whose filters answer 400 to a bad value.
LIST_ERRORS = {400: ErrorsOutput, **DENIED}
#: …and of writes: bad input or a rule problem (400), too many writes (429).
WRITE_ERRORS = {400: ErrorsOutput, **DENIED, 429: DetailOutput}


# --- Errors and input -----------------------------------------------------------------------


def flatten(detail: Any, prefix: str = "") -> list[str]:
    """DRF error detail (nested dicts and lists) as 'field: message' lines."""
    if isinstance(detail, dict):
        lines = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "__all__") else str(key)
            lines += flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return lines
    if isinstance(detail, list):
        return [line for item in detail for line in flatten(item, prefix)]
    return [f"{prefix}: {detail}" if prefix else str(detail)]


def bad_request(errors: list[str], fields: Any = None) -> Response:
    body: dict[str, Any] = {"errors": errors}
    if fields:
        body["fields"] = fields
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def form_errors(form) -> Response:
    fields = {name: [str(m) for m in messages] for name, messages in form.errors.items()}
    return bad_request(flatten(fields), fields)


def json_object(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise exceptions.ParseError(_("Send a JSON object."))
    return request.data


def input_data(serializer_class, request: Request, *, partial: bool = False) -> dict[str, Any]:
    serializer = serializer_class(data=json_object(request), partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def merged(instance, fields: list[str], sent: dict[str, Any]) -> dict[str, Any]:
    """Form data: `instance`'s current values (a new instance: the defaults), then `sent`."""
    return {**model_to_dict(instance, fields=fields), **sent}


def prefixed(form_class, data: dict[str, Any]) -> dict[str, Any]:
    return {f"{form_class.prefix}-{key}": value for key, value in data.items()}


def errors_of(forms: dict[str, Any]) -> Response:
    """400 with the errors of several forms; a nested form's fields as `kingdom.level`."""
    fields: dict[str, list[str]] = {}
    for key, form in forms.items():
        for name, messages in form.errors.items():
            label = name if not key else key if name == "__all__" else f"{key}.{name}"
            fields.setdefault(label, []).extend(str(message) for message in messages)
    return bad_request(flatten(fields), fields)


def stale_errors() -> list[str]:
    return [_("Nothing was saved: someone changed this meanwhile.")]


def stale_response(errors: list[str] | None = None, **current: Any) -> Response:
    """409, nothing saved: `errors` (by default `stale_errors()`) and what changed meanwhile
    as it is now (`faction=…`), for the client to look at and try again."""
    body = {"errors": stale_errors() if errors is None else errors, **current}
    return Response(body, status=status.HTTP_409_CONFLICT)


# --- Views ----------------------------------------------------------------------------------


class ApiErrors:
    # Maps the services' exceptions to responses; DRF already maps Http404 and PermissionDenied.
    # `throttle_scope`: the writes of every API view share one rate per user.

    throttle_scope = "api-write"

    def handle_exception(self, exc):
        if isinstance(exc, DjangoValidationError):
            return bad_request(exc.messages)
        if isinstance(exc, exceptions.ValidationError):
            return bad_request(flatten(exc.detail), exc.detail)
        if isinstance(exc, exceptions.ParseError):
            return bad_request([str(exc.detail)])
        return super().handle_exception(exc)


class ApiView(ApiErrors, APIView):
    pass


class _Metadata(SimpleMetadata):
    """OPTIONS: describe the POST body only where the view names its `serializer_class`."""

    def determine_actions(self, request, view):
        if getattr(view, "serializer_class", None) is None:
            return {}
        return super().determine_actions(request, view)


class ApiListView(ApiErrors, generics.GenericAPIView):
    """A list: scope the queryset to the reader first, then `self.page(queryset)` filters and
    paginates it. `queryset` names the model for the filters and the schema only."""

    metadata_class = _Metadata

    def page(self, queryset) -> list:
        return self.paginate_queryset(self.filter_queryset(queryset))
