"""The live board: a change made on any app process reaches every viewer on every process.

Every save of a battle row announces its `seq` (`announce`, connected to `post_save` in
`battles.apps`):

* on PostgreSQL, `pg_notify('battle_changed', '<id>:<seq>')` in the saving transaction, so the
  notification is delivered when (and only if) the change commits; a board action `held` it
  until its own answer is rendered (then sent if the change committed);
* after the commit, the battle's seq goes to the shared cache (`cached_seq`), where the live
  poll and the streams of a database without LISTEN (SQLite under `make run`) read it.

`stream(battle_id, seq, push)` is what the board's Server-Sent Events view sends: a `seq` event
at once, then after every change a `board` event carrying the viewer's new board fragment
(`BoardPush`: from the shared cache, rendered once per viewpoint, so the viewers of a change do
not all come back for it and take the database's pooled connections), or a `changed` event with
the new seq when it cannot be pushed (the browser then fetches its board), and a `ping` every
`HEARTBEAT` seconds (proxies keep the connection open; the browser knows the stream is alive).
Under ASGI one `Hub` per process LISTENs on one database connection and hands each
notification to the streams of that battle; a waiting stream holds no connection. A stream
also checks the cache now and then, so a notification lost while the hub reconnects is not a
change lost. Under WSGI (`make run`'s runserver, Django's test
server) a stream is a plain generator that reads the cache (`sync_stream`), so the board's live
updates work there too, one thread per viewer.
"""

import asyncio
import contextlib
import logging
import re
import threading
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextvars import ContextVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.middleware.csrf import get_token
from django.utils import translation
from django.utils.translation import get_language

from kingdoms.models import Membership

from . import rendering
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
#: How long the streams of one process share what one of them read for a change (`Hub.once`).
FLIGHT_KEEP = 10.0


def seq_key(battle_id: int) -> str:
    return f"battle-seq:{battle_id}"


def cached_seq(battle_id: int) -> int | None:
    """The battle's seq as the last committed change left it, or None if not cached."""
    return cache.get(seq_key(battle_id))


def remember_seq(battle_id: int, seq: int) -> None:
    cache.set(seq_key(battle_id), seq, timeout=SEQ_TIMEOUT)


def viewer_key(battle_id: int, user_id: int | str) -> str:
    return f"battle-viewer:{battle_id}:{user_id}"


def poll_state(battle_id: int, user_id: int | str) -> tuple[int | None, tuple | None]:
    """(the battle's cached seq, the (campaign, session auth hash) through which the user was
    last let see the board) in one cache round trip: a live poll of an unchanged board needs
    nothing else."""
    seq, viewer = seq_key(battle_id), viewer_key(battle_id, user_id)
    found = cache.get_many([seq, viewer])
    return found.get(seq), found.get(viewer)


def remember_viewer(request, battle_id: int, campaign_id: int) -> None:
    """The request's user passed the board's access check (a member of the battle's campaign,
    their session valid): their next polls are answered from the cache (`unchanged_poll`)
    until their membership or their account changes (`forget_viewer`, `forget_user`)."""
    value = (campaign_id, request.session.get(HASH_SESSION_KEY, ""))
    cache.set(viewer_key(battle_id, request.user.pk), value, timeout=SEQ_TIMEOUT)


def unchanged_poll(request, campaign_id: int, battle_id: int, since: int) -> bool:
    """Is this live poll (`?since=<seq>`) of an unchanged board, by a member who passed its
    access check (`remember_viewer`)? Read from the session (the shared cache's, with
    `cached_db`) and one cache round trip, the user row not loaded: the session names the
    user, its auth hash the one their check was made with (a session of before a password
    change is not let through: the change forgets the user's checks). False: ask the
    database (a logged-out request is redirected, a non-member gets 404 there)."""
    session = request.session
    user_id = session.get(SESSION_KEY)
    if user_id is None or session.get(BACKEND_SESSION_KEY) not in settings.AUTHENTICATION_BACKENDS:
        return False
    seq, viewer = poll_state(battle_id, user_id)
    return seq == since and viewer == (campaign_id, session.get(HASH_SESSION_KEY, ""))


def forget_viewer(sender, instance, **kwargs) -> None:
    """`post_save` / `post_delete` of a Membership: the member's boards check access again."""
    battles = Battle.objects.filter(campaign_id=instance.campaign_id).values_list("pk", flat=True)
    cache.delete_many([viewer_key(pk, instance.user_id) for pk in battles])


def forget_user(sender, instance, update_fields=None, **kwargs) -> None:
    """`post_save` of a user (a new password, deactivated; not the log-in's `last_login`):
    their boards check access again (their other sessions are then refused by the
    database's check, as Django refuses them)."""
    if update_fields is not None and set(update_fields) <= {"last_login"}:
        return
    battles = Battle.objects.filter(campaign__memberships__user=instance)
    cache.delete_many([viewer_key(pk, instance.pk) for pk in battles.values_list("pk", flat=True)])


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
            later = _seq_later.get()
            if later is None:
                remember_seq(battle_id, seq)
            else:
                later[seq_key(battle_id)] = seq
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


_seq_later: ContextVar[dict | None] = ContextVar("live_seq_later", default=None)


@contextlib.contextmanager
def seq_with_answer():
    """Within a `held` block (a board action): the seq a committed change leaves in the
    cache is written with one of the answer's cache round trips (`pending_seqs`, which the
    answer takes: with its reads right after the write, `rendering.board_html_after`; or,
    for an answer drawn while the write was on its way, `rendering.Answer`, with the new
    board kept once the write is known done), a round trip saved; what no answer took is
    written when the block ends."""
    token = _seq_later.set({})
    try:
        yield
    finally:
        left = _seq_later.get()
        _seq_later.reset(token)
        if left:
            cache.set_many(left, timeout=SEQ_TIMEOUT)


@contextlib.contextmanager
def board_action():
    """A board action's answer (`battles.views`): its change pushed once the answer is
    drawn (`held`), its new seq cached with the answer's first reads (`seq_with_answer`,
    inside: what no answer took is cached before the change is pushed)."""
    with held(), seq_with_answer():
        yield


def pending_seqs() -> list[tuple[str, int, int, bool]]:
    """The seqs committed in `seq_with_answer` not written yet, as `warfare.cache.exchange`
    writes them; the caller writes them (they are no more pending)."""
    later = _seq_later.get()
    if not later:
        return []
    writes = [(key, seq, SEQ_TIMEOUT, False) for key, seq in later.items()]
    later.clear()
    return writes


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
        self.flights: dict[tuple, tuple[float, asyncio.Future]] = {}

    def once(self, key: tuple, make: Callable[[], Awaitable]) -> Awaitable:
        """Single flight in this process: the streams woken by one change that need the same
        thing (the battle row, a viewpoint's board) share one `make()`, and its result for
        `FLIGHT_KEEP` seconds."""
        now = time.monotonic()
        for old in [k for k, (at, _f) in self.flights.items() if now - at > FLIGHT_KEEP]:
            del self.flights[old]
        if key not in self.flights:
            self.flights[key] = (now, asyncio.ensure_future(make()))
        return asyncio.shield(self.flights[key][1])  # (a stream that ends cancels only itself)

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


class Gone(Exception):
    """The viewer may not see the board any more (their membership or the battle is gone)."""


async def stream(
    battle_id: int, seq: int, push: Callable[[int], Awaitable[str]] | None = None
) -> AsyncIterator[bytes]:
    """The SSE messages of one viewer under ASGI, from `seq` (the board they have) on.

    `push(seq)`: the viewer's new board fragment after the change to `seq` (`BoardPush`);
    with it a change goes out as a `board` event carrying it (the browser swaps it in without
    a request of its own), as `changed` when it fails; `Gone` ends the stream."""
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
                html = await _pushed(push, seq) if push is not None else None
                yield _board_message(html) if html else _message("changed", seq)
                last_sent = now
            elif now - last_sent >= HEARTBEAT:
                yield _message("ping", seq)
                last_sent = now
    except Gone:
        return
    finally:
        if center is not None and queue is not None:
            center.unsubscribe(battle_id, queue)


def _board_message(html: str) -> bytes:
    """A `board` event: the viewer's new board fragment, one `data:` line per line."""
    lines = re.split(r"\r\n|\r|\n", html)
    return ("event: board\n" + "".join(f"data: {line}\n" for line in lines) + "\n").encode()


async def _pushed(push: Callable[[int], Awaitable[str]], seq: int) -> str | None:
    try:
        return await push(seq)
    except Gone:
        raise
    except Exception:  # the database or the cache went away: the browser fetches its board
        logger.warning("live: the board could not be pushed", exc_info=True)
        return None


class BoardPush:
    """What one viewer's stream pushes after a change (`stream`'s `push`): their new board
    fragment as their own fetch of it would get it (the board without a selection: a board
    showing one fetches its own, `static/js/live.js`), with their CSRF token.

    Nothing of it holds a database connection while the stream waits, and a change costs
    each app process one read of the battle row and its campaign's memberships (shared by
    the process's streams of that battle, `Hub.once`: access is checked again, a member who
    left gets `Gone`), each viewpoint's board from the shared cache, or rendered once
    (`battles.rendering`: one render per viewpoint on all processes)."""

    def __init__(self, request, membership, battle_id: int) -> None:
        self.request = request
        self.user_id, self.campaign_id = membership.user_id, membership.campaign_id
        self.battle_id = battle_id
        self.language = get_language()
        get_token(request)  # the CSRF cookie goes out now, with the stream's headers

    async def __call__(self, seq: int) -> str:
        center = hub()
        rows = center.once(
            ("rows", self.battle_id, seq),
            lambda: sync_to_async(_board_rows, thread_sensitive=False)(
                self.campaign_id, self.battle_id
            ),
        )
        battle, members = await rows
        membership = members.get(self.user_id)
        if battle is None or membership is None:
            raise Gone
        key = await center.once(
            ("key", self.battle_id, seq, self.user_id, self.language),
            lambda: sync_to_async(self._key, thread_sensitive=False)(membership, battle),
        )
        cache_key = rendering.board_key(battle, key)
        html = await center.once(
            ("board", cache_key), lambda: self._board(membership, battle, key, cache_key)
        )
        return rendering.personalize(self.request, html)

    def _key(self, membership, battle: Battle) -> str:
        with translation.override(self.language):
            return rendering.render_key(self.request, membership, battle)

    async def _board(self, membership, battle: Battle, key: str, cache_key: str) -> str:
        html = await cache.aget(cache_key)
        if html is None:
            html = await sync_to_async(self._render, thread_sensitive=False)(
                membership, battle, key
            )
        return html

    def _render(self, membership, battle: Battle, key: str) -> str:
        try:
            with translation.override(self.language):
                return rendering.board_html(self.request, membership, battle, key)
        finally:
            connection.close()  # (a thread of the executor: its connection goes back now)


def _board_rows(campaign_id: int, battle_id: int) -> tuple[Battle | None, dict]:
    """(the battle, {user id: membership} of its campaign), the connection given back."""
    try:
        battle = (
            Battle.objects.select_related("campaign")
            .filter(campaign_id=campaign_id, pk=battle_id)
            .first()
        )
        memberships = Membership.objects.select_related("campaign", "faction")
        members = {m.user_id: m for m in memberships.filter(campaign_id=campaign_id)}
    finally:
        connection.close()
    return battle, members


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
