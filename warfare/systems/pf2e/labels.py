"""Display names for engine keys, in the page's language (Russian per the §12 glossary).

The engine speaks in keys and term codes (`tactic.hold_the_line`, `condition.weary`); this
module is where they become words. The rules data keeps its English texts (names, effects);
they are translated like every other text, by gettext, each with its context below:
`pf2e_texts()` lists them, `python manage.py pf2e_texts` (run by `make messages`) writes
`warfare/systems/pf2e/texts.py`, the markers that put them in the catalogue.
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext, pgettext_lazy

from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import TACTICS, WAR_ACTION_NAMES
from warfare.words import per_language

# Kingdom skills, proficiencies, ruins and structures (they were kingdoms.labels).
SKILL_LABELS = {
    "warfare": pgettext_lazy("kingdom skill", "Warfare"),
    "statecraft": pgettext_lazy("kingdom skill", "Statecraft"),
    "intrigue": pgettext_lazy("kingdom skill", "Intrigue"),
    "exploration": pgettext_lazy("kingdom skill", "Exploration"),
    "boating": pgettext_lazy("kingdom skill", "Boating"),
    "magic": pgettext_lazy("kingdom skill", "Magic"),
    "defense": pgettext_lazy("kingdom skill", "Defense"),
    "politics": pgettext_lazy("kingdom skill", "Politics"),
    "engineering": pgettext_lazy("kingdom skill", "Engineering"),
    "trade": pgettext_lazy("kingdom skill", "Trade"),
    "scholarship": pgettext_lazy("kingdom skill", "Scholarship"),
    "folklore": pgettext_lazy("kingdom skill", "Folklore"),
    "wilderness": pgettext_lazy("kingdom skill", "Wilderness"),
    "arts": pgettext_lazy("kingdom skill", "Arts"),
}
assert set(SKILL_LABELS) == set(pf2e_kingdom.WARFARE_SKILLS)

PROFICIENCY_LABELS = {
    "untrained": _("untrained"),
    "trained": _("trained"),
    "expert": _("expert"),
    "master": _("master"),
    "legendary": _("legendary"),
}

RUIN_LABELS = {
    "corruption": _("Corruption"),
    "crime": _("Crime"),
    "decay": _("Decay"),
    "strife": _("Strife"),
}

# Structures that give item bonuses to army activities (Pathfinder §4.9).
STRUCTURE_LABELS = {
    "barracks": _("Barracks"),
    "keep": _("Keep"),
    "garrison": pgettext_lazy("structure", "Garrison"),
    "smithy": _("Smithy"),
    "castle": _("Castle"),
    "military_academy": _("Military Academy"),
    "palace": _("Palace"),
}

STAT_LABELS = {
    "scouting": _("Scouting"),
    "recruitment_dc": _("Recruitment DC"),
    "consumption": _("Consumption"),
    "ac": _("AC"),
    "maneuver": _("Maneuver"),
    "morale": _("Morale"),
    "melee": _("Melee"),
    "ranged": _("Ranged"),
    "max_hp": _("HP"),
    "rout_threshold": _("Rout threshold"),
    "max_tactics": _("Max tactics"),
    "shots": _("Shots"),
    "activity_check": _("Army activity checks"),
    "deploy_check": _("Deploy Army checks"),
}

TERM_LABELS = {
    "level": _("level"),
    "type": _("army type"),
    "specialized": _("printed"),
    "custom": _("custom"),
    "max_hp_share": _("share of max HP"),
    "control_dc": _("Control DC"),
    "structure.item_bonus": _("structures"),
    "efficient.second_activity": _("second activity"),
    "deploy.forced_march": _("forced march"),
    "deploy.own_border": _("crossing our border"),
    "deploy.enemy_border": _("crossing an enemy border"),
    "deploy.road": _("road"),
    "garrison.outside_kingdom": _("outside the kingdom"),
    "garrison.enemy_kingdom": _("in an enemy kingdom"),
    "recover.defeated": _("recovering a defeated army"),
    "enemy.scouting_dc": _("enemy Scouting DC"),
}


TACTIC, TACTIC_EFFECT = "pf2e tactic", "pf2e tactic effect"
CONDITION, CONDITION_EFFECT = "pf2e condition", "pf2e condition effect"
GEAR_NAME, GEAR_EFFECT, GEAR_TIER = "pf2e gear", "pf2e gear effect", "pf2e gear tier"
SPECIALIZED, WAR_ACTION = "pf2e specialized army", "pf2e war action"


def pf2e_texts() -> list[tuple[str, str]]:
    """(context, English text) of every text, in the data's order, each once."""
    pairs: list[tuple[str, str]] = []
    for tactic in TACTICS.values():
        pairs += [(TACTIC, tactic.name_en), (TACTIC_EFFECT, tactic.effect)]
    for condition in CONDITIONS.values():
        pairs += [(CONDITION, condition.name_en), (CONDITION_EFFECT, condition.effect)]
    for gear in GEAR.values():
        pairs += [(GEAR_NAME, gear.name_en), (GEAR_EFFECT, gear.effect)]
        pairs += [(GEAR_TIER, tier.name_en) for tier in gear.tiers]
    pairs += [(SPECIALIZED, army.name_en) for army in SPECIALIZED_ARMIES.values()]
    pairs += [(WAR_ACTION, name) for name in WAR_ACTION_NAMES.values()]
    return list(dict.fromkeys(pair for pair in pairs if pair[1]))


def _translated(context: str, text: str) -> str:
    return pgettext(context, text) if text else ""  # gettext("") is the catalogue's header


@per_language
def names() -> dict[str, dict[str, str]]:
    """The names of the tactics, conditions and war actions ({"tactic" / "condition" /
    "war_action": {key: name}}) in the page language, translated once per language and
    process (a look-up in the catalogue costs more than the rest of a card or log line;
    a board names them on every card, button and line)."""
    return {
        "tactic": {key: _translated(TACTIC, t.name_en) for key, t in TACTICS.items()},
        "condition": {key: _translated(CONDITION, c.name_en) for key, c in CONDITIONS.items()},
        "war_action": {
            key: _translated(WAR_ACTION, name) for key, name in WAR_ACTION_NAMES.items() if name
        },
    }


def tactic_name(key: str) -> str:
    return names()["tactic"][key]


def tactic_effect(key: str) -> str:
    return _translated(TACTIC_EFFECT, TACTICS[key].effect)


def condition_name(key: str) -> str:
    return names()["condition"][key]


def condition_effect(key: str) -> str:
    return _translated(CONDITION_EFFECT, CONDITIONS[key].effect)


def gear_name(key: str) -> str:
    return _translated(GEAR_NAME, GEAR[key].name_en)


def gear_effect(key: str) -> str:
    return _translated(GEAR_EFFECT, GEAR[key].effect)


def gear_tier_name(key: str, tier: int) -> str:
    return _translated(GEAR_TIER, GEAR[key].tier(tier).name_en)


def specialized_name(key: str) -> str:
    return _translated(SPECIALIZED, SPECIALIZED_ARMIES[key].name_en)


def war_action_name(key: str) -> str:
    return names()["war_action"].get(key, key)


def term_label(code: str) -> str:
    """'tactic.hold_the_line' -> 'Hold the Line'; 'level' -> 'level'."""
    if code in TERM_LABELS:
        return str(TERM_LABELS[code])
    kind, _dot, key = code.partition(".")
    if kind == "skill" and key in SKILL_LABELS:
        return str(SKILL_LABELS[key])
    if kind == "recruitment_dc":
        return f"{_('Recruitment DC')}: {term_label(key)}"
    if kind == "tactic" and key in TACTICS:
        return tactic_name(key)
    if kind == "condition" and key in CONDITIONS:
        return condition_name(key)
    if kind == "gear" and key in GEAR:
        return gear_name(key)
    if kind == "house":
        return str(_("house default"))
    return str(TERM_LABELS.get(code, code))


#: The four degrees of success (check results, activity outcomes).
DEGREE_LABELS = {
    "critical_success": _("Critical success"),
    "success": _("Success"),
    "failure": _("Failure"),
    "critical_failure": _("Critical failure"),
}
