"""`{% url %}` as the project's templates have it (`warfare.templatetags.urls`, a builtin):
Django's URLs, escaping and errors, each URL reversed once per process."""

import pytest
from django.template import Context, engines
from django.urls import NoReverseMatch, reverse

from warfare import links
from warfare.templatetags.urls import URLNode


def _render(source: str, **context) -> str:
    return engines["django"].from_string(source).render(context)


def test_the_tag_is_the_projects_and_draws_djangos_urls():
    template = engines["django"].from_string("{% url 'battles:act' c b %}")
    assert isinstance(template.template.nodelist[0], URLNode)
    assert _render("{% url 'battles:act' c b %}", c=3, b=7) == reverse("battles:act", args=[3, 7])
    assert _render("{% url 'battles:board' campaign_id=3 battle_id=7 %}") == reverse(
        "battles:board", kwargs={"campaign_id": 3, "battle_id": 7}
    )
    assert _render("{% url 'battles:board' 3 7 as u %}[{{ u }}]") == (
        f"[{reverse('battles:board', args=[3, 7])}]"
    )
    assert _render("{% url name 3 %}", name="kingdoms:campaign-detail") == reverse(
        "kingdoms:campaign-detail", args=[3]
    )


def test_each_url_is_reversed_once():
    links._reversed.cache_clear()
    for _ in range(3):
        _render("{% url 'battles:act' 3 7 %}{% url 'battles:act' 3 8 %}"
                "{% url 'battles:log' 3 7 as u %}{{ u }}")  # fmt: skip
    info = links._reversed.cache_info()
    assert (info.misses, info.hits) == (3, 6)


def test_errors_and_unhashable_arguments_go_djangos_way():
    with pytest.raises(NoReverseMatch):
        _render("{% url 'battles:act' 3 %}")
    with pytest.raises(NoReverseMatch):
        _render("{% url 'battles:act' 3 %}")  # (not kept: raised again)
    assert _render("{% url 'battles:missing' as u %}[{{ u }}]") == "[]"
    with pytest.raises(NoReverseMatch):  # (a list: not hashable, reversed by Django's tag)
        _render("{% url 'battles:act' ids 7 %}", ids=[3])


def test_autoescaping_is_the_contexts():
    """An invitation's token may hold "&" (kept in a URL, escaped in HTML where escaping)."""
    template = engines["django"].from_string("{% url 'kingdoms:invite-accept' t %}").template
    url = reverse("kingdoms:invite-accept", args=["a&b"])
    assert "&" in url
    assert template.render(Context({"t": "a&b"})) == url.replace("&", "&amp;")
    assert template.render(Context({"t": "a&b"}, autoescape=False)) == url
