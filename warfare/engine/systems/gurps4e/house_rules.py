"""House rules of GURPS Mass Combat 4e: every number or reading the reference tags [impl],
[inferred], [unverified], [errata], [seed?] or [gap] that the engine uses, in ONE table.

A GM with the book corrects a value here (or a setup overrides it per battle, see
`battle.engine`); the app can show next to a value that it is not a printed rule of seed A.
Code reads these through `house_value(key)`. The strategy table (§A.6.3, all [impl]) is the
other data table, in `strategies`.
"""

from collections.abc import Mapping
from typing import Any

from warfare.engine.house import HouseDefault, Tag

HOUSE_RULES: tuple[HouseDefault, ...] = (
    # --- §A.2 forces --------------------------------------------------------------------------
    HouseDefault(
        "support_ts_in_total",
        "1/10",
        Tag.ERRATA,
        "gurps §A.2.4",
        "Share of parenthetical (support) TS counted in a force's total TS; '0' keeps the "
        "v1.0 text of seed A.",
    ),
    HouseDefault(
        "support_c3i_only_in_total",
        "0",
        Tag.ERRATA,
        "gurps §A.2.4",
        "Share counted for a support element whose only class is C3I.",
    ),
    HouseDefault("troop_quality.inferior", "1/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("troop_quality.average", "1", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("troop_quality.good", "3/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("troop_quality.elite", "2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("equipment_quality.poor", "1/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("equipment_quality.average", "1", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("equipment_quality.good", "3/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault("equipment_quality.fine", "2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseDefault(
        "classes.naval",
        ("Air", "Nav", "C3I", "F", "Rec"),
        Tag.INFERRED,
        "gurps §A.2.2",
        "Superiority classes that apply in a naval battle (the seed is silent).",
    ),
    HouseDefault(
        "classes.air",
        ("Air", "C3I", "F"),
        Tag.INFERRED,
        "gurps §A.2.2",
        "Superiority classes that apply in an air battle.",
    ),
    HouseDefault(
        "classes.amphibious",
        ("Air", "Arm", "Art", "C3I", "Cav", "F", "Nav"),
        Tag.INFERRED,
        "gurps §A.2.2, §A.3.1",
        "Superiority classes of an amphibious battle: the land ones plus Naval.",
    ),
    HouseDefault(
        "mobility.air",
        ("air", "fast_air", "slow_air"),
        Tag.GAP,
        "gurps §A.2.3, §A.3.1",
        "Mobility values of air elements (the full mobility list is not in any source).",
    ),
    HouseDefault(
        "mobility.naval",
        ("naval", "water", "submarine"),
        Tag.GAP,
        "gurps §A.2.3, §A.3.1",
        "Mobility values of naval elements.",
    ),
    # --- §A.4 reconnaissance ------------------------------------------------------------------
    HouseDefault(
        "recon.skill_rounding",
        "down",
        Tag.INFERRED,
        "gurps §A.4.2",
        "The average of Intelligence Analysis and Strategy is rounded down."
        " Fixed in `prebattle.recon_skill_terms`.",
        configurable=False,
    ),
    HouseDefault(
        "recon.no_rec_elements",
        -1,
        Tag.SEED_READING,
        "gurps §A.4.3",
        "Recon modifier in a land battle when the force has no Rec element.",
    ),
    HouseDefault(
        "recon.all_rec_elements",
        2,
        Tag.SEED_READING,
        "gurps §A.4.3",
        "Recon modifier in a land battle when all its elements are Rec (the book seems to "
        "grade it by Recon superiority instead; a GM may enter that bonus per side).",
    ),
    HouseDefault(
        "recon.ambush_margin",
        5,
        Tag.SEED_READING,
        "gurps §A.4.4",
        "Margin of victory from which the recon winner ambushes (checked before Surprise).",
    ),
    HouseDefault(
        "recon.ambush_margin_adds_tr",
        False,
        Tag.INFERRED,
        "gurps §A.4.4",
        "True: the ambush threshold is TR + recon.ambush_margin (the alternative reading).",
    ),
    # --- §A.5 before the battle ---------------------------------------------------------------
    HouseDefault(
        "relative_ts.above_50",
        20,
        Tag.INFERRED,
        "gurps §A.5.2",
        "Relative TS bonus above 50:1 stays at the 50:1 value.",
    ),
    HouseDefault(
        "superiority.encounter_reduced",
        ("Air", "Art", "C3I"),
        Tag.IMPL,
        "gurps §A.5.3",
        "Superiority classes whose bonus is reduced by 1 (min 0) in an encounter battle.",
    ),
    HouseDefault(
        "db.half_die_rounding",
        "up",
        Tag.INFERRED,
        "gurps §0.2, §A.5.4",
        "1d/2 for the Defense Bonus rounds up. Fixed in `prebattle.roll_defense_bonus`.",
        configurable=False,
    ),
    HouseDefault(
        "db.ambusher_any_strategy",
        True,
        Tag.INFERRED,
        "gurps §A.6.3",
        "An ambusher holds a DB and adds it in round 1 whatever strategy it uses.",
    ),
    HouseDefault(
        "db.deliberate_attack_halves",
        True,
        Tag.IMPL,
        "gurps §A.5.4",
        "Deliberate Attack halves the enemy's DB, rounding up.",
    ),
    # --- §A.6 rounds --------------------------------------------------------------------------
    HouseDefault(
        "significant_actions.stack",
        True,
        Tag.INFERRED,
        "gurps §A.6.2",
        "Significant-action results of several PCs of a side add up.",
    ),
    HouseDefault(
        "significant_actions.detailed_success_bonus",
        1,
        Tag.INFERRED,
        "gurps §A.6.2",
        "Bonus to the commander's roll from a GM-resolved detailed action that succeeds.",
    ),
    HouseDefault(
        "confused.overrides_encounter_restriction",
        True,
        Tag.INFERRED,
        "gurps §A.6.3",
        "A confused mobile force in round 1 of an encounter battle may still Rally or Full"
        " Retreat (the two restrictions would otherwise leave it no strategy)."
        " Fixed in `rounds.strategy_problems`.",
        configurable=False,
    ),
    HouseDefault(
        "desperate.casualty_gap",
        25,
        Tag.IMPL,
        "gurps §A.6.3",
        "Percentage points a side's casualties must exceed the enemy's to go Desperate.",
    ),
    HouseDefault("desperate.bonus", 4, Tag.IMPL, "gurps §A.6.3", "Strategy roll bonus."),
    HouseDefault(
        "desperate.casualties",
        10,
        Tag.IMPL,
        "gurps §A.6.3",
        "Automatic own casualties (percent) of a Desperate round.",
    ),
    HouseDefault(
        "rally.leadership_modifier",
        -2,
        Tag.IMPL,
        "gurps §A.6.3",
        "Modifier to the end-of-round Leadership roll of a rallying force.",
    ),
    HouseDefault(
        "parley.refused_modifier",
        -1,
        Tag.IMPL,
        "gurps §A.6.3",
        "A refused Parley fights as Defense at this extra modifier.",
    ),
    HouseDefault(
        "full_retreat.confused_modifier",
        -2,
        Tag.IMPL,
        "gurps §A.6.3",
        "Full Retreat of a confused force.",
    ),
    HouseDefault(
        "casualties.halving_rounding",
        "down",
        Tag.IMPL,
        "gurps §A.6.3",
        "Fighting Retreat halves the enemy's casualties, rounding down."
        " Fixed in `rounds.round_casualties`.",
        configurable=False,
    ),
    HouseDefault(
        "misfortune.per_character",
        True,
        Tag.SEED_READING,
        "gurps §A.6.5",
        "Misfortunes of War are rolled per PC / named NPC (the seed says 'per side')."
        " Fixed in `battle.engine._misfortunes`.",
        configurable=False,
    ),
    HouseDefault(
        "misfortune.this_round_casualties",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "The chance is read from the character's side's casualties of this round."
        " Fixed in `battle.engine._misfortunes`.",
        configurable=False,
    ),
    HouseDefault(
        "misfortune.no_roll_at_zero",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "No roll when the side took 0 % casualties this round."
        " Fixed in `rounds.misfortune_chance`.",
        configurable=False,
    ),
    HouseDefault(
        "misfortune.between_bands",
        "lower",
        Tag.INFERRED,
        "gurps §A.6.5",
        "Casualties between the printed bands (e.g. 7 %) use the band below (min 5)."
        " Fixed in `rounds.misfortune_chance`.",
        configurable=False,
    ),
    HouseDefault(
        "misfortune.damage_minimum",
        0,
        Tag.INFERRED,
        "gurps §0.2",
        "2d-1 misfortune damage never goes below this.",
    ),
    HouseDefault(
        "misfortune.tie_rescues",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "A character at 0 HP or below in a tied round is rescued (not captured).",
    ),
    HouseDefault(
        "commander.no_successor_confused",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "A force whose chain of command is exhausted becomes confused.",
    ),
    # --- §A.6.6-A.7 the end -------------------------------------------------------------------
    HouseDefault(
        "retreat.both_no_victor_recover",
        True,
        Tag.INFERRED,
        "gurps §A.6.6, §A.7.2",
        "When both sides leave the field, both recover casualties as a winner would.",
    ),
    HouseDefault(
        "pursuit.air_and_cavalry_add",
        True,
        Tag.IMPL,
        "gurps §A.7.1",
        "Air and Cavalry superiority each add +5 % to a pursued force's casualties.",
    ),
    HouseDefault(
        "recovery.winner",
        "floor(c/10)*5",
        Tag.IMPL,
        "gurps §A.7.2",
        "A winner's final casualties: half, rounded to the lower 5 % (35 % -> 15 %)."
        " Fixed in `aftermath.recovered_winner`.",
        configurable=False,
    ),
    HouseDefault(
        "new_ts.rounding",
        "down",
        Tag.IMPL,
        "gurps §A.7.3",
        "New TS = old TS x (1 - final casualties), rounded down. Fixed in `aftermath.new_ts`.",
        configurable=False,
    ),
    HouseDefault(
        "loot.time_doubles_per_decade",
        True,
        Tag.INFERRED,
        "gurps §A.7.4",
        "Loot time 30 min for 1-9 elements, doubling per power of ten; both sides count."
        " Fixed in `aftermath.loot_minutes`.",
        configurable=False,
    ),
)


#: {key: its house rule}, the first entry of a key (a board asks a few dozen an action).
_BY_KEY: dict[str, HouseDefault] = {}
for _entry in HOUSE_RULES:
    _BY_KEY.setdefault(_entry.key, _entry)
del _entry


def house_rule(key: str) -> HouseDefault:
    """The house rule `key` (KeyError if there is no such entry)."""
    try:
        return _BY_KEY[key]
    except KeyError:
        raise KeyError(key) from None


def house_value(key: str, overrides: Mapping[str, Any] | None = None) -> Any:
    """The value of house rule `key`, or a per-battle override of it."""
    if overrides and key in overrides:
        return overrides[key]
    return house_rule(key).value
