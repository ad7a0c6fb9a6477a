"""Kingdom turns and army activities at once, on PostgreSQL with real threads: every service
takes its locks in the one order of `kingdoms.transactions` (campaign → kingdom → armies →
battle), so nothing deadlocks; each request is applied once or refused with 409."""

import threading
from collections import Counter

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry

THREADS = 20
REQUESTS_EACH = 10


@pytest.fixture
def armies(world, gm, kingdom):
    Kingdom.objects.filter(pk=kingdom.pk).update(food=100_000)
    return [
        services.army_create(user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id,
                             name=f"Column {n}", army_type="infantry",
                             tactics=("toughened_soldiers",), hex="C7")
        for n in range(3)
    ]  # fmt: skip


def _may_act(army: Army) -> bool:
    """§4: one Army activity a turn, a second one when efficient (the engine's rule)."""
    return army.activities_this_turn == 0 or (
        army.activities_this_turn == 1 and "efficient" in army.conditions
    )


@pytest.mark.django_db(transaction=True)
def test_kingdom_turns_and_activities_at_once_never_deadlock(world, gm, kingdom, armies):
    """200 mixed requests from 20 threads against one kingdom and its three armies: each
    reads the state, then either starts the next kingdom turn (`expected_turn`) or deploys an
    army (`version`, a die typed in: 20, a critical success). Before one lock order, the turn
    (kingdom → armies) and the activity (army → kingdom) deadlocked: answers of 500."""
    turn_url = reverse("pf2e:kingdom-turn", args=[world.pk, kingdom.faction_id])
    barrier = threading.Barrier(THREADS)
    results: list[tuple[str, str, int]] = []
    lock = threading.Lock()

    def worker(number: int) -> None:
        client = Client(raise_request_exception=False)
        try:
            client.force_login(gm)
            connection.close()  # back to the pool: 20 threads share its connections
            barrier.wait(timeout=60)
            for step in range(REQUESTS_EACH):
                army = Army.objects.get(pk=armies[(number + step) % len(armies)].pk)
                turn = Kingdom.objects.get(pk=kingdom.pk).turn
                marker = f"T{number}x{step}"
                if _may_act(army) and step % 3:
                    url = reverse("pf2e:army-activity", args=[world.pk, army.pk])
                    data = {"activity": "deploy_army", "version": army.version,
                            "skill": "exploration", "destination": marker, "hexes": "1",
                            "two_hex_costs": "0", "typed_die": "20"}  # fmt: skip
                    response = client.post(url, data, HTTP_HX_REQUEST="true")
                    kind = "activity"
                else:
                    data = {"expected_turn": turn, "pay_with": "food", "other_consumption": 0}
                    response = client.post(turn_url, data)
                    kind = "turn"
                connection.close()
                with lock:
                    results.append((kind, marker, response.status_code))
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)

    assert len(results) == THREADS * REQUESTS_EACH
    statuses = Counter((kind, status) for kind, _marker, status in results)
    assert not [status for (_kind, status) in statuses if status >= 500], statuses
    assert set(statuses) <= {("activity", 200), ("activity", 409), ("turn", 302), ("turn", 409)}
    # Applied once: one turn per 302, one deployment (to its own marker hex) per 200.
    assert Kingdom.objects.get(pk=kingdom.pk).turn == 1 + statuses[("turn", 302)]
    deployed = [marker for kind, marker, status in results if kind == "activity" and status == 200]
    refused = [marker for kind, marker, status in results if kind == "activity" and status == 409]
    entries = LogEntry.objects.filter(faction=kingdom.faction, code="army.moved")
    logged = Counter(entry.data["to"] for entry in entries)
    assert logged == Counter(deployed)
    assert not set(refused) & set(logged)


class _Blocker:
    """A raw connection that deadlocks the next army activity on purpose: it holds the army's
    row, waits until the activity (holding the kingdom) waits for it, then asks for the
    kingdom. PostgreSQL aborts the activity, whose deadlock_timeout runs out first."""

    def __init__(self, army: Army, kingdom: Kingdom):
        import psycopg

        settings = connection.settings_dict
        params = {"dbname": settings["NAME"], "user": settings["USER"],
                  "host": settings["HOST"], "port": settings["PORT"] or 5432}  # fmt: skip
        self.conn = psycopg.connect(**params, password=settings["PASSWORD"] or None)
        self.watch = psycopg.connect(**params, password=settings["PASSWORD"] or None,
                                     autocommit=True)  # fmt: skip
        self.army, self.kingdom = army, kingdom
        # The activity checks for the deadlock after 1 s of waiting, this connection after
        # 10: on a loaded machine too, the activity is the one PostgreSQL aborts.
        self.conn.execute("SET deadlock_timeout = '10s'")
        self.conn.execute("SELECT 1 FROM warfare_army WHERE id = %s FOR UPDATE", [army.pk])

    def _wait_for_the_activity(self) -> None:
        import time

        for _ in range(500):
            waiting = self.watch.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND wait_event_type = 'Lock' AND query LIKE %s",  # (cut at 1 kB: its start)
                ['SELECT "warfare_army"."id"%'],
            ).fetchone()[0]
            if waiting:
                return
            time.sleep(0.02)
        raise AssertionError("the activity never waited for the army")

    def deadlock(self) -> None:
        self._wait_for_the_activity()
        self.conn.execute("SAVEPOINT s")
        self.conn.execute("SELECT 1 FROM kingdoms_kingdom WHERE id = %s FOR UPDATE",
                          [self.kingdom.pk])  # fmt: skip
        self.conn.execute("ROLLBACK TO SAVEPOINT s")  # the kingdom is free again

    def release(self, *, after_the_activity_waits: bool = False) -> None:
        try:
            if after_the_activity_waits:
                self._wait_for_the_activity()
        finally:
            self.conn.rollback()
            self.conn.close()
            self.watch.close()


def _post_in_a_thread(client, url, data, results):
    def run():
        try:
            results.append(client.post(url, data))
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("via", ["page", "api"])
def test_a_deadlock_is_retried_once_then_answered_409(world, gm, kingdom, armies, via):
    """One deadlock: the activity is run again and applies (200). Two in a row: nothing is
    saved and the answer is 409 — a short page, or `{"errors": [...]}` from the API
    (kingdoms.transactions.write_transaction, warfare.middleware)."""
    from rest_framework.test import APIClient

    army = armies[0]
    name = "api:army-activities" if via == "api" else "pf2e:army-activity"
    url = reverse(name, args=[world.pk, army.pk])
    client = APIClient() if via == "api" else Client()
    client.force_login(gm)
    data = {"activity": "deploy_army", "skill": "exploration", "destination": "D9",
            "hexes": "1", "two_hex_costs": "0", "typed_die": "20"}  # fmt: skip
    for deadlocks, status in ((1, 200), (2, 409)):
        army.refresh_from_db()
        blocker = _Blocker(army, kingdom)
        results: list = []
        thread = _post_in_a_thread(client, url, {**data, "version": army.version}, results)
        try:
            for _ in range(deadlocks):
                blocker.deadlock()
        finally:
            blocker.release(after_the_activity_waits=deadlocks == 1)
            thread.join(timeout=60)
        assert [response.status_code for response in results] == [status]
    refused = results[0]
    message = "this change could not be saved. Nothing was changed"
    if via == "api":
        assert message in refused.json()["errors"][0]
    else:
        assert message in refused.content.decode()
    assert Army.objects.get(pk=army.pk).version == army.version  # the second saved nothing
    assert LogEntry.objects.filter(army=army, code="army.moved").count() == 1
