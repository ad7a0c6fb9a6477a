"""A board action's answer is drawn while its write is on its way to PostgreSQL
(`battles.rendering.Answer`, `warfare.meanwhile`): the new board drawn from the battle as
the write will leave it, kept in the shared cache, and the polls told of it, only once the
write is known done."""

import threading
from datetime import timedelta

import psycopg
import pytest
from django.core.cache import cache
from django.db import connection
from django.db.models import F
from django.urls import reverse

from battles import live, rendering, services
from battles.models import Battle
from tests.backends import running

from .test_rendering import board, renders


def _end_turn(client, battle, **headers):
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    data = {"seq": battle.seq, "actor": actor, "kind": "end_turn"}
    return client.post(url, data, HTTP_HX_REQUEST="true", **headers)


@pytest.mark.django_db(transaction=True)
def test_the_answer_is_drawn_while_the_write_runs(client, gm, battle, redis_cache, monkeypatch):
    """The board context is built with the action's statement still running in PostgreSQL
    (held there by another transaction's lock of the battle row, let go once seen), and the
    answer needs no render after the write: only the fragments it changed."""
    client.force_login(gm)
    assert board(client, battle).status_code == 200  # the board acted from, cached
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    other = psycopg.connect(**connection.get_connection_params())
    other.execute("SELECT 1 FROM battles_battle WHERE id = %s FOR UPDATE", [battle.pk])
    # (let go anyway after a while: an answer drawn after the write would wait for it)
    timer = threading.Timer(3.0, other.commit)
    timer.start()
    seen = []
    context = rendering.board_context

    def board_context(membership, battle_):
        seen.append((battle_.seq, running(pid)))
        other.commit()  # the row let go: the write goes on
        return context(membership, battle_)

    def no_render(*args, **kwargs):
        raise AssertionError("drawn after the write")

    monkeypatch.setattr(rendering, "board_context", board_context)
    monkeypatch.setattr(rendering, "_render_once", no_render)
    try:
        response = _end_turn(client, battle)
    finally:
        timer.cancel()
        other.close()
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"  # the fragments it changed
    [(seq, statement)] = seen
    assert seq == battle.seq + 1
    assert statement is not None and "UPDATE battles_battle" in statement
    battle.refresh_from_db()
    assert battle.seq == seq
    assert live.cached_seq(battle.pk) == seq
    drawn = renders()
    assert board(client, battle).status_code == 200
    assert renders() == drawn  # the board drawn beside the write, kept for the next viewer


@pytest.mark.django_db(transaction=True)
def test_a_version_never_written_is_never_kept(client, gm, battle, redis_cache, monkeypatch):
    """The row changed between the read and the write (no new command): the board drawn for
    the version the write would have left is not kept; the action is applied to the row as
    it is and its own board kept and answered."""
    client.force_login(gm)
    assert board(client, battle).status_code == 200
    drawn = []
    reads = rendering._reads_after

    def reads_after(*args, **kwargs):
        after = reads(*args, **kwargs)
        drawn.append(after.cache_key)
        return after

    act = services._act
    calls = []

    def changed_meanwhile(*args, **kwargs):
        calls.append(True)
        if len(calls) == 1:  # another save of the row (no new command) before the write
            later = F("updated_at") + timedelta(seconds=1)
            Battle.objects.filter(pk=battle.pk).update(name="The Ford, renamed", updated_at=later)
        return act(*args, **kwargs)

    monkeypatch.setattr(rendering, "_reads_after", reads_after)
    monkeypatch.setattr(services, "_act", changed_meanwhile)
    response = _end_turn(client, battle)
    assert response.status_code == 200
    assert len(calls) == 2 and len(drawn) == 2  # drawn for each attempt
    never, written = drawn
    assert never != written
    assert cache.get(never) is None  # the version never written: not kept
    assert cache.get(written) is not None
    seq = battle.seq
    battle.refresh_from_db()
    assert battle.name == "The Ford, renamed" and battle.seq == seq + 1
    assert live.cached_seq(battle.pk) == battle.seq


@pytest.mark.django_db(transaction=True)
def test_an_answer_that_fails_beside_the_write_is_drawn_after_it(
    client, gm, battle, redis_cache, monkeypatch, answer_draw_errors
):
    """The failure logged, the answer drawn the usual way once the write is done, its render
    lock let go first (the render after would otherwise wait for a board never kept)."""
    client.force_login(gm)
    assert board(client, battle).status_code == 200
    context = rendering.board_context
    calls = []

    def failing_once(membership, battle_):
        calls.append(battle_.seq)
        if len(calls) == 1:
            raise RuntimeError("drawn beside the write: failed")
        return context(membership, battle_)

    def no_wait(seconds):
        raise AssertionError("the render waited for a lock")

    monkeypatch.setattr(rendering, "board_context", failing_once)
    monkeypatch.setattr(rendering.time, "sleep", no_wait)
    response = _end_turn(client, battle)
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert calls == [battle.seq + 1, battle.seq + 1]  # beside the write, then after it
    assert [record.getMessage() for record in answer_draw_errors] == [
        f"battle {battle.pk}: the answer drawn beside its write failed"
    ]
    answer_draw_errors.clear()
    battle.refresh_from_db()
    assert live.cached_seq(battle.pk) == battle.seq == calls[0]
