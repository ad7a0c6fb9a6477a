"""The board log's lines (`{{ log|log_lines:battle.system }}`) are the HTML `format_html_join`
made of them before it was drawn by hand: every sentence escaped unless it is safe already,
each round worded in the page's language."""

import pytest
from django.utils import translation
from django.utils.functional import lazy
from django.utils.html import format_html_join
from django.utils.safestring import SafeString, mark_safe

from battles.templatetags.board_log import log_lines, round_label

LINES = [
    (3, "Militia <b>& \"Raiders\"</b> 'clash'"),
    (3, mark_safe("<em>already safe</em> &amp;")),
    (2, lazy(lambda: "lazy <text>", str)()),
    (2, lazy(lambda: mark_safe("<i>lazy safe</i>"), SafeString)()),
    (0, ""),
]


@pytest.mark.parametrize("system", ["pf2e", "dnd5e", "gurps4e", "gurps3e"])
@pytest.mark.parametrize("language", ["en", "ru"])
def test_the_lines_are_what_format_html_join_made(system, language):
    with translation.override(language):
        drawn = log_lines(LINES, system)
        expected = format_html_join(
            "", '<li><span>{}</span><span class="small muted">{}</span></li>',
            ((text, round_label(system, round_)) for round_, text in LINES),
        )  # fmt: skip
    assert isinstance(drawn, SafeString)
    assert drawn == expected
    assert "&lt;b&gt;&amp; &quot;Raiders&quot;&lt;/b&gt; &#x27;clash&#x27;" in drawn
    assert "<em>already safe</em> &amp;" in drawn and "lazy &lt;text&gt;" in drawn


def test_no_lines_draw_nothing():
    assert log_lines([], "pf2e") == ""
