"""Pathfinder's problem codes (the rules engine's refusals: armies, tactics, gear, activities,
the kingdom turn, the battle board) as sentences in the page's language, and the names its
parameters are shown with. Registered with `warfare.messages` by the app's `ready`."""

from django.utils.translation import gettext_lazy as _

from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import TACTICS

from . import labels
from .labels import PROFICIENCY_LABELS, SKILL_LABELS
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
    # The Pathfinder battle engine's refusals (army keys stay out: the sentences name none).
    "battle.action_not_known": _("This army does not know that war action."),
    "battle.unknown_action": _("There is no such war action."),
    "battle.not_your_turn": _("It is another army's turn."),
    "battle.not_enough_actions": _(
        "That costs %(cost)s actions; the army has %(left)s left this turn."
    ),
    "battle.finished": _("This battle is over."),
    "battle.once_per_encounter": _("That war action can be used once per battle."),
    "battle.pinned": _("A pinned army cannot do that."),
    "battle.routed_must_retreat": _("A routed army can only retreat."),
    "battle.engaged": _("An engaged army cannot do that."),
    "battle.not_engaged": _("The army is not engaged with an enemy."),
    "battle.not_engaged_with_target": _("The army is not engaged with that army."),
    "battle.already_engaged": _("The armies are already engaged."),
    "battle.engagement_limit": _("That army is engaged with as many armies as it can be."),
    "battle.disengage_blocked": _("The army cannot disengage this turn."),
    "battle.bad_disengage_order": _("Choose the order in which to disengage from the armies."),
    "battle.unknown_target": _("That is not a target on this battlefield."),
    "battle.invalid_target": _("That target cannot be chosen for this war action."),
    "battle.target_gone": _("That target is no longer on the field."),
    "battle.target_not_enemy": _("That army is not an enemy."),
    "battle.target_not_ally": _("That army is not an ally."),
    "battle.target_distant": _("That army is distant."),
    "battle.target_engaged": _("That army is engaged with another army."),
    "battle.target_fortified": _("That army is inside a fortification."),
    "battle.target_undetected": _("That army has not been detected."),
    "battle.fortification_required": _("That needs a fortification to attack."),
    "battle.fortification_needs_ranged": _("A fortification is attacked with ranged Strikes."),
    "battle.cannot_damage_fortification": _("This attack cannot damage a fortification."),
    "battle.melee_only": _("Only a melee Strike can do that."),
    "battle.ranged_only": _("Only a ranged Strike can do that."),
    "battle.no_weapon": _("The army has no such weapon."),
    "battle.unknown_weapon": _("The army has no such weapon."),
    "battle.no_shots": _("The army has no shots left."),
    "battle.no_potion": _("The army has no healing potions left."),
    "battle.not_netted": _("The army is not caught in nets."),
    "battle.not_outflanked": _("That army is not outflanked."),
    "battle.not_routed": _("The army is not routed."),
    "battle.no_effect": _("That would change nothing."),
    "battle.nothing_to_recover": _("There is nothing to recover from."),
    "battle.already_treated": _("That army was already treated in this battle."),
    "battle.bad_choice": _("That choice is not one of the options."),
    "battle.bad_param": _("A choice for this war action is missing or invalid."),
    "battle.bad_bombardment_armies": _("Choose the armies the bombardment hits."),
    "battle.bad_bombardment_extra": _("Those further targets of the bombardment are not allowed."),
    "battle.bad_result": _("The battle's result is not known."),
    "battle.unknown_army": _("That army does not fight in this battle."),
    "battle.gm.unknown_army": _("That army does not fight in this battle."),
    "battle.gm.army_gone": _("That army is no longer on the field."),
    "battle.gm.nothing_to_change": _("Choose something to correct."),
    "battle.gm.bad_hp": _("HP must be between 0 and %(max_hp)s."),
    "battle.gm.unknown_condition": _("There is no condition “%(condition)s”."),
    "battle.gm.bad_condition_value": _("%(condition)s cannot have the value %(value)s."),
    "battle.gm.bad_position": _("An army is near or distant."),
    "battle.gm.bad_shots": _("Shots cannot be %(shots)s."),
    "battle.gm.bad_engagement": _("Only armies of opposite sides on the field can be engaged."),
    "battle.gm.engagement_limit": _("That army cannot be engaged with more armies."),
}


def display(params: dict) -> dict:
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
