"""Problem codes from the rules engine, as sentences in the page's language."""

from django.utils.translation import gettext_lazy as _

from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import labels

MESSAGES = {
    "army.level_out_of_range": _("An army's level must be 1-20, not %(level)s."),
    "army.unknown_specialized": _("There is no specialized army “%(army)s”."),
    "army.custom_level_out_of_range": _("A custom stat block's level must be 1-20."),
    "army.hp_out_of_range": _("Hit points must be between 0 and %(max_hp)s."),
    "army.type_mismatch": _("%(army)s is a %(expected)s army, not %(type)s."),
    "army.specialized_already_in_faction": _("This faction already has %(army)s."),
    "army.level_below_minimum": _("%(army)s needs level %(minimum)s; this army is %(level)s."),
    "army.kingdom_level_too_low": _(
        "%(army)s can be recruited from kingdom level %(minimum)s; the kingdom is level "
        "%(kingdom_level)s."
    ),
    "tactic.none_known": _("An army knows at least one tactic."),
    "tactic.unknown": _("There is no tactic “%(tactic)s”."),
    "tactic.level_too_high": _(
        "%(tactic)s is a level %(level)s tactic; this army is level %(army_level)s."
    ),
    "tactic.wrong_type": _("%(tactic)s is not for %(type)s armies."),
    "tactic.unique_to_other_army": _("%(tactic)s belongs to %(army)s only."),
    "tactic.duplicate": _("%(tactic)s can be learned only once."),
    "tactic.too_many": _("This army can know %(max)s tactics, not %(count)s."),
    "tactic.mandatory_missing": _("This army must know %(tactic)s."),
    "tactic.unique_missing": _("%(tactic)s is part of this army and cannot be dropped."),
    "tactic.cannot_replace_unique": _("%(tactic)s is a unique tactic and cannot be replaced."),
    "tactic.cannot_replace_mandatory": _("%(tactic)s is mandatory and cannot be replaced."),
    "gear.unknown": _("There is no gear “%(gear)s”."),
    "gear.bad_tier": _("%(gear)s has no tier %(tier)s."),
    "gear.level_too_high": _("%(gear)s is level %(level)s; the army is level %(army_level)s."),
    "gear.above_kingdom_level": _(
        "%(gear)s is level %(level)s; a level %(kingdom_level)s kingdom cannot buy it."
    ),
    "gear.needs_magic_expert": _("Buying magic gear needs a kingdom at least expert in Magic."),
    "gear.engines_of_war": _("Siege engines cannot be outfitted with gear."),
    "gear.weapon_required": _("Choose which weapon (melee or ranged) %(gear)s is for."),
    "gear.no_such_weapon": _("This army has no %(weapon)s weapon."),
    "gear.weapon_not_applicable": _("%(gear)s is not bought per weapon."),
    "gear.already_has_both_weapons": _("This army already has both a melee and a ranged weapon."),
    "gear.bad_doses": _("Healing potions: 0 to %(max)s doses, not %(doses)s."),
    "gear.duplicate": _("This army already has %(gear)s."),
    "condition.unknown": _("There is no condition “%(condition)s”."),
    "condition.bad_value": _("%(condition)s cannot have the value %(value)s."),
    "dice.not_a_number": _("A d%(sides)s result must be a whole number."),
    "dice.out_of_range": _("A d%(sides)s shows 1 to %(sides)s, not %(value)s."),
}


def _display(params: dict) -> dict:
    """Swap keys for names: tactic, gear, condition and army keys become their labels."""
    shown = dict(params)
    if shown.get("tactic") in TACTICS:
        shown["tactic"] = labels.tactic_name(shown["tactic"])
    if shown.get("gear") in GEAR:
        shown["gear"] = labels.gear_name(shown["gear"])
    if shown.get("condition") in CONDITIONS:
        shown["condition"] = labels.condition_name(shown["condition"])
    if shown.get("army") in SPECIALIZED_ARMIES:
        shown["army"] = labels.specialized_name(shown["army"])
    return shown


def problem_message(problem: Problem) -> str:
    template = MESSAGES.get(problem.code)
    if template is None:
        return str(_("Not allowed by the rules (%(code)s).")) % {"code": problem.code}
    try:
        return str(template) % _display(dict(problem.params))
    except (KeyError, TypeError, ValueError):
        return str(template)


def problem_messages(problems: list[Problem]) -> list[str]:
    return [problem_message(problem) for problem in problems]
