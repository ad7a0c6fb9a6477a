from django import template

from warfare.events import log_text as _log_text

register = template.Library()


@register.simple_tag
def log_text(entry) -> str:
    """A kingdom-log entry as a sentence in the page's language."""
    return _log_text(entry.code, entry.data)
