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
    included = _template('{% fragment "inc" %}{% include name %}{% endfragment %}')
    assert not included.nodelist.get_nodes_by_type(board_fragments.FragmentNode)[0].kept
    # (the log's lines name their "older entries" URL for the page: `{% url … as log_url %}`)
    log = _template('{% fragment "log" %}{% include "battles/_log_lines.html" %}{% endfragment %}')
    assert not log.nodelist.get_nodes_by_type(board_fragments.FragmentNode)[0].kept
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


class Battle:
    def __init__(self, seq, status="active", campaign_id=3, pk=7):
        self.seq, self.status, self.campaign_id, self.pk = seq, status, campaign_id, pk


def test_a_fragment_with_forms_is_kept_across_versions_its_seq_put_in_again(monkeypatch):
    """The board's version in a form's seq input (`name="seq" value="{{ battle.seq }}"`, in
    the fragment or a template it includes) is no value read: the fragment drawn for version
    4 serves version 5 with 5 in its forms; what it reads otherwise draws it again."""
    drawn = _drawn(monkeypatch)
    template = _template(
        '{% fragment "undo" %}<form><input name="seq" value="{{ battle.seq }}">{{ label }}'
        '</form>{% include "battles/_undo.html" %}{% endfragment %}'
    )

    def draw(seq, label="Go", status="active"):
        context = {"battle": Battle(seq, status), "label": label, "csrf_token": "T",
                   "membership": {"is_gm": True}}  # fmt: skip
        return template.render(Context(context))

    first = draw(4)
    assert first.count('name="seq" value="4"') == 2 and "Undo last action" in first
    assert draw(5) == first.replace('value="4"', 'value="5"')
    assert len(drawn) == 1  # kept: only the version changed
    assert draw(6, "Stop").count('value="6"') == 2 and len(drawn) == 2
    assert "Undo last action" not in draw(6, "Stop", "applied") and len(drawn) == 3
    # No undo at version 0 (`battle.seq` read for its truth): drawn again.
    assert "Undo last action" not in draw(0) and len(drawn) == 4
    board_fragments._DRAWN.clear()
    assert draw(5) == first.replace('value="4"', 'value="5"')


def test_an_expression_is_read_for_its_value_a_condition_for_its_truth(monkeypatch):
    drawn = _drawn(monkeypatch)
    template = _template(
        '{% fragment "f" %}{% if cards %}{{ cards|first }}{% endif %}{% if seq %} live'
        "{% endif %}{% endfragment %}"
    )
    assert template.render(Context({"cards": ["a", "b"], "seq": 1})).endswith(
        "a live<!--/f--></div>"
    )
    template.render(Context({"cards": ["a", "c"], "seq": 2}))
    assert len(drawn) == 1  # the first card, cards and seq true: as drawn
    assert "b live" in template.render(Context({"cards": ["b", "c"], "seq": 2}))
    assert "live" not in template.render(Context({"cards": ["b", "c"], "seq": 0}))
    assert len(drawn) == 3


def test_a_loops_turn_is_read_anew_in_every_fragment_of_the_loop(monkeypatch):
    """`forloop` is one dict that the loop updates at each turn: a key never takes what it
    read of it for the same object earlier in the render (`board_fragments._MUTABLE`), so
    a part kept at one turn is not filed under what another turn reads."""
    template = _template(
        '{% for card in cards %}{% fragment "f" card %}{% if forloop.first %}first {% endif %}'
        "{{ card }}{% endfragment %};{% endfor %}"
    )
    assert "first a<!--/f--></div>;" in template.render(Context({"cards": ["a", "b"]}))
    again = template.render(Context({"cards": ["b", "a"]}))
    assert "first b<!--/f--></div>;" in again
    assert ">a<!--/f--></div>;" in again


def test_the_version_is_read_once_per_render_and_battle(monkeypatch):
    """`_seq` and its text are kept on the render's context per battle object: a fragment
    under another battle (a `{% with %}`) puts in that battle's version, not the first's."""
    _drawn(monkeypatch)
    template = _template(
        '{% fragment "a" %}<input name="seq" value="{{ battle.seq }}">{% endfragment %}'
        '{% with battle=other %}{% fragment "b" %}<input name="seq" value="{{ battle.seq }}">'
        "{% endfragment %}{% endwith %}"
        '{% fragment "c" %}<input name="seq" value="{{ battle.seq }}">{% endfragment %}'
    )
    html = template.render(Context({"battle": Battle(4, "active"), "other": Battle(9, "active")}))
    assert html.count('value="4"') == 2 and html.count('value="9"') == 1
    assert html.index('value="9"') < html.rindex('value="4"')


def test_no_template_sets_a_language_or_time_zone_within_a_render():
    """A fragment's key reads the language and the time zone once per render
    (`board_fragments._env`): no template may change them partway (a `{% language %}`,
    `{% timezone %}` or `{% localtime %}` block)."""
    from pathlib import Path

    from django.conf import settings

    roots = [Path(root) for root in settings.TEMPLATES[0]["DIRS"]]
    roots += list(Path(settings.BASE_DIR).glob("*/templates"))
    roots += list(Path(settings.BASE_DIR).glob("warfare/systems/*/templates"))
    found = [str(path) for root in roots for path in root.rglob("*.html")
             if any(tag in path.read_text() for tag in ("{% language", "{% timezone",
                                                        "{% localtime"))]  # fmt: skip
    assert sum(1 for root in roots for _ in root.rglob("*.html")) > 20
    assert found == []


def test_a_lazy_translation_is_keyed_by_its_message_and_a_lazy_of_anything_else_by_its_text(
    monkeypatch,
):
    """A lazy `gettext` / `pgettext` / `format_lazy` call of plain arguments is named in the
    key by its message (`board_fragments._lazy_text`; the language is in the key); a lazy
    call of any other function by what it says now."""
    from django.utils.functional import lazy
    from django.utils.translation import gettext_lazy, pgettext_lazy

    drawn = _drawn(monkeypatch)
    template = _template('{% fragment "f" %}{{ label }}{% endfragment %}')

    def draw(label, language="en"):
        with translation.override(language):
            return template.render(Context({"label": label}))

    assert draw(gettext_lazy("Battle log")) == draw(gettext_lazy("Battle log"))
    assert len(drawn) == 1  # (another proxy of the same message: the same key)
    russian = draw(gettext_lazy("Battle log"), "ru")
    assert "Battle log" not in russian and len(drawn) == 2
    assert "Undo last action" in draw(gettext_lazy("Undo last action")) and len(drawn) == 3
    assert draw(pgettext_lazy("a", "Battle log")) and len(drawn) == 4  # (another function)
    said = {"text": "one"}
    changing = lazy(lambda: said["text"], str)
    assert "one" in draw(changing()) and len(drawn) == 5
    said["text"] = "two"
    assert "two" in draw(changing()) and len(drawn) == 6  # (keyed by its text: drawn again)
    assert board_fragments._lazy_text(changing()) is None
    assert board_fragments._lazy_text(gettext_lazy("Battle log")) is not None


def test_a_model_instances_fields_are_read_for_the_key(monkeypatch):
    """A model instance's field is read straight (`_model_field`), its methods the template's
    way: a changed field or a changed status draws the fragment again, the same ones not."""
    from battles.models import Battle as BattleRow

    drawn = _drawn(monkeypatch)
    template = _template(
        '{% fragment "f" %}{{ battle.name }} · {{ battle.get_status_display }}{% endfragment %}'
    )

    def draw(**fields):
        with translation.override("en"):
            return template.render(Context({"battle": BattleRow(**fields)}))

    assert draw(name="Ford", status="active") == (
        f'<div class="fragment" id="f-f">Ford · in progress{board_fragments.END}'
    )
    assert draw(name="Ford", status="active") and len(drawn) == 1
    assert "Hill · in progress" in draw(name="Hill", status="active") and len(drawn) == 2
    assert "results applied" in draw(name="Hill", status="applied") and len(drawn) == 3


def test_a_fragment_that_is_one_if_is_empty_without_a_key_while_its_condition_is_false(
    monkeypatch,
):
    """`{% fragment %}{% if shown %}…{% endif %}{% endfragment %}` (a panel shown only at
    times): while `shown` is false it is the empty fragment, whatever else it reads, and no
    key is worked out for it; once true, it is keyed and kept as any fragment. One with an
    `{% else %}` is keyed either way."""
    drawn = _drawn(monkeypatch)
    keys = []
    key = board_fragments.key

    def counted(context, name, plan, values=()):
        keys.append(name)
        return key(context, name, plan, values)

    monkeypatch.setattr(board_fragments, "key", counted)
    template = _template(
        '{% fragment "p" %}{% if shown %}<b>{{ x }}</b>{% endif %}{% endfragment %}'
        '{% fragment "q" %}{% if shown %}<b>{{ x }}</b>{% else %}-{% endif %}{% endfragment %}'
    )
    empty = f'<div class="fragment" id="f-p">{board_fragments.END}'
    for x in ("one", "two", object()):  # (not even a value a key could name)
        html = template.render(Context({"shown": False, "x": x}))
        assert html.startswith(empty) and html.endswith(f"-{board_fragments.END}")
    assert drawn == ["q"] * 3 and len(keys) == 3  # (only "q": keyed, by its x too)
    html = template.render(Context({"shown": True, "x": "one"}))
    assert f'id="f-p"><b>one</b>{board_fragments.END}' in html
    assert drawn == ["q"] * 3 + ["p", "q"] and len(keys) == 5
    assert template.render(Context({"shown": True, "x": "one"})) == html
    assert len(drawn) == 5 and len(keys) == 7  # (both kept)
    assert template.render(Context({"x": "one"})).startswith(empty)  # (missing: false)
