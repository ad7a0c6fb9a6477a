"""The Pathfinder 2e battle report (the board plugin's `report_context`): the shared report
(`battles.report.battle_report`) with the armies' HP and state, the terrain's labels and the
§7.6 kingdom checks rolled when the results were applied."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.models import Battle
from battles.report import battle_report
from kingdoms.models import Membership

from .board import POSITION_LABELS, applied_aftermath
from .board_forms import TERRAIN_LABELS

STATE_LABELS = {
    "destroyed": gettext_lazy("destroyed"),
    "fled": gettext_lazy("fled"),
    "defeated": gettext_lazy("defeated"),
    "routed": gettext_lazy("routed"),
}


def _army_state_label(entry) -> str:
    if entry.destroyed:
        return str(STATE_LABELS["destroyed"])
    if entry.fled:
        return str(STATE_LABELS["fled"])
    if entry.defeated:
        return str(STATE_LABELS["defeated"])
    if entry.routed:
        return str(STATE_LABELS["routed"])
    return str(POSITION_LABELS.get(entry.position, entry.position))


def _army_rows(view, state, side: dict) -> list[dict]:
    names = view.names
    armies = []
    for setup_entry in side.get("armies", ()):
        key = str(setup_entry["army"]["key"])
        entry = state.army(key)
        row = {"key": key, "name": names.get(key, key), "state": _army_state_label(entry)}
        if view.sees(key):
            row["hp"] = entry.army.hp
            row["max_hp"] = entry.army.max_hp
        armies.append(row)
    return armies


def check_sentence(check: dict) -> str:
    """A §7.6 kingdom check in one line: "Warfare: d20 12 + 7 = 19 vs DC 17 → Success"."""
    die = _("die typed in") if check["typed"] else _("d20")
    sign = "+" if check["modifier"] >= 0 else "−"
    return _("%(skill)s: %(die)s %(roll)s %(sign)s %(modifier)s = %(total)s vs DC %(dc)s → "
             "%(degree)s") % {"skill": check["skill"], "die": die, "roll": check["die"],
                               "sign": sign, "modifier": abs(check["modifier"]),
                               "total": check["total"], "dc": check["dc"],
                               "degree": check["degree_label"]}  # fmt: skip


def next_turn_sentence(next_turn: dict) -> str:
    return _(
        "At the start of the next Kingdom turn: Fame or Infamy +%(fame)s, Unrest %(unrest)s."
    ) % {"fame": next_turn.get("fame"), "unrest": next_turn.get("unrest")}


def _extra(view, report: dict) -> dict:
    battle = report["battle"]
    side_names = {side["key"]: side["name"] for side in report["sides"]}
    aftermath = [
        {
            **row,
            "check_text": check_sentence(row["check"]),
            "next_turn_text": next_turn_sentence(row["next_turn"]) if row["next_turn"] else "",
        }
        for row in applied_aftermath(battle, view.viewer, side_names)
    ]
    return {
        "terrain": [str(TERRAIN_LABELS.get(key, key)) for key in battle.setup.get("terrain", ())],
        "aftermath": aftermath,
    }


def report_context(membership: Membership, battle: Battle) -> dict:
    return battle_report(membership=membership, battle=battle, army_rows=_army_rows, extra=_extra)
