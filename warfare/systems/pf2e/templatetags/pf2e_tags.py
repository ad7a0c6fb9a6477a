from django import template

from warfare.systems.pf2e.events import log_text as _log_text
from warfare.systems.pf2e.selectors import check_view

register = template.Library()


@register.simple_tag
def log_text(entry) -> str:
    """A kingdom-log entry as a sentence in the page's language."""
    return _log_text(entry.code, entry.data)


@register.simple_tag
def log_check(entry):
    """The check stored with a log entry, ready for pf2e/_check.html (or None)."""
    return check_view(entry.data.get("check"))
