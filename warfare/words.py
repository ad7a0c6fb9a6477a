"""Fixed words worded once per page language and process.

A lazy translation (`gettext_lazy`) costs a look-up in the catalogue each time it is read,
and a board reads its fixed words (labels, badges, the log's sentences) for every card,
square, button and line: `per_language` makes them plain text once per language, `worded`
a label table's entries."""

import contextlib
import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from django.utils import translation
from django.utils.translation import get_language

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[..., T]:
    """`build()`, made once per page language and process and shared after (what it gives
    is not to be changed); called with a language (a caller that read it once for a whole
    board), in that one, else in the page's."""
    made: dict[str | None, T] = {}

    @functools.wraps(build)
    def words(language: str | None = None) -> T:
        language = language if language is not None else get_language() or ""
        found = made.get(language)
        if found is None:
            with _speaking(language):
                found = made[language] = build()
        return found

    return words


def _speaking(language: str):
    """The block in `language` (a miss only: worded once, in the language named)."""
    return translation.override(language) if language else contextlib.nullcontext()


#: {(language, id of a label table, code, default): (the table, its label)} (`worded`)
_WORDED: dict[tuple, tuple] = {}
WORDED_KEPT = 10_000


def worded(table: Mapping[str, Any], code: Any, default: Any = None, *, language=None) -> str:
    """`str(table.get(code, default))` (`default`: the code itself), a label table's entry in
    the page language (`language`: the page's when None), worded once per language: a board
    words the same roles, statuses and results on every card and line."""
    language = language if language is not None else get_language() or ""
    key = (language, id(table), code, default)  # (a code missing says its default)
    default = code if default is None else default
    found = _WORDED.get(key)
    if found is not None and found[0] is table:  # (the table held: its id is its own)
        return found[1]
    if len(_WORDED) >= WORDED_KEPT:
        _WORDED.clear()
    with _speaking(key[0]):
        text = str(table.get(code, default))
    _WORDED[key] = (table, text)
    return text
