"""The board's fragments drawn once per content (`battles.templatetags.board_fragments`):
a fragment is drawn again when a value it reads changes, never served to a render that
reads other values, and drawn every time when its output is not a function of them."""

from dataclasses import dataclass

from django.template import Context, Template, engines
from django.utils import translation

from battles.templatetags import board_fragments


@dataclass(frozen=True)
class Card:
    name: str
    hp: int
    tags: tuple[str, ...] = ()


def _template(body: str) -> Template:
    return engines["django"].from_string("{% load board_fragments i18n %}" + body).template


def _drawn(monkeypatch) -> list:
    """Count the real draws of every fragment."""
    calls = []
    draw = board_fragments.FragmentNode.draw

    def counted(self, context):
        calls.append(self.parts[0].var)
        return draw(self, context)

    monkeypatch.setattr(board_fragments.FragmentNode, "draw", counted)
    return calls


def test_a_fragment_is_drawn_again_only_when_a_value_it_reads_changes(monkeypatch):
    drawn = _drawn(monkeypatch)
    template = _template(
        '{% for card in cards %}{% fragment "card" card.name %}{{ card.name }} HP {{ card.hp }}'
        "{% for tag in card.tags %} {{ tag }}{% endfor %}"
        "{% if seq %} #{{ seq }}{% endif %}{% endfragment %}{% endfor %}"
    )
    cards = [Card("Wardens", 5, ("fast",)), Card("Horde", 3)]
    first = template.render(Context({"cards": cards, "seq": 1}))
    assert "Wardens HP 5 fast #1" in first and "Horde HP 3 #1" in first
    assert len(drawn) == 2
    assert template.render(Context({"cards": cards, "seq": 1})) == first
    assert len(drawn) == 2  # the same values: both served as drawn
    changed = [Card("Wardens", 4, ("fast",)), Card("Horde", 3)]
    second = template.render(Context({"cards": changed, "seq": 1}))
    assert "Wardens HP 4 fast #1" in second and "Horde HP 3 #1" in second
    assert len(drawn) == 3  # only the card that changed
    third = template.render(Context({"cards": changed, "seq": 2}))
    assert "Wardens HP 4 fast #2" in third and "Horde HP 3 #2" in third
    assert len(drawn) == 5  # a value read outside the loop: every card


def test_a_fragment_is_drawn_per_language_and_escaping(monkeypatch):
    drawn = _drawn(monkeypatch)
    template = _template(
        '{% fragment "f" %}{% translate "Battle log" %} {{ text }}{% endfragment %}'
    )
    with translation.override("en"):
        english = template.render(Context({"text": "<b>"}))
    with translation.override("ru"):
        russian = template.render(Context({"text": "<b>"}))
    assert "Battle log &lt;b&gt;" in english
    assert "Battle log" not in russian and "&lt;b&gt;" in russian
    with translation.override("en"):
        raw = template.render(Context({"text": "<b>"}, autoescape=False))
    assert "Battle log <b>" in raw
    assert len(drawn) == 3


def test_fragments_whose_output_is_not_their_values_are_drawn_every_time(monkeypatch):
    drawn = _drawn(monkeypatch)
    included = _template(
        '{% fragment "inc" %}{% include "battles/_log_lines.html" %}{% endfragment %}'
    )
    assert not included.nodelist.get_nodes_by_type(board_fragments.FragmentNode)[0].kept
    sets = _template('{% fragment "url" %}{% url "healthz" as there %}{% endfragment %}{{ there }}')
    assert not sets.nodelist.get_nodes_by_type(board_fragments.FragmentNode)[0].kept
    assert sets.render(Context({})) == sets.render(Context({}))
    assert "healthz" in sets.render(Context({}))

    class Row:  # no fingerprint (as a model instance): drawn every time
        name = "Wardens"

        def __str__(self):
            return self.name

    plain = _template('{% fragment "row" %}{{ row }}, {{ row.name }}{% endfragment %}')
    assert plain.render(Context({"row": Row()})).count("Wardens") == 2
    plain.render(Context({"row": Row()}))
    assert drawn.count("row") == 2
    named = _template('{% fragment "name" %}{{ row.name }}{% endfragment %}')
    named.render(Context({"row": Row()}))
    named.render(Context({"row": Row()}))
    assert drawn.count("name") == 1  # what it reads of the row is a string


def test_a_name_bound_inside_a_fragment_is_read_from_outside_where_it_is_not(monkeypatch):
    """`ratio` is the page's before `{% blocktranslate with ratio=… %}` binds its own."""
    drawn = _drawn(monkeypatch)
    template = _template(
        '{% fragment "ratio" %}{% if ratio %}{% blocktranslate with ratio=ratio.text %}'
        "TS ratio {{ ratio }}{% endblocktranslate %}{% endif %}"
        "{% for ratio in more %}, {{ ratio }}{% endfor %}{% endfragment %}"
    )
    assert "TS ratio 1.67 : 1" in template.render(Context({"ratio": {"text": "1.67 : 1"}}))
    assert "TS ratio 2 : 1, 3" in template.render(
        Context({"ratio": {"text": "2 : 1"}, "more": [3]})
    )
    assert len(drawn) == 2
