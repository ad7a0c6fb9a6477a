"""`warfare.cache.exchange` on the real Redis: the writes done in order, then the keys read,
in one round trip (`_sent`, the commands written at once and their replies read back), and
the same answer through redis-py's pipeline when a connection breaks (`_pipelined`)."""

import pytest
from django.core.cache import caches

from warfare import cache as shared

pytestmark = pytest.mark.usefixtures("redis_cache")

WRITES = [("ex-a", {"rows": [(1, 2, "c", {"d": 1})]}, 60, False), ("ex-lock", 1, 10, True),
          ("ex-lock", 2, 10, True), ("ex-b", "<div>board</div>", None, False)]  # fmt: skip
READS = ["ex-a", "ex-lock", "ex-missing", "ex-b"]


def _ttl(key: str) -> int:
    backend = caches["default"]
    return backend._cache.get_client().ttl(backend.make_key(key))


def test_writes_then_reads_in_one_round_trip():
    backend = caches["default"]
    done, values = shared.exchange(backend, WRITES, READS)
    assert done == [True, True, False, True]  # (the lock's second `add` not done)
    assert values == {"ex-a": {"rows": [(1, 2, "c", {"d": 1})]}, "ex-lock": 1,
                      "ex-b": "<div>board</div>"}  # fmt: skip
    assert 50 < _ttl("ex-a") <= 60 and 0 < _ttl("ex-lock") <= 10
    assert _ttl("ex-b") == -1  # (None: kept for good)
    assert backend.get("ex-a") == values["ex-a"]  # (what Django's own reads find)
    assert shared.exchange(backend, [], ["ex-missing"]) == ([], {})
    assert shared.exchange(backend, [("ex-c", 3, 60, False)]) == ([True], {})


def test_a_broken_connection_is_answered_through_the_pipeline(monkeypatch):
    backend = caches["default"]
    sent = []

    def broken(cache, commands):
        sent.append(commands)
        raise shared.RedisConnectionError("the connection went away")

    monkeypatch.setattr(shared, "_sent", broken)
    done, values = shared.exchange(backend, WRITES, READS)
    assert len(sent) == 1
    assert done == [True, True, False, True]
    assert values["ex-lock"] == 1 and values["ex-b"] == "<div>board</div>"
