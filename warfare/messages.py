"""Problem codes from the rules engines, as sentences in the page's language.

The shared ones (dice) are worded here; each rule system registers its own, and how their
parameters are shown (keys swapped for names), from its app's `ready` (`register`). A board
plugin's `problem_texts` come before them (`problem_message(problem, texts)`).
"""

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from warfare.engine.problems import Problem

MESSAGES = {
    "dice.not_a_number": _("A d%(sides)s result must be a whole number."),
    "dice.out_of_range": _("A d%(sides)s shows 1 to %(sides)s, not %(value)s."),
}

#: How problem parameters are shown: each registered system's function, in turn.
_DISPLAYS: list[Callable[[dict], dict]] = []


def register(texts: Mapping[str, Any], display: Callable[[dict], dict] | None = None) -> None:
    """A rule system's problem texts (added to `MESSAGES`) and its parameter display."""
    MESSAGES.update(texts)
    if display is not None and display not in _DISPLAYS:
        _DISPLAYS.append(display)


NOT_ALLOWED = _("The rules do not allow that.")


def _display(params: dict) -> dict:
    shown = dict(params)
    for display in _DISPLAYS:
        shown = display(shown)
    return shown


def problem_message(problem: Problem, texts: Mapping[str, Any] | None = None) -> str:
    """A problem as a sentence: from `texts` (a rule system's own, e.g. a board plugin's
    `problem_texts`) first, then the shared `MESSAGES`."""
    template = (texts or {}).get(problem.code) or MESSAGES.get(problem.code)
    if template is None:  # never the code itself: a test keeps every code worded
        return str(NOT_ALLOWED)
    try:
        return str(template) % _display(dict(problem.params))
    except (KeyError, TypeError, ValueError):
        return str(template)


def problem_messages(problems: list[Problem], texts: Mapping[str, Any] | None = None) -> list[str]:
    return [problem_message(problem, texts) for problem in problems]
