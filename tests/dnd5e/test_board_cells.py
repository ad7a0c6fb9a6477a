"""The D&D 5e grid's squares, drawn in Python (`battles.templatetags.dnd5e_board.dnd_cell`,
issue 13: most of a board's render was its ~100 squares): every text escaped, the move or
attack form of the selected piece with the board's version and CSRF token."""

from types import SimpleNamespace

from battles.templatetags.dnd5e_board import dnd_cell


class FakeBattle(SimpleNamespace):
    def get_absolute_url(self):
        return f"/campaigns/{self.campaign_id}/battles/{self.pk}/"


def cell(**extra):
    base = {"x": 3, "y": 4, "terrain": "forest", "terrain_label": "forest",
            "difficult": True, "elevation": 0, "objective": None, "zone": None,
            "occupant": None, "options": {}}  # fmt: skip
    return {**base, **extra}


def occupant(**extra):
    base = {"key": "u1", "side": "a", "kind": "stand", "anchor": True, "name": "<b>Orcs</b>",
            "short": "O&", "casualty": False, "hidden": False, "broken": False, "solos": [],
            "hp": 7, "selectable": True, "engine": None}  # fmt: skip
    return {**base, **extra}


def context():
    return {"battle": FakeBattle(pk=2, campaign_id=1, seq=41), "csrf_token": "TOKEN"}


def test_a_selectable_piece_is_a_link_with_its_name_escaped():
    html = dnd_cell(context(), cell(occupant=occupant()), "*")
    assert html.startswith('<td class="sq t-forest diff occ side-a" title="(3, 4) forest, ')
    assert "&lt;b&gt;Orcs&lt;/b&gt;" in html and "<b>" not in html
    assert 'href="/campaigns/1/battles/2/?sel=u1"' in html and 'data-piece="u1"' in html
    assert "O&amp;<small>7</small>" in html


def test_the_selected_pieces_option_is_a_form_with_the_version_and_token():
    option = {"actor": "u1", "kind": "move", "params": '{"to": [3, 4]}', "css": "move",
              "label": "Move <here>", "preview": ""}  # fmt: skip
    html = dnd_cell(context(), cell(options={"u1": option}), "u1")
    assert 'class="sq t-forest diff move"' in html
    assert 'action="/campaigns/1/battles/2/act/?sel=u1"' in html
    assert 'name="csrfmiddlewaretoken" value="TOKEN"' in html
    assert 'name="seq" value="41"' in html
    assert 'value="{&quot;to&quot;: [3, 4]}"' in html
    assert 'aria-label="Move &lt;here&gt; (3, 4)"' in html


def test_an_empty_objective_square_shows_its_mark():
    html = dnd_cell(context(), cell(objective={"key": "o", "name": "Gate"}), None)
    assert "objective" in html and "— Gate" in html and 'class="obj-mark"' in html
