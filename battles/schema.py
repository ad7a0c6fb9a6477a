"""The OpenAPI documentation of a rule system's battle-create body when its API set-up
takes a Django form's fields as JSON (`BoardPlugin.api_create_input`): a DRF serializer,
for the schema only, with one field per form field."""

from django import forms
from rest_framework import serializers


def _field(field: forms.Field, defaults: bool) -> serializers.Field:
    required = field.required and not (defaults and field.initial is not None)
    common = {"required": required, "help_text": field.label or ""}
    if isinstance(field, forms.BooleanField):
        return serializers.BooleanField(**{**common, "required": False})
    if isinstance(field, forms.ModelChoiceField):
        return serializers.IntegerField(min_value=1, **common)
    if isinstance(field, forms.MultipleChoiceField):
        child = serializers.ChoiceField(choices=[c for c, _label in field.choices])
        return serializers.ListField(child=child, **common)
    if isinstance(field, forms.ChoiceField):
        return serializers.ChoiceField(choices=[c for c, _label in field.choices], **common)
    if isinstance(field, forms.IntegerField):
        return serializers.IntegerField(
            min_value=field.min_value, max_value=field.max_value, **common
        )
    return serializers.CharField(
        max_length=getattr(field, "max_length", None), allow_blank=not field.required, **common
    )


def form_input(
    name: str,
    fields: dict[str, forms.Field],
    doc: str,
    *,
    defaults: bool = False,
    **extra: serializers.Field,
) -> type[serializers.Serializer]:
    """A serializer class `name` (its schema component) documenting `fields` (a form's, by
    name) and the `extra` fields the API takes besides them; `defaults`: the API fills in
    the form's initial values, so a field that has one is optional."""
    attrs = {key: _field(field, defaults) for key, field in fields.items()}
    return type(name, (serializers.Serializer,), {"__doc__": doc, **attrs, **extra})
