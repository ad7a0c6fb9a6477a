"""Who sees what of a Pathfinder 2e battle (the board plugin's `viewpoint` and `view`; the
shared part is `battles.visibility`).

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

from battles.events import event_text
from battles.models import Battle
from battles.visibility import BYSTANDER, BattleView, Viewpoint, viewpoint_of
from kingdoms.models import Membership


def viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
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

    lines_kept = True  # its sentences: the event, viewer, names and setup alone

    def lines_key(self) -> tuple:
        return (self.viewer,)

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
