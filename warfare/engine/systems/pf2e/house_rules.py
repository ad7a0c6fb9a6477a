"""House defaults of PF2e warfare: every number the reference tags [inferred], [impl],
[discrepancy] or [gap] that the engine uses, in one table (see `warfare.engine.house`).

Code reads these through `house_value(key)`; a GM with the book corrects a number here.
"""

from typing import Any

from warfare.engine.house import HouseDefault, Tag, table_lookup

HOUSE_DEFAULTS: tuple[HouseDefault, ...] = (
    HouseDefault(
        key="siege_engines.ranged_adjustment",
        value=0,
        tag=Tag.DISCREPANCY,
        source="pf2e §2, §15 item 6",
        note="Added to the level table's attack for basic Siege Engines' ranged Strike. The AP "
        "prints +15 at level 7 where the table gives +18; Foundry treats +15 as a misprint "
        "(0 here gives +18), KMT keeps +15 (that would be -3).",
    ),
    HouseDefault(
        key="basic.rout_threshold_divisor",
        value=2,
        tag=Tag.INFERRED,
        source="pf2e §1.1, §1.3, §6.1",
        note="A basic army's Rout Threshold is max HP divided by this, rounded down (4 HP -> "
        "RT 2, 6 HP -> RT 3), so Toughened Soldiers can raise it. The reference only says RT "
        "is 'normally half max HP'. Printed (specialized/custom) stat blocks keep their RT.",
    ),
    HouseDefault(
        key="keen_eyed.level",
        value=1,
        tag=Tag.DISCREPANCY,
        source="pf2e §6.1",
        note="Level of the Keen Eyed tactic: Foundry and KMT TS data say 1, the KMT pack "
        "labels it 'Tactic 5'.",
    ),
    HouseDefault(
        key="kingdom_xp.below_minus_4",
        value=0,
        tag=Tag.INFERRED,
        source="pf2e §7.6, §15 item 5",
        note="Kingdom XP for defeating an army more than 4 levels below the kingdom.",
    ),
    HouseDefault(
        key="kingdom_xp.above_plus_4",
        value=160,
        tag=Tag.INFERRED,
        source="pf2e §7.6, §15 item 5",
        note="Kingdom XP for defeating an army more than 4 levels above the kingdom: 'GM's "
        "call'; capped at the +4 value (160) by default.",
    ),
    HouseDefault(
        key="sootscale_warriors.shots",
        value=5,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Ranged shots per encounter. Foundry's description says 7, its data field and "
        "KMT say 5.",
    ),
    HouseDefault(
        key="greengripe_bombardiers.ac",
        value=25,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="AC at level 7: Foundry 25, KMT 23.",
    ),
    HouseDefault(
        key="troll_marauders.scouting",
        value=16,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Scouting at level 8: Foundry +16, KMT +14.",
    ),
    HouseDefault(
        key="mbotuu_frog_riders.ac",
        value=27,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="AC at level 10: Foundry 27, KMT 30.",
    ),
    HouseDefault(
        key="pitaxian_raiders.shots",
        value=5,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Ranged shots per encounter: KMT 5; Foundry 7 via a 'Plentiful Ammunition' "
        "tactic that it says is not in the book.",
    ),
    HouseDefault(
        key="wyvern_flight.melee",
        value=26,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 6",
        note="Melee at level 12: the AP prints +18, Foundry treats it as a misprint of +26 "
        "(the level table's attack).",
    ),
    HouseDefault(
        key="tusker_riders.melee",
        value=30,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Melee at level 14: KMT +30, Foundry +29.",
    ),
    HouseDefault(
        key="tusker_riders.ranged",
        value=28,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Ranged at level 14: KMT +28, Foundry +29.",
    ),
    HouseDefault(
        key="first_world_army.melee",
        value=33,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Melee at level 16: KMT +33, Foundry +32 (the level table's attack).",
    ),
    HouseDefault(
        key="first_world_army.ranged",
        value=33,
        tag=Tag.DISCREPANCY,
        source="pf2e §3.4, §15 item 15",
        note="Ranged at level 16: KMT +33, Foundry +32 (the level table's attack).",
    ),
    HouseDefault(
        key="deploy_army.dc_adjustment",
        value=0,
        tag=Tag.INFERRED,
        source="pf2e §4, §4.2, §15 item 2",
        note="Added to the Control DC for Deploy Army. The book names no DC; KMT uses the "
        "Control DC (0 here).",
    ),
    HouseDefault(
        key="deploy_army.border_dc_all_skills",
        value=1,
        tag=Tag.DISCREPANCY,
        source="pf2e §4.2",
        note="1: the +5 own-border / +10 enemy-border DC applies to every Deploy Army (book "
        "text); 0: only to Magic deployments (KMT).",
    ),
    HouseDefault(
        key="train_army.dc_adjustment",
        value=0,
        tag=Tag.INFERRED,
        source="pf2e §4.8, §15 item 1",
        note="Added to the Control DC for Train Army. The tactic's Training DC is not printed; "
        "KMT uses the Control DC (0 here).",
    ),
    HouseDefault(
        key="recover_army.defeated_hp_critical_success",
        value=1,
        tag=Tag.DISCREPANCY,
        source="pf2e §4.7",
        note="HP a defeated army has after a critical success at Recover Army: the book gives "
        "1 HP, KMT 2.",
    ),
    HouseDefault(
        key="recover_army.defeated_hp_success",
        value=1,
        tag=Tag.DISCREPANCY,
        source="pf2e §4.7",
        note="HP a defeated army has after a success at Recover Army: book and KMT 1.",
    ),
    HouseDefault(
        key="consumption.forced_disband_penalty_per_army",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §10.2, §15 item 17",
        note="1: every army disbanded for unpaid Consumption adds Unrest +1d4 and +1 to a Ruin "
        "(a Paizo forum reading); 0: once per Kingdom turn however many are disbanded.",
    ),
    HouseDefault(
        key="battle.retreat_cost",
        value=3,
        tag=Tag.DISCREPANCY,
        source="pf2e §8.1, §15 item 7",
        note="Actions the Retreat war action costs: 3 in Foundry and the KMT packs (and "
        "consistent with Reactive Rally), 1 in older KMT TS data.",
    ),
    HouseDefault(
        key="battle.initiative_ties_enemies_of_pcs_first",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §7.3, §15 item 4",
        note="1: on an initiative tie, armies of the side without the PCs act first (PF2e "
        "default); 0: ties keep the setup order.",
    ),
    HouseDefault(
        key="battle.routed_engaged_may_disengage",
        value=1,
        tag=Tag.GAP,
        source="pf2e §8.1, §15 item 11",
        note="1: a routed army that is engaged (so cannot Retreat) may Disengage first; 0: it "
        "can only end its turn.",
    ),
    HouseDefault(
        key="battle.undetected_untargetable",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §7.4",
        note="1: distant armies in darkness or heavy fog are undetected and cannot be targeted "
        "(PF2e undetected); 0: they can be targeted (still concealed).",
    ),
    HouseDefault(
        key="guard.critical_failure_mired_lasting",
        value=1,
        tag=Tag.GAP,
        source="pf2e §8.1 Guard",
        note="Guard critical failure gives mired 1 with no duration: 1 = a lasting condition "
        "(removed by Recover Army); 0 = until the start of the army's next turn.",
    ),
    HouseDefault(
        key="defensive_stance.critical_failure_until_next_turn",
        value=0,
        tag=Tag.GAP,
        source="pf2e §8.2 Defensive Stance",
        note="Defensive Stance critical failure makes your army outflanked by the target with "
        "no duration: 0 = for the rest of the encounter (or until a Defensive Stance removes "
        "it); 1 = until the start of your next turn.",
    ),
    HouseDefault(
        key="dirty_fighting.strike_damage",
        value=1,
        tag=Tag.GAP,
        source="pf2e §8.2, §15 item 10",
        note="1: a Dirty Fighting hit also deals the Strike's normal damage (1, 2 on a "
        "critical hit), as its critical failure text implies; 0: only the weary effect.",
    ),
    HouseDefault(
        key="feint.attack_trait",
        value=0,
        tag=Tag.DISCREPANCY,
        source="pf2e §8.2, §15 item 8",
        note="Feint's trait: 0 = maneuver (KMT; it then ends fortified and cannot be used "
        "while pinned), 1 = attack (Foundry; it then counts for MAP).",
    ),
    HouseDefault(
        key="covering_fire.shots",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §8.2 Covering Fire",
        note="Shots a Covering Fire uses (a ranged Strike; the text does not say).",
    ),
    HouseDefault(
        key="rout_check.include_defeated",
        value=0,
        tag=Tag.INFERRED,
        source="pf2e §7.3",
        note="1: defeated armies (0 HP, so at or below their RT) also make end-of-round rout "
        "checks; 0: they do not (they already count as beaten).",
    ),
    HouseDefault(
        key="kingdom_xp.count_routed",
        value=0,
        tag=Tag.INFERRED,
        source="pf2e §7.6",
        note="1: a kingdom also gains XP for enemy armies it routed; 0: only for the ones it "
        "defeated (0 HP), as the text says.",
    ),
    HouseDefault(
        key="furious_charge.strike_uses_reaction",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §6.2 Furious Charge, §0.5",
        note="Furious Charge's Strike is made 'as a reaction': 1 = it uses the army's one "
        "reaction of the round (no Strike if that is used or blocked); 0 = it is free.",
    ),
    HouseDefault(
        key="primal_magic.reroll_overwhelming",
        value=1,
        tag=Tag.GAP,
        source="pf2e §6.2 Primal Magic",
        note="Overwhelming Magic (d10 9-10) rolls twice more; the text does not say what a "
        "second 9-10 does: 1 = reroll it; 0 = that roll has no effect.",
    ),
    HouseDefault(
        key="battlefield_adaptability.mired_removed",
        value=0,
        tag=Tag.GAP,
        source="pf2e §6.2 Battlefield Adaptability",
        note="'Until the start of its next turn ... reduce mired to 0': 0 = its mired counts "
        "as 0 until then and comes back afterwards; 1 = its mired ends for good.",
    ),
    HouseDefault(
        key="battle.swamp_tactics_ignore_difficult_terrain",
        value=1,
        tag=Tag.INFERRED,
        source="pf2e §6.2 Swamp Dwellers, Amphibious, Water Stride; §7.4",
        note="The battlefield has one 'difficult terrain' feature: 1 = when swamp or water is "
        "also on it, that difficult terrain is taken to be the swamp or water, which these "
        "tactics ignore; 0 = they never ignore it.",
    ),
)


def house_value(key: str) -> int:
    """The value of house default `key` (KeyError if there is no such entry)."""
    global _VALUES
    table, values = _VALUES
    if table is not HOUSE_DEFAULTS:  # (a test may put in a table of its own)
        values = {entry.key: entry.value for entry in reversed(HOUSE_DEFAULTS)}
        _VALUES = (HOUSE_DEFAULTS, values)
    try:
        return values[key]
    except KeyError:
        return table_lookup(HOUSE_DEFAULTS, key).value  # raises the KeyError


_VALUES: tuple[Any, dict[str, Any]] = ((), {})
"""`HOUSE_DEFAULTS`' values by key (the first entry of a key, as `table_lookup` finds it),
with the table they come from: the battle engine asks for some at every command."""
