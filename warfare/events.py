"""Kingdom-log event codes as sentences in the page's language (one gettext entry each)."""

from django.utils.translation import gettext_lazy as _

from .messages import _display

EVENT_TEXTS = {
    "army.placed": _("%(name)s placed by the GM (%(type)s, level %(level)s)."),
    "army.condition_set": _("%(condition)s set to %(value)s."),
}


def log_text(code: str, data: dict) -> str:
    template = EVENT_TEXTS.get(code)
    if template is None:
        return code
    try:
        return str(template) % _display(data)
    except (KeyError, TypeError, ValueError):
        return str(template)
