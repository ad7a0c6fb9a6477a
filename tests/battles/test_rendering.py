"""One render per change (issue 13): the board is rendered once per battle version, viewpoint
(what a member may see and do) and language, kept in the shared cache and served to every
viewer of that viewpoint; a poll reads `seq` once; an action reads each row once and writes
only the columns it changes. Hidden numbers never travel through a shared entry."""

import threading

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from battles import live, rendering, services
from battles.models import Battle
from battles.rendering import CSRF_PLACEHOLDER, RENDERS_KEY
from bench.board import act_data
from kingdoms.models import Role
from tests.factories import CampaignFactory, MembershipFactory, UserFactory


def renders() -> int:
    return cache.get(RENDERS_KEY) or 0


@pytest.fixture
def ally(world, kingdom_faction):
    """A second player of the players' kingdom: the same viewpoint as `player`."""
    user = UserFactory(username="ally")
    MembershipFactory(campaign=world, user=user, role=Role.PLAYER, faction=kingdom_faction)
    return user


def board(client, battle, **extra):
    url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    return client.get(url, HTTP_HX_REQUEST="true", **extra)


@pytest.mark.parametrize("first", ["player", "other_player"])
def test_two_sides_never_get_each_others_cached_board(client, struck, player, other_player,
                                                      first):  # fmt: skip
    """The raiders' HP left (2) is the raiders' side's: whichever side's board is drawn
    first, the other side is drawn on its own, and the militia's player never reads it."""
    users = {"player": player, "other_player": other_player}
    order = [first, *(name for name in users if name != first)]
    pages = {}
    for name in order:
        before = renders()
        client.force_login(users[name])
        response = board(client, struck)
        assert response.status_code == 200
        assert renders() == before + 1  # its own render, never the other side's entry
        pages[name] = response.content.decode()
    assert "Raiders takes 2 damage (HP 2)." in pages["other_player"]
    assert "Raiders takes 2 damage." in pages["player"]
    assert "(HP 2)" not in pages["player"]
    assert pages["player"] != pages["other_player"]


def test_members_of_one_viewpoint_share_one_render(client, struck, player, ally):
    """Two players of one kingdom: one render, one ETag, each their own CSRF token."""
    client.force_login(player)
    first = board(client, struck)
    count = renders()
    client.force_login(ally)
    second = board(client, struck)
    assert renders() == count
    assert first["ETag"] == second["ETag"]
    for response in (first, second):
        assert CSRF_PLACEHOLDER not in response.content.decode()
    assert first.content != second.content  # the forms' CSRF tokens are the member's own
    # The whole page wraps the same cached board.
    url = reverse("battles:board", args=[struck.campaign_id, struck.pk])
    page = client.get(url)
    assert page.status_code == 200 and renders() == count
    assert 'id="board"' in page.content.decode()


def test_renders_per_action_are_the_distinct_viewpoints(client, world, gm, battle, player,
                                                        ally, other_player):  # fmt: skip
    """The GM acts (the GM's board, drawn for the answer); four viewers of three viewpoints
    poll: two more renders (the GM's is cached already), not four."""
    client.force_login(gm)
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    before = renders()
    response = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    assert renders() == before + 1
    live.remember_seq(battle.pk, 1)  # what the commit leaves in the cache (battles.live)
    for user in (gm, player, ally, other_player):
        client.force_login(user)
        assert board(client, battle, QUERY_STRING="since=0").status_code == 200
    assert renders() == before + 3


def test_an_unchanged_poll_reads_seq_once(client, world, gm, battle, django_assert_num_queries):
    client.force_login(gm)
    client.get(reverse("kingdoms:campaign-list"))  # the session's first queries
    # The battle's seq with the access check and the user (`battles.access.board_member`):
    # the session is read from the cache.
    with django_assert_num_queries(1):
        assert board(client, battle, QUERY_STRING="since=0").status_code == 304


def test_an_unchanged_poll_after_the_first_needs_no_query_of_its_own(
    client, world, gm, battle, django_assert_num_queries
):
    """Once a member's poll passed the access check, the next polls of the unchanged board
    are answered from the session and the shared cache alone: no query, not even the user's
    (the bare logged-in view reads the user)."""
    client.force_login(gm)
    live.remember_seq(battle.pk, 0)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    with django_assert_num_queries(0):
        assert board(client, battle, QUERY_STRING="since=0").status_code == 304


def test_a_logged_out_poll_is_sent_to_log_in_though_its_check_is_cached(client, world, gm, battle):
    client.force_login(gm)
    live.remember_seq(battle.pk, 0)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    client.logout()
    answer = board(client, battle, QUERY_STRING="since=0")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


@pytest.mark.parametrize("change", ["password", "deactivated"])
def test_a_poll_is_checked_again_when_the_account_changes(client, world, player, battle, change):
    """A new password (set elsewhere: this session is of before it) or a deactivated
    account: the cached check is forgotten, and Django's own check refuses the session."""
    client.force_login(player)
    live.remember_seq(battle.pk, 0)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    if change == "password":
        player.set_password("a-new-password-0")
    else:
        player.is_active = False
    player.save()
    answer = board(client, battle, QUERY_STRING="since=0")
    assert answer.status_code == 302 and answer["Location"].startswith("/accounts/login/")


def test_a_log_in_keeps_the_cached_checks(client, world, player, battle, django_assert_num_queries):
    """Logging in writes only `last_login`: the member's boards need no new check."""
    client.force_login(player)
    live.remember_seq(battle.pk, 0)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    client.force_login(player)  # another session (a second device)
    with django_assert_num_queries(0):
        assert board(client, battle, QUERY_STRING="since=0").status_code == 304


def test_a_member_who_left_is_checked_again_by_the_poll(
    client, world, gm, player, battle, django_assert_num_queries
):
    live.remember_seq(battle.pk, 0)
    client.force_login(player)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    world.memberships.filter(user=player).delete()
    assert board(client, battle, QUERY_STRING="since=0").status_code == 404


def test_a_poll_through_another_campaign_is_never_cached(client, world, gm, battle, outsider):
    """A GM of another campaign naming this battle in their campaign's URL gets 404, every
    time: only a poll that passed the access check of this battle is remembered."""
    other = CampaignFactory(created_by=outsider)
    MembershipFactory(campaign=other, user=outsider, role=Role.GM)
    live.remember_seq(battle.pk, 0)
    client.force_login(outsider)
    url = reverse("battles:board", args=[other.pk, battle.pk])
    for _ in range(2):
        assert client.get(url, {"since": 0}, HTTP_HX_REQUEST="true").status_code == 404
    assert live.poll_state(battle.pk, outsider.pk) == (0, None)


def test_a_deleted_battle_is_not_polled_from_the_cache(client, world, gm, battle):
    client.force_login(gm)
    live.remember_seq(battle.pk, 0)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 304
    Battle.objects.filter(pk=battle.pk).delete()
    assert board(client, battle, QUERY_STRING="since=0").status_code == 404


def test_a_changed_poll_is_served_from_the_cache_with_one_read_of_each_row(
    client, world, gm, battle, player, ally, django_assert_max_num_queries
):
    end = {"actor": battle.snapshot["order"][0], "kind": "end_turn"}
    services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                        command=end)  # fmt: skip
    live.remember_seq(battle.pk, 1)
    client.force_login(player)
    assert board(client, battle, QUERY_STRING="since=0").status_code == 200
    client.force_login(ally)
    count = renders()
    # The session, the user, the membership, the battle: the seq known from the cache.
    with django_assert_max_num_queries(4):
        assert board(client, battle, QUERY_STRING="since=0").status_code == 200
    assert renders() == count


def _first_end_turn(client, world, battle) -> list[str]:
    """The statements of the first army's end of turn on the board at version 0 (answered
    200), sent like a click by the logged-in `client`."""
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                               HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    return [query["sql"] for query in captured.captured_queries]


def test_the_action_path_reads_each_row_once_and_writes_in_one_statement(client, world, gm,
                                                                         battle):  # fmt: skip
    client.force_login(gm)
    client.get(reverse("kingdoms:campaign-list"))
    sql = _first_end_turn(client, world, battle)
    # The user, the member and the battle with its JSON in one read (`battles.access`); the
    # write; the log's newest page (the live board's NOTIFY follows the commit, which a test
    # does not make).
    assert len(sql) == 3, sql
    reads = [s for s in sql if s.startswith("SELECT") and '"battles_battle"' in s]
    assert len(reads) == 1 and 'FROM "kingdoms_membership"' in reads[0]
    assert '."snapshot"' in reads[0] and '"auth_user"."password"' in reads[0]
    assert not any('FROM "auth_user"' in s for s in sql)
    # No lock read, no transaction of its own (in a test, a savepoint): the write is one
    # statement, its UPDATE conditional on the version read.
    assert not any("FOR NO KEY UPDATE" in s or "SAVEPOINT" in s for s in sql)
    (write,) = [s for s in sql if "UPDATE battles_battle" in s]
    assert "INSERT INTO battles_battlecommand" in write
    assert "INSERT INTO battles_battleevent" in write
    # (a prepared statement, `warfare.compiled.prepared_cursor`: the values are its params)
    assert "WHERE id = $" in write and " AND seq = $" in write and " AND updated_at = $" in write
    assert "setup" not in write and "name" not in write
    assert Battle.objects.get(pk=battle.pk).seq == 1


def test_a_stale_action_reads_the_current_board(client, world, gm, battle):
    """The version the lock reads is not the one the view read: the row is read again, and
    the answer is 409 with the board as it is now."""
    end = {"actor": battle.snapshot["order"][0], "kind": "end_turn"}
    client.force_login(gm)
    url = reverse("battles:act", args=[world.pk, battle.pk])
    services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                        command=end)  # fmt: skip
    response = client.post(url, {"seq": 0, **end}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert 'data-seq="1"' in response.content.decode()


def test_hiding_a_faction_renders_the_boards_again(client, world, gm, battle, player,
                                                   enemy_faction):  # fmt: skip
    """A faction hidden from players changes what a board names without a new command: the
    campaign's cached boards are out of date."""
    client.force_login(player)
    assert "Thornback Horde" in board(client, battle).content.decode()
    enemy_faction.known_to_players = False
    enemy_faction.save()
    page = board(client, battle).content.decode()
    assert "Thornback Horde" not in page


def test_the_board_shows_one_page_of_the_log_and_pages_in_the_older_entries(
    client, world, gm, battle, player, outsider
):
    """However long the battle, the board draws the newest `LOG_LIMIT` entries; "Older
    entries" pages in the rest (htmx), each as the member may read them."""
    from battles.models import BattleEvent
    from battles.visibility import LOG_LIMIT
    from tests.battles.conftest import end_turn

    while BattleEvent.objects.filter(battle=battle).count() <= 2 * LOG_LIMIT + 5:
        battle = end_turn(gm, battle)
    client.force_login(player)
    page = board(client, battle).content.decode()
    log = page[page.index('id="board-log"') :]
    assert log.count("<li>") <= LOG_LIMIT
    assert "Older entries" in log
    older = reverse("battles:log", args=[world.pk, battle.pk])
    shown = set()
    before = log.split("?before=")[1].split('"')[0]
    pages = 0
    while before:
        response = client.get(older, {"before": before}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        text = response.content.decode()
        assert "<html" not in text and 0 < text.count("<li>") <= LOG_LIMIT
        shown.add(text)
        before = text.split("?before=")[1].split('"')[0] if "?before=" in text else ""
        pages += 1
    assert pages >= 2
    assert "round 1" in text  # the oldest page reaches the start
    assert client.get(older, {"before": "x"}).status_code == 400
    assert client.get(older, {"before": "1"}).status_code == 200  # a whole page, without htmx
    assert "round" in client.get(older).content.decode()  # without before: the newest page
    client.force_login(outsider)
    assert client.get(older, {"before": before or "1"}).status_code == 404


def test_an_action_answers_only_the_fragments_it_changed(client, world, gm, battle):
    """The GM ends a turn from the board they see: the answer swaps in (htmx out-of-band)
    the head, the initiative, the cards and actions that changed and the new log lines —
    not the whole board, and not what stayed as it was (the GM's correction form)."""
    client.force_login(gm)
    assert board(client, battle).status_code == 200  # the board the GM acts from
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    response = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    body = response.content.decode()
    assert 'id="board"' not in body
    assert 'id="f-seq" hx-swap-oob="true"' in body and 'data-version="1"' in body
    assert 'id="f-head" hx-swap-oob="true"' in body
    assert f'id="f-card-{actor}" hx-swap-oob="true"' in body  # it acts no more
    assert 'hx-swap-oob="afterbegin:#board-log-lines"' in body  # the new lines only
    assert 'id="f-log"' not in body and 'id="f-gm"' not in body
    assert CSRF_PLACEHOLDER not in body
    assert 'id="messages" hx-swap-oob="true"' in body
    # Without the board it came from (not cached), the whole board.
    from tests.caches import clear_cache

    clear_cache()
    actor = Battle.objects.get(pk=battle.pk).snapshot["order"][1]
    response = client.post(url, {"seq": 1, "actor": actor, "kind": "end_turn"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200 and "HX-Reswap" not in response
    assert 'id="board"' in response.content.decode()


@pytest.mark.parametrize("changed", ["generation", "forecast"])
def test_an_action_whose_key_guesses_were_wrong_answers_from_the_right_keys(
    client, world, gm, battle, changed
):
    """The answer's one round trip guesses the campaign's board generation as this process
    last read it and no forecast of the board acted from; when a faction changed meanwhile
    (the generation) or a forecast ran on that board, the keys are worked out again from
    what was read: the board acted from is not found under its old key (the whole board
    goes back, as a fresh render draws it), and the new board is kept under the key its
    viewers ask for."""
    from battles import forecasting
    from tests.caches import clear_cache

    client.force_login(gm)
    assert board(client, battle).status_code == 200  # the board acted from, cached
    if changed == "generation":
        rendering.bump_generation(world.pk)
    else:
        cache.set(forecasting.marker_key(battle), {"forecast": {"seed": 1, "simulations": 2}})
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    response = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response.status_code == 200 and "HX-Reswap" not in response
    after = Battle.objects.get(pk=battle.pk)
    count = renders()
    kept = board(client, after)
    assert renders() == count  # the action's render, under the key of the real generation
    assert _without_tokens(kept.content) in _without_tokens(response.content)
    clear_cache()
    fresh = board(client, after).content
    assert _without_tokens(kept.content) == _without_tokens(fresh)


def test_an_answers_messages_are_the_members_own_and_none_is_the_empty_swap(
    client, world, gm, battle
):
    """The messages beside an answer: none after a plain action (the template's swap of no
    messages, drawn once), the reason with a refused one (as the template draws it)."""
    from django.template.loader import render_to_string

    client.force_login(gm)
    assert board(client, battle).status_code == 200
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    done = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                       HTTP_HX_REQUEST="true").content.decode()  # fmt: skip
    empty = render_to_string(rendering.MESSAGES_TEMPLATE, {"oob": True, "messages": ()})
    assert done.endswith(empty) and 'class="messages"' not in empty
    refused = client.post(url, {"seq": 1, "actor": actor, "kind": "no_such_action"},
                          HTTP_HX_REQUEST="true")  # fmt: skip
    assert refused.status_code == 400
    body = refused.content.decode()
    assert '<div id="messages" hx-swap-oob="true">' in body
    assert '<ul class="messages">' in body and not body.endswith(empty)


def test_fragments_outside_which_the_board_changed_send_it_whole():
    from battles.rendering import changed_fragments

    def page(head, card, skeleton="", lines=("<li>b</li>",)):
        return (
            f'<div id="board" data-seq="3">{skeleton}'
            f'<div class="fragment" id="f-head">{head}<!--/f--></div>'
            f'<div class="fragment" id="f-side"><h2>A</h2>'
            f'<div class="fragment" id="f-card-1">{card}<!--/f--></div><!--/f--></div>'
            f'<div class="fragment" id="f-log"><ol id="board-log-lines">{"".join(lines)}</ol>'
            "<!--/f--></div></div>"
        )

    old = page("round 1", "HP 4")
    assert changed_fragments(None, old) is None
    assert changed_fragments(old, page("round 1", "HP 4")) == ""
    swaps = changed_fragments(old, page("round 2", "HP 3").replace('data-seq="3"', 'data-seq="4"'))
    assert swaps == (
        '<div class="fragment" id="f-head" hx-swap-oob="true">round 2<!--/f--></div>'
        '<div class="fragment" id="f-card-1" hx-swap-oob="true">HP 3<!--/f--></div>'
    )
    assert changed_fragments(old, page("round 1", "HP 4", skeleton="<p>new</p>")) is None
    assert changed_fragments(old, page("round 1", "HP 4")[:-20]) is None  # not well formed
    added = changed_fragments(old, page("round 1", "HP 4", lines=("<li>c</li>", "<li>b</li>")))
    assert added == '<div hx-swap-oob="afterbegin:#board-log-lines"><li>c</li></div>'
    undone = changed_fragments(old, page("round 1", "HP 4", lines=("<li>a</li>",)))
    assert undone.startswith('<div class="fragment" id="f-log" hx-swap-oob="true">')


def test_a_fragment_marked_always_is_sent_with_every_answer():
    """The dice typed in for the next action are used up by it: their fragment is sent."""
    from battles.rendering import changed_fragments

    page = (
        '<div id="board"><div class="fragment" id="f-dice" data-always><input name="dice">'
        '<!--/f--></div><div class="fragment" id="f-head">{}<!--/f--></div></div>'
    )
    swaps = changed_fragments(page.format("1"), page.format("2"))
    assert swaps.startswith('<div class="fragment" id="f-dice" data-always hx-swap-oob="true">')
    assert 'id="f-head" hx-swap-oob="true">2' in swaps


# --- single flight: many viewers of one viewpoint missing the cache at once -----------------


@pytest.mark.django_db(transaction=True)
def test_viewers_of_one_viewpoint_missing_the_cache_at_once_share_one_render(
    world, struck, player, ally
):
    """A change pushed to six viewers of one kingdom at once: one renders, five wait."""
    from django.test import Client

    clients = []
    for user in (player, ally) * 3:
        client = Client()
        client.force_login(user)
        clients.append(client)
    before = renders()
    start = threading.Barrier(len(clients))
    statuses = []

    def fetch(client):
        start.wait()
        try:
            statuses.append(board(client, struck).status_code)
        finally:
            connection.close()  # this thread's own

    threads = [threading.Thread(target=fetch, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert statuses == [200] * len(clients)
    assert renders() == before + 1


def _request(membership):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = membership.user
    return request


def test_a_viewer_waits_for_the_render_under_way_and_serves_its_entry(world, battle, gm):
    membership = world.memberships.get(user=gm)
    entry = rendering.board_key(battle, "k")
    assert cache.add(entry + ":rendering", 1)  # another process is rendering this board
    threading.Timer(0.1, lambda: cache.set(entry, "<div id=board>theirs</div>")).start()
    before = renders()
    assert rendering.board_html(_request(membership), membership, battle, "k") == (
        "<div id=board>theirs</div>"
    )
    assert renders() == before


def test_a_viewer_renders_itself_when_the_render_under_way_never_comes(
    world, battle, gm, monkeypatch
):
    membership = world.memberships.get(user=gm)
    monkeypatch.setattr(rendering, "RENDER_WAIT", 0.2)
    assert cache.add(rendering.board_key(battle, "k") + ":rendering", 1)  # a renderer died
    before = renders()
    html = rendering.board_html(_request(membership), membership, battle, "k")
    assert 'id="board"' in html
    assert renders() == before + 1


def _without_tokens(html: bytes) -> str:
    import re

    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html.decode())


@pytest.mark.parametrize(
    ("system", "auto"),
    [("pf2e", ""), ("dnd5e", ""), ("gurps4e", ""), ("gurps3e", ""), ("pf2e", "b"), ("dnd5e", "b")],
)
def test_an_action_draws_its_new_log_from_the_rows_it_wrote_as_a_read_would(
    client, gm, system, auto, monkeypatch
):
    """After an action from a cached board, the new board's log is the log before with the
    event rows the action wrote on top (`rendering.written_events`, where the write gives
    their ids; else read again), the board byte for byte the one drawn from scratch (nothing
    cached, the log read),
    its "older entries" link too (a page of 4 lines: the battle soon has more). `auto`: a
    side that plays itself (its commands written by the same action)."""
    from battles import visibility
    from battles.templatetags import board_fragments
    from battles.visibility import _LINES
    from tests.battle_worlds import system_campaign
    from tests.battles.test_autoplay import create
    from tests.caches import clear_cache
    from warfare.engine.battle.registry import get_battle_system

    monkeypatch.setattr(visibility, "LOG_LIMIT", 4)
    player, rival = UserFactory(username="player"), UserFactory(username="rival")
    campaign, body = system_campaign(system, gm=gm, player=player, rival=rival)
    battle = create(gm, campaign, body)
    if auto:
        battle.auto_sides = [auto]
        battle.save(update_fields=["auto_sides"])
    engine = get_battle_system(system)
    url = reverse("battles:act", args=[campaign.pk, battle.pk])
    client.force_login(gm)
    acted = swapped = older = 0
    for _ in range(6):
        battle = Battle.objects.get(pk=battle.pk)
        state = engine.state_from_dict(battle.snapshot)
        waits = engine.awaiting(state)
        if battle.status != "active" or not waits:
            break
        assert board(client, battle).status_code == 200  # the board acted from, cached
        command = engine.suggest(state, waits[0].actor)
        response = client.post(url, act_data(command, battle.seq), HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content[:500]
        swapped += response.get("HX-Reswap") == "none"  # the fragments it changed
        acted += 1
        after = Battle.objects.get(pk=battle.pk)
        kept = board(client, after).content  # the action's render, from the cache
        clear_cache()
        board_fragments._DRAWN.clear()
        _LINES.clear()
        client.force_login(gm)
        fresh = board(client, after).content
        assert _without_tokens(kept) == _without_tokens(fresh)
        assert b'id="board-log-lines"' in fresh
        older += b"?before=" in fresh
    assert acted >= 3 and swapped and older
    if auto:  # the side played itself within the actions
        from battles.models import BattleCommand

        assert BattleCommand.objects.filter(battle=battle, batch__isnull=False).exists()


def test_an_action_from_a_cached_board_makes_few_cache_round_trips(
    client, world, gm, battle, redis_cache, monkeypatch
):
    """The action's cache round trips: the session; after the write, one pipeline of the
    render's lock (and the new seq, which the commit leaves in the cache: not in a test's
    transaction) with the reads of both render keys, the new board, the board acted from and
    its log rows; the new board with its log rows (one pipeline); the render counted (the
    tests count renders). Nothing is read before the write; the render's lock is left to run
    out, not taken away; the log is not read again."""
    from redis.connection import AbstractConnection

    client.force_login(gm)
    assert board(client, battle).status_code == 200  # the board acted from, cached
    trips = []  # (what is written to Redis at once: one round trip, named by its commands)
    send = AbstractConnection.send_packed_command

    def sent(self, command, check_health=True):
        parts = command if isinstance(command, list | tuple) else [command]
        trips.append(" ".join(_command_names(b"".join(bytes(part) for part in parts))))
        return send(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", sent)
    url = reverse("battles:act", args=[world.pk, battle.pk])
    actor = battle.snapshot["order"][0]
    response = client.post(url, {"seq": 0, "actor": actor, "kind": "end_turn"},
                           HTTP_HX_REQUEST="true")  # fmt: skip
    assert response["HX-Reswap"] == "none"
    assert trips == ["GET", "SET MGET", "SET SET", "INCRBY"]


def _command_names(packed: bytes) -> list[str]:
    """The name of each command of a packet written to Redis (RESP arrays of bulk strings)."""
    names, at = [], 0
    while at < len(packed):
        end = packed.index(b"\r\n", at)
        count, at = int(packed[at + 1 : end]), end + 2  # "*<count>"
        for index in range(count):
            end = packed.index(b"\r\n", at)
            size = int(packed[at + 1 : end])  # "$<size>"
            if index == 0:
                names.append(packed[end + 2 : end + 2 + size].decode())
            at = end + 2 + size + 2
    return names


def test_an_action_from_a_cached_board_reads_no_events(client, world, gm, battle):
    """The new board's log: the rows the action wrote on top of the board's log before."""
    client.force_login(gm)
    assert board(client, battle).status_code == 200  # the board acted from, cached
    sql = _first_end_turn(client, world, battle)
    assert not [q for q in sql if "battles_battleevent" in q and q.startswith("SELECT")]


def test_a_players_actions_read_the_factions_once_per_board_generation(
    client, world, gm, player, militia_to_act, militia, enemy_faction
):
    """A player's board names the sides by what the campaign's factions let them see: an
    action reads the factions once, keeps them (`rendering.factions_key`), and the next
    actions take them from the cache until a faction changes; then they are read again, and
    a faction hidden from players is no more named on the player's new board."""
    from warfare.engine.battle.registry import get_battle_system

    engine = get_battle_system("pf2e")
    url = reverse("battles:act", args=[world.pk, militia_to_act.pk])
    client.force_login(player)

    def player_acts(battle) -> tuple[int, str]:
        """(the faction reads, the player's new board) of one action of the militia."""
        state = engine.state_from_dict(battle.snapshot)
        command = engine.suggest(state, str(militia.pk))
        assert board(client, battle).status_code == 200  # the board acted from
        with CaptureQueriesContext(connection) as captured:
            response = client.post(url, act_data(command, battle.seq), HTTP_HX_REQUEST="true")
        assert response.status_code == 200, response.content[:300]
        reads = sum('FROM "kingdoms_faction"' in q["sql"] for q in captured.captured_queries)
        return reads, board(client, Battle.objects.get(pk=battle.pk)).content.decode()

    battle = militia_to_act
    first, page = player_acts(battle)
    assert first == 1 and "Thornback Horde" in page
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.snapshot["order"][battle.snapshot["turn"]] == str(militia.pk)  # acts on
    again, _page = player_acts(battle)
    assert again == 0
    enemy_faction.known_to_players = False
    enemy_faction.save()
    battle = Battle.objects.get(pk=battle.pk)
    hidden, page = player_acts(battle)
    assert hidden == 1 and "Thornback Horde" not in page
