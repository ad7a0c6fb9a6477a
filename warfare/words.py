"""Fixed words worded once per page language and process.

A lazy translation (`gettext_lazy`) costs a look-up in the catalogue each time it is read,
and a board reads its fixed words (labels, badges, the log's sentences) for every card,
square, button and line: `per_language` makes them plain text once per language."""

import functools
from collections.abc import Callable
from typing import TypeVar

from django.utils.translation import get_language

T = TypeVar("T")


def per_language(build: Callable[[], T]) -> Callable[[], T]:
    """`build()`, made once per page language and process and shared after (what it gives
    is not to be changed)."""
    made: dict[str | None, T] = {}

    @functools.wraps(build)
    def words() -> T:
        language = get_language()
        found = made.get(language)
        if found is None:
            found = made[language] = build()
        return found

    return words
