"""Kingdom-log event codes as sentences in the page's language (one gettext entry each).

Events come from the rules engine as a code and parameters; `army_name` is added when the
event is written so that the log still reads well after an army is renamed or disbanded.
"""

import re

from django.utils.translation import gettext_lazy as _

from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR

from . import labels
from .problems import display as _display

EVENT_TEXTS = {
    "activity.resolved": _("%(activity)s: %(degree)s."),
    "army.placed": _("%(name)s placed by the GM (%(type)s, level %(level)s)."),
    "army.condition_set": _("%(condition)s set to %(value)s."),
    "army.recruited": _("%(name)s recruited (%(type)s, level %(level)s) in hex %(hex)s."),
    "activity.no_effect": _("No effect."),
    "army.moved": _("%(army_name)s moved from %(from)s to %(to)s."),
    "army.flat_check": _("%(army_name)s: flat check DC %(dc)s, rolled %(die)s."),
    "army.hp_lost": _("%(army_name)s loses %(by)s HP (now %(now)s)."),
    "army.hp_restored": _("%(army_name)s regains %(by)s HP (now %(now)s)."),
    "army.destroyed": _("%(army_name)s is destroyed."),
    "army.disbanded": _("%(army_name)s is disbanded."),
    "army.garrisoned": _("%(army_name)s is garrisoned (fortified)."),
    "army.garrison_ended": _("%(army_name)s is no longer garrisoned."),
    "army.garrison_locked": _(
        "%(army_name)s cannot garrison in %(hex)s until turn %(until_turn)s."
    ),
    "army.gear_added": _("%(army_name)s receives %(gear)s."),
    "army.gear_replaced": _("%(army_name)s replaces %(gear)s (tier %(old_tier)s before)."),
    "army.gear_transferred": _("%(army_name)s hands %(gear)s over to %(to_name)s."),
    "army.gear_handed_over": _("%(army_name)s hands %(gear)s over to %(to)s."),
    "army.gear_lost": _("%(army_name)s's gear is lost: %(gear)s."),
    "army.tactic_learned": _("%(army_name)s learns %(tactic)s."),
    "army.efficient_withheld": _("%(army_name)s cannot become efficient from a second activity."),
    "gambit.initiative": _("%(army_name)s: %(bonus)s to initiative in the coming battle."),
    "gambit.enemy_shaken": _("%(army_name)s is shaken 1 by the gambit."),
    "war.encounter_pending": _("A war encounter will follow this kingdom turn."),
    "kingdom.turn_started": _("Kingdom turn %(turn)s begins."),
    "kingdom.unrest": _("Unrest %(signed)s (now %(now)s)."),
    "kingdom.ruin": _("%(ruin)s +%(by)s (now %(now)s)."),
    "kingdom.rp_spent": _("%(by)s RP spent (now %(now)s)."),
    "kingdom.rp_refunded": _("%(by)s RP refunded (now %(now)s)."),
    "kingdom.food_spent": _("%(by)s Food spent (now %(now)s)."),
    "kingdom.consumption": _("Consumption %(total)s."),
    "kingdom.consumption_unpaid": _("%(points)s Consumption left unpaid."),
    "kingdom.recruit_blocked": _("No Recruit Army until turn %(until_turn)s."),
    "battle.results_applied": _("%(battle)s: results applied, %(xp)s XP."),
    "battle.next_turn_applied": _(
        "%(battle)s: the victory's aftermath, Fame or Infamy +%(fame)s and Unrest %(unrest)s."
    ),
    "battle.next_turn_effects": _(
        "%(battle)s: at the start of turn %(turn)s, Fame or Infamy +%(fame)s and Unrest %(unrest)s."
    ),
}

CONDITION_EVENTS = {
    "added": _("%(army_name)s: %(condition)s +%(by)s (now %(now)s)."),
    "reduced": _("%(army_name)s: %(condition)s −%(by)s (now %(now)s)."),
    "gained": _("%(army_name)s becomes %(condition)s."),
    "removed": _("%(army_name)s is no longer %(condition)s."),
}
_CONDITION_EVENT = re.compile(
    r"^army\.(?P<condition>[a-z]+)_(?P<change>added|gained|reduced|removed)$"
)


THE_ARMY = _("The army")
ANOTHER_ARMY = _("another army")
TIER_TEXT = _("%(gear)s, tier %(tier)s")
DOSES_TEXT = _("%(gear)s (%(doses)s doses)")


def _gear_text(value, tier=None, doses=None) -> str:
    """ "Magic Armor, tier 2", "Magic Weapons (Melee), tier 1", "Healing Potions (3 doses)"
    for a gear slot key ('magic_weapons:melee') or a list of them."""
    if isinstance(value, list | tuple):
        return ", ".join(_gear_text(item) for item in value)
    key, _colon, weapon = str(value).partition(":")
    if key not in GEAR:
        return str(value)
    text = labels.gear_name(key)
    if weapon in labels.STAT_LABELS:
        text += f" ({labels.STAT_LABELS[weapon]})"
    if doses:
        return str(DOSES_TEXT) % {"gear": text, "doses": doses}
    if tier:
        return str(TIER_TEXT) % {"gear": text, "tier": tier}
    return text


def army_refs(code: str, params: dict) -> dict[str, object]:
    """{param: army id} of the armies an event names (its `army`; a gear handover's `from`
    and `to`)."""
    keys = ("from", "to") if code == "army.gear_transferred" else ("army",)
    return {key: params[key] for key in keys if isinstance(params.get(key), int)}


def with_army_names(code: str, params: dict, names: dict) -> dict:
    """The params with the names of the armies they refer to ({army id: name}): `army_name`
    (the army it is about) and `to_name` (a handover's recipient)."""
    named = dict(params)
    for key, pk in army_refs(code, params).items():
        if pk in names:
            named["to_name" if key == "to" else "army_name"] = names[pk]
    return named


def log_text(code: str, data: dict) -> str:
    """One kingdom-log entry as a sentence; an army is named by the name written with the
    entry (`army_name`, `to_name`), never by its database id ("The army" when an older entry
    has no name)."""
    params = {**data, "army_name": data.get("army_name") or str(THE_ARMY)}
    params.setdefault("to_name", str(ANOTHER_ARMY))
    if code.startswith("army.gear_") and "gear" in params:
        params["gear"] = _gear_text(params["gear"], params.get("tier"), params.get("doses"))
    if "by" in params and isinstance(params["by"], int):
        params["signed"] = f"+{params['by']}" if params["by"] >= 0 else f"−{-params['by']}"
    if code == "activity.resolved":
        from .activity_forms import ACTIVITY_LABELS
        from .selectors import DEGREE_LABELS

        params["activity"] = ACTIVITY_LABELS.get(params.get("activity"), params.get("activity"))
        params["degree"] = DEGREE_LABELS.get(params.get("degree"), _("done"))
    if isinstance(params.get("ruin"), str):
        params["ruin"] = labels.RUIN_LABELS.get(params["ruin"], params["ruin"])
    match = _CONDITION_EVENT.match(code)
    if match and match["condition"] in CONDITIONS:
        template = CONDITION_EVENTS[match["change"]]
        params["condition"] = labels.condition_name(match["condition"])
    else:
        template = EVENT_TEXTS.get(code)
    if template is None:
        return code
    try:
        return str(template) % _display(params)
    except (KeyError, TypeError, ValueError):
        return code
