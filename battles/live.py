"""The live board: a change made on any app process reaches every viewer on every process.

Every save of a battle row announces its `seq` (`announce`, connected to `post_save` in
`battles.apps`):

* on PostgreSQL, `pg_notify('battle_changed', '<id>:<seq>')` in the saving transaction, so the
  notification is delivered when (and only if) the change commits; a board action `held` it
  until its own answer is rendered (then sent if the change committed);
* after the commit, the battle's seq goes to the shared cache (`cached_seq`), where the live
  poll and the streams of a database without LISTEN (SQLite under `make run`) read it.

`stream(battle_id, seq)` is what the board's Server-Sent Events view sends: a `seq` event at
once, then a `changed` event with the new seq after every change, and a `ping` every `HEARTBEAT`
seconds (proxies keep the connection open; the browser knows the stream is alive). Under ASGI
one `Hub` per process LISTENs on one database connection and hands each notification to the
streams of that battle; a stream also checks the cache now and then, so a notification lost
while the hub reconnects is not a change lost. Under WSGI (`make run`'s runserver, Django's test
server) a stream is a plain generator that reads the cache (`sync_stream`), so the board's live
updates work there too, one thread per viewer.
"""

import asyncio
import contextlib
import logging
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextvars import ContextVar

from django.core.cache import cache
from django.db import connection, connections, transaction

from .models import Battle

logger = logging.getLogger(__name__)

CHANNEL = "battle_changed"
#: What the hub hands a stream when it may have missed notifications: "read the cache".
RESYNC = -1
#: Seconds between `ping` events (and cache checks) on an idle stream.
HEARTBEAT = 15.0
#: How often a stream without LISTEN (or between notifications) looks at the cache.
CACHE_CHECK = 0.25
#: A WSGI stream ends after this many seconds; the browser's EventSource reconnects by itself
#: (a runserver thread is not held for ever).
SYNC_STREAM_LIFETIME = 60.0
#: How long the cache keeps a battle's seq (a miss only means a database read).
SEQ_TIMEOUT = 24 * 60 * 60


def seq_key(battle_id: int) -> str:
    return f"battle-seq:{battle_id}"


def cached_seq(battle_id: int) -> int | None:
    """The battle's seq as the last committed change left it, or None if not cached."""
    return cache.get(seq_key(battle_id))


def remember_seq(battle_id: int, seq: int) -> None:
    cache.set(seq_key(battle_id), seq, timeout=SEQ_TIMEOUT)


def viewer_key(battle_id: int, user_id: int) -> str:
    return f"battle-viewer:{battle_id}:{user_id}"


def poll_state(battle_id: int, user_id: int) -> tuple[int | None, int | None]:
    """(the battle's cached seq, the campaign through which the user was last let see the
    board) in one cache round trip: a live poll of an unchanged board needs nothing else."""
    seq, viewer = seq_key(battle_id), viewer_key(battle_id, user_id)
    found = cache.get_many([seq, viewer])
    return found.get(seq), found.get(viewer)


def remember_viewer(battle_id: int, user_id: int, campaign_id: int) -> None:
    """The user passed the board's access check (a member of the battle's campaign): their
    next polls are answered from the cache until their membership changes (`forget_viewer`)."""
    cache.set(viewer_key(battle_id, user_id), campaign_id, timeout=SEQ_TIMEOUT)


def forget_viewer(sender, instance, **kwargs) -> None:
    """`post_save` / `post_delete` of a Membership: the member's boards check access again."""
    battles = Battle.objects.filter(campaign_id=instance.campaign_id).values_list("pk", flat=True)
    cache.delete_many([viewer_key(pk, instance.user_id) for pk in battles])


def forget_battle(sender, instance, **kwargs) -> None:
    """`post_delete` of a Battle: its polls go to the database again (a 404 there)."""
    cache.delete(seq_key(instance.pk))


_held: ContextVar[list | None] = ContextVar("live_held", default=None)


def announce(sender, instance, **kwargs) -> None:
    """`post_save` of a Battle: notify in the transaction (or when `held` ends), cache the
    seq after the commit."""
    battle_id, seq = instance.pk, instance.seq
    waiting = _held.get()
    if waiting is not None:

        def committed() -> None:
            remember_seq(battle_id, seq)
            waiting.append((battle_id, seq))

        transaction.on_commit(committed)
        return
    _notify(battle_id, seq)
    transaction.on_commit(lambda: remember_seq(battle_id, seq))


def _notify(battle_id: int, seq: int) -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_notify(%s, %s)", [CHANNEL, f"{battle_id}:{seq}"])


@contextlib.contextmanager
def held():
    """The changes committed in the block are pushed to the streams when it ends (the cache
    knows them at once, for the polls). A board action holds its change until its own
    answer is rendered: the acting member's board is then cached for their viewpoint's other
    viewers, and the viewers coming for their boards do not take the processors from the
    answer the acting member waits for."""
    token = _held.set([])
    try:
        yield
    finally:
        changes = _held.get()
        _held.reset(token)
        for battle_id, seq in changes:
            _notify(battle_id, seq)


def _message(event: str, data) -> bytes:
    return f"event: {event}\ndata: {data}\n\n".encode()


def _conninfo() -> str:
    from psycopg.conninfo import make_conninfo  # only with PostgreSQL (psycopg is installed)

    settings = connections["default"].settings_dict
    params = {
        "dbname": settings["NAME"],
        "user": settings.get("USER") or None,
        "password": settings.get("PASSWORD") or None,
        "host": settings.get("HOST") or None,
        "port": str(settings["PORT"]) if settings.get("PORT") else None,
        "connect_timeout": "2",
    }
    return make_conninfo(**{key: value for key, value in params.items() if value is not None})


class Hub:
    """One LISTEN connection per process and event loop, fanned out to the streams."""

    def __init__(self) -> None:
        self.queues: dict[int, set[asyncio.Queue]] = defaultdict(set)
        self.task: asyncio.Task | None = None
        self.connected = asyncio.Event()

    def subscribe(self, battle_id: int) -> asyncio.Queue:
        queue: asyncio.Queue = asyncio.Queue()
        self.queues[battle_id].add(queue)
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._listen())
        return queue

    def unsubscribe(self, battle_id: int, queue: asyncio.Queue) -> None:
        self.queues[battle_id].discard(queue)
        if not self.queues[battle_id]:
            del self.queues[battle_id]

    def dispatch(self, payload: str) -> None:
        try:
            battle_id, seq = (int(part) for part in payload.split(":"))
        except ValueError:
            logger.warning("live: a notification not understood: %r", payload)
            return
        for queue in tuple(self.queues.get(battle_id, ())):
            queue.put_nowait(seq)

    async def _listen(self) -> None:
        import psycopg  # only with PostgreSQL

        while self.queues:
            try:
                async with await psycopg.AsyncConnection.connect(
                    _conninfo(), autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    # A change may have committed before LISTEN took hold: streams re-read.
                    for queues in tuple(self.queues.values()):
                        for queue in tuple(queues):
                            queue.put_nowait(RESYNC)
                    async for notify in conn.notifies():
                        self.dispatch(notify.payload)
            except asyncio.CancelledError:
                raise
            except Exception:  # the database went away: the streams check the cache meanwhile
                logger.warning("live: LISTEN connection lost, reconnecting", exc_info=True)
                self.connected.clear()
                await asyncio.sleep(1.0)


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}
_hubs_lock = threading.Lock()


def hub() -> Hub:
    """This event loop's hub (one per process under uvicorn)."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        if loop not in _hubs:
            _hubs[loop] = Hub()
        return _hubs[loop]


async def stream(battle_id: int, seq: int) -> AsyncIterator[bytes]:
    """The SSE messages of one viewer under ASGI, from `seq` (the board they have) on."""
    listen = connection.vendor == "postgresql"
    center = hub() if listen else None
    queue = center.subscribe(battle_id) if center else None
    last_check = time.monotonic()
    last_sent = time.monotonic()
    try:
        yield b"retry: 2000\n" + _message("seq", seq)
        while True:
            timeout = HEARTBEAT if listen else CACHE_CHECK
            new = None
            if queue is not None:
                with contextlib.suppress(TimeoutError):
                    new = await asyncio.wait_for(queue.get(), timeout=timeout)
            else:
                await asyncio.sleep(timeout)
            now = time.monotonic()
            if new == RESYNC or (new is None and (not listen or now - last_check >= HEARTBEAT)):
                new, last_check = await _cached_seq_async(battle_id), now
            if new is not None and new != seq:
                seq = new
                yield _message("changed", seq)
                last_sent = now
            elif now - last_sent >= HEARTBEAT:
                yield _message("ping", seq)
                last_sent = now
    finally:
        if center is not None and queue is not None:
            center.unsubscribe(battle_id, queue)


async def _cached_seq_async(battle_id: int) -> int | None:
    return await cache.aget(seq_key(battle_id))


def sync_stream(
    battle_id: int, seq: int, *, lifetime: float = SYNC_STREAM_LIFETIME
) -> Iterator[bytes]:
    """The SSE messages of one viewer under WSGI: the cache read every `CACHE_CHECK` seconds,
    for `lifetime` seconds (then the browser reconnects)."""
    yield b"retry: 2000\n" + _message("seq", seq)
    started = last_sent = time.monotonic()
    while time.monotonic() - started < lifetime:
        time.sleep(CACHE_CHECK)
        new = cached_seq(battle_id)
        if new is not None and new != seq:
            seq = new
            yield _message("changed", seq)
            last_sent = time.monotonic()
        elif time.monotonic() - last_sent >= HEARTBEAT:
            yield _message("ping", seq)
            last_sent = time.monotonic()
