"""House defaults of GURPS 3e mass combat (gurps Part B): every number the reference tags
[inferred], [gap], [unverified], [web] or [rp30-ru] (read from a partly retrieved source) that
the engine uses, in one table (see `warfare.engine.house`).

Code reads these through `house_value(key)`; a GM with *Compendium II* or *Roleplayer* #30
corrects a number here. Flags are 1 (on) or 0 (off).
"""

from warfare.engine.house import HouseDefault, Tag, table_lookup

HOUSE_DEFAULTS: tuple[HouseDefault, ...] = (
    # --- characters ---------------------------------------------------------------------------
    HouseDefault(
        key="combat_skill.divisor",
        value=2,
        tag=Tag.INFERRED,
        source="gurps §B.3",
        note="Combat Skill = (Tactics + best weapon skill) divided by this, rounded down (the "
        "average). The exact formula is on an unretrieved page.",
    ),
    HouseDefault(
        key="tactics.default_from_iq",
        value=-6,
        tag=Tag.UNVERIFIED,
        source="gurps §0.2, §B.3",
        note="An untrained character's Tactics defaults to IQ plus this.",
    ),
    HouseDefault(
        key="luck.extra_rolls",
        value=2,
        tag=Tag.INFERRED,
        source="gurps §B.5",
        note="'Luck may be used to reroll the Survival roll': a declared use rolls this many "
        "more times when the first roll does not leave the character unhurt, and keeps the "
        "best (3e Luck: best of three).",
    ),
    HouseDefault(
        key="toughness.adds_to_dr",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5",
        note="'Toughness counts': its level is added to DR against each hit.",
    ),
    HouseDefault(
        key="death.multiple_of_ht",
        value=5,
        tag=Tag.UNVERIFIED,
        source="gurps §B.5 (3e Basic Set)",
        note="A character dies at -HT times this; at each full -HT before that he rolls HT or "
        "dies; at 0 HT or less he is out of the fight (unconscious).",
    ),
    # --- Survival and damage ------------------------------------------------------------------
    HouseDefault(
        key="survival.critical_success_unhurt",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5",
        note="A critical success on the Survival roll leaves the character unhurt whatever "
        "its margin.",
    ),
    HouseDefault(
        key="survival.flat_hits_ignore_dr",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5",
        note="The '1 hit' and '2 hits' results come straight off HT (0: DR applies to them).",
    ),
    HouseDefault(
        key="roll.automatic_failure_margin",
        value=-1,
        tag=Tag.INFERRED,
        source="gurps §0.2, §B.5, §B.6.1",
        note="A 17 that fails although it is within skill (skill 17+) is read as missed by "
        "this much on the Survival and Glory tables.",
    ),
    HouseDefault(
        key="damage.separate_hits",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5, Gaps 12",
        note="'N x (dice - DR)' is N separate hits, DR applied to each (0: one roll times N).",
    ),
    HouseDefault(
        key="damage.tl_of_enemy",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5",
        note="The damage row is the TL of the enemy's weapons (0: the higher of the two TLs).",
    ),
    HouseDefault(
        key="damage.round_fractions_down",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.5, Gaps 12",
        note="(TL/2)d at an odd TL and DR/k are rounded down (0: rounded up).",
    ),
    # --- Glory --------------------------------------------------------------------------------
    HouseDefault(
        key="glory.army_commander.bonus_extra",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.6.1, Gaps 11",
        note="An army commander's Glory Strategy bonus is this much larger than a unit "
        "commander's (+3/+2/+2).",
    ),
    HouseDefault(
        key="glory.army_commander.penalty_extra",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.6.1, Gaps 11",
        note="An army commander's Glory Strategy penalty is this much larger in size than a "
        "unit commander's (-2/-4). The seed says 'one point less': -1 here reads it as a "
        "smaller penalty (0/-2).",
    ),
    # --- forces and Strategy modifiers ----------------------------------------------------
    *(
        HouseDefault(
            key=key,
            value=value,
            tag=Tag.RP30_RU,
            source="gurps §B.3a",
            note=note,
        )
        for key, value, note in (
            ("race_ts.lizard_men", 3, "Racial TS modifier of lizard-men (the article's example)."),
            ("race_ts.halflings", -1, "Racial TS modifier of halflings (the article's example)."),
            (
                "troop_ts.halfling_light_infantry",
                2,
                "Per-man TS of halfling light infantry, racial modifier included.",
            ),
            (
                "troop_ts.halfling_heavy_infantry_slings",
                5,
                "Per-man TS of halfling heavy infantry with slings, racial modifier and "
                "missile bonus included.",
            ),
        )
    ),
    HouseDefault(
        key="race.super_strength_per_level",
        value=10,
        tag=Tag.RP30_RU,
        source="gurps §B.3a",
        note="Each level of Super Strength counts this much toward the racial ST modifier.",
    ),
    HouseDefault(
        key="race.minimum_ts",
        value=1,
        tag=Tag.RP30_RU,
        source="gurps §B.3a",
        note="Racial penalties cannot lower a man's TS below this (weapon/armour bonuses are "
        "added after).",
    ),
    HouseDefault(
        key="race.half_rounds_toward_zero",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.3a",
        note="The racial modifier ½ x (ST mod + HT mod + extra HP) is rounded toward zero "
        "(0: rounded down).",
    ),
    HouseDefault(
        key="ts_ratio.upper_bound_inclusive",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.7.1",
        note="The seed's TS ratio ranges overlap at their ends; each band includes its upper "
        "bound (1.4 gives +1, not +2). 0: the lower bound instead.",
    ),
    HouseDefault(
        key="ts_ratio.tl_superiority_gap",
        value=2,
        tag=Tag.RP30_RU,
        source="gurps §B.7.1",
        note="The 10:1 cap is lifted when the larger force's TL exceeds the enemy's by MORE "
        "than this.",
    ),
    HouseDefault(
        key="ts_ratio.tl_superiority_base",
        value=7,
        tag=Tag.INFERRED,
        source="gurps §B.7.1",
        note="Beyond 10:1 with TL superiority: bonus = max(8, this + floor(ratio / 10)); "
        "30:1 gives +10 (the seed's example).",
    ),
    HouseDefault(
        key="strategy.tl_difference_extra",
        value=2,
        tag=Tag.RP30_RU,
        source="gurps §B.7.3",
        note="The more advanced army rolls Strategy at +(TL difference + this); TL5 vs TL3 "
        "gives +4.",
    ),
    HouseDefault(
        key="strategy.tl_difference_stacks",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.7.3, Gaps 10",
        note="The TL-difference bonus applies together with the TL-superiority cap lifting of "
        "§B.7.1 (0: not when the cap is lifted).",
    ),
    HouseDefault(
        key="defensive.asterisk_highest_only",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.7.2",
        note="Of the asterisked defensive items only the highest counts (they still combine "
        "with the others). 0: every item adds.",
    ),
    HouseDefault(
        key="strategy.leader_down",
        value=-1,
        tag=Tag.GAP,
        source="gurps §B.2 step 4, §B.5, §B.8.4",
        note="A side whose army or unit leader is knocked out rolls Strategy 'as for "
        "Catastrophes': the effect is unknown; this modifier (from the Titus example's -1 "
        "Morale for a wounded commander, §B.8.3) is applied once per side.",
    ),
    # --- result table ------------------------------------------------------------------------
    HouseDefault(
        key="result.tie_morale_penalty",
        value=0,
        tag=Tag.INFERRED,
        source="gurps §B.8.1",
        note="A tied contest: both sides hold their positions with this next-day Morale "
        "penalty and no Morale rolls.",
    ),
    HouseDefault(
        key="result.defender_1_3_morale_penalty",
        value=0,
        tag=Tag.GAP,
        source="gurps §B.8.1",
        note="Defender won by 1-3 (line not retrieved): mirrors the Attacker column, no clear "
        "winner, the Attacker takes this next-day Morale penalty.",
    ),
    HouseDefault(
        key="result.extended_by_clear_victories",
        value=1,
        tag=Tag.GAP,
        source="gurps §B.1, §B.8",
        note="An extended battle that neither side left: Part B names a winner per day only. "
        "The side with more clear victories (minor or better, §B.8.1) over the days wins; "
        "equal, the side that won more days; equal again, nobody. 0: the last day's winner.",
    ),
    HouseDefault(
        key="result.half_by_men",
        value=1,
        tag=Tag.INFERRED,
        source="gurps §B.8.1",
        note="'At least half of its troops make their Morale rolls' counts men (0: units).",
    ),
    HouseDefault(
        key="result.loser_morale_penalty",
        value=-2,
        tag=Tag.RP30_RU,
        source="gurps §B.8.1",
        note="'The loser's Morale is at -2' (significant/overwhelming Defender victories), "
        "applied to the Morale rolls that result calls for [inferred].",
    ),
    HouseDefault(
        key="result.next_day_morale_penalty",
        value=-2,
        tag=Tag.RP30_RU,
        source="gurps §B.8.1",
        note="Attacker's minor victory: the Defender is at this Morale on the next day.",
    ),
    # --- morale -------------------------------------------------------------------------------
    HouseDefault(
        key="quality.veteran_morale",
        value=15,
        tag=Tag.RP30_RU,
        source="gurps §B.8.3",
        note="Base Morale of a Veteran unit (the only value of the Troop Quality table "
        "retrieved); other grades are GM-entered.",
    ),
    *(
        HouseDefault(
            key=f"morale.{code}",
            value=value,
            tag=Tag.RP30_RU,
            source="gurps §B.8.3, §B.8.5",
            note=note,
        )
        for code, value, note in (
            ("hereditary_enemy", 1, "Always, in a war against a hereditary enemy."),
            ("homeland", 2, "Defending the homeland."),
            ("beat_enemy_this_year", 1, "The unit beat the same enemy this year."),
            ("lost_to_enemy_this_year", -2, "The unit lost to the same enemy this year."),
            ("enemy_spy_network", -1, "The army knows an enemy spy network works inside it."),
            ("treachery_failed", -1, "Failed the Morale roll forced by a treachery."),
            ("treachery_anger", 1, "Made the Morale roll forced by a treachery (anger)."),
            ("extra_pay_50", 1, "Paid 50 % extra last month (loot counts as pay)."),
            ("extra_pay_100", 2, "Paid 100 % or more extra last month."),
        )
    ),
    HouseDefault(
        key="leader_down.morale",
        value=-1,
        tag=Tag.GAP,
        source="gurps §B.8.3, §B.8.4",
        note="Morale modifier of a side while one of its leaders is out of the fight, and, "
        "lasting until it wins a clear victory (minor or better), after its army commander "
        "died or was captured. From the Titus example (commander wounded: -1).",
    ),
    # --- casualties (house default of §B.8: NOT a 3e rule) ------------------------------------
    HouseDefault(
        key="casualties.percent_per_row",
        value=5,
        tag=Tag.INFERRED,
        source="gurps §B.8, §B.8.2",
        note="House default casualties: one Casualty Table row is this many percentage "
        "points (armour moves down, rout and intensity move up). Not a 3e rule.",
    ),
    HouseDefault(
        key="casualties.rows.heavy",
        value=-4,
        tag=Tag.RP30_RU,
        source="gurps §B.8.2",
        note="Heavy cavalry and heavy infantry: 4 rows down the Casualty Table.",
    ),
    HouseDefault(
        key="casualties.rows.medium",
        value=-2,
        tag=Tag.RP30_RU,
        source="gurps §B.8.2",
        note="Medium cavalry and medium infantry: 2 rows down.",
    ),
    HouseDefault(
        key="casualties.rows.light",
        value=-1,
        tag=Tag.RP30_RU,
        source="gurps §B.8.2",
        note="Light cavalry, light infantry and spearmen: 1 row down.",
    ),
    *(
        HouseDefault(
            key=f"casualties.crt.{band}.{who}",
            value=value,
            tag=Tag.INFERRED,
            source="gurps §B.8 (4e table §A.6.4)",
            note="House default base casualty % for the 3e margin, taken from the 4e Combat "
            "Results Table until the 3e Casualty Table is sourced. Not a 3e rule.",
        )
        for band, loser, winner in (
            ("tie", 10, 10),
            ("1_3", 15, 10),
            ("4_6", 20, 10),
            ("7_9", 25, 5),
            ("10_14", 30, 5),
            ("15_19", 35, 0),
            ("20_plus", 40, 0),
        )
        for who, value in (("loser", loser), ("winner", winner))
    ),
)


def house_value(key: str) -> int:
    """The current value of a house default (KeyError for an unknown key)."""
    return table_lookup(HOUSE_DEFAULTS, key).value
