"""The D&D 5e board's template helpers: the selected piece, and what a cell offers it."""

from urllib.parse import quote

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from battles.rendering import selection
from battles.templatetags import board_fragments

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


def _side_pieces(side: dict) -> set[str]:
    """The keys of a side's stands and solos (a row of the board's `sides`)."""
    keys = {stand["key"] for unit in side["units"] for stand in unit["stands"]}
    return keys | {solo["key"] for solo in side["solos"]}


@register.filter
def of_side(keys, side: dict):
    """Of `keys` (a set, or one key) those of the side's pieces: what a side's card shows
    of the selectable pieces and the selection (what its fragment reads)."""
    pieces = _side_pieces(side)
    if isinstance(keys, str):
        return keys if keys in pieces else ""
    return sorted(pieces.intersection(keys or ()))


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


@register.simple_tag(takes_context=True)
def dnd_post_selection(context, sel: str) -> str:
    """The selection an action of the board posts (`?sel=` of its forms): none on a board
    that chose its selection by itself (`data-sel="*"`), so that the answer is the same
    board, chosen again — and only what changed from the board on screen is sent back
    (`battles.rendering.changed_fragments`); else the piece shown selected."""
    if asked_selection(context) == "*":
        return ""
    return sel


# --- the grid's cells, drawn in Python (a board has ~100 of them: in the template language
# they were most of a D&D 5e board's render) ------------------------------------------------


def _piece(occ: dict) -> str:
    """The occupant's mark: its short name, side and state."""
    kind = " solo" if occ["kind"] == "solo" else (" engine" if occ.get("engine") else "")
    inner = ""
    if occ["anchor"]:
        inner = format_html(
            "{}{}{}{}{}{}{}",
            "⚙" if occ.get("engine") else "",
            occ["short"],
            "★" if occ["solos"] else "",
            "✝" if occ["casualty"] else "",
            "⚑" if occ["broken"] else "",
            "◌" if occ["hidden"] else "",
            format_html("<small>{}</small>", occ["hp"]) if occ["hp"] is not None else "",
        )
    return format_html('<span class="piece side-{}{}">{}</span>', occ["side"], kind, inner)


def _title(cell: dict, occ: dict | None) -> str:
    parts = [f"({cell['x']}, {cell['y']}) {cell['terrain_label']}"]
    if cell["difficult"]:
        parts.append(", " + gettext("difficult"))
    if cell["elevation"]:
        parts.append(", " + gettext("height") + f" {cell['elevation']}")
    if cell["objective"]:
        parts.append(f" — {cell['objective']['name']}")
    if cell["zone"]:
        parts.append(" — " + gettext("deployment zone"))
    if occ:
        parts.append(f" — {occ['name']}")
        if occ["solos"]:
            solos = ", ".join(str(solo) for solo in occ["solos"])
            parts.append(" (" + gettext("with") + f" {solos})")
    return "".join(str(part) for part in parts)


def _classes(cell: dict, occ: dict | None, opt: dict | None, sel) -> str:
    css = [f"sq t-{cell['terrain']}"]
    css += [name for name, on in (("diff", cell["difficult"]), ("high", cell["elevation"]),
                                  ("objective", cell["objective"])) if on]  # fmt: skip
    if occ:
        css.append(f"occ side-{occ['side']}")
        css += [name for name, on in (("selected", occ["key"] == sel),
                                      ("casualty", occ["casualty"])) if on]  # fmt: skip
    if opt:
        css.append(str(opt["css"]))
    if cell["zone"]:
        css.append(f"zone zone-{cell['zone']}")
    return " ".join(css)


@register.simple_tag(takes_context=True)
@board_fragments.drawn_from(
    # (its URLs: of the battle's campaign and id, the act and board URLs as given)
    "battle.campaign_id", "battle.pk", "act_url", "board_url", "csrf_token",
)  # fmt: skip
def dnd_cell(context, cell: dict, sel, post=None) -> str:
    """One square of the grid (`<td>`): its terrain, occupant and what it offers the
    selected piece (a move or attack form, posting `?sel=<post>`: by default the selected
    piece, `dnd_post_selection`), as the board template drew it. Drawn once per process
    for what it shows (`board_fragments.drawn_once`, as the board's fragments): an action
    changes a few squares of the grid."""
    key = board_fragments.tag_key(context, dnd_cell, (cell, sel, post))
    return board_fragments.drawn_once(context, key, lambda: _cell(context, cell, sel, post))


def _cell(context, cell: dict, sel, post) -> str:
    battle = context["battle"]
    opt = for_selected(cell["options"], sel)
    occ = cell["occupant"]
    if opt:
        post = sel if post is None else post
        action = context.get("act_url") or reverse(
            "battles:act", args=[battle.campaign_id, battle.pk]
        )
        if post:
            action = f"{action}?sel={quote(str(post), safe='/')}"
        preview = f" {opt['preview']}" if opt.get("preview") else ""
        inner = format_html(
            '<form method="post" action="{}" hx-post="{}" hx-target="#board" '
            'hx-swap="outerHTML" hx-disabled-elt="find button" hx-sync="#board:queue" '
            'hx-include="#dnd-typed-dice"><input type="hidden" name="csrfmiddlewaretoken" '
            'value="{}"><input type="hidden" name="seq" value="{}"><input type="hidden" '
            'name="actor" value="{}"><input type="hidden" name="kind" value="{}"><input '
            'type="hidden" name="params" value="{}"><button type="submit" class="sq-btn" '
            'data-x="{}" data-y="{}" aria-label="{} ({}, {}){}">{}</button></form>',
            action, action, context.get("csrf_token", ""), board_fragments.seq_slot(context),
            opt["actor"],
            opt["kind"], opt["params"], cell["x"], cell["y"], opt["label"], cell["x"],
            cell["y"], preview,
            _piece(occ) if occ else ("◎" if cell["objective"] else ""),
        )  # fmt: skip
    elif occ and occ["selectable"]:
        board = context.get("board_url") or battle.get_absolute_url()
        url = f"{board}?sel={quote(str(occ['key']), safe='/')}"
        inner = format_html(
            '<a class="piece-link" href="{}" hx-get="{}" hx-target="#board" '
            'hx-swap="outerHTML" data-piece="{}" aria-label="{} {}">{}</a>',
            url, url, occ["key"], gettext("Select"), occ["name"], _piece(occ),
        )  # fmt: skip
    elif occ:
        inner = _piece(occ)
    elif cell["objective"]:
        inner = mark_safe('<span class="obj-mark" aria-hidden="true">◎</span>')  # noqa: S308
    else:
        inner = ""
    return format_html(
        '<td class="{}" title="{}">{}</td>', _classes(cell, occ, opt, sel), _title(cell, occ),
        inner,
    )  # fmt: skip
