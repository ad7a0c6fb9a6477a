"""`{{ log|log_lines:battle.system }}`: the board log's lines (`BattleView.log_page`: round and
sentence, newest first) as the `<li>`s of `templates/battles/_log_lines.html`.

Drawn here rather than by a template loop: a board shows up to `LOG_LIMIT` lines, and each
line's round ("round 3", GURPS 3e "day 3", D&D 5e "deployment") is worded once per round."""

from django import template
from django.utils.formats import localize
from django.utils.html import format_html_join
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


@register.filter
def log_lines(lines, system: str) -> SafeString:
    labels = {}
    for round_, _text in lines:
        if round_ not in labels:
            labels[round_] = round_label(system, round_)
    return format_html_join(
        "", '<li><span>{}</span><span class="small muted">{}</span></li>',
        ((text, labels[round_]) for round_, text in lines),
    )  # fmt: skip
