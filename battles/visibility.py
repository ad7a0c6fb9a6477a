"""Who sees which numbers of a battle, shared by the board, the report and the JSON API.

Visibility (DESIGN.md "Visibility"): the GM and an army's own side see its numbers; everyone
else sees what happens at the table — who acts, the dice, the checks with their modifiers and
DCs, the damage dealt, conditions — but never an army's HP, shots or potion doses. So, for a
viewer who does not see the army an event is about in full:

* `battle.damaged` and `army.hp_restored` lose `now` (the HP left) and read "X takes 2 damage."
  / "X regains 1 HP." instead of naming the HP left;
* `battle.potion_used` loses `doses_left`;
* `battle.gm_correction` loses `before` / `after` (the HP, shots… the GM set);
* `battle.fortification_damaged` loses `now` unless the viewer fights on the fortification's
  side;
* any `hp`, `max_hp`, `shots`, `potion_doses` param is dropped.

The outcome's per-army details (HP as the armies leave) are likewise only the GM's; a player
reads the winner, the rounds, who was destroyed or fled, and the XP of their own side.
"""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from kingdoms.models import Membership

from .events import SILENT, event_text
from .models import Battle, BattleEvent
from .services import actor_factions


@dataclass(frozen=True)
class Viewer:
    """What one member sees of one battle: the army keys and fortifications in full, and the
    sides their faction fights on."""

    is_gm: bool
    armies: frozenset[str]
    fortifications: frozenset[str]
    sides: frozenset[str]
    system: str | None = None

    def sees_army(self, key) -> bool:
        return self.is_gm or (isinstance(key, str) and key in self.armies)


def viewer_for(membership: Membership, battle: Battle) -> Viewer:
    factions = actor_factions(battle)
    own = frozenset(
        key
        for key, faction in factions.items()
        if membership.is_gm or (faction is not None and faction == membership.faction_id)
    )
    sides = frozenset(
        side["key"]
        for side in battle.setup["sides"]
        if membership.is_gm
        or any(str(entry["army"]["key"]) in own for entry in side.get("armies", ()))
        or (side.get("faction") is not None and side.get("faction") == membership.faction_id)
    )
    forts = frozenset(
        fort["key"]
        for fort in battle.snapshot.get("fortifications", ())
        if membership.is_gm or fort.get("side") in sides
    )
    return Viewer(
        is_gm=membership.is_gm, armies=own, fortifications=forts, sides=sides, system=battle.system
    )


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


def visible_event(code: str, params: dict, names: dict[str, str], viewer: Viewer):
    """(params, text) of one event as `viewer` may see it."""
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


def live_events(battle: Battle):
    """The events of the live commands (and the start), oldest first, bookkeeping left out."""
    return (
        BattleEvent.objects.filter(battle=battle)
        .exclude(command__undone_at__isnull=False)
        .exclude(code__in=SILENT)
        .order_by("pk")
    )


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
