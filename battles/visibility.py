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
(`BoardPlugin.view`, `BoardPlugin.viewpoint`); Pathfinder 2e's is `Pf2eView` below.

Pathfinder (DESIGN.md "Visibility"): the GM and an army's own faction see its numbers;
everyone else sees what happens at the table — who acts, the dice, the degrees, the damage
dealt, conditions — but never an army's HP, shots or potion doses, and (unless the GM reveals
them for the battle, the set-up's "reveal_checks") not the enemy's modifiers and DCs. So, for
a viewer who does not see the army an event is about in full:

* `battle.damaged` and `army.hp_restored` lose `now` (the HP left) and read "X takes 2 damage."
  / "X regains 1 HP." instead of naming the HP left;
* `battle.potion_used` loses `doses_left`;
* `battle.gm_correction` loses `before` / `after` (the HP, shots… the GM set);
* `battle.fortification_damaged` loses `now` unless the viewer fights on the fortification's
  side;
* any `hp`, `max_hp`, `shots`, `potion_doses` param is dropped;
* a check rolled by such an army (`check`, the initiative roll) keeps its die and degree but
  loses its modifier, total and their working, and the DC unless the DC is the viewer's own
  army's or a fixed one (`against` None); the viewer's own rolls keep everything.

The outcome's per-army details (HP as the armies leave) are likewise only the GM's; a player
reads the winner, the rounds, who was destroyed or fled, and the XP of their own side.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.utils.translation import gettext_lazy

from kingdoms.models import Controller, Faction, Membership

from .events import SILENT, event_text
from .models import Battle, BattleEvent
from .plugins import plugin_for

UNKNOWN_FORCE = gettext_lazy("Unknown force")
#: The log lines a board shows at once (the older ones are paged in on demand).
LOG_LIMIT = 50


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
    plugin = plugin_for(battle.system)
    if plugin is not None and plugin.viewpoint is not None:
        return plugin.viewpoint(membership, battle)
    return _pf2e_viewpoint(membership, battle)


def battle_view(battle: Battle, viewpoint: Viewpoint) -> "BattleView":
    """The battle as `viewpoint` may see it, drawn by its rule system's view."""
    plugin = plugin_for(battle.system)
    if plugin is not None and plugin.view is not None:
        return plugin.view(battle, viewpoint)
    return Pf2eView(battle, viewpoint)


def member_view(membership: Membership, battle: Battle) -> "BattleView":
    """The battle as `membership` sees it."""
    return battle_view(battle, viewpoint_of(membership, battle))


def live_events(battle: Battle):
    """The events of the live commands (and the start), oldest first, bookkeeping left out."""
    return (
        BattleEvent.objects.filter(battle=battle)
        .exclude(command__undone_at__isnull=False)
        .exclude(code__in=SILENT)
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

    def __init__(self, battle: Battle, viewpoint: Viewpoint):
        self.battle = battle
        self.viewpoint = viewpoint

    @property
    def gm(self) -> bool:
        return self.viewpoint.gm

    @cached_property
    def factions(self) -> CampaignFactions:
        return campaign_factions(self.battle.campaign_id)

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
        events = live_events(self.battle).order_by("-pk")
        if before is not None:
            events = events.filter(pk__lt=before)
        rows = list(events[: limit + 1])
        older = rows[limit - 1].pk if len(rows) > limit else None
        return [(event.round, text) for event, _params, text in self.lines(rows[:limit])], older

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


# --- Pathfinder 2e ------------------------------------------------------------------------------


def _pf2e_viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
    """A player sees their faction's armies in full and fights on the sides they are on."""
    faction = membership.faction_id
    if faction is None:
        return BYSTANDER
    sides = frozenset(
        side["key"]
        for side in battle.setup["sides"]
        if any(entry.get("faction") == faction for entry in side.get("armies", ()))
    )
    return Viewpoint(sides=sides, faction=faction) if sides else BYSTANDER


@dataclass(frozen=True)
class Viewer:
    """What one viewpoint sees of a Pathfinder battle: the army keys and fortifications in
    full, the sides it fights on, and whether the enemy's modifiers and DCs are revealed."""

    is_gm: bool
    armies: frozenset[str]
    fortifications: frozenset[str]
    sides: frozenset[str]
    system: str | None = None
    reveal_checks: bool = False

    def sees_army(self, key) -> bool:
        return self.is_gm or (isinstance(key, str) and key in self.armies)

    def sees_dc_of(self, key) -> bool:
        """Does the viewer see a DC set by `key` (an army, a fortification; None: fixed)?"""
        return (
            key is None
            or self.is_gm
            or self.reveal_checks
            or key in self.armies
            or key in self.fortifications
        )

    def sees_modifier_of(self, key) -> bool:
        return self.is_gm or self.reveal_checks or self.sees_army(key)


def pf2e_viewer(battle: Battle, viewpoint: Viewpoint) -> Viewer:
    own = frozenset(
        str(entry["army"]["key"])
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
        if viewpoint.gm
        or (viewpoint.faction is not None and entry.get("faction") == viewpoint.faction)
    )
    sides = frozenset(
        side["key"]
        for side in battle.setup["sides"]
        if viewpoint.gm or side["key"] in viewpoint.sides
    )
    forts = frozenset(
        fort["key"]
        for fort in battle.snapshot.get("fortifications", ())
        if viewpoint.gm or fort.get("side") in sides
    )
    return Viewer(
        is_gm=viewpoint.gm, armies=own, fortifications=forts, sides=sides, system=battle.system,
        reveal_checks=bool(battle.setup.get("reveal_checks")),
    )  # fmt: skip


def viewer_for(membership: Membership, battle: Battle) -> Viewer:
    return pf2e_viewer(battle, viewpoint_of(membership, battle))


@dataclass(frozen=True)
class _Hidden:
    subject: str  # the param naming whose numbers these are
    params: tuple[str, ...]  # dropped for viewers who don't see the subject in full
    text: object = None  # the sentence shown instead (None: event_text without the params)


HIDDEN = {
    "battle.damaged": _Hidden("army", ("now",), gettext_lazy("%(army)s takes %(by)s damage.")),
    "army.hp_restored": _Hidden("army", ("now",), gettext_lazy("%(army)s regains %(by)s HP.")),
    "battle.potion_used": _Hidden(
        "army", ("doses_left",), gettext_lazy("%(army)s drinks a healing potion.")
    ),
    "battle.gm_correction": _Hidden("army", ("before", "after")),
    "battle.fortification_damaged": _Hidden("fortification", ("now",)),
}
ALWAYS_HIDDEN = ("hp", "max_hp", "shots", "potion_doses")
#: The numbers of a check that are the roller's (its modifier) and those of whoever set the DC.
ROLLER_NUMBERS = ("modifier", "modifier_breakdown", "total", "breakdown")
DC_NUMBERS = ("dc", "dc_breakdown")


def visible_check(check: dict, roller, viewer: Viewer) -> dict:
    """A recorded check (or initiative roll) as `viewer` may see it: the die and degree
    always; the modifier and total if the viewer sees the roller's numbers; the DC if it sees
    whoever set it (`against`)."""
    shown = dict(check)
    if not viewer.sees_modifier_of(roller):
        for key in ROLLER_NUMBERS:
            shown.pop(key, None)
    if not viewer.sees_dc_of(check.get("against")) and not viewer.sees_modifier_of(roller):
        for key in DC_NUMBERS:
            shown.pop(key, None)
    return shown


def visible_event(code: str, params: dict, names: dict[str, str], viewer: Viewer):
    """(params, text) of one Pathfinder event as `viewer` may see it."""
    params = _visible_checks(code, params, viewer)
    rule = HIDDEN.get(code)
    subject = params.get(rule.subject if rule else "army")
    if rule and rule.subject == "fortification":
        sees = viewer.is_gm or subject in viewer.fortifications
    else:
        sees = viewer.sees_army(subject)
    if sees:
        return dict(params), event_text(code, params, names, viewer.system)
    dropped = set(ALWAYS_HIDDEN) | set(rule.params if rule else ())
    shown = {key: value for key, value in params.items() if key not in dropped}
    if rule and rule.text is not None:
        text = str(rule.text) % {
            "army": names.get(subject, subject) if isinstance(subject, str) else "",
            "by": shown.get("by", ""),
        }
    else:
        text = event_text(code, shown, names, viewer.system)
    return shown, text


def _visible_checks(code: str, params: dict, viewer: Viewer) -> dict:
    """The event's rolls as `viewer` may see them: a check's (`check`) and an initiative
    roll's numbers of an army it does not see (see the module docstring)."""
    roller = params.get("army")
    if viewer.sees_modifier_of(roller):
        return params
    if code == "battle.initiative":
        return visible_check(params, roller, viewer)
    if not isinstance(params.get("check"), dict):
        return params
    shown = dict(params, check=visible_check(params["check"], roller, viewer))
    if "total" in shown:  # Overwhelming Magic repeats the check's total and DC
        shown.pop("total")
        if "dc" not in shown["check"]:
            shown.pop("dc", None)
    return shown


def visible_outcome(battle: Battle, viewer: Viewer) -> dict | None:
    """The outcome as `viewer` may see it: all of it for the GM; for the others the winner,
    the rounds, who was destroyed or fled, and their own side's kingdom check and XP."""
    outcome = battle.outcome
    if not outcome:
        return None
    if viewer.is_gm:
        return outcome
    details = outcome.get("details") or {}
    own = sorted(viewer.sides)
    xp = details.get("xp") or {}
    checks = details.get("kingdom_checks") or {}
    return {
        "winner": outcome.get("winner"),
        "losers": outcome.get("losers", []),
        "details": {
            "rounds": details.get("rounds"),
            "destroyed": details.get("destroyed", []),
            "fled": details.get("fled", []),
            "kingdom_checks": {side: checks[side] for side in own if side in checks},
            "xp": {side: {"total": (xp.get(side) or {}).get("total")} for side in own},
        },
    }


class Pf2eView(BattleView):
    """A Pathfinder 2e battle as a viewpoint may see it (see the module docstring)."""

    @cached_property
    def viewer(self) -> Viewer:
        return pf2e_viewer(self.battle, self.viewpoint)

    def side_factions(self) -> dict[str, Iterable[int | None]]:
        return {
            side["key"]: {entry.get("faction") for entry in side.get("armies", ())}
            for side in self.battle.setup["sides"]
        }

    def _names(self) -> dict[str, str]:
        return {
            str(entry["army"]["key"]): entry.get("name") or entry["army"].get("name") or ""
            for side in self.battle.setup["sides"]
            for entry in side.get("armies", ())
        }

    def sees(self, key) -> bool:
        return self.viewer.sees_army(key)

    def check_preview(self, check) -> dict[str, Any]:
        """A check an action will roll (a `CheckPreview`), as the viewpoint may see it
        before clicking: the DC (and its working) only if it sees whoever sets it."""
        data = check.to_dict()
        if not self.viewer.sees_dc_of(check.against):
            data.update(dc=None, dc_breakdown=[])
        return data

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        return visible_event(code, params, self.names, self.viewer)

    def outcome(self) -> dict[str, Any] | None:
        return visible_outcome(self.battle, self.viewer)
