"""The only place that knows both ORM rows and engine state (Pathfinder armies, kingdoms)."""

from warfare.engine.systems.pf2e.activities.state import ArmyState, KingdomState
from warfare.engine.systems.pf2e.activities.structures import item_bonuses_from_structures
from warfare.engine.systems.pf2e.armies import (
    ArmySpec,
    StatBlock,
    spec_from_dict,
    spec_to_dict,
    stat_block,
)
from warfare.engine.systems.pf2e.kingdom import RUINS
from warfare.systems.pf2e.models import Kingdom

from .models import Army


def army_spec(army: Army, *, level: int | None = None) -> ArmySpec:
    """The engine's view of an army. `level` overrides (e.g. a preview at another level)."""
    return spec_from_dict(
        {
            "type": army.army_type,
            "level": level or army.level,
            "specialized": army.specialized or None,
            "gear": army.gear,
            "tactics": army.tactics,
            "conditions": army.conditions,
            "custom": army.custom_stats,
            "current_hp": army.hp,
        }
    )


def army_stat_block(army: Army) -> StatBlock:
    return stat_block(army_spec(army))


def army_state(army: Army) -> ArmyState:
    return ArmyState(
        key=army.pk,
        spec=army_spec(army),
        hp=army.hp,
        hex=army.hex,
        garrison=army.garrison or None,
        garrison_consumption_cut=army.garrison_consumption_cut,
        potion_doses=army.potion_doses,
        status=army.status,
        timers=army.timers,
        activities_this_turn=army.activities_this_turn,
        fought_this_turn=army.fought_this_turn,
    )


ARMY_STATE_FIELDS = (
    "army_type", "specialized", "gear", "tactics", "conditions", "custom_stats", "hp", "hex",
    "garrison", "garrison_consumption_cut", "potion_doses", "status", "timers",
    "activities_this_turn", "fought_this_turn",
)  # fmt: skip
"""The Army columns `apply_army_state` writes."""


def apply_army_state(army: Army, state: ArmyState) -> Army:
    """Copy an engine state onto the row (not saved). Level stays the kingdom's."""
    spec = spec_to_dict(state.spec)
    army.army_type = spec["type"]
    army.specialized = spec["specialized"] or ""
    army.gear = spec["gear"]
    army.tactics = spec["tactics"]
    army.conditions = spec["conditions"]
    army.custom_stats = spec["custom"]
    army.hp = state.hp
    army.hex = state.hex
    army.garrison = state.garrison or ""
    army.garrison_consumption_cut = state.garrison_consumption_cut
    army.potion_doses = state.potion_doses
    army.status = state.status
    army.timers = dict(state.timers)
    army.activities_this_turn = state.activities_this_turn
    army.fought_this_turn = state.fought_this_turn
    return army


def kingdom_state(kingdom: Kingdom) -> KingdomState:
    bonuses = item_bonuses_from_structures(kingdom.structures)
    return KingdomState(
        level=kingdom.level,
        control_dc=kingdom.control_dc.total,
        skills=kingdom.skills,
        rp=kingdom.resource_points,
        food=kingdom.food,
        unrest=kingdom.unrest,
        ruins={ruin: getattr(kingdom, ruin) for ruin in RUINS},
        item_bonuses=bonuses if isinstance(bonuses, dict) else {},
        turn=kingdom.turn,
        at_war=kingdom.at_war,
        narrative_warfare=kingdom.faction.campaign.narrative_warfare,
        recruit_blocked_until_turn=kingdom.recruit_blocked_until_turn,
    )


def apply_kingdom_state(kingdom: Kingdom, state: KingdomState) -> Kingdom:
    kingdom.level = state.level
    kingdom.resource_points = state.rp
    kingdom.food = state.food
    kingdom.unrest = state.unrest
    for ruin in RUINS:
        setattr(kingdom, ruin, state.ruins[ruin])
    kingdom.turn = state.turn
    kingdom.at_war = state.at_war
    kingdom.recruit_blocked_until_turn = state.recruit_blocked_until_turn
    return kingdom
