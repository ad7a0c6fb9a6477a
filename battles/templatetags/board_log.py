"""`{{ log|log_lines:battle.system }}`: the board log's lines (`BattleView.log_page`: round and
sentence, newest first) as the `<li>`s of `templates/battles/_log_lines.html`.

Drawn here rather than by a template loop: a board shows up to `LOG_LIMIT` lines, and each
line's round ("round 3", GURPS 3e "day 3", D&D 5e "deployment") is worded once per round."""

import html

from django import template
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

register = template.Library()


def round_label(system: str, round_) -> SafeString:
    """When a line happened, in the page's language (a translation: not escaped, as
    `{% blocktranslate %}` writes it)."""
    if system == "gurps3e":
        return mark_safe(gettext("day %(day)s") % {"day": localize(round_)})  # noqa: S308
    if system == "dnd5e" and not round_:
        return mark_safe(gettext("deployment"))  # noqa: S308
    return mark_safe(gettext("round %(round)s") % {"round": localize(round_)})  # noqa: S308


def _html(text) -> str:
    """`text` as HTML, as `conditional_escape` makes it (escaped unless it is safe already)."""
    return text.__html__() if hasattr(text, "__html__") else html.escape(str(text))


@register.filter
def log_lines(lines, system: str) -> SafeString:
    """The lines as `format_html_join` would join them, without its lazy-string checks and
    format calls per line (a full page is `LOG_LIMIT` lines on every new board version)."""
    labels, items = {}, []
    for round_, text in lines:
        label = labels.get(round_)
        if label is None:
            label = labels[round_] = round_label(system, round_)
        items.append(f'<li><span>{_html(text)}</span><span class="small muted">{label}</span></li>')
    return mark_safe("".join(items))  # noqa: S308 (each part escaped above, the labels safe)
