"""The D&D 5e board's template helpers: the selected piece, and what a cell offers it."""

from django import template

from battles.rendering import selection

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


@register.simple_tag(takes_context=True)
def dnd_selection(context) -> str:
    """The piece the board shows selected: the one asked for with `?sel=<key>`, else the
    next piece the member has to move (`next_piece` of the board's context: the next stand
    of the acting unit, the next piece to deploy), so nobody clicks to select it. A piece
    that has finished (used its action, deployed) gives way to the next one right after the
    action that finished it (the act's answer, a POST); asked for again, it stays selected.
    `?sel=` (empty) selects nothing."""
    request = context.get("request")
    following = context.get("next_piece") or ""
    if request is None:  # drawn without a request (no `?sel=`): the board's own choice
        return following
    asked = request.GET.get("sel")
    if asked is None:
        return following
    if not asked:
        return ""
    if asked not in context.get("selectable", ()):
        return following  # no longer the member's to move (the turn went on)
    if request.method == "POST" and asked in context.get("finished", ()):
        return following
    return asked


@register.simple_tag(takes_context=True)
def asked_selection(context) -> str:
    """The selection as the request asked for it (`battles.rendering.selection`: "*" when it
    asked for none and the board chose): what the board on screen says it was drawn for, so
    an action from it is answered from the same cached board."""
    request = context.get("request")
    return selection(request) if request is not None else "*"
