"""The board's shared forms: the die results typed in, one command of the board."""

from django import forms
from django.utils.translation import gettext_lazy as _


def parse_dice(text: str, sides: int, *, most: int = 20) -> list[int] | None:
    """The die results typed in from the table ("3 5 2, 4 4 1": spaces or commas between
    them); None when empty. Each must be a whole number 1..`sides`, at most `most` of them."""
    parts = (text or "").replace(",", " ").split()
    if not parts:
        return None
    if not all(part.isdigit() and 1 <= int(part) <= sides for part in parts):
        raise forms.ValidationError(
            _("Dice are numbers from 1 to %(sides)s.") % {"sides": sides}, code="dice_range"
        )
    if len(parts) > most:
        raise forms.ValidationError(
            _("At most %(most)s dice can be typed in.") % {"most": most}, code="dice_count"
        )
    return [int(part) for part in parts]


class _SharedFields(dict):
    """A form class's fields, which `copy.deepcopy` (Django's per form instance) copies
    shallowly: every instance holds the same field objects."""

    def __deepcopy__(self, memo):
        return dict(self)


def shared_fields(form_class: type[forms.Form]) -> type[forms.Form]:
    """A form class whose instances share its field objects instead of each deep-copying
    them (its widgets, validators and messages: ~120 Python calls for the five fields of a
    board action, issue 13). Only for a form whose instances never change a field (its
    choices, widget, `required`…) — not inherited: a subclass's fields are copied again."""
    form_class.base_fields = _SharedFields(form_class.base_fields)
    return form_class


@shared_fields  # (checked, never changed: the board's every click)
class ActForm(forms.Form):
    seq = forms.IntegerField(min_value=0)
    actor = forms.CharField(max_length=40)
    kind = forms.CharField(max_length=40)
    params = forms.JSONField(required=False)
    typed_die = forms.IntegerField(required=False, min_value=1, max_value=20)

    def command(self) -> dict:
        params = self.cleaned_data.get("params") or {}
        if not isinstance(params, dict):
            raise forms.ValidationError(_("That action was not understood."))
        typed = self.cleaned_data.get("typed_die")
        return {
            "actor": self.cleaned_data["actor"],
            "kind": self.cleaned_data["kind"],
            "params": params,
            "typed_dice": [typed] if typed else None,
        }
