"""Who sees what of a battle: one viewpoint filter per rule system, which everything a
member can read of a battle goes through (board page and partial, live poll, JSON state, log,
report and Markdown, the 409 body).

A *viewpoint* (`Viewpoint`) is whose eyes: the GM, a side (in Pathfinder: the faction whose
armies it sees in full, and the sides it fights on), or a bystander. A member is mapped to
one by the rule system (`viewpoint_of`); what a viewpoint sees depends on the viewpoint
alone, never on the user, so a render can be shared by every member of one viewpoint. What
a member may *do* (the buttons, the legal actions) is added on top by the board and the API.

`battle_view(battle, viewpoint)` is the battle as that viewpoint may see it: a `BattleView`
with the names (a side of a faction hidden from players, `known_to_players=False`, reads
"Unknown force" to anyone not fighting on it), one event filter (`event`), the outcome and the
state as the JSON API shows it. Each rule system's board plugin brings its own view
(`BoardPlugin.view`, `BoardPlugin.viewpoint`).
"""

import itertools
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cached_property
from typing import Any, NamedTuple

from django.utils.translation import get_language, gettext_lazy

from kingdoms.models import Controller, Faction, Membership

from .models import Battle, BattleEvent
from .plugins import plugin_for

UNKNOWN_FORCE = gettext_lazy("Unknown force")
#: The log lines a board shows at once (the older ones are paged in on demand).
LOG_LIMIT = 50
#: The log sentences already worded, {(battle, viewpoint, language, names, event): sentence}
#: (`BattleView.page_lines`), in this process; emptied when it grows past `LINES_KEPT`.
_LINES: dict[tuple, str] = {}
LINES_KEPT = 50_000
#: A short name of each (battle, viewpoint, language, names…) whose sentences `_LINES`
#: keeps, {what it names: its number}: one look-up of that long key per page, not per line.
_LINE_PREFIXES: dict[tuple, int] = {}
_LINE_NUMBERS = itertools.count()


class LogRow(NamedTuple):
    """What a log line is made of: one live event's id, round, code and params (as stored)."""

    pk: int
    round: int
    code: str
    params: dict


def page_key(limit: int) -> tuple:
    """What a board render reads of the live events: the newest log page (`limit` + 1)."""
    return ("page", limit)


def codes_key(codes: Iterable[str]) -> tuple:
    """What a board render reads of the live events: every one of `codes` (`live_rows`)."""
    return ("codes", tuple(sorted(codes)))


class RenderRows:
    """The live events one board render of battle `battle_id` reads, newest first as
    `LogRow`s, by what it reads (`rows`: {`page_key(limit)`: the newest log page, `limit` + 1
    of them; `codes_key(codes)`: every one of some codes, a board's own summary}): given when
    the render knows them already (`battles.rendering` keeps them in the shared cache with
    the board they were read for; after an action, the rows it wrote are put on top), else
    read once and left here for the render to keep."""

    def __init__(self, battle_id: int, rows: dict | None = None, factions=None):
        self.battle_id, self.rows = battle_id, dict(rows or {})
        #: The campaign's factions (`campaign_factions`) when known, and whether this render
        #: read them (for the render to keep).
        self.factions, self.factions_read = factions, False


_RENDER_ROWS: ContextVar[RenderRows | None] = ContextVar("board_render_rows", default=None)


@contextmanager
def render_rows(battle_id: int, rows: dict | None = None, factions=None) -> Iterator[RenderRows]:
    """While a board of battle `battle_id` is drawn: the live events it reads are `rows`
    where given (see `RenderRows`), its campaign's factions `factions` where given, else
    read once and kept in the object answered."""
    known = RenderRows(battle_id, rows, factions)
    token = _RENDER_ROWS.set(known)
    try:
        yield known
    finally:
        _RENDER_ROWS.reset(token)


def _rendered_rows(battle: Battle, key: tuple, read) -> list:
    known = _RENDER_ROWS.get()
    if known is None or known.battle_id != battle.pk:
        return read()
    rows = known.rows.get(key)
    if rows is None:
        rows = known.rows[key] = read()
    return rows


def _rows(events) -> list["LogRow"]:
    return [LogRow._make(row) for row in events.values_list("pk", "round", "code", "params")]


def live_rows(battle: Battle, codes: Iterable[str]) -> list["LogRow"]:
    """The live events of `codes`, oldest first, as `LogRow`s (what a line is made of); read
    once per board version (`RenderRows`)."""
    codes = set(codes)
    newest = _rendered_rows(
        battle,
        codes_key(codes),
        lambda: _rows(live_events(battle).filter(code__in=codes).order_by("-pk")),
    )
    return newest[::-1]


@dataclass(frozen=True)
class Viewpoint:
    """Whose eyes a battle is seen through. `sides`: the sides whose own numbers it sees;
    `faction`: in Pathfinder, the faction whose armies it sees in full (other systems see a
    whole side). Neither: a bystander."""

    gm: bool = False
    sides: frozenset[str] = frozenset()
    faction: int | None = None

    @property
    def key(self) -> str:
        """A short stable name ("gm", "bystander", "3:a"), e.g. for a cache key."""
        if self.gm:
            return "gm"
        if not self.sides and self.faction is None:
            return "bystander"
        return f"{self.faction or ''}:{''.join(sorted(self.sides))}"


GM = Viewpoint(gm=True)
BYSTANDER = Viewpoint()


def viewpoint_of(membership: Membership, battle: Battle) -> Viewpoint:
    """Whose eyes `membership` sees `battle` through, by the battle's rule system."""
    if membership.is_gm:
        return GM
    return plugin_for(battle.system).viewpoint(membership, battle)


def battle_view(battle: Battle, viewpoint: Viewpoint) -> "BattleView":
    """The battle as `viewpoint` may see it, drawn by its rule system's view."""
    return plugin_for(battle.system).view(battle, viewpoint)


def member_view(membership: Membership, battle: Battle) -> "BattleView":
    """The battle as `membership` sees it."""
    return battle_view(battle, viewpoint_of(membership, battle))


def live_events(battle: Battle):
    """The events of the live commands (and the start), oldest first, bookkeeping left out."""
    return (
        BattleEvent.objects.filter(battle=battle)
        .exclude(command__undone_at__isnull=False)
        .exclude(code__in=plugin_for(battle.system).silent_events)
        .order_by("pk")
    )


@dataclass(frozen=True)
class CampaignFactions:
    """What the views need to know of the campaign's factions (one query)."""

    hidden: dict[int, str]  # {id: name} of the factions hidden from players
    players: frozenset[int]  # the players' factions


def campaign_factions(campaign_id: int) -> CampaignFactions:
    hidden, players = {}, set()
    rows = Faction.objects.filter(campaign_id=campaign_id).values_list(
        "pk", "name", "known_to_players", "controlled_by"
    )
    for pk, name, known, controlled_by in rows:
        if not known:
            hidden[pk] = name
        if controlled_by == Controller.PLAYERS:
            players.add(pk)
    return CampaignFactions(hidden=hidden, players=frozenset(players))


class BattleView:
    """A battle as one viewpoint may see it. A rule system's view fills in `_names`,
    `side_factions`, `sees`, `event`, `outcome` and `state`; the board, the JSON API, the log
    and the report are built from it."""

    #: May `page_lines` keep the sentences it worded? Only for a view whose `event` sentence
    #: depends on nothing but the event, the viewpoint, the language, the battle's setup (never
    #: changed once it is set up) and the names (`names`, `hidden_names`), which the kept
    #: sentence's key holds.
    lines_kept = False

    def __init__(self, battle: Battle, viewpoint: Viewpoint):
        self.battle = battle
        self.viewpoint = viewpoint

    @property
    def gm(self) -> bool:
        return self.viewpoint.gm

    @cached_property
    def factions(self) -> CampaignFactions:
        known = _RENDER_ROWS.get()
        if known is None or known.battle_id != self.battle.pk:
            return campaign_factions(self.battle.campaign_id)
        if known.factions is None:  # read once for the render, which may keep them
            known.factions, known.factions_read = campaign_factions(self.battle.campaign_id), True
        return known.factions

    # --- names -------------------------------------------------------------------------------

    def side_factions(self) -> dict[str, Iterable[int | None]]:
        """{side key: the factions fighting on it}."""
        raise NotImplementedError

    @cached_property
    def unknown_sides(self) -> frozenset[str]:
        """The sides whose factions the viewpoint may not name: a faction hidden from players
        fights on them, and the viewpoint does not."""
        if self.gm:
            return frozenset()
        hidden = self.factions.hidden
        return frozenset(
            side
            for side, factions in self.side_factions().items()
            if side not in self.viewpoint.sides and any(f in hidden for f in factions)
        )

    def side_label(self, side: str, name: str) -> str:
        """A side's name as the viewpoint may read it ("Unknown force" for a hidden one)."""
        return str(UNKNOWN_FORCE) if side in self.unknown_sides else name

    def hidden_names(self) -> set[str]:
        """The names of the hidden factions on the unknown sides (never shown to it)."""
        sides = self.side_factions()
        return {
            self.factions.hidden[f]
            for side in self.unknown_sides
            for f in sides[side]
            if f in self.factions.hidden
        }

    @cached_property
    def names(self) -> dict[str, str]:
        """{key: name} of the board's actors, units and sides, as the viewpoint reads them."""
        return self._names()

    def _names(self) -> dict[str, str]:
        raise NotImplementedError

    @cached_property
    def side_names(self) -> dict[str, str]:
        """{side key: its name as the viewpoint reads it} (setups with a list of sides)."""
        return {
            side["key"]: self.side_label(side["key"], side.get("name") or side["key"])
            for side in self.battle.setup["sides"]
        }

    def sees(self, key) -> bool:
        """Does the viewpoint see the numbers of `key` (an army, unit, stand…) in full?"""
        raise NotImplementedError

    # --- events ------------------------------------------------------------------------------

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        """(params, sentence) of one event as the viewpoint may read it."""
        raise NotImplementedError

    def lines(self, events) -> list[tuple[BattleEvent, dict, str]]:
        """(event, params, sentence) of `events` as the viewpoint may read them (those with
        a sentence)."""
        result = []
        for event in events:
            params, text = self.event(event.code, event.params)
            if text:
                result.append((event, params, text))
        return result

    def log_page(
        self, before: int | None = None, limit: int | None = None
    ) -> tuple[list[tuple[int, str]], int | None]:
        """(round, sentence) of the live events before the event `before` (None: from the
        newest), newest first, at most `limit` events of them (default `LOG_LIMIT`); and the
        cursor of the older ones (the `before` of the next page; None: none are left). A board
        shows one page however long the battle: its render costs the same at 1,000 commands
        as at 10."""
        limit = limit or LOG_LIMIT

        # What a line is made of (`LogRow`: the code and params, the round, the cursor).
        def read():
            events = live_events(self.battle).order_by("-pk")
            if before is not None:
                events = events.filter(pk__lt=before)
            return _rows(events[: limit + 1])

        if before is None and limit == LOG_LIMIT:  # the board's page: once per board version
            rows = _rendered_rows(self.battle, page_key(limit), read)
        else:
            rows = read()
        older = rows[limit - 1].pk if len(rows) > limit else None
        return self.page_lines(rows[:limit]), older

    def lines_key(self) -> tuple:
        """What else a view's sentences depend on, for the key of `page_lines`."""
        return ()

    def page_lines(self, events) -> list[tuple[int, str]]:
        """(round, sentence) of `events` (those with a sentence)."""
        if not self.lines_kept:
            return [(event.round, text) for event, _params, text in self.lines(events)]
        prefix = self.lines_prefix()
        return [(event.round, text) for event in events if (text := self.sentence(event, prefix))]

    @cached_property
    def _lines_base(self) -> tuple:
        # (the seed too: a test database's flush starts the ids again, never the seeds)
        return (self.battle.pk, self.battle.seed, self.viewpoint,
                tuple(sorted(self.names.items())), tuple(sorted(self.hidden_names())),
                self.lines_key())  # fmt: skip

    def lines_prefix(self) -> int:
        """The short name of this view's kept sentences in the page language (`_LINES`)."""
        base = (self._lines_base, get_language())
        number = _LINE_PREFIXES.get(base)
        if number is None:
            if len(_LINE_PREFIXES) > LINES_KEPT:
                _LINE_PREFIXES.clear()  # (numbers are never given twice: kept lines stay true)
            number = _LINE_PREFIXES[base] = next(_LINE_NUMBERS)
        return number

    def sentence(self, event, prefix: int | None = None) -> str:
        """The sentence of one event as the viewpoint reads it ("": none). Worded once per
        viewpoint, language and names in this process when the view allows it
        (`lines_kept`): an event never changes, and a board shows the same lines again after
        each action. `prefix`: `lines_prefix()`, where the caller has it."""
        if not self.lines_kept or event.pk is None:  # (a row being written has no id yet)
            return self.event(event.code, event.params)[1] or ""
        key = (self.lines_prefix() if prefix is None else prefix, event.pk)
        text = _LINES.get(key)
        if text is None:
            if len(_LINES) > LINES_KEPT:
                _LINES.clear()
            text = _LINES[key] = self.event(event.code, event.params)[1] or ""
        return text

    def log_context(self) -> dict[str, Any]:
        """The board's log: its newest page (`log`) and the cursor of the older entries
        (`log_older`), as `templates/battles/_log.html` shows them."""
        lines, older = self.log_page()
        return {"log": lines, "log_older": older}

    def log(self, limit: int | None = None) -> list[tuple[int, str]]:
        """(round, sentence) of the live events, newest first."""
        events = live_events(self.battle).order_by("-pk")
        if limit:
            events = events[:limit]
        return [(event.round, text) for event, _params, text in self.lines(events)]

    # --- state -------------------------------------------------------------------------------

    def outcome(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def state(self) -> dict[str, Any]:
        """The board's state as the JSON API shows it to the viewpoint."""
        raise NotImplementedError
