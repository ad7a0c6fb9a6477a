"""Problem codes from the rules engine, as sentences in the page's language."""

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext_lazy as _

from kingdoms.labels import PROFICIENCY_LABELS, SKILL_LABELS
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import labels
from .models import ArmyType

ARMY_TYPE_LABELS = dict(ArmyType.choices)

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
    "army.not_active": _("This army is %(status)s and can no longer act."),
    "army.lost_only_recover": _("A lost army can only be recovered (Recover Army)."),
    "army.defeated_limited": _("A defeated army can only deploy one hex, disband or recover."),
    "army.defeated_recover_first": _("Recover this defeated army first."),
    "army.unknown_type": _("There is no army type “%(type)s”."),
    "activity.unknown": _("There is no activity “%(activity)s”."),
    "activity.already_acted": _(
        "This army has already taken its activity this turn; only an efficient army may take "
        "a second one (at −5)."
    ),
    "activity.skill_not_allowed": _("That skill cannot be used for this activity."),
    "activity.skill_rank_too_low": _(
        "The kingdom needs to be at least %(minimum)s in %(skill)s for this."
    ),
    "activity.bad_options": _("Some of the choices for this activity are missing or invalid."),
    "activity.no_check": _("This activity needs no check, so there is no die to type in."),
    "recruit.blocked": _("Recruit Army failed critically: try again from turn %(until_turn)s."),
    "recruit.choose_army": _("Choose one army to recruit."),
    "recruit.hex_required": _("Choose where the army starts."),
    "recruit.not_recruitable": _("This army cannot be recruited."),
    "deploy.pinned": _("A pinned army cannot be deployed."),
    "deploy.destination_required": _("Choose the destination hex."),
    "deploy.bad_distance": _("Give the number of hexes moved (at least 1)."),
    "deploy.bad_two_hex_costs": _("Hexes that count double cannot exceed the hexes moved."),
    "deploy.too_far": _("Too far: %(distance)s hexes, at most %(max)s with %(skill)s."),
    "deploy.defeated_one_hex": _("A defeated army moves one hex at a time."),
    "deploy.needs_water_route": _("Boating needs start and end connected by water."),
    "deploy.road_needs_exploration": _("Only an Exploration deployment benefits from a road."),
    "deploy.forced_march_needs_exploration": _("A forced march is an Exploration deployment."),
    "deploy.two_hex_costs_need_exploration": _("Double-cost hexes apply to Exploration only."),
    "deploy.bad_border": _("Choose which border the move crosses."),
    "disband.bad_recipient": _(
        "Gear can only go to another active army of the kingdom in the same hex."
    ),
    "garrison.location_required": _("Say whether the hex has a settlement, Refuge or Work Site."),
    "garrison.bad_territory": _("Say whose territory the hex is in."),
    "garrison.locked": _("This army cannot garrison here until turn %(until_turn)s."),
    "gambit.no_enemy_in_hex": _("No enemy army shares this army's hex."),
    "gambit.target_not_in_hex": _("That enemy army is not in this hex."),
    "gambit.scouting_dc_required": _("Choose the enemy army whose Scouting DC you test."),
    "outfit.gear_required": _("Choose the gear."),
    "outfit.bad_source": _("Choose whether the gear is bought or taken from spoils."),
    "outfit.already_has": _("This army already has that gear."),
    "outfit.spoils_level_required": _("Give the level of the highest enemy army defeated."),
    "outfit.above_spoils_level": _("Spoils cannot be above the defeated enemy's level."),
    "recover.affliction_required": _("Choose what the army recovers from."),
    "recover.not_afflicted": _("The army is not suffering from that."),
    "recover.pinned_by_mired": _("This army is pinned by mired 4: recover from mired."),
    "train.replace_required": _("The army knows its maximum of tactics: choose one to replace."),
    "train.replace_not_needed": _("The army has a free tactic slot: nothing to replace."),
    "train.replace_unknown": _("The army does not know the tactic to replace."),
    "train.not_learnable": _("This army cannot learn %(tactic)s."),
    "gear.not_carried": _("The army does not carry that gear."),
    "gear.not_same_hex": _("Gear can only pass between armies in the same hex."),
    "gear.same_army": _("Choose another army."),
    "gear.slot_taken": _("The receiving army already has gear of that kind."),
    "kingdom.not_enough_rp": _("Not enough RP: %(needed)s needed, %(rp)s held."),
    "kingdom.not_enough_food": _(
        "Not enough Food: %(needed)s needed, %(food)s held. Pay the rest with RP or leave it "
        "unpaid."
    ),
    "kingdom.bad_food_to_spend": _("The Food to spend must be between 0 and what is held."),
    "kingdom.bad_pay_with": _("Choose how to pay what Food does not cover."),
    "kingdom.skill_missing": _("The kingdom has no %(skill)s modifier entered."),
    "kingdom.ruin_choice_required": _("Choose which Ruin rises."),
    "kingdom.unknown_ruin": _("There is no Ruin “%(ruin)s”."),
    "structure.unknown": _("There is no structure “%(structure)s”."),
    "battle.reaction_pending": _(
        "A reaction is offered: it is used or declined before anything else happens."
    ),
    "battle.not_your_reaction": _("Only the reacting army's commander answers the reaction."),
    "battle.no_reaction_pending": _("No reaction is waiting for an answer."),
    "battle.start_pending": _(
        "An army is choosing its starting position: that comes before anything else."
    ),
    "battle.not_your_start": _("Only the choosing army's commander picks its starting position."),
    "battle.bad_start_choice": _("The army cannot take that starting position."),
    "battle.no_start_pending": _("No starting position is waiting to be chosen."),
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
    if shown.get("skill") in SKILL_LABELS:
        shown["skill"] = SKILL_LABELS[shown["skill"]]
    if shown.get("minimum") in PROFICIENCY_LABELS:
        shown["minimum"] = PROFICIENCY_LABELS[shown["minimum"]]
    for key in ("army", "type", "expected"):
        if shown.get(key) in ARMY_TYPE_LABELS:
            shown[key] = ARMY_TYPE_LABELS[shown[key]]
    if shown.get("army") in SPECIALIZED_ARMIES:
        shown["army"] = labels.specialized_name(shown["army"])
    return shown


def problem_message(problem: Problem, texts: Mapping[str, Any] | None = None) -> str:
    """A problem as a sentence: from `texts` (a rule system's own, e.g. a board plugin's
    `problem_texts`) first, then the shared `MESSAGES`."""
    template = (texts or {}).get(problem.code) or MESSAGES.get(problem.code)
    if template is None:
        return str(_("Not allowed by the rules (%(code)s).")) % {"code": problem.code}
    try:
        return str(template) % _display(dict(problem.params))
    except (KeyError, TypeError, ValueError):
        return str(template)


def problem_messages(problems: list[Problem], texts: Mapping[str, Any] | None = None) -> list[str]:
    return [problem_message(problem, texts) for problem in problems]
