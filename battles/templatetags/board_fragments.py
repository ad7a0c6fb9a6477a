"""`{% fragment "name" key… %}…{% endfragment %}`: one part of the battle board that an action
may change on its own (an army's card, the actions panel, the log). It renders as a wrapper
the layout does not see (`.fragment { display: contents }`) with a stable id, so an action's
answer can swap in only the fragments that changed (htmx out-of-band swaps,
`battles.rendering.changed_fragments`).

`{% fragment "name" always %}`: a fragment every action's answer sends, changed or not — one
with an input the action used up (the dice rolled at the table, typed in for the next
action: it is empty again afterwards).

A fragment is drawn once per content (`FragmentNode.render`, `drawn_once`): what it shows
is a function of the values it reads (`_scan`, at parse time: the variable paths,
`card.hp`, the loop `{% for action in actions %}`…; an expression with filters,
`piece_actions|lookup:sel`, by its value; a condition of an `{% if %}` by its truth; an
`{% include "constant.html" %}`'s template read as if it stood there), the language, the
time zone and the autoescaping; a render whose values are those of a fragment drawn before
in this process reuses its HTML. The board's version in its forms
(`name="seq" value="{{ battle.seq }}"`, `seq_slot` in a tag drawing HTML in Python) is no
such value: it is kept as a mark and put in again on each use, so a fragment with forms is
drawn again only when what else it shows changes. After an action most of a board is what
it was (the other armies' cards, the sides, the PCs): only what changed is drawn again, and
the viewers of another viewpoint who see the same values share them.

A fragment is drawn every time (never kept) when it holds a tag whose output is not a
function of the values it reads (a custom tag not declared with `drawn_from`, an include of
a template named by a variable, `{% now %}`, `{% cycle %}`, a `random` filter…, or a tag
setting a variable for the page after it), or when a value read is not plain data (a model
instance, a form: no fingerprint, `_Unkeyable`).

A tag drawing a part of the board in Python (`dnd5e_board.dnd_cell`) keeps its parts the
same way: `drawn_from` names the context values it reads besides its arguments, `key` and
`drawn_once` keep its HTML in the same store."""

import dataclasses
import hashlib
import itertools
import marshal
import re
from contextvars import ContextVar
from decimal import Decimal
from fractions import Fraction

from django import template
from django.db.models import Model
from django.template import Engine, defaulttags, loader_tags
from django.template.base import (
    FilterExpression,
    Node,
    NodeList,
    TextNode,
    TokenType,
    Variable,
    VariableDoesNotExist,
    VariableNode,
    render_value_in_context,
)
from django.template.context import BaseContext
from django.template.library import SimpleNode
from django.template.smartif import TokenBase
from django.templatetags import i18n
from django.utils import translation
from django.utils.functional import Promise, _lazy_proxy_unpickle
from django.utils.html import format_html
from django.utils.safestring import SafeData, mark_safe
from django.utils.text import _format_lazy
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
    loader_tags.IncludeNode, SimpleNode,
)  # fmt: skip
#: Filters whose output is not a function of their value (the time now, chance).
_IMPURE_FILTERS = {"random", "timesince", "timeuntil"}
#: The parts drawn, {fingerprint: HTML with the version marked}, in this process; emptied
#: past `KEPT` (a board: about a dozen fragments and, in D&D 5e, a hundred squares).
_DRAWN: dict[bytes, str] = {}
KEPT = 20_000
_UIDS = itertools.count()
#: What stands for the board's version in a kept part (no text of the board holds a NUL).
_MARK = "\x00"
#: What a form's seq input is written after (`_SeqNode`).
_SEQ_INPUT = 'name="seq" value="'
_BATTLE_SEQ = Variable("battle.seq")
#: The names every context holds (`None`, `True`, `False`).
_CONSTANTS = frozenset(("None", "True", "False"))


class _Unkeyable(Exception):  # noqa: N818 - a control-flow signal
    """A value with no fingerprint: the fragment is drawn."""


# --- the board's version, marked in the parts kept --------------------------------------------


_NO_SEQ = object()
#: The `_memo` entries of the board's version and of this render's settings.
_SEQ_READ, _SEQ_TEXT, _ENV = object(), object(), object()


def _seq(context):
    """The board's version (`battle.seq` of `context`), `_NO_SEQ` if none; read once per
    render and battle (every fragment puts it in, `drawn_once`)."""
    memo = _memo(context)
    if memo is not None:
        battle = context.get("battle", _ABSENT)
        found = memo.get((_SEQ_READ, id(battle)))
        if found is not None:
            return found[1]
    try:
        seq = _BATTLE_SEQ.resolve(context)
    except VariableDoesNotExist:
        seq = _NO_SEQ
    if memo is not None:
        memo[_SEQ_READ, id(battle)] = (battle, seq)  # (held: its id is not taken meanwhile)
    return seq


def _seq_text(context, seq) -> str:
    """The version as `{{ battle.seq }}` writes it (once per render and value)."""
    if seq is _NO_SEQ:
        return ""
    if not hasattr(context, "autoescape"):  # a tag's dict (else a template's context)
        return str(seq)
    memo = _memo(context)
    try:
        at = (_SEQ_TEXT, type(seq), seq, context.autoescape, context.use_l10n)
        text = memo.get(at)
    except TypeError:  # (not hashable: written each time)
        return str(render_value_in_context(seq, context))
    if text is None:
        text = memo[at] = str(render_value_in_context(seq, context))
    return text


def _env(context) -> tuple[str, str]:
    """(the language, the time zone) a fragment's key names, read once per render: a board
    draws all of it in one language and time zone (no `{% language %}` or `{% timezone %}`
    in the board's templates: `tests/battles/test_fragment_cache.py` checks)."""
    memo = _memo(context)
    env = memo.get(_ENV) if memo is not None else None
    if env is None:
        env = (get_language() or "", get_current_timezone_name())
        if memo is not None:
            memo[_ENV] = env
    return env


class _Marking:
    """A part being drawn to be kept: the version its forms carry (`seq`, as `text`), how
    many times it was written as the mark, whether it was written otherwise (`spoiled`: not
    kept)."""

    def __init__(self, seq, text: str):
        self.seq, self.text, self.marks, self.spoiled = seq, text, 0, False


_marking: ContextVar[_Marking | None] = ContextVar("board_fragment_marking", default=None)


def _slot(text: str) -> str:
    marking = _marking.get()
    if marking is None:
        return text
    if text == marking.text:
        marking.marks += 1
        return _MARK
    marking.spoiled = True
    return text


def seq_slot(context) -> str:
    """The board's version (`battle.seq`) for a form's seq input drawn in Python: the mark
    while a part to be kept is drawn (`drawn_once` puts the version in again)."""
    marking = _marking.get()
    seq = _seq(context)
    if (
        marking is not None
        and seq is not _NO_SEQ
        and type(seq) is type(marking.seq)
        and (seq == marking.seq)
    ):
        marking.marks += 1
        return _MARK
    return _slot(_seq_text(context, seq))


class _SeqNode(VariableNode):
    """`{{ battle.seq }}` in a form's seq input (`name="seq" value="{{ battle.seq }}"`)."""

    def render(self, context) -> str:
        return _slot(super().render(context))


def drawn_once(context, key: bytes | None, draw) -> str:
    """The part kept for `key` with the board's version put in, else `draw()` (kept for
    `key`, its version marked). None: drawn, not kept."""
    if key is None:
        return draw()
    outer = _marking.get()
    seq = _seq(context)
    same = outer is not None and type(seq) is type(outer.seq) and seq == outer.seq
    html = _DRAWN.get(key)
    if html is None:
        marking = _Marking(seq, outer.text if same else _seq_text(context, seq))
        token = _marking.set(marking)
        try:
            html = draw()
        finally:
            _marking.reset(token)
        if marking.spoiled or html.count(_MARK) != marking.marks:
            if html.count(_MARK) != marking.marks:  # a mark it did not write: drawn as is
                token = _marking.set(None)
                try:
                    return mark_safe(draw())  # noqa: S308 (rendered HTML)
                finally:
                    _marking.reset(token)
                    if outer is not None:
                        outer.spoiled = True
            return mark_safe(html.replace(_MARK, marking.text))  # noqa: S308 (rendered HTML)
        if len(_DRAWN) > KEPT:
            _DRAWN.clear()
        _DRAWN[key] = html
    if same:  # inside a part being kept, for the same version: its marks are that part's
        outer.marks += html.count(_MARK)
        return mark_safe(html)  # noqa: S308 (rendered HTML)
    if outer is not None:
        outer.spoiled = True
    return mark_safe(html.replace(_MARK, _seq_text(context, seq)))  # noqa: S308 (rendered HTML)


# --- what a part reads ----------------------------------------------------------------------


def drawn_from(*paths: str):
    """Declare a `simple_tag(takes_context=True)` a function of its arguments, the language
    and the context values `paths` (`"battle.pk"`, `"act_url"`…): a fragment holding it may
    be kept. Its forms' seq is `seq_slot(context)`."""

    def declare(func):
        func.fragment_reads = tuple(tuple(path.split(".")) for path in paths)
        return func

    return declare


class _Pinned:
    """An `{% include %}`'s template, loaded when the fragment around it was parsed: the one
    `_scan` read is the one drawn."""

    def __init__(self, loaded):
        self.loaded = loaded

    def resolve(self, context):
        return self.loaded

    def __repr__(self) -> str:
        return f"<included {self.loaded.origin.template_name}>"


def _names(expr: FilterExpression):
    """The variables an expression reads (its value's, its filters' arguments')."""
    if isinstance(expr.var, Variable):
        yield expr.var
    for _func, args in expr.filters:
        for lookup, arg in args:
            if lookup and isinstance(arg, Variable):
                yield arg


def _free(expr: FilterExpression, bound) -> bool:
    return all(var.lookups is None or var.lookups[0] not in bound for var in _names(expr))


def _scan_expr(expr: FilterExpression, used: dict, bound, truth: bool = False) -> bool:
    """An expression read for its value (or its truth, `{% if %}`): kept by that when it
    reads no name bound inside the fragment, else by the variables it reads."""
    if any(func.__name__ in _IMPURE_FILTERS for func, _args in expr.filters):
        return False
    if (truth or expr.filters) and _free(expr, bound) and isinstance(expr.var, Variable):
        used[("t:" if truth else "v:") + expr.token] = (truth, expr)
        return True
    for var in _names(expr):
        _scan(var, used, bound)
    return True


def _scan_condition(cond, used: dict, bound, truth: bool) -> bool:
    if cond is None:
        return True
    if isinstance(cond, defaulttags.TemplateLiteral):
        return _scan_expr(cond.value, used, bound, truth)
    # and / or / not test their operands' truth (nothing binds looser); the others compare
    truth = cond.id in ("and", "or", "not")
    return _scan_condition(cond.first, used, bound, truth) and _scan_condition(
        cond.second, used, bound, truth
    )


def _seq_slots(nodelist: NodeList) -> None:
    """Turn each `name="seq" value="{{ battle.seq }}"` of `nodelist` into a `_SeqNode`."""
    for at in range(1, len(nodelist)):
        node, before = nodelist[at], nodelist[at - 1]
        if (
            type(node) is VariableNode
            and not node.filter_expression.filters
            and getattr(node.filter_expression.var, "var", None) == _BATTLE_SEQ.var
            and isinstance(before, TextNode)
            and before.s.endswith(_SEQ_INPUT)
        ):
            nodelist[at] = _SeqNode(node.filter_expression)
            nodelist[at].token, nodelist[at].origin = node.token, node.origin


def _include(node: loader_tags.IncludeNode):
    """The template an include of a constant name draws (pinned), else None."""
    if isinstance(node.template, _Pinned):
        return node.template.loaded
    name = node.template.var
    if node.template.filters or not isinstance(name, str) or not node.origin:
        return None
    engine = getattr(getattr(node.origin, "loader", None), "engine", None)
    try:
        loaded = (engine or Engine.get_default()).get_template(name)
    except template.TemplateDoesNotExist:
        return None
    node.template = _Pinned(loaded)
    return loaded


def _scan(obj, used: dict, bound: frozenset = frozenset()) -> bool:
    """Collect what `obj` (a node, its node lists, expressions) reads from its context into
    `used` ({label: (truth, expression) or (None, variable)}) — not the names a tag around
    them binds (`bound`: a loop's variables inside its loop, a `{% with %}`'s or
    `{% blocktranslate with %}`'s inside it); False if its output is not a function of them
    (a tag not in `_PURE_NODES`, or one that sets a variable for the page after it)."""
    if isinstance(obj, FilterExpression):
        return _scan_expr(obj, used, bound)
    if isinstance(obj, Variable):
        if obj.lookups is not None and obj.lookups[0] not in bound | _CONSTANTS:
            used["p:" + ".".join(obj.lookups)] = (None, obj)
        return True
    if isinstance(obj, NodeList):
        _seq_slots(obj)
        return all(_scan(item, used, bound) for item in obj)
    if isinstance(obj, list | tuple):
        return all(_scan(item, used, bound) for item in obj)
    if isinstance(obj, dict):
        return all(_scan(value, used, bound) for value in obj.values())
    if isinstance(obj, FragmentNode):
        return _scan(obj.parts, used, bound) and _scan(obj.nodelist, used, bound)
    if isinstance(obj, _SeqNode):
        return "battle" not in bound  # the version: marked, put in again
    if isinstance(obj, Node):
        if not isinstance(obj, _PURE_NODES) or getattr(obj, "asvar", None):
            return False
        if isinstance(obj, defaulttags.IfNode):
            return all(
                _scan_condition(cond, used, bound, True) and _scan(nodes, used, bound)
                for cond, nodes in obj.conditions_nodelists
            )
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
                    used["p:" + token.contents] = (None, Variable(token.contents))
            return _scan([obj.extra_context, obj.counter, obj.message_context], used, bound)
        if isinstance(obj, loader_tags.IncludeNode):
            loaded = _include(obj)
            if loaded is None or not _scan(obj.extra_context, used, bound):
                return False
            return _scan(loaded.nodelist, used, bound | set(obj.extra_context))
        if isinstance(obj, SimpleNode):
            reads = getattr(obj.func, "fragment_reads", None)
            if reads is None or obj.target_var is not None or type(obj) is not SimpleNode:
                return False
            if any(path[0] in bound for path in reads):
                return False
            for path in reads:
                used["p:" + ".".join(path)] = (None, Variable(".".join(path)))
            return _scan([obj.args, obj.kwargs], used, bound)
        if isinstance(obj, defaulttags.CsrfTokenNode):
            used["p:csrf_token"] = (None, Variable("csrf_token"))
        values = [v for k, v in vars(obj).items() if k not in ("token", "origin")]
        return _scan(values, used, bound)
    if isinstance(obj, TokenBase):  # (a condition outside an {% if %})
        return _scan(list(vars(obj).values()), used, bound)
    return True  # a constant (a string, a number, a compiled pattern…)


# --- fingerprints ----------------------------------------------------------------------------


def _fingerprint(value, out: list) -> None:
    """Append a canonical text of plain data to `out` (`_Unkeyable` for anything else): of
    built-in values (no subclass, no lazy text) their `marshal` (a faithful copy, in C),
    else by their parts."""
    try:
        data = marshal.dumps(value, 2)  # (version 2: no references, no interning marks)
    except ValueError:
        pass
    else:
        out.append(f"m{len(data)}:" + data.decode("latin-1"))
        return
    if value is None or isinstance(value, bool | int | float | Fraction | Decimal):
        out.append(f"{type(value).__name__}:{value!r}")
    elif isinstance(value, str):
        out.append(("S:" if isinstance(value, SafeData) else "s:") + repr(value))
    elif isinstance(value, Promise):  # a lazy translation, in the page language
        out.append(_lazy_text(value) or "s:" + repr(str(value)))
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
        text = _whole(value)  # (its attributes in one C call, when they are plain data)
        if text is not None:
            out.append(text)
            return
        out.append(type(value).__qualname__ + "(")
        for item in dataclasses.fields(value):
            _fingerprint(getattr(value, item.name), out)
        out.append(")")
    else:
        raise _Unkeyable(type(value).__name__)


#: Django's translation functions: a lazy call of one (`gettext_lazy("…")`: `lazy(func,
#: str)(…)`) is a function of its arguments and the page language only, so a fragment's key
#: names it by its function and arguments (the language is in the key), not by its text,
#: which would be looked up in the catalogue for every fragment drawn (about twenty Python
#: calls each).
_BY_LANGUAGE = frozenset((translation.gettext, translation.pgettext, _format_lazy))


def _lazy_text(value: Promise) -> str | None:
    """The fingerprint of a lazy call of one of `_BY_LANGUAGE` with plain arguments (its
    function and arguments), else None (the caller takes its text)."""
    try:
        unpickle, (func, args, kwargs, *_classes) = value.__reduce__()
    except (TypeError, ValueError):  # (not one of `django.utils.functional.lazy`'s)
        return None
    if unpickle is not _lazy_proxy_unpickle or func not in _BY_LANGUAGE:
        return None
    try:
        data = marshal.dumps((args, kwargs), 2)
    except ValueError:  # (an argument itself lazy, or not plain data)
        return None
    return f"L{id(func)}:{len(data)}:" + data.decode("latin-1")  # (module functions: ids kept)


def _read(truth, obj, context, out: list) -> None:
    if truth is None:  # a variable
        try:
            _fingerprint(obj.resolve(context), out)
        except VariableDoesNotExist:
            out.append("missing")
        return
    if truth:  # as an {% if %} reads it
        try:
            out.append("true" if obj.resolve(context, ignore_failures=True) else "false")
        except Exception as error:  # noqa: BLE001 - an {% if %} takes a filter's error as false
            out.append("raises " + type(error).__qualname__)
        return
    try:
        obj.var.resolve(context)
    except VariableDoesNotExist:  # ignore_failures makes it None, else the invalid string
        out.append("missing")
    else:
        out.append("present")
    try:
        values = [obj.resolve(context)]
        if out[-1] == "missing":
            values.append(obj.resolve(context, ignore_failures=True))
    except Exception as error:  # noqa: BLE001 - an {% if %} takes a filter's error as false
        out.append("raises " + type(error).__qualname__)
        return
    for value in values:
        _fingerprint(value, out)


#: A root name read whole, or a read of a root name's parts, not found in the context.
_ABSENT = object()


def _plan(reads) -> tuple[tuple, tuple]:
    """`reads` ([(label, (truth, expression or variable))]) as a key reads them: (by root,
    the others). By root: ((name, the variables read of that name), …), sorted by name;
    the others, conditions and expressions (read for their truth, their value), each on
    its own, with the one name they read (else None)."""
    groups: dict[str, list] = {}
    others = []
    for label, (truth, obj) in reads:
        if truth is None and obj.lookups is not None:
            groups.setdefault(obj.lookups[0], []).append((label, (truth, obj)))
            continue
        names = [obj] if truth is None else list(_names(obj))
        roots = {var.lookups[0] if var.lookups is not None else None for var in names}
        root = next(iter(roots)) if len(roots) == 1 else None
        others.append((label, (truth, obj), root))
    return tuple((name, tuple(group)) for name, group in sorted(groups.items())), tuple(others)


#: Values a render may change as it goes (a loop's `forloop` is one dict, updated in place
#: at each turn): never found by identity (`_memo`).
_MUTABLE = (dict, list, set, bytearray)


def _memo(context) -> dict | None:
    """What the keys of this render read of values that are not plain data (the battle, the
    membership: model instances read part by part), kept on the render's context: the
    board's fragments read the same parts again and again (the battle's name, ids and
    status in most of them, in D&D 5e's hundred squares too). A value is found by its
    identity and held with what was read of it (no other object can take its id during
    the render); such values are not changed while the board is drawn (containers may
    be, `_MUTABLE`: read anew each time)."""
    if not isinstance(context, BaseContext):
        return None
    memo = context.__dict__.get("_fragment_memo")
    if memo is None:
        memo = context.__dict__["_fragment_memo"] = {}
    return memo


def _memo_read(context, memo, value, label: str, read, out: list) -> None:
    """`_read` of `read`, whose one name has the value `value`, once per render and value.
    (A variable is the same read wherever it stands; an expression, its filters looked up
    where it was parsed, only itself.)"""
    truth, obj = read
    at = (label, id(value)) if truth is None else (label, id(value), id(obj))
    found = memo.get(at)
    if found is None:
        parts = [label]
        if not (truth is None and _model_field(value, obj, parts)):
            _read(truth, obj, context, parts)
        found = memo[at] = (value, parts)
    out += found[1]


def _model_field(value, var: Variable, out: list) -> bool:
    """Append the fingerprint of `var` (`root.name`), `value` its root's, read as the
    template reads it, when that is a model instance's attribute that is not a method
    (`battle.name`: an object without items, so its attribute, as `Variable._resolve_lookup`
    finds it, but without its attempts); False: not such a read (the caller resolves it)."""
    if (
        not isinstance(value, Model)
        or len(var.lookups) != 2
        or var.translate
        or hasattr(type(value), "__getitem__")
    ):
        return False
    try:
        found = getattr(value, var.lookups[1], _ABSENT)
    except Exception:  # noqa: BLE001 - resolved the template's way, with its handling
        return False
    if found is _ABSENT or callable(found):
        return False
    _fingerprint(found, out)
    return True


def _value(context, name: str):
    try:
        return context[name]
    except KeyError:  # (a variable may still resolve: to the context's own attributes)
        return _ABSENT


def _whole(value) -> str | None:
    """The text of plain data (`marshal`, one C call), or of a dataclass instance of plain
    data (its class and its attributes: as `_fingerprint` takes a dataclass for its fields;
    a board's cards and rows are such), else None."""
    try:
        data = marshal.dumps(value, 2)
    except ValueError:
        pass
    else:
        return f"r{len(data)}:" + data.decode("latin-1")
    kind = type(value)
    if hasattr(kind, "__dataclass_fields__") and hasattr(value, "__dict__"):
        try:
            data = marshal.dumps(value.__dict__, 2)
        except ValueError:
            return None
        return f"d{kind.__module__}.{kind.__qualname__}{len(data)}:" + data.decode("latin-1")
    return None


def _root_text(context, name: str, group, memo: dict | None, out: list) -> bool:
    """Append the text of the variables `group` reads of the root `name`: the root whole
    when it is plain data (`_whole`: every part of it read is a function of it; True),
    else each variable (once per render and value, `_memo`)."""
    value = _value(context, name)
    if value is not _ABSENT:
        text = _whole(value)
        if text is not None:
            out.append(text)
            return True
    if value is _ABSENT or memo is None or isinstance(value, _MUTABLE):
        for label, (truth, obj) in group:
            out.append(label)
            _read(truth, obj, context, out)
        return False
    for label, read in group:
        _memo_read(context, memo, value, label, read, out)
    return False


def key(context, name: str, plan, values=()) -> bytes:
    """The fingerprint of a part: its name, the language, time zone and escaping, what it
    reads of `context` (`plan`: its reads as `_plan` groups them) and `values` (a tag's
    arguments); `_Unkeyable` if one is no plain data."""
    out = [name, *_env(context), str(getattr(context, "autoescape", True))]
    groups, others = plan
    memo = _memo(context)
    whole = set()  # (the roots read whole: what a condition or expression of them reads)
    for root, group in groups:
        out.append("@" + root)
        if _root_text(context, root, group, memo, out):
            whole.add(root)
    for label, read, root in others:
        if root in whole:
            continue
        value = _value(context, root) if root is not None and memo is not None else _ABSENT
        if value is _ABSENT or isinstance(value, _MUTABLE):
            out.append(label)
            _read(*read, context, out)
        else:
            _memo_read(context, memo, value, label, read, out)
    for value in values:
        _fingerprint(value, out)
    return hashlib.blake2b("\x00".join(out).encode(), digest_size=20).digest()


def tag_key(context, func, values) -> bytes | None:
    """The fingerprint of a `drawn_from` tag's part for its arguments `values` (None: not
    kept, a value is no plain data)."""
    plan = getattr(func, "_fragment_key_plan", None)
    if plan is None:
        plan = _plan([("p:" + ".".join(path), (None, Variable(".".join(path))))
                      for path in func.fragment_reads])  # fmt: skip
        func._fragment_key_plan = plan
    try:
        return key(context, func.__module__ + "." + func.__qualname__, plan, values)
    except _Unkeyable:
        return None


def _reads(*parts) -> tuple[bool, list]:
    """(whether the output of `parts` — nodes, node lists, expressions — is a function of
    what they read, what they read: [(label, (truth, expression or variable))], sorted)."""
    used: dict = {}
    kept = all(_scan(part, used) for part in parts)
    for label, (truth, obj) in list(used.items()):
        # (an expression of variables read whole anyway: what they are says what it is)
        if truth is not None and all(
            var.lookups is None or "p:" + ".".join(var.lookups) in used for var in _names(obj)
        ):
            del used[label]
    return kept, sorted(used.items(), key=lambda item: item[0])


#: {template: (its uid, its reads as `_plan` groups them, or None: drawn every time)}
_TEMPLATES: dict = {}


def drawn_template(loaded, context) -> str:
    """`loaded` (a template) drawn with `context` once per content, as a fragment is but
    without a fragment's wrapper: for a part of the board an inclusion tag draws (the
    auto-play panel), which no answer swaps on its own and which stays byte for byte what
    the tag drew. Its forms' seq are marked as a fragment's are."""
    found = _TEMPLATES.get(loaded)
    if found is None:
        if len(_TEMPLATES) > 64:  # (loaded anew each time: a loader that keeps none)
            _TEMPLATES.clear()
        kept, reads = _reads(loaded.nodelist)
        found = _TEMPLATES[loaded] = (f"template:{next(_UIDS)}", _plan(reads) if kept else None)
    uid, plan = found
    part = None
    if plan is not None:
        try:
            part = key(context, uid, plan)
        except _Unkeyable:
            part = None
    return drawn_once(context, part, lambda: loaded.render(context))


def _guard(nodelist: NodeList):
    """The condition of a fragment that is one `{% if %}` and nothing else (no `{% elif %}`,
    no `{% else %}`: a panel shown only at times, the outcome, a reaction offered…); None
    for any other fragment."""
    if len(nodelist) == 1 and type(nodelist[0]) is defaulttags.IfNode:
        branches = nodelist[0].conditions_nodelists
        if len(branches) == 1 and branches[0][0] is not None:
            return branches[0][0]
    return None


class FragmentNode(template.Node):
    def __init__(self, parts, nodelist, always: bool):
        self.parts = parts
        self.nodelist = nodelist
        self.always = always
        self.uid = str(next(_UIDS))
        self.kept, self.reads = _reads(parts, nodelist)
        self.plan = _plan(self.reads)
        self.guard = _guard(nodelist)
        self.empty: dict[tuple, str] = {}  # {its name parts: the fragment empty}

    def render(self, context) -> str:
        if self.guard is not None:
            try:
                shown = self.guard.eval(context)  # (as the `{% if %}` reads it)
            except VariableDoesNotExist:
                shown = None
            if not shown:  # empty, whatever else it reads: no key to work out
                names = tuple(part.resolve(context) for part in self.parts)
                html = self.empty.get(names)
                if html is None:
                    if len(self.empty) > 256:
                        self.empty.clear()
                    html = self.empty[names] = self._start(names) + mark_safe(END)  # noqa: S308
                return html
        part = None
        if self.kept:
            try:
                part = key(context, self.uid, self.plan)
            except _Unkeyable:
                part = None
        return drawn_once(context, part, lambda: self.draw(context))

    def _start(self, names) -> str:
        return format_html('<div class="fragment" id="{}"{}>', fragment_id(*names),
                           " data-always" if self.always else "")  # fmt: skip

    def draw(self, context) -> str:
        start = self._start(part.resolve(context) for part in self.parts)
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
