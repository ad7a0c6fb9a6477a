"""Display names for engine keys, in the page's language (Russian per the §12 glossary).

The engine speaks in keys and term codes (`tactic.hold_the_line`, `condition.weary`); this
module is where they become words. Rule data carries its own English and Russian names;
UI words go through gettext.
"""

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from kingdoms.labels import SKILL_LABELS
from warfare.engine.systems.pf2e import texts_ru
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import TACTICS

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


def _ru() -> bool:
    return (get_language() or "en").startswith("ru")


def tactic_name(key: str) -> str:
    tactic = TACTICS[key]
    if _ru():
        return texts_ru.TACTIC_NAMES_RU.get(key) or tactic.name_ru or tactic.name_en
    return tactic.name_en


def tactic_effect(key: str) -> str:
    return texts_ru.TACTIC_EFFECTS_RU.get(key, "") if _ru() else TACTICS[key].effect


def condition_name(key: str) -> str:
    condition = CONDITIONS[key]
    return condition.name_ru if _ru() and condition.name_ru else condition.name_en


def condition_effect(key: str) -> str:
    return texts_ru.CONDITION_EFFECTS_RU.get(key, "") if _ru() else CONDITIONS[key].effect


def gear_name(key: str) -> str:
    gear = GEAR[key]
    if _ru():
        return texts_ru.GEAR_NAMES_RU.get(key) or gear.name_ru or gear.name_en
    return gear.name_en


def specialized_name(key: str) -> str:
    army = SPECIALIZED_ARMIES[key]
    if _ru():
        return texts_ru.SPECIALIZED_NAMES_RU.get(key) or army.name_ru or army.name_en
    return army.name_en


def war_action_name(key: str) -> str:
    names = texts_ru.WAR_ACTION_NAMES_RU if _ru() else texts_ru.WAR_ACTION_NAMES_EN
    return names.get(key, key)


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
