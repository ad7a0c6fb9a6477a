"""The live board (battles.live): a change announced by PostgreSQL NOTIFY on commit, pushed to
Server-Sent Events viewers on every app process, with the cache as the fallback."""

import asyncio
import contextlib
import threading
import time

import psycopg
import pytest
import requests
from django.db import connection, transaction
from django.urls import reverse
from rest_framework.authtoken.models import Token

from battles import live, rendering
from battles.models import Battle
from tests.servers import app_processes, session_cookie

from .conftest import end_turn


def _live_url(battle) -> str:
    return reverse("battles:live", args=[battle.campaign_id, battle.pk])


def _first_message(response) -> bytes:
    stream = iter(response.streaming_content)
    try:
        return next(stream)
    finally:
        response.close()


def test_the_stream_is_for_members_only(client, world, battle, outsider, other_gm):
    url = _live_url(battle)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    for stranger in (outsider, other_gm):
        client.force_login(stranger)
        assert client.get(url).status_code == 404
    missing = reverse("battles:live", args=[battle.campaign_id, battle.pk + 1000])
    client.force_login(world.memberships.get(role="player", faction__name="Silverrun").user)
    assert client.get(missing).status_code == 404


def test_a_member_gets_an_event_stream_that_starts_with_the_boards_seq(client, player, battle):
    client.force_login(player)
    response = client.get(_live_url(battle))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-cache"
    assert _first_message(response) == f"retry: 2000\nevent: seq\ndata: {battle.seq}\n\n".encode()


def test_the_board_names_its_stream_and_its_seq(client, player, battle):
    client.force_login(player)
    page = client.get(battle.get_absolute_url()).content.decode()
    assert f'data-live-url="{_live_url(battle)}"' in page
    assert f'data-seq="{battle.seq}"' in page
    assert 'hx-trigger="live-poll, live-changed"' in page
    assert "js/live.js" in page


@pytest.fixture
def listener(transactional_db):
    """A connection of its own LISTENing on the battles' channel."""
    params = connection.settings_dict
    conn = psycopg.connect(
        dbname=params["NAME"], user=params["USER"], host=params["HOST"] or None,
        port=params["PORT"] or None, autocommit=True,
    )  # fmt: skip
    conn.execute(f"LISTEN {live.CHANNEL}")
    yield conn
    conn.close()


def _notifications(conn, wait: float = 0.5) -> list[str]:
    return [n.payload for n in conn.notifies(timeout=wait, stop_after=10)]


@pytest.mark.django_db(transaction=True)
def test_a_change_is_announced_when_it_commits_and_never_when_it_rolls_back(
    gm, battle, redis_cache, listener
):
    with transaction.atomic():
        battle = end_turn(gm, battle)
        assert _notifications(listener) == []  # not before the commit
        assert live.cached_seq(battle.pk) != battle.seq
    assert _notifications(listener) == [f"{battle.pk}:{battle.seq}"]
    assert live.cached_seq(battle.pk) == battle.seq
    with contextlib.suppress(RuntimeError), transaction.atomic():
        end_turn(gm, battle)
        raise RuntimeError("the action fails after saving")
    assert _notifications(listener) == []
    assert live.cached_seq(battle.pk) == battle.seq


@pytest.mark.django_db(transaction=True)
def test_a_held_change_is_pushed_when_the_block_ends_and_cached_at_once(
    gm, battle, redis_cache, listener
):
    with live.held():
        battle = end_turn(gm, battle)  # committed
        assert _notifications(listener) == []  # not before the answer is rendered
        assert live.cached_seq(battle.pk) == battle.seq  # the polls know at once
    assert _notifications(listener) == [f"{battle.pk}:{battle.seq}"]
    with contextlib.suppress(RuntimeError), live.held(), transaction.atomic():
        end_turn(gm, battle)
        raise RuntimeError("the action fails after saving")
    assert _notifications(listener) == []  # rolled back: nothing to push


@pytest.mark.django_db(transaction=True)
def test_a_board_action_pushes_its_change(client, gm, battle, listener):
    client.force_login(gm)
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    data = {"seq": battle.seq, "actor": actor, "kind": "end_turn"}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    assert _notifications(listener) == [f"{battle.pk}:{battle.seq + 1}"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("htmx", [True, False])
def test_a_board_actions_seq_is_cached_with_its_answer_once_written(
    client, gm, battle, redis_cache, monkeypatch, htmx
):
    """The answer is drawn while the write is on its way (`rendering.Answer`): the polls
    are not told of a version not known to be written yet; the new seq goes to the cache
    with the answer's board (one round trip), before the change is pushed. Without an
    answer drawn (a plain form's redirect) it is cached all the same."""
    client.force_login(gm)
    seen = []
    drawn = rendering.board_context

    def board_context(membership, battle_):
        seen.append(live.cached_seq(battle.pk))
        return drawn(membership, battle_)

    monkeypatch.setattr(rendering, "board_context", board_context)
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    data = {"seq": battle.seq, "actor": actor, "kind": "end_turn"}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    told = live.cached_seq(battle.pk)
    assert told != battle.seq + 1
    assert client.post(url, data, **headers).status_code == (200 if htmx else 302)
    assert seen == ([told] if htmx else [])  # drawn before the polls were told
    assert live.cached_seq(battle.pk) == battle.seq + 1


async def _no_board(seq):
    raise RuntimeError("the cache is down")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("board", "pushed"),
    [
        (None, "event: changed\ndata: {seq}\n\n"),
        ("<div>\r\nnew\nboard</div>", "event: board\ndata: <div>\ndata: new\ndata: board</div>\n\n"),  # noqa: E501
        (_no_board, "event: changed\ndata: {seq}\n\n"),  # the browser fetches it
    ],
)  # fmt: skip
def test_the_asgi_stream_pushes_a_change_within_a_second(gm, battle, board, pushed):
    """With the viewer's board at hand the change is pushed with it, else as `changed`."""
    received: list[tuple[bytes, float]] = []
    ready = threading.Event()

    async def fragment(seq):
        return board

    push = board if board in (None, _no_board) else fragment

    async def watch():
        messages = live.stream(battle.pk, battle.seq, push)
        received.append((await anext(messages), time.monotonic()))
        await live.hub().connected.wait()
        ready.set()
        received.append((await anext(messages), time.monotonic()))
        await messages.aclose()

    thread = threading.Thread(target=lambda: asyncio.run(asyncio.wait_for(watch(), 10)))
    thread.start()
    assert ready.wait(5)
    changed = end_turn(gm, battle)
    committed = time.monotonic()
    thread.join(10)
    assert [message for message, _at in received] == [
        f"retry: 2000\nevent: seq\ndata: {battle.seq}\n\n".encode(),
        pushed.format(seq=changed.seq).encode(),
    ]
    assert received[1][1] - committed < 1.0


def test_the_wsgi_stream_reads_the_cache(battle):
    messages = live.sync_stream(battle.pk, battle.seq, lifetime=2.0)
    assert next(messages).endswith(f"event: seq\ndata: {battle.seq}\n\n".encode())
    live.remember_seq(battle.pk, battle.seq + 1)
    assert next(messages) == f"event: changed\ndata: {battle.seq + 1}\n\n".encode()
    assert list(messages) == []  # the stream ends after its lifetime; the browser reconnects


# --- Two app processes on one PostgreSQL and one Redis ---------------------------------------


def _event(lines) -> list[bytes]:
    """The next event's lines (the blank line ending it left out)."""
    event = [next(lines)]
    while event[-1]:
        event.append(next(lines))
    return event[:-1]


@pytest.mark.django_db(transaction=True)
def test_an_action_on_one_process_reaches_a_viewer_on_the_other(
    gm, player, other_player, battle, redis_cache
):
    """The player's stream on the other process gets their own new board pushed (their
    CSRF token put in, no fetch of their own); the stream of a member who left meanwhile
    ends instead."""
    token = Token.objects.create(user=gm)
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    with app_processes(2) as (acting, watching):
        streams = [
            requests.get(
                watching + _live_url(battle), cookies=session_cookie(user), stream=True, timeout=10
            )
            for user in (player, other_player)
        ]
        assert [stream.status_code for stream in streams] == [200, 200]
        lines, leaving = (stream.iter_lines() for stream in streams)
        for each in (lines, leaving):
            assert _event(each) == [b"retry: 2000", b"event: seq", f"data: {battle.seq}".encode()]
        time.sleep(0.5)  # the watching process's LISTEN connection is up
        battle.campaign.memberships.filter(user=other_player).delete()
        answer = requests.post(
            acting + reverse("api:battle-actions", args=[battle.campaign_id, battle.pk]),
            json={"seq": battle.seq, "actor": actor, "kind": "end_turn"},
            headers={"Authorization": f"Token {token.key}"},
            timeout=10,
        )
        acted = time.monotonic()
        assert answer.status_code == 200, answer.text
        event = _event(lines)
        assert time.monotonic() - acted < 1.0
        assert event[0] == b"event: board"
        board = b"\n".join(line.removeprefix(b"data: ") for line in event[1:]).decode()
        assert f'<div id="board" data-seq="{battle.seq + 1}"' in board
        assert rendering.CSRF_PLACEHOLDER not in board
        assert list(leaving) == []  # ended: nothing of the new board
        for stream in streams:
            stream.close()


@pytest.mark.django_db(transaction=True)
def test_viewers_hold_no_database_connection_with_the_production_request_log(
    player, battle, redis_cache
):
    """Three streams on a process whose pool has two connections, with the JSON request log
    of production (`LOG_FORMAT=json`): every stream is answered, the board still is."""
    cookies = session_cookie(player)
    with app_processes(1, LOG_FORMAT="json", DATABASE_POOL_MAX="2") as (server,):
        streams = [
            requests.get(server + _live_url(battle), cookies=cookies, stream=True, timeout=10)
            for _ in range(3)
        ]
        try:
            assert [s.status_code for s in streams] == [200, 200, 200]
            assert [next(s.iter_lines()) for s in streams] == [b"retry: 2000"] * 3
            board = requests.get(server + battle.get_absolute_url(), cookies=cookies, timeout=10)
            assert board.status_code == 200
        finally:
            for s in streams:
                s.close()


@pytest.mark.django_db(transaction=True)
def test_the_write_throttle_counts_across_app_processes(gm, battle, redis_cache):
    token = Token.objects.create(user=gm)
    url = reverse("api:battle-actions", args=[battle.campaign_id, battle.pk])
    stale = {"seq": battle.seq + 7, "actor": None, "kind": "end_turn"}
    with app_processes(2, API_WRITE_RATE="5/minute") as urls:
        statuses = [
            requests.post(
                urls[i % 2] + url, json=stale, headers={"Authorization": f"Token {token.key}"},
                timeout=10,
            ).status_code
            for i in range(8)
        ]  # fmt: skip
    assert statuses.count(429) == 3, statuses
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq
