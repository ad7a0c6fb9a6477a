"""`{% fragment "name" key… %}…{% endfragment %}`: one part of the battle board that an action
may change on its own (an army's card, the actions panel, the log). It renders as a wrapper
the layout does not see (`.fragment { display: contents }`) with a stable id, so an action's
answer can swap in only the fragments that changed (htmx out-of-band swaps,
`battles.rendering.changed_fragments`).

`{% fragment "name" always %}`: a fragment every action's answer sends, changed or not — one
with an input the action used up (the dice rolled at the table, typed in for the next
action: it is empty again afterwards).

A fragment is drawn once per content (`FragmentNode.render`): what it shows is a function of
the values its variables resolve to (the paths it reads, `_scan`: `card.hp`, `battle.seq`,
the loop `{% for action in actions %}`… each resolved and fingerprinted), the language, the
time zone and the autoescaping; a render whose values are those of a fragment drawn before
in this process reuses its HTML. After an action most of a board is what it was (the other
armies' cards, the sides, the PCs): only what changed is drawn again, and the viewers of
another viewpoint who see the same values share them. A fragment is drawn every time (never
kept) when it holds a tag whose output is not a function of the values it reads (an
`{% include %}`, a custom tag, `{% now %}`, `{% cycle %}`…, or a tag setting a variable for
the page after it), or when a value read is not plain data (a model instance, a form: no
fingerprint, `_Unkeyable`)."""

import dataclasses
import hashlib
import itertools
import re
from decimal import Decimal
from fractions import Fraction

from django import template
from django.template import defaulttags
from django.template.base import (
    FilterExpression,
    Node,
    NodeList,
    TextNode,
    TokenType,
    Variable,
    VariableDoesNotExist,
    VariableNode,
)
from django.template.smartif import TokenBase
from django.templatetags import i18n
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeData, mark_safe
from django.utils.timezone import get_current_timezone_name
from django.utils.translation import get_language

register = template.Library()

#: The end of every fragment (after its content; `battles.rendering` parses by it).
END = "<!--/f--></div>"


def fragment_id(*parts) -> str:
    """The fragment's element id: "f-" and its name parts, joined by "-" (unsafe characters
    replaced)."""
    return "f-" + re.sub(r"[^\w-]", "_", "-".join(str(part) for part in parts))


#: Tags whose output is a function of the values they read (their variables, the language).
_PURE_NODES = (
    TextNode, VariableNode, defaulttags.IfNode, defaulttags.ForNode, defaulttags.WithNode,
    defaulttags.CommentNode, defaulttags.CsrfTokenNode, defaulttags.URLNode,
    defaulttags.FilterNode, defaulttags.FirstOfNode, defaulttags.SpacelessNode,
    defaulttags.AutoEscapeControlNode, defaulttags.VerbatimNode, defaulttags.TemplateTagNode,
    defaulttags.WidthRatioNode, defaulttags.LoadNode, i18n.TranslateNode, i18n.BlockTranslateNode,
)  # fmt: skip
#: The fragments drawn, {fingerprint: HTML}, in this process; emptied past `KEPT`.
_DRAWN: dict[bytes, str] = {}
KEPT = 20_000
_UIDS = itertools.count()


class _Unkeyable(Exception):  # noqa: N818 - a control-flow signal
    """A value with no fingerprint: the fragment is drawn."""


def _scan(obj, used: set, bound: frozenset = frozenset()) -> bool:
    """Collect the variable paths `obj` (a node, its node lists, expressions) reads from its
    context into `used` — not those starting at a name a tag around them binds (`bound`: a
    loop's variables inside its loop, a `{% with %}`'s or `{% blocktranslate with %}`'s
    inside it); False if its output is not a function of them (a tag not in `_PURE_NODES`,
    or one that sets a variable for the page after it)."""

    def read(lookups) -> None:
        if lookups is not None and lookups[0] not in bound:
            used.add(lookups)

    if isinstance(obj, FilterExpression):
        if isinstance(obj.var, Variable):
            read(obj.var.lookups)
        for _func, args in obj.filters:
            for lookup, arg in args:
                if lookup and isinstance(arg, Variable):
                    read(arg.lookups)
        return True
    if isinstance(obj, Variable):
        read(obj.lookups)
        return True
    if isinstance(obj, list | tuple | NodeList):
        return all(_scan(item, used, bound) for item in obj)
    if isinstance(obj, dict):
        return all(_scan(value, used, bound) for value in obj.values())
    if isinstance(obj, FragmentNode):
        return _scan(obj.parts, used, bound) and _scan(obj.nodelist, used, bound)
    if isinstance(obj, Node):
        if not isinstance(obj, _PURE_NODES) or getattr(obj, "asvar", None):
            return False
        if isinstance(obj, defaulttags.ForNode):
            inside = bound | {*obj.loopvars, "forloop"}
            return (
                _scan(obj.sequence, used, bound)
                and _scan(obj.nodelist_loop, used, inside)
                and _scan(obj.nodelist_empty, used, bound)
            )
        if isinstance(obj, defaulttags.WithNode):
            return _scan(obj.extra_context, used, bound) and _scan(
                obj.nodelist, used, bound | set(obj.extra_context)
            )
        if isinstance(obj, i18n.BlockTranslateNode):
            inside = bound | set(obj.extra_context) | {obj.countervar} - {None}
            for token in [*obj.singular, *(obj.plural or ())]:
                if token.token_type == TokenType.VAR and token.contents not in inside:
                    used.add((token.contents,))
            return _scan([obj.extra_context, obj.counter, obj.message_context], used, bound)
        if isinstance(obj, defaulttags.CsrfTokenNode):
            used.add(("csrf_token",))
        values = [v for k, v in vars(obj).items() if k not in ("token", "origin")]
        return _scan(values, used, bound)
    if isinstance(obj, TokenBase):  # a condition of {% if %}
        return _scan(list(vars(obj).values()), used, bound)
    return True  # a constant (a string, a number, a compiled pattern…)


def _fingerprint(value, out: list) -> None:
    """Append a canonical text of plain data to `out` (`_Unkeyable` for anything else)."""
    if value is None or isinstance(value, bool | int | float | Fraction | Decimal):
        out.append(f"{type(value).__name__}:{value!r}")
    elif isinstance(value, str):
        out.append(("S:" if isinstance(value, SafeData) else "s:") + repr(value))
    elif isinstance(value, Promise):  # a lazy translation, in the page language
        out.append("s:" + repr(str(value)))
    elif isinstance(value, list | tuple):
        out.append(f"{type(value).__name__}[")
        for item in value:
            _fingerprint(item, out)
        out.append("]")
    elif isinstance(value, dict):
        out.append("{")
        for key, item in value.items():
            _fingerprint(key, out)
            _fingerprint(item, out)
        out.append("}")
    elif isinstance(value, frozenset | set):
        parts = []
        for item in value:
            one: list = []
            _fingerprint(item, one)
            parts.append("".join(one))
        out.append("set[" + ",".join(sorted(parts)) + "]")
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        out.append(type(value).__qualname__ + "(")
        for item in dataclasses.fields(value):
            _fingerprint(getattr(value, item.name), out)
        out.append(")")
    else:
        raise _Unkeyable(type(value).__name__)


class FragmentNode(template.Node):
    def __init__(self, parts, nodelist, always: bool):
        self.parts = parts
        self.nodelist = nodelist
        self.always = always
        self.uid = next(_UIDS)
        used = set()
        self.kept = _scan(parts, used) and _scan(nodelist, used)
        paths = sorted(used)
        self.paths = [(".".join(path) + "=", Variable(".".join(path))) for path in paths]

    def key(self, context) -> bytes:
        out = [str(self.uid), get_language() or "", get_current_timezone_name(),
               str(context.autoescape)]  # fmt: skip
        for name, variable in self.paths:
            out.append(name)
            try:
                value = variable.resolve(context)
            except VariableDoesNotExist:
                out.append("missing")
                continue
            _fingerprint(value, out)
        return hashlib.blake2b("\x00".join(out).encode(), digest_size=20).digest()

    def render(self, context) -> str:
        key = None
        if self.kept:
            try:
                key = self.key(context)
            except _Unkeyable:
                key = None
            else:
                html = _DRAWN.get(key)
                if html is not None:
                    return html
        html = self.draw(context)
        if key is not None:
            if len(_DRAWN) > KEPT:
                _DRAWN.clear()
            _DRAWN[key] = html
        return html

    def draw(self, context) -> str:
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
