"""The shape of the campaign file, declared with DRF serializers (the API's vocabulary).

Each JSON object of the file is a `Row`: exactly its fields, no more, no fewer; a list of
them is `Rows` (with the most entries a campaign may have). The fields are strict, unlike
DRF's own (which turn "12" into 12 and 1 into True): a file holds the JSON types the export
writes, or it is refused. `model_fields` derives a row's fields from its model (a JSON column
holds the kind of JSON of its default, a nullable column allows null); ranges, choices and
`clean()` are left to the model's own validation when the rows are built
(`kingdoms.portability`).

`problems(error)` turns a DRF `ValidationError` into the messages the GM sees, each naming
the path of the bad value in the file ("armies[3].hp: expected a whole number."). The texts
keep "%(path)s" until then (`problem`): the path is known only once the error has climbed to
the document.
"""

import copy
from collections.abc import Mapping
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from rest_framework import serializers
from rest_framework.settings import api_settings

MAX_TEXT = 100_000
#: Errors reported per list: a file wrong in every row is not answered with thousands.
MAX_ERRORS = 10
ROOT = "file"
_PATH = "%(path)s"


def problem(message: str, code: str = "invalid", **params) -> serializers.ValidationError:
    """A validation error whose text keeps "%(path)s", filled in by `problems`."""
    return serializers.ValidationError(message % {"path": _PATH, **params}, code=code)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class FileField(serializers.Field):
    """A strict value of the file: `check(value)` or "expected <kind>"; null only when
    `allow_null`. The value itself is kept as it is (the file is stored as read)."""

    def kind(self) -> str:
        raise NotImplementedError

    def accepts(self, value) -> bool:
        raise NotImplementedError

    def fail(self, key, **kwargs):
        if key in ("invalid", "null"):
            raise problem(_("%(path)s: expected %(expected)s."), expected=self.kind())
        super().fail(key, **kwargs)

    def to_internal_value(self, data):
        if not self.accepts(data):
            self.fail("invalid")
        return data

    def to_representation(self, value):
        return value


class Text(FileField):
    def __init__(self, max_length: int | None = None, **kwargs):
        self.max_length = max_length or MAX_TEXT
        super().__init__(**kwargs)

    def kind(self):
        return _("text")

    def accepts(self, value):
        return isinstance(value, str)

    def to_internal_value(self, data):
        data = super().to_internal_value(data)
        if len(data) > self.max_length:
            raise problem(_("%(path)s: text is too long."), code="max_length")
        return data


class Whole(FileField):
    def kind(self):
        return _("a whole number")

    def accepts(self, value):
        return _is_int(value)


class Flag(FileField):
    def kind(self):
        return _("true or false")

    def accepts(self, value):
        return isinstance(value, bool)


class Moment(FileField):
    """A date and time with its time zone, as the export writes it (ISO 8601)."""

    def kind(self):
        return _("a date and time with a time zone (ISO 8601)")

    def accepts(self, value):
        parsed = parse_datetime(value) if isinstance(value, str) else None
        return parsed is not None and not timezone.is_naive(parsed)


class AnyJSON(FileField):
    """Any JSON value, null too (its text and depth are checked over the whole file first)."""

    def __init__(self, **kwargs):
        super().__init__(**{**kwargs, "allow_null": True})

    def kind(self):
        return _("a JSON value")

    def accepts(self, value):
        return True


class JSONObject(FileField):
    def kind(self):
        return _("an object")

    def accepts(self, value):
        return isinstance(value, dict)


class JSONList(FileField):
    def kind(self):
        return _("a list")

    def accepts(self, value):
        return isinstance(value, list)


def Name(**kwargs) -> Text:  # noqa: N802 - a field, named like the others
    """A name, a username or a key that names a row of the file (at most 150 characters)."""
    return Text(150, **kwargs)


def Ref(**kwargs) -> Whole:  # noqa: N802
    """A ref (a number local to the file) that may be null."""
    return Whole(allow_null=True, **kwargs)


def model_fields(model: type[models.Model], names) -> dict[str, FileField]:
    """The file's fields for the model fields `names`, by their types."""
    fields: dict[str, FileField] = {}
    for name in names:
        field = model._meta.get_field(name)
        if isinstance(field, models.JSONField):
            default = field.get_default() if field.has_default() else None
            kind = {dict: JSONObject, list: JSONList}.get(type(default), AnyJSON)
            fields[name] = kind(allow_null=field.null)
        elif isinstance(field, models.BooleanField):
            fields[name] = Flag(allow_null=field.null)
        elif isinstance(field, models.DateTimeField):
            fields[name] = Moment(allow_null=field.null)
        elif isinstance(field, models.IntegerField):
            fields[name] = Whole(allow_null=field.null)
        elif isinstance(field, models.UUIDField):  # as text, 36 characters with its hyphens
            fields[name] = Text(36, allow_null=field.null)
        else:
            fields[name] = Text(getattr(field, "max_length", None), allow_null=field.null)
    return fields


class Row(serializers.Serializer):
    """A JSON object of the file with exactly the fields `fields` (declared) and, when
    `model` is given, `model_fields(model, names)` after them.

        Row({"ref": Whole(), "faction": Name()}, model=Army, names=ARMY_FIELDS)
    """

    def __init__(self, fields: Mapping[str, serializers.Field] | None = None, *, model=None,
                 names=(), **kwargs):  # fmt: skip
        self.row_fields = dict(fields or {})
        self.row_model, self.row_names = model, tuple(names)
        super().__init__(**kwargs)

    def get_fields(self):
        fields = super().get_fields()
        fields.update(copy.deepcopy(self.row_fields))  # a field is bound to one parent
        if self.row_model is not None:
            fields.update(model_fields(self.row_model, self.row_names))
        return fields

    def fail(self, key, **kwargs):
        if key in ("invalid", "null"):
            raise problem(_("%(path)s: expected %(expected)s."), expected=_("an object"))
        super().fail(key, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, Mapping):
            self.fail("invalid")
        unknown = sorted(set(data) - set(self.fields))
        if unknown:
            raise problem(
                _("%(path)s: unexpected field “%(field)s”."), code="unexpected", field=unknown[0]
            )
        super().to_internal_value(data)
        return data

    def to_representation(self, instance):
        return instance


class Rows(serializers.ListField):
    """A list of `child` with at most `limit` entries (checked before any entry)."""

    def __init__(self, child: serializers.Field, *, limit: int, **kwargs):
        self.limit = limit
        super().__init__(child=child, **kwargs)

    def fail(self, key, **kwargs):
        if key in ("not_a_list", "null"):
            raise problem(_("%(path)s: expected %(expected)s."), expected=_("a list"))
        super().fail(key, **kwargs)

    def to_internal_value(self, data):
        if not isinstance(data, list):
            self.fail("not_a_list")
        if len(data) > self.limit:
            raise problem(
                _("%(path)s: %(count)s entries, more than the %(limit)s a campaign may have."),
                code="max_length",
                count=len(data),
                limit=self.limit,
            )
        errors = {}
        for index, item in enumerate(data):
            try:
                self.child.run_validation(item)
            except serializers.ValidationError as error:
                errors[index] = error.detail
                if len(errors) >= MAX_ERRORS:
                    break
        if errors:
            raise serializers.ValidationError(errors)
        return data

    def to_representation(self, data):
        return data


def _join(path: str, name: str) -> str:
    return name if path == ROOT else f"{path}.{name}"


def problems(detail: Any, path: str = ROOT) -> list[str]:
    """The messages of a DRF error `detail` (a ValidationError's), each with its path."""
    if isinstance(detail, dict):
        found = []
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                found += problems(value, path)
            elif isinstance(key, int):
                found += problems(value, f"{path}[{key}]")
            elif _required(value):
                message = _("%(path)s: missing field “%(field)s”.")
                found.append(message % {"path": path, "field": key})
            else:
                found += problems(value, _join(path, key))
        return found
    if isinstance(detail, list):
        return [message for item in detail for message in problems(item, path)]
    return [str(detail).replace(_PATH, path)]


def _required(value) -> bool:
    return isinstance(value, list) and any(
        getattr(item, "code", None) == "required" for item in value
    )
