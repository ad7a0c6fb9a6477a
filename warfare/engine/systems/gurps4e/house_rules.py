"""House rules of GURPS Mass Combat 4e: every number or reading the reference tags [impl],
[inferred], [unverified], [errata], [seed?] or [gap] that the engine uses, in ONE table.

A GM with the book corrects a value here (or a setup overrides it per battle, see
`battle.engine`); the app can show next to a value that it is not a printed rule of seed A.
Code reads these through `house_value(key)`. The strategy table (§A.6.3, all [impl]) is the
other data table, in `strategies`.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Tag(StrEnum):
    IMPL = "impl"
    INFERRED = "inferred"
    UNVERIFIED = "unverified"
    ERRATA = "errata"
    SEED_READING = "seed?"
    GAP = "gap"


@dataclass(frozen=True, slots=True)
class HouseRule:
    key: str
    value: Any
    tag: Tag
    source: str
    """Where the reference discusses it, e.g. 'gurps §A.2.4'."""
    note: str
    configurable: bool = True
    """False: a reading documented here (and shown to the GM) but fixed in the code named in
    `note`; a setup may not override it."""

    def to_dict(self) -> dict[str, Any]:
        value = list(self.value) if isinstance(self.value, tuple) else self.value
        return {"key": self.key, "value": value, "tag": str(self.tag), "source": self.source,
                "note": self.note, "configurable": self.configurable}  # fmt: skip


HOUSE_RULES: tuple[HouseRule, ...] = (
    # --- §A.2 forces --------------------------------------------------------------------------
    HouseRule(
        "support_ts_in_total",
        "1/10",
        Tag.ERRATA,
        "gurps §A.2.4",
        "Share of parenthetical (support) TS counted in a force's total TS; '0' keeps the "
        "v1.0 text of seed A.",
    ),
    HouseRule(
        "support_c3i_only_in_total",
        "0",
        Tag.ERRATA,
        "gurps §A.2.4",
        "Share counted for a support element whose only class is C3I.",
    ),
    HouseRule("troop_quality.inferior", "1/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("troop_quality.average", "1", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("troop_quality.good", "3/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("troop_quality.elite", "2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("equipment_quality.poor", "1/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("equipment_quality.average", "1", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("equipment_quality.good", "3/2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule("equipment_quality.fine", "2", Tag.IMPL, "gurps §A.2.4", "TS multiplier."),
    HouseRule(
        "classes.naval",
        ("Air", "Nav", "C3I", "F", "Rec"),
        Tag.INFERRED,
        "gurps §A.2.2",
        "Superiority classes that apply in a naval battle (the seed is silent).",
    ),
    HouseRule(
        "classes.air",
        ("Air", "C3I", "F"),
        Tag.INFERRED,
        "gurps §A.2.2",
        "Superiority classes that apply in an air battle.",
    ),
    HouseRule(
        "classes.amphibious",
        ("Air", "Arm", "Art", "C3I", "Cav", "F", "Nav"),
        Tag.INFERRED,
        "gurps §A.2.2, §A.3.1",
        "Superiority classes of an amphibious battle: the land ones plus Naval.",
    ),
    HouseRule(
        "mobility.air",
        ("air", "fast_air", "slow_air"),
        Tag.GAP,
        "gurps §A.2.3, §A.3.1",
        "Mobility values of air elements (the full mobility list is not in any source).",
    ),
    HouseRule(
        "mobility.naval",
        ("naval", "water", "submarine"),
        Tag.GAP,
        "gurps §A.2.3, §A.3.1",
        "Mobility values of naval elements.",
    ),
    # --- §A.4 reconnaissance ------------------------------------------------------------------
    HouseRule(
        "recon.skill_rounding",
        "down",
        Tag.INFERRED,
        "gurps §A.4.2",
        "The average of Intelligence Analysis and Strategy is rounded down."
        " Fixed in `prebattle.recon_skill_terms`.",
        configurable=False,
    ),
    HouseRule(
        "recon.no_rec_elements",
        -1,
        Tag.SEED_READING,
        "gurps §A.4.3",
        "Recon modifier in a land battle when the force has no Rec element.",
    ),
    HouseRule(
        "recon.all_rec_elements",
        2,
        Tag.SEED_READING,
        "gurps §A.4.3",
        "Recon modifier in a land battle when all its elements are Rec (the book seems to "
        "grade it by Recon superiority instead; a GM may enter that bonus per side).",
    ),
    HouseRule(
        "recon.ambush_margin",
        5,
        Tag.SEED_READING,
        "gurps §A.4.4",
        "Margin of victory from which the recon winner ambushes (checked before Surprise).",
    ),
    HouseRule(
        "recon.ambush_margin_adds_tr",
        False,
        Tag.INFERRED,
        "gurps §A.4.4",
        "True: the ambush threshold is TR + recon.ambush_margin (the alternative reading).",
    ),
    # --- §A.5 before the battle ---------------------------------------------------------------
    HouseRule(
        "relative_ts.above_50",
        20,
        Tag.INFERRED,
        "gurps §A.5.2",
        "Relative TS bonus above 50:1 stays at the 50:1 value.",
    ),
    HouseRule(
        "superiority.encounter_reduced",
        ("Air", "Art", "C3I"),
        Tag.IMPL,
        "gurps §A.5.3",
        "Superiority classes whose bonus is reduced by 1 (min 0) in an encounter battle.",
    ),
    HouseRule(
        "db.half_die_rounding",
        "up",
        Tag.INFERRED,
        "gurps §0.2, §A.5.4",
        "1d/2 for the Defense Bonus rounds up. Fixed in `prebattle.roll_defense_bonus`.",
        configurable=False,
    ),
    HouseRule(
        "db.ambusher_any_strategy",
        True,
        Tag.INFERRED,
        "gurps §A.6.3",
        "An ambusher holds a DB and adds it in round 1 whatever strategy it uses.",
    ),
    HouseRule(
        "db.deliberate_attack_halves",
        True,
        Tag.IMPL,
        "gurps §A.5.4",
        "Deliberate Attack halves the enemy's DB, rounding up.",
    ),
    # --- §A.6 rounds --------------------------------------------------------------------------
    HouseRule(
        "significant_actions.stack",
        True,
        Tag.INFERRED,
        "gurps §A.6.2",
        "Significant-action results of several PCs of a side add up.",
    ),
    HouseRule(
        "significant_actions.detailed_success_bonus",
        1,
        Tag.INFERRED,
        "gurps §A.6.2",
        "Bonus to the commander's roll from a GM-resolved detailed action that succeeds.",
    ),
    HouseRule(
        "confused.overrides_encounter_restriction",
        True,
        Tag.INFERRED,
        "gurps §A.6.3",
        "A confused mobile force in round 1 of an encounter battle may still Rally or Full"
        " Retreat (the two restrictions would otherwise leave it no strategy)."
        " Fixed in `rounds.strategy_problems`.",
        configurable=False,
    ),
    HouseRule(
        "desperate.casualty_gap",
        25,
        Tag.IMPL,
        "gurps §A.6.3",
        "Percentage points a side's casualties must exceed the enemy's to go Desperate.",
    ),
    HouseRule("desperate.bonus", 4, Tag.IMPL, "gurps §A.6.3", "Strategy roll bonus."),
    HouseRule(
        "desperate.casualties",
        10,
        Tag.IMPL,
        "gurps §A.6.3",
        "Automatic own casualties (percent) of a Desperate round.",
    ),
    HouseRule(
        "rally.leadership_modifier",
        -2,
        Tag.IMPL,
        "gurps §A.6.3",
        "Modifier to the end-of-round Leadership roll of a rallying force.",
    ),
    HouseRule(
        "parley.refused_modifier",
        -1,
        Tag.IMPL,
        "gurps §A.6.3",
        "A refused Parley fights as Defense at this extra modifier.",
    ),
    HouseRule(
        "full_retreat.confused_modifier",
        -2,
        Tag.IMPL,
        "gurps §A.6.3",
        "Full Retreat of a confused force.",
    ),
    HouseRule(
        "casualties.halving_rounding",
        "down",
        Tag.IMPL,
        "gurps §A.6.3",
        "Fighting Retreat halves the enemy's casualties, rounding down."
        " Fixed in `rounds.round_casualties`.",
        configurable=False,
    ),
    HouseRule(
        "misfortune.per_character",
        True,
        Tag.SEED_READING,
        "gurps §A.6.5",
        "Misfortunes of War are rolled per PC / named NPC (the seed says 'per side')."
        " Fixed in `battle.engine._misfortunes`.",
        configurable=False,
    ),
    HouseRule(
        "misfortune.this_round_casualties",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "The chance is read from the character's side's casualties of this round."
        " Fixed in `battle.engine._misfortunes`.",
        configurable=False,
    ),
    HouseRule(
        "misfortune.no_roll_at_zero",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "No roll when the side took 0 % casualties this round."
        " Fixed in `rounds.misfortune_chance`.",
        configurable=False,
    ),
    HouseRule(
        "misfortune.between_bands",
        "lower",
        Tag.INFERRED,
        "gurps §A.6.5",
        "Casualties between the printed bands (e.g. 7 %) use the band below (min 5)."
        " Fixed in `rounds.misfortune_chance`.",
        configurable=False,
    ),
    HouseRule(
        "misfortune.damage_minimum",
        0,
        Tag.INFERRED,
        "gurps §0.2",
        "2d-1 misfortune damage never goes below this.",
    ),
    HouseRule(
        "misfortune.tie_rescues",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "A character at 0 HP or below in a tied round is rescued (not captured).",
    ),
    HouseRule(
        "commander.no_successor_confused",
        True,
        Tag.INFERRED,
        "gurps §A.6.5",
        "A force whose chain of command is exhausted becomes confused.",
    ),
    # --- §A.6.6-A.7 the end -------------------------------------------------------------------
    HouseRule(
        "retreat.both_no_victor_recover",
        True,
        Tag.INFERRED,
        "gurps §A.6.6, §A.7.2",
        "When both sides leave the field, both recover casualties as a winner would.",
    ),
    HouseRule(
        "pursuit.air_and_cavalry_add",
        True,
        Tag.IMPL,
        "gurps §A.7.1",
        "Air and Cavalry superiority each add +5 % to a pursued force's casualties.",
    ),
    HouseRule(
        "recovery.winner",
        "floor(c/10)*5",
        Tag.IMPL,
        "gurps §A.7.2",
        "A winner's final casualties: half, rounded to the lower 5 % (35 % -> 15 %)."
        " Fixed in `aftermath.recovered_winner`.",
        configurable=False,
    ),
    HouseRule(
        "new_ts.rounding",
        "down",
        Tag.IMPL,
        "gurps §A.7.3",
        "New TS = old TS x (1 - final casualties), rounded down. Fixed in `aftermath.new_ts`.",
        configurable=False,
    ),
    HouseRule(
        "loot.time_doubles_per_decade",
        True,
        Tag.INFERRED,
        "gurps §A.7.4",
        "Loot time 30 min for 1-9 elements, doubling per power of ten; both sides count."
        " Fixed in `aftermath.loot_minutes`.",
        configurable=False,
    ),
)


def house_rule(key: str) -> HouseRule:
    """The house rule `key` (KeyError if there is no such entry)."""
    for entry in HOUSE_RULES:
        if entry.key == key:
            return entry
    raise KeyError(key)


def house_value(key: str, overrides: Mapping[str, Any] | None = None) -> Any:
    """The value of house rule `key`, or a per-battle override of it."""
    if overrides and key in overrides:
        return overrides[key]
    return house_rule(key).value
