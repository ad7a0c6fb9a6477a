"""`{% fragment "name" key… %}…{% endfragment %}`: one part of the battle board that an action
may change on its own (an army's card, the actions panel, the log). It renders as a wrapper
the layout does not see (`.fragment { display: contents }`) with a stable id, so an action's
answer can swap in only the fragments that changed (htmx out-of-band swaps,
`battles.rendering.changed_fragments`).

`{% fragment "name" always %}`: a fragment every action's answer sends, changed or not — one
with an input the action used up (the dice rolled at the table, typed in for the next
action: it is empty again afterwards)."""

import re

from django import template
from django.utils.html import format_html
from django.utils.safestring import mark_safe

register = template.Library()

#: The end of every fragment (after its content; `battles.rendering` parses by it).
END = "<!--/f--></div>"


def fragment_id(*parts) -> str:
    """The fragment's element id: "f-" and its name parts, joined by "-" (unsafe characters
    replaced)."""
    return "f-" + re.sub(r"[^\w-]", "_", "-".join(str(part) for part in parts))


class FragmentNode(template.Node):
    def __init__(self, parts, nodelist, always: bool):
        self.parts = parts
        self.nodelist = nodelist
        self.always = always

    def render(self, context) -> str:
        name = fragment_id(*(part.resolve(context) for part in self.parts))
        start = format_html(
            '<div class="fragment" id="{}"{}>', name, " data-always" if self.always else ""
        )
        return start + self.nodelist.render(context) + mark_safe(END)  # noqa: S308 (a constant)


@register.tag
def fragment(parser, token):
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("{% fragment %} needs a name")
    always = bits[-1] == "always"
    parts = [parser.compile_filter(bit) for bit in bits[1 : -1 if always else None]]
    nodelist = parser.parse(("endfragment",))
    parser.delete_first_token()
    return FragmentNode(parts, nodelist, always)
