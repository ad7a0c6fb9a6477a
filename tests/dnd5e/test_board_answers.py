"""The D&D 5e board answers an action with what changed (issue 13): from a board that chose
its selection by itself (`data-sel="*"`) its forms post no selection, so the answer is that
board chosen again and goes back as out-of-band fragments; the parts of the board are drawn
once per process for what they show (`{% fragment %}`, `board_fragments.drawn_once`), the
board's version put in anew."""

import json
import re

import pytest
from django.urls import reverse

from tests.dnd5e.test_board import _end_turns_until
from warfare.systems.dnd5e.models import Unit

pytestmark = pytest.mark.django_db


def _board(battle):
    return reverse("battles:board", args=[battle.campaign_id, battle.pk])


@pytest.fixture
def guards_turn(gm, dnd_battle):
    guards = f"u{Unit.objects.get(name='Guards').pk}"
    battle = _end_turns_until(gm, dnd_battle, lambda b: b.snapshot["turn"]["actor"] == guards)
    return battle, guards


def _poll_url(page: str) -> str:
    return re.search(r'<div id="board"[^>]* hx-get="([^"]+)"', page)[1]


def test_the_poll_asks_for_the_selection_the_board_was_asked_for(client, gm, guards_turn):
    battle, guards = guards_turn
    client.force_login(gm)
    chosen = client.get(_board(battle), HTTP_HX_REQUEST="true").content.decode()
    assert "Selected: Guards #1" in chosen and "sel=" not in _poll_url(chosen)
    # Its forms post no selection either: the answer is the board chosen again.
    assert re.search(r'<form method="post" class="action-form" action="[^"?]+/act/"', chosen)
    asked = client.get(_board(battle), {"sel": f"{guards}.2"}, HTTP_HX_REQUEST="true")
    page = asked.content.decode()
    assert _poll_url(page).endswith(f"&amp;sel={guards}.2")
    assert (
        f'action="/campaigns/{battle.campaign_id}/battles/{battle.pk}/act/?sel={guards}.2"' in page
    )
    cleared = client.get(_board(battle), {"sel": ""}, HTTP_HX_REQUEST="true").content.decode()
    assert "Selected:" not in cleared and _poll_url(cleared).endswith("&amp;sel=")


def test_an_attack_from_the_chosen_board_answers_only_what_changed(client, gm, guards_turn):
    """Guards #2 hits the objective square next to it from the board that selected Guards #1
    by itself: the answer, that board chosen again (Guards #1 still to act), swaps in the
    grid, the card and the log's new line, never the whole board."""
    battle, guards = guards_turn
    client.force_login(gm)
    page = client.get(_board(battle), HTTP_HX_REQUEST="true").content.decode()
    assert 'data-sel="*"' in page and "Selected: Guards #1" in page
    params = {"piece": f"{guards}.2", "attack": "spear", "target": "sq:2:2"}
    response = client.post(
        reverse("battles:act", args=[battle.campaign_id, battle.pk]),
        {"seq": battle.seq, "actor": guards, "kind": "attack", "params": json.dumps(params)},
        HTTP_HX_REQUEST="true", HTTP_X_BOARD_SEL="*",
    )  # fmt: skip
    assert response.status_code == 200, response.content.decode()[:2000]
    body = response.content.decode()
    assert response["HX-Reswap"] == "none" and 'id="board"' not in body
    assert 'id="f-grid" hx-swap-oob="true"' in body and 'id="f-side-a" hx-swap-oob="true"' in body
    assert 'hx-swap-oob="afterbegin:#board-log-lines"' in body
    battle.refresh_from_db()
    assert f"{guards}.2" in battle.snapshot["turn"]["acted"]
    # The board it stands for is the board chosen again, as a reload shows it.
    reload = client.get(_board(battle), HTTP_HX_REQUEST="true").content.decode()
    grid = re.search(r'<div class="fragment" id="f-grid">.*?<!--/f--></div>', reload, re.S)[0]
    token = re.compile(r'name="csrfmiddlewaretoken" value="\w+"')  # masked anew each time
    assert "Selected: Guards #1" in reload
    assert token.sub("", grid[len('<div class="fragment" id="f-grid">') :]) in token.sub("", body)


def test_the_parts_kept_draw_the_board_as_drawn_anew(client, gm, player, guards_turn):
    """Whatever a part's key leaves out would show here: through a stand's attack and the
    turns after it, for the GM and a player, each board drawn from the parts kept is the
    board drawn with nothing kept."""
    from battles.templatetags import board_fragments
    from tests.caches import clear_cache
    from warfare.systems.dnd5e import board as dnd_board

    battle, guards = guards_turn
    token = re.compile(r'name="csrfmiddlewaretoken" value="\w+"')

    def page(user, sel=None):
        client.force_login(user)
        query = {} if sel is None else {"sel": sel}
        answer = client.get(_board(battle), query, HTTP_HX_REQUEST="true")
        return token.sub("", answer.content.decode())

    def compare():
        for user, sel in ((gm, None), (gm, f"{guards}.2"), (player, None)):
            kept = page(user, sel)
            clear_cache()  # (this run's keys only: the Redis may be shared)
            client.force_login(user)
            board_fragments._DRAWN.clear()
            dnd_board._LINES.clear()
            dnd_board._CONTEXTS.clear()
            assert page(user, sel) == kept

    for user in (gm, player):
        page(user)
    compare()
    params = {"piece": f"{guards}.2", "attack": "spear", "target": "sq:2:2"}
    client.force_login(gm)
    client.post(
        reverse("battles:act", args=[battle.campaign_id, battle.pk]),
        {"seq": battle.seq, "actor": guards, "kind": "attack", "params": json.dumps(params)},
        HTTP_HX_REQUEST="true", HTTP_X_BOARD_SEL="*",
    )  # fmt: skip
    battle.refresh_from_db()
    compare()
    battle = _end_turns_until(gm, battle, lambda b: b.snapshot["turn"]["actor"] != guards)
    compare()


def test_a_board_drawn_again_for_its_version_reuses_what_it_was_built_from(
    client, gm, player, enemy_faction, guards_turn
):
    """Another piece selected at the same version: the board's context (its log's read
    included) is the one built for that version; a new version, or a faction hidden from
    the players (the names a viewpoint reads), builds it again."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    battle, guards = guards_turn
    client.force_login(gm)
    client.get(_board(battle), HTTP_HX_REQUEST="true")

    def log_read(user, sel) -> bool:
        client.force_login(user)
        with CaptureQueriesContext(connection) as captured:
            page = client.get(_board(battle), {"sel": sel}, HTTP_HX_REQUEST="true")
        assert page.status_code == 200
        return any("battles_battleevent" in q["sql"] for q in captured.captured_queries)

    assert not log_read(gm, f"{guards}.2")
    client.force_login(player)
    shown = client.get(_board(battle), HTTP_HX_REQUEST="true").content.decode()
    assert "Unknown force" not in shown
    enemy_faction.known_to_players = False
    enemy_faction.save()
    assert log_read(player, f"{guards}.1")  # other names: built again
    hidden = client.get(_board(battle), HTTP_HX_REQUEST="true").content.decode()
    assert "Unknown force" in hidden and "Thornback Horde" not in hidden
    battle = _end_turns_until(gm, battle, lambda b: b.snapshot["turn"]["actor"] != guards)
    assert log_read(gm, "")  # a new version
