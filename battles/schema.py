"""The OpenAPI documentation of what the rule systems' battle API takes and answers, shared
by the systems: a battle-create body made of a Django form's fields as JSON
(`BoardPlugin.api_create_input`: a DRF serializer, for the schema only, with one field per
form field), and the envelope every system's battle state has at its top level
(`BoardPlugin.api_state_output`)."""

from django import forms
from rest_framework import serializers

from .models import BattleStatus


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
    attrs["auto_sides"] = auto_sides_field()
    return type(name, (serializers.Serializer,), {"__doc__": doc, **attrs, **extra})


def auto_sides_field() -> serializers.ListField:
    """`auto_sides` of every system's create body (battles.autoplay)."""
    return serializers.ListField(
        child=serializers.ChoiceField(choices=["a", "b"]), required=False, max_length=2,
        help_text="The sides that play themselves: their turns are auto-played when reached "
        "(logged as usual).",
    )  # fmt: skip


class BattleEnvelopeOutput(serializers.Serializer):
    """What every rule system's battle state has at its top level (`battles.api.envelope`);
    each system's answer (`BoardPlugin.api_state_output`) adds its board to it."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.ChoiceField(choices=BattleStatus.choices)
    status_label = serializers.CharField()
    seq = serializers.IntegerField(help_text="Send it back with every write.")
    players_may_act = serializers.BooleanField()


def system_field(system: str) -> serializers.ChoiceField:
    """The `system` of a battle state of the rule system `system`: the key the schema's
    `oneOf` of every system's state is told apart by."""
    return serializers.ChoiceField(
        choices=[system], help_text="The battle's rule system: tells the states apart."
    )


def state_output(
    name: str, system: str, doc: str, **fields: serializers.Field
) -> type[serializers.Serializer]:
    """A serializer class `name` (its schema component) documenting the battle state of the
    rule system `system`: the envelope, `system` and the system's `fields`."""
    attrs = {"__doc__": doc, "system": system_field(system), **fields}
    return type(name, (BattleEnvelopeOutput,), attrs)


class CheckOutput(serializers.Serializer):
    """A check an option of a legal action rolls, shown before choosing it (the engine's
    `CheckPreview.to_dict()`)."""

    stat = serializers.CharField()
    modifier = serializers.IntegerField()
    modifier_breakdown = serializers.ListField(
        child=serializers.ListField(), help_text="[[code, value], …] the addends."
    )
    dc = serializers.IntegerField(
        allow_null=True,
        help_text="null for a player when the DC is the enemy's (unless the battle's "
        "`reveal_checks` shows it).",
    )
    dc_breakdown = serializers.ListField(child=serializers.ListField())
    against = serializers.CharField(allow_null=True)
