"""One render per change: the board's HTML drawn once per (battle, version, viewpoint,
language) and kept in the shared cache (`django.core.cache`, Redis when `REDIS_URL` is set),
so every viewer of one viewpoint is served the same bytes.

What a board fragment depends on, and so what its cache key holds (`board_key`):

* the battle's version: its `seq`, and `updated_at` (an undo and a new command give the same
  `seq` a different board), its status and whether players may act;
* the viewer's *render key* (`viewer_key`): the viewpoint (`battles.visibility`: the GM, a
  side, a bystander — what it may see) and what the member may do (the actors they command:
  their buttons), never the user as such; two members of one side with the same commands
  share an entry, two members of different sides never do;
* the page language, the selected piece (`?sel=`, D&D 5e), and the campaign's *board
  generation* (`bump_generation`: a faction hidden from players or shown changes the names a
  board may read, without a new command).

What differs per request is kept out of the cached HTML: the CSRF token (rendered as a
placeholder, put in per request) and the messages (sent beside the board, `messages_oob`).

An action answers only what it changed (`changed_fragments`): the board is made of
`{% fragment %}` regions (`battles/templatetags/board_fragments.py`); the new board (rendered
once, cached for the other viewers) is compared with the cached board the action was sent
from, and the regions that differ go back as htmx out-of-band swaps — the acting army's card,
the actions, the head — with the log's new lines put on top of the log. When that board is no
longer cached, or the change lies outside every region, the answer is the whole board.

A change brings every viewer at once (pushed by `battles.live`): the viewers of one viewpoint
that miss the cache together render it once (`_render_once`: a short lock in the shared cache,
the others waiting for its entry, on any app process).

With `settings.BOARD_RENDER_COUNT` (the tests, `bench/live.py`), every real render increments
the cache key `board-renders` (`RENDERS_KEY`), so a benchmark can check that renders per action
equal the distinct viewpoints, not the viewers.
"""

import contextlib
import hashlib
import json
import logging
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import connection, transaction
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import get_language

from warfare.cache import exchange
from warfare.csrf import masked_token
from warfare.links import reversed_url

from . import forecasting
from .models import Battle, BattleEvent
from .plugins import plugin_for
from .services import actor_factions, may_command
from .visibility import LogRow, RenderRows, render_rows, viewpoint_of

logger = logging.getLogger(__name__)

#: The cache key counting real (not cached) board renders.
RENDERS_KEY = "board-renders"
#: How long a rendered board stays cached (the key names its version: an old one only ages).
TIMEOUT = 60 * 60
#: A render's lock (seconds; a render takes well under one) and how long, and how often, the
#: other viewers of its viewpoint look for its entry before rendering themselves.
LOCK_TIMEOUT = 10
RENDER_WAIT = 5.0
RENDER_POLL = 0.02
#: Put where the CSRF token goes in a cached board; each response gets its own token.
CSRF_PLACEHOLDER = "board-csrf-token-placeholder"


def generation_key(campaign_id: int) -> str:
    return f"board-gen:{campaign_id}"


def bump_generation(campaign_id: int) -> None:
    """Every cached board of the campaign is out of date (a faction's visibility changed)."""
    key = generation_key(campaign_id)
    try:
        cache.incr(key)
    except ValueError:
        cache.set(key, 1, timeout=None)


def faction_changed(sender, instance, **kwargs) -> None:
    """`post_save` / `post_delete` of a Faction: its name or visibility may show on boards.
    Bumped at once and again once the change commits: a board drawn in between read the
    factions as they were and kept them (`factions_key`) under the first bump."""
    if instance.campaign_id is not None:
        bump_generation(instance.campaign_id)
        transaction.on_commit(lambda: bump_generation(instance.campaign_id))


def factions_key(battle: Battle, generation) -> str | None:
    """The campaign's factions as the boards read them (`visibility.campaign_factions`) at
    board generation `generation` (the campaign's creation named too: a database made
    again with the cache kept has other campaigns under the same ids); None when the
    battle's campaign is not at hand (it would be a query)."""
    if not Battle.campaign.is_cached(battle):
        return None
    created = int(battle.campaign.created_at.timestamp() * 1_000_000)
    return f"board-factions:{battle.campaign_id}:{created}:{generation or 0}"


def count_render() -> None:
    """One more real board render (`RENDERS_KEY`, created if missing), when counted."""
    if not settings.BOARD_RENDER_COUNT:
        return
    shared = caches["default"]
    if isinstance(shared, RedisCache):  # INCR makes the key: one round trip, not two
        shared._cache.get_client(write=True).incr(shared.make_and_validate_key(RENDERS_KEY))
        return
    try:
        cache.incr(RENDERS_KEY)
    except ValueError:
        if not cache.add(RENDERS_KEY, 1, timeout=None):
            cache.incr(RENDERS_KEY)


def commanded(membership, battle: Battle) -> tuple[str, ...]:
    """The actors `membership` may command on `battle` ("*": the GM, all of them)."""
    if membership.is_gm:
        return ("*",)
    if not battle.players_may_act:
        return ()
    return tuple(sorted(a for a in actor_factions(battle) if may_command(membership, battle, a)))


def viewer_key(membership, battle: Battle) -> str:
    """What the board shown to `membership` depends on besides the battle: its viewpoint
    (what it may see) and the actors it commands (its buttons). Never the user as such."""
    viewpoint = viewpoint_of(membership, battle)
    role = "gm" if membership.is_gm else "player"
    return f"{role}|{viewpoint.key}|{','.join(commanded(membership, battle))}"


def selection(request) -> str:
    """The piece selected on the board (`?sel=`, D&D 5e), part of the render key: without
    `?sel=` the board chooses (the next piece to move, `dnd_selection`), which is not the
    same board as `?sel=` (empty: nothing selected)."""
    sel = request.GET.get("sel")
    return "*" if sel is None else sel


def shown_selection(request) -> str:
    """The selection of the board on the member's screen, which an action was sent from:
    `static/js/live.js` sends it (`X-Board-Sel`, from the board's `data-sel`), as a form
    may post without one (the GM's commands)."""
    return request.headers.get("X-Board-Sel", selection(request))


def _shareable(request, html: str) -> bool:
    """May this render be kept for others? Not with a selection no link of the board makes
    (`data-piece`: a piece that is not one, any text): it would fill the cache, or show others
    a text of the requester's."""
    sel = request.GET.get("sel", "")
    return not sel or f'data-piece="{escape(sel)}"' in html


def version(battle: Battle) -> str:
    """The battle's version as far as its board goes."""
    stamp = int(battle.updated_at.timestamp() * 1_000_000) if battle.updated_at else 0
    acts = "1" if battle.players_may_act else "0"
    return f"{battle.seq}.{stamp}.{battle.status}.{acts}"


#: The board generation last read of each campaign in this process ({campaign id: value}):
#: an action's answer guesses it unchanged (`board_html_after`), and reads it with the rest.
_GENERATIONS: dict[int, int | None] = {}


def key_reads(battle: Battle, *more: str) -> dict:
    """{cache key: value or None} of what a render key reads (the campaign's board
    generation, the odds bar once a forecast has run) and of the keys `more`: one round
    trip."""
    keys = (generation_key(battle.campaign_id), forecasting.marker_key(battle), *more)
    found = cache.get_many(keys)
    _GENERATIONS[battle.campaign_id] = found.get(keys[0])
    return {key: found.get(key) for key in keys}


@dataclass(frozen=True)
class KeyParts:
    """What a render key names but the cache's values (`render_key`): taken from a battle
    before an action changes it, so the key of the board the action was sent from can be
    told after the write, from reads made with the new board's (`board_html_after`)."""

    version: str
    viewer: str  # the viewer key, the selection and the language
    generation: str  # the cache keys of the values it also names
    marker: str

    def key(self, found: dict) -> str:
        """The render key, with `found` the values of `generation` and `marker`."""
        parts = "\n".join((self.viewer, str(found.get(self.generation) or 0),
                           forecasting.marker_of(found.get(self.marker))))  # fmt: skip
        return f"{self.version}.{hashlib.sha256(parts.encode()).hexdigest()[:24]}"


def key_parts(request, membership, battle: Battle, *, sel: str | None = None) -> KeyParts:
    """The parts of `battle`'s render key for `membership` and the selection `sel` (default:
    the request's) that read no cache."""
    sel = selection(request) if sel is None else sel
    viewer = "\n".join((viewer_key(membership, battle), sel, get_language() or ""))
    return KeyParts(version(battle), viewer, generation_key(battle.campaign_id),
                    forecasting.marker_key(battle))  # fmt: skip


def render_key(
    request, membership, battle: Battle, *, sel: str | None = None, reads: dict | None = None
) -> str:
    """A short name of everything the board fragment depends on (see the module docstring);
    `sel`: the selection (default: the request's); `reads`: `key_reads` done already (read
    again if they are not this battle version's)."""
    parts = key_parts(request, membership, battle, sel=sel)
    keys = (parts.generation, parts.marker)
    found = reads if reads is not None and all(key in reads for key in keys) else None
    if found is None:
        found = key_reads(battle)
    forecasting.remember_read(battle, found[keys[1]])
    return parts.key(found)


def board_key(battle: Battle, key: str) -> str:
    return f"board:{battle.pk}:{key}"


def log_key(battle: Battle, version_: str) -> str:
    """The live events the battle's boards read at `version_` (its newest log page…:
    `visibility.RenderRows`), the same for every viewpoint, kept with the boards of that
    version."""
    return f"board-log:{battle.pk}:{version_}"


# --- the log rows an action wrote -------------------------------------------------------------

_WRITTEN: ContextVar[list | None] = ContextVar("board_written_events", default=None)


def event_made(sender, instance, **kwargs) -> None:
    """`post_init` of a BattleEvent: one made to be written (no id yet) while an action
    collects them (`written_events`)."""
    written = _WRITTEN.get()
    if written is not None and instance.pk is None:
        written.append(instance)


@contextmanager
def written_events() -> Iterator[list]:
    """The BattleEvent rows made while the block (or the view it decorates: a board action)
    runs: after its write, the new board's log is the board's log before with these on top,
    not read again (`board_html_after`)."""
    written: list = []
    token = _WRITTEN.set(written)
    try:
        yield written
    finally:
        _WRITTEN.reset(token)


def _stored(value):
    """A JSON value as the database gives it back: PostgreSQL's `jsonb` orders an object's
    keys (shorter first, then by their bytes); the other databases keep them as written."""
    if isinstance(value, dict):
        keys = list(value)
        if connection.vendor == "postgresql":
            keys.sort(key=lambda key: (len(key.encode()), key.encode()))
        return {key: _stored(value[key]) for key in keys}
    if isinstance(value, list):
        return [_stored(item) for item in value]
    return value


def _rows_after(
    battle: Battle, before: dict | None, written: list | None, *, pending: bool = False
) -> dict | None:
    """The live events a board render reads (`visibility.RenderRows`) after an action: the
    rows it wrote (`written`, as `written_events` collected them) on top of those of the
    board it was sent from (`before`); None when they cannot be told for sure (a row not
    written, of another battle or of no command, a command position made twice — a
    transaction run again —, or rows before as new as the ones written: read then).

    `pending`: the rows are still on their way to the database (`Answer`): they have no ids
    yet (`LogRow.pk` None, newest first as they are inserted), and whether the rows before
    are older is told once they have (`_older_than`); None as well when a page would end on
    one of them (its "older entries" cursor is an id)."""
    if not before or not written:
        return None
    commands: dict = {}
    for event in written:
        command = event.command if pending or event.command_id is not None else None
        if (event.pk is None) is not pending or event.battle_id != battle.pk or command is None:
            return None
        if commands.setdefault(command.position, command) is not command:
            return None
    silent = plugin_for(battle.system).silent_events
    newest = written[::-1] if pending else sorted(written, key=lambda e: e.pk, reverse=True)
    new = [_row(event, pending) for event in newest if event.code not in silent]
    if not pending and not _older_than(before, min(event.pk for event in written)):
        return None
    rows = {}
    for (kind, arg), old in before.items():
        if kind == "page":
            if pending and len(new) >= arg:
                return None
            rows[kind, arg] = (new + [LogRow._make(row) for row in old])[: arg + 1]
        elif kind == "codes":
            codes = set(arg)
            rows[kind, arg] = [row for row in new if row.code in codes]
            rows[kind, arg] += [LogRow._make(row) for row in old]
        else:
            return None
    return rows


class _PendingRow(LogRow):
    """A row an action is writing (`Answer`), drawn before its id is given: `event` is its
    `BattleEvent`, which has it once the write is done."""

    event: BattleEvent


def _row(event: BattleEvent, pending: bool) -> LogRow:
    """An event row as a render reads it (its params as the database gives them back)."""
    params = _stored(json.loads(json.dumps(event.params)))
    if not pending:
        return LogRow(event.pk, event.round, event.code, params)
    row = _PendingRow(None, event.round, event.code, params)
    row.event = event
    return row


def _older_than(before: dict, first: int) -> bool:
    """Are the rows `before` (those with an id) all older than the event `first`?"""
    return not any(row[0] is not None and row[0] >= first for old in before.values() for row in old)


def board_template(battle: Battle) -> str:
    return plugin_for(battle.system).board_template


def board_context(membership, battle: Battle) -> dict:
    return plugin_for(battle.system).board_context(membership, battle)


def render_board(request, membership, battle: Battle, key: str | None = None) -> str:
    """The board fragment (`#board`) as `membership` sees it: from the cache, or rendered
    once and cached for every viewer of the same render key; the CSRF token put in."""
    return personalize(request, board_html(request, membership, battle, key))


def board_html(request, membership, battle: Battle, key: str | None = None) -> str:
    """The board as cached: the CSRF token a placeholder (`personalize` puts it in)."""
    cache_key = board_key(battle, key or render_key(request, membership, battle))
    html = cache.get(cache_key)
    if html is None:
        html = _render_once(request, membership, battle, cache_key)
    elif not connection.in_atomic_block:
        # Served from the cache, the request needs the database no more: its pooled
        # connection goes back at once, as a change brings every viewer at the same moment.
        connection.close()
    return html


@dataclass
class _After:
    """What an action's answer read in its one round trip after the write (`_reads_after`)."""

    cache_key: str  # the new board's
    html: str | None  # the new board, when it is cached already
    old_html: str | None  # the board the action was sent from, when it is still cached
    owner: bool | None  # whether the new board's render lock was taken
    event_rows: dict | None  # the live events the new board reads, where known
    factions: tuple  # (their cache key or None, their value when kept)


def _reads_after(
    request, membership, battle: Battle, before: KeyParts, *, pending: bool = False
) -> _After:
    """One round trip for an action's answer: the new board's render lock written (and,
    unless `pending`, the battle's new seq for the polls: `live.pending_seqs`), the render
    keys' values read with both boards and the log rows of the board before, the keys
    guessed from the board generation last read in this process (`_GENERATIONS`) and no
    forecast at either version; only were a guess wrong are the right boards read again.
    Within `written_events` (a board action), the new log is drawn from the event rows the
    action wrote and the log before. `pending`: the write is still on its way (`Answer`)."""
    from . import live  # (live draws boards too: `BoardPush`)

    written = _WRITTEN.get()
    after = key_parts(request, membership, battle)
    generation, marker = after.generation, after.marker
    guess = {generation: _GENERATIONS.get(battle.campaign_id), marker: None}
    key, old_key = after.key(guess), before.key(guess)
    old_log = log_key(battle, before.version)
    factions = factions_key(battle, guess[generation])
    boards = [board_key(battle, key), board_key(battle, old_key)]
    more = [key for key in (factions, old_log if written else None) if key]
    lock = boards[0] + ":rendering"
    writes = [*([] if pending else live.pending_seqs()), (lock, 1, LOCK_TIMEOUT, True)]
    done, found = exchange(caches["default"], writes,
                           [generation, before.marker, marker, *boards, *more])  # fmt: skip
    owner = done[-1]
    forecasting.remember_read(battle, found.get(marker))
    read = {generation: found.get(generation), marker: found.get(marker),
            before.marker: found.get(before.marker)}  # fmt: skip
    if read[generation] != guess[generation] or read[marker] or read[before.marker]:
        # A faction's visibility changed, a forecast of either version (an undo went back)
        _GENERATIONS[battle.campaign_id] = read[generation]
        key, old_key = after.key(read), before.key(read)
        if board_key(battle, key) != boards[0]:
            owner = None  # (the lock taken is another board's: left to run out)
        boards = [board_key(battle, key), board_key(battle, old_key)]
        found.update(cache.get_many([board for board in boards if board not in found]))
    cache_key = board_key(battle, key)
    html, event_rows, known = found.get(cache_key), None, (None, None)
    if html is None:
        event_rows = _rows_after(battle, found.get(old_log), written, pending=pending)
        if read[generation] != guess[generation]:  # (a faction changed meanwhile: read them)
            factions = None
        known = (factions, found.get(factions) if factions else None)
    return _After(cache_key, html, found.get(board_key(battle, old_key)), owner, event_rows,
                  known)  # fmt: skip


def board_html_after(request, membership, battle: Battle, before: KeyParts):
    """After an action: (the new board as cached, the board of render key parts `before` —
    the board the action was sent from — None when it is no longer cached), with one cache
    round trip after the write (`_reads_after`) and, unless the new board is cached
    already, its render (kept for its viewpoint's other viewers)."""
    after = _reads_after(request, membership, battle, before)
    html = after.html
    if html is None:
        html = _render_once(request, membership, battle, after.cache_key, new=True,
                            owner=after.owner, event_rows=after.event_rows,
                            factions=after.factions)  # fmt: skip
    return html, after.old_html


class Answer:
    """A board action's answer drawn while its write is on its way to the database
    (`services.battle_act`'s `meanwhile`: the statement waits for PostgreSQL on a helper
    thread, `warfare.meanwhile`), for a member's board sent from the board of render key
    parts `before`. The new board is drawn from the battle as the write will leave it, the
    rows it writes without their ids; nothing is kept in the shared cache, and no poll told
    of the new seq, until the write is known done (`after_write`): a board of a version
    that was never written is left unseen."""

    def __init__(self, request, membership, before: KeyParts):
        self.request, self.membership, self.before = request, membership, before
        self._drawn: tuple | None = None

    def draw(self, battle: Battle) -> None:
        """Draw the new board of `battle` (the version the write will leave; see above).
        A failure is logged and leaves nothing drawn: the answer is then drawn the usual
        way, after the write."""
        self._drawn = after = None
        try:
            after = _reads_after(self.request, self.membership, battle, self.before,
                                 pending=True)  # fmt: skip
            html, read = after.html, None
            if html is None:
                html, read = _draw(self.request, self.membership, battle, after.event_rows,
                                   after.factions)  # fmt: skip
            # (what the answer sends of it, worked out meanwhile too)
            swaps = None if after.old_html is None else changed_fragments(after.old_html, html)
        except Exception:
            logger.exception("battle %s: the answer drawn beside its write failed", battle.pk)
            if after is not None and after.owner:  # (let go: the render after takes it)
                with contextlib.suppress(Exception):
                    cache.delete(after.cache_key + ":rendering")
            return
        self._drawn = (version(battle), after, html, read, _WRITTEN.get(), swaps)

    def after_write(self, battle: Battle) -> tuple[str, str | None] | None:
        """Once the write is done and `battle` is the version written: (the new board, what
        changed since the board before — `changed_fragments`, None when that board is no
        longer cached or the change is not in fragments), the new board kept for its
        viewpoint's other viewers and the polls told of the new seq in one round trip; None
        when nothing was drawn for that version (drawn the usual way then)."""
        from . import live  # (live draws boards too: `BoardPush`)

        if self._drawn is None or self._drawn[0] != version(battle):
            return None
        _version, after, html, read, written, swaps = self._drawn
        self._drawn = None
        kept: dict = {}
        if read is not None:
            ids = [event.pk for event in written or ()]
            if after.event_rows is not None and (
                None in ids or not _older_than(after.event_rows, min(ids))
            ):
                if after.owner:  # (its lock let go: drawn again, from the database's rows)
                    cache.delete(after.cache_key + ":rendering")
                return None
            kept = _kept(self.request, battle, after.cache_key, html, read, after.factions)
        writes = live.pending_seqs() + [(key, value, TIMEOUT, False) for key, value in kept.items()]
        if writes:
            exchange(caches["default"], writes)
        if read is not None:
            count_render()
            if after.owner and after.cache_key not in kept:
                cache.delete(after.cache_key + ":rendering")
        return html, swaps


def _draw(request, membership, battle: Battle, event_rows, factions) -> tuple[str, RenderRows]:
    """The board fragment drawn (the CSRF token a placeholder), and what it read of the live
    events and the factions (`visibility.render_rows`)."""
    with render_rows(battle.pk, event_rows, factions[1]) as read:
        context = board_context(membership, battle)
        context["csrf_token"] = CSRF_PLACEHOLDER
        # The URL every button of the board posts to, reversed once per render.
        context.setdefault("act_url", reversed_url("battles:act", battle.campaign_id, battle.pk))
        html = render_to_string(board_template(battle) + "#board", context, request=request)
    return html, read


def _kept(request, battle: Battle, cache_key: str, html: str, read: RenderRows, factions) -> dict:
    """What a render keeps in the shared cache: the board (unless it shows the requester's
    own text), the live events it read (for the next action from it: `_rows_after`, the rows
    drawn pending with their ids, given since) and the campaign's factions where it read
    them."""
    kept = {cache_key: html} if _shareable(request, html) else {}
    if read.rows:
        kept[log_key(battle, version(battle))] = {
            key: [(row.event.pk, *row[1:]) if row.pk is None else tuple(row) for row in rows]
            for key, rows in read.rows.items()
        }
    if read.factions_read and factions[0] is not None:
        kept[factions[0]] = read.factions
    return kept


def _render_once(
    request, membership, battle: Battle, cache_key: str, *, new=False, event_rows=None,
    factions=(None, None), owner: bool | None = None,
) -> str:  # fmt: skip
    """Single flight: when many viewers of one viewpoint miss the cache at once (a change
    pushed to all of them), one renders under a short lock in the shared cache, on whichever
    app process, and the others wait for its entry (`RENDER_WAIT` at most: a renderer that
    died or a board not kept for others, and they render it themselves).

    `new`: an action's new version, looked up a moment ago (its viewers are pushed the
    change once this render is done): the lock taken at once is not followed by a second
    look — at worst a poll that rendered it in that moment has it rendered twice. `event_rows`:
    the live events the render reads, where known (`visibility.RenderRows`); what it read
    is kept with the board for the next action from it (one round trip for both).
    `factions`: (the key of the campaign's factions at this board generation, or None; their
    value when kept): read when not kept, and kept with the board.

    The lock of a board kept for others is left to run out (`LOCK_TIMEOUT`) rather than
    taken away, a round trip saved: whoever waits on it finds the board's entry; only were
    the entry gone before the lock (evicted within seconds) would a viewer wait for it.
    `owner`: whether the caller took the lock already (`board_html_after`), None: not tried."""
    lock = cache_key + ":rendering"
    if owner is None:
        owner = cache.add(lock, 1, timeout=LOCK_TIMEOUT)
    first = owner
    if not owner:
        if not connection.in_atomic_block:  # no pooled connection held while waiting
            connection.close()
        deadline = time.monotonic() + RENDER_WAIT
        while not (owner := cache.add(lock, 1, timeout=LOCK_TIMEOUT)):
            time.sleep(RENDER_POLL)
            html = cache.get(cache_key)
            if html is not None:
                return html
            if time.monotonic() > deadline:
                break
    shared = False
    try:
        # Rendered while we took the lock?
        html = cache.get(cache_key) if owner and not (new and first) else None
        if html is None:
            html, read = _draw(request, membership, battle, event_rows, factions)
            kept = _kept(request, battle, cache_key, html, read, factions)
            if kept:
                cache.set_many(kept, timeout=TIMEOUT)
            count_render()
            shared = cache_key in kept
        return html
    finally:
        if owner and not shared:
            cache.delete(lock)


def personalize(request, html: str) -> str:
    """Cached board HTML with the request's own CSRF token (masked anew, as Django's
    `get_token` would: `warfare.csrf`)."""
    return html.replace(CSRF_PLACEHOLDER, masked_token(request))


MESSAGES_TEMPLATE = "components/_messages.html"
#: The out-of-band swap of no messages (it reads nothing else), drawn once.
_NO_MESSAGES: list[str] = []


def messages_oob(request) -> str:
    """This request's messages as an htmx out-of-band swap (never cached: they are the
    user's). Most answers have none (a board action's success says nothing): then the
    swap is the same empty one, drawn once, without a request context's processors."""
    if not get_messages(request):  # (as the template's `{% if messages %}` reads them)
        if not _NO_MESSAGES:
            _NO_MESSAGES.append(render_to_string(MESSAGES_TEMPLATE, {"oob": True, "messages": ()}))
        return _NO_MESSAGES[0]
    return render_to_string(MESSAGES_TEMPLATE, {"oob": True}, request=request)


# --- the fragments an action changed -----------------------------------------------------------

#: A fragment's start (`{% fragment %}`); its end is `_END` (both found by their literal
#: first characters, which the regular expression engine looks for at C speed).
_START = re.compile(r'<div class="fragment" id="(f-[\w-]+)"( data-always)?>')
_END = "<!--/f--></div>"
#: The board's version where it is written: forms' seq inputs, the board's seq and poll URL.
_SEQ = re.compile(r'(name="seq" value="|data-seq="|since=)\d+')
_LOG_ITEM = re.compile(r"<li>.*?</li>", re.S)  # a line (the empty log's and the link have a class)
_ANY_ITEM = re.compile(r"<li[ >].*?</li>", re.S)
LOG_FRAGMENT = "f-log"
LOG_LINES = "board-log-lines"


@dataclass
class _Fragment:
    id: str
    start: int  # where its wrapper opens
    body: int  # where its content begins
    close: int = -1  # where its content ends
    end: int = -1  # after its wrapper
    always: bool = False  # sent with every answer (`{% fragment … always %}`)
    children: list["_Fragment"] = field(default_factory=list)
    skeleton: str | None = None  # (`_skeleton`, worked out once: a tree is kept, `_PARSED`)


#: The fragment trees of the boards parsed last, {HTML: tree}: an action's new board is the
#: board the next action is sent from, parsed once for both.
_PARSED: dict[str, "_Fragment | None"] = {}
PARSED_KEPT = 32
_UNPARSED = object()
_PARSED_LOCK = threading.Lock()


def _parse(html: str) -> _Fragment | None:
    """The fragment tree of a board (the root: the whole board); None if it is not well
    formed (unbalanced, or one id twice). Kept for the last boards parsed (`_PARSED`)."""
    tree = _PARSED.get(html, _UNPARSED)
    if tree is _UNPARSED:
        tree = _parse_tree(html)
        with _PARSED_LOCK:  # (the request threads of one process share it)
            if len(_PARSED) >= PARSED_KEPT:
                del _PARSED[next(iter(_PARSED))]  # the oldest
            _PARSED[html] = tree
    return tree


def _parse_tree(html: str) -> _Fragment | None:
    root = _Fragment("", 0, 0, len(html), len(html))
    stack, seen = [root], set()
    tokens = [(match.start(), match) for match in _START.finditer(html)]
    at = html.find(_END)
    while at >= 0:
        tokens.append((at, None))
        at = html.find(_END, at + len(_END))
    tokens.sort(key=lambda token: token[0])
    for at, match in tokens:
        if match is not None:
            if match[1] in seen:
                return None
            seen.add(match[1])
            node = _Fragment(match[1], at, match.end(), always=match[2] is not None)
            stack[-1].children.append(node)
            stack.append(node)
        else:
            if len(stack) == 1:
                return None
            node = stack.pop()
            node.close, node.end = at, at + len(_END)
    return root if len(stack) == 1 else None


def _skeleton(html: str, node: _Fragment) -> str:
    """A fragment's own content: its child fragments as placeholders, the version taken out
    (a form's seq is put in by the browser, `static/js/live.js`); worked out once per node."""
    if node.skeleton is not None:
        return node.skeleton
    parts, at = [], node.body
    for child in node.children:
        parts += [html[at : child.start], f"<!--@{child.id}-->"]
        at = child.end
    parts.append(html[at : node.close])
    text = "".join(parts)
    if "seq" in text or "since=" in text:  # (most hold no version: no pattern to run)
        text = _SEQ.sub(r"\g<1>", text)
    node.skeleton = text
    return text


def _changed(old_html: str, old: _Fragment, new_html: str, new: _Fragment, out: list) -> bool:
    """Collect the outermost fragments of `new` that differ from `old`; False if `new`
    differs in its own content (the caller sends it whole)."""
    if _skeleton(old_html, old) != _skeleton(new_html, new):
        return False
    olds = {child.id: child for child in old.children}
    for child in new.children:
        if child.always:
            out.append(child)
            continue
        before = olds[child.id]
        if old_html[before.start : before.end] == new_html[child.start : child.end]:
            continue  # the same bytes: nothing in it changed
        if not _changed(old_html, before, new_html, child, out):
            out.append(child)
    return True


def _oob(html: str, node: _Fragment) -> str:
    start = html[node.start : node.body - 1] + ' hx-swap-oob="true">'
    return start + html[node.body : node.end]


def _log_lines(old_html: str, old: _Fragment, new_html: str, new: _Fragment) -> str | None:
    """Only the new log lines, put on top of the log (an out-of-band `afterbegin`), when the
    new log is the old one with lines added on top; else None (the log is sent whole). The
    page keeps its "older entries" link: it still names the entries before its last line."""
    old_body, new_body = old_html[old.body : old.close], new_html[new.body : new.close]
    old_items, new_items = _LOG_ITEM.findall(old_body), _LOG_ITEM.findall(new_body)
    if not old_items or not new_items or old_items[0] not in new_items:
        return None
    added = new_items.index(old_items[0])
    kept = new_items[added:]
    if not added or kept != old_items[: len(kept)]:
        return None
    if _ANY_ITEM.sub("", old_body) != _ANY_ITEM.sub("", new_body):
        return None
    return f'<div hx-swap-oob="afterbegin:#{LOG_LINES}">{"".join(new_items[:added])}</div>'


def changed_fragments(old_html: str | None, new_html: str) -> str | None:
    """The out-of-band swaps that turn the board `old_html` into `new_html`: the fragments
    that changed (`{% fragment %}`), the log's new lines; None when the board must be sent
    whole (no old board, or what changed lies outside every fragment)."""
    if old_html is None:
        return None
    old, new = _parse(old_html), _parse(new_html)
    if old is None or new is None:
        return None
    changed: list[_Fragment] = []
    if not _changed(old_html, old, new_html, new, changed):
        return None
    olds = {}
    stack = list(old.children)
    while stack:
        node = stack.pop()
        olds[node.id] = node
        stack += node.children
    swaps = []
    for node in changed:
        lines = None
        if node.id == LOG_FRAGMENT and node.id in olds:
            lines = _log_lines(old_html, olds[node.id], new_html, node)
        swaps.append(lines or _oob(new_html, node))
    return "".join(swaps)
