"""The D&D 5e board's one template filter: what a cell offers the selected piece."""

from django import template

register = template.Library()


@register.filter
def for_selected(options: dict, selected: str | None):
    """The option of a cell for the piece selected with `?sel=<key>` (None if none)."""
    if not selected:
        return None
    return options.get(selected)


@register.filter
def lookup(mapping: dict, key):
    return mapping.get(key) if mapping else None
