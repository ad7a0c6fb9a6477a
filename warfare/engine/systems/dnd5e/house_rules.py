"""House defaults of D&D 5e "When Armies Clash": every number the reference tags [inferred]
(or where the Russian seed deviates, [seed≠orig] → `Tag.DISCREPANCY`, or the text is silent →
`Tag.GAP`) that the engine uses, in one table (see `warfare.engine.house`).

Code reads these through `house_value(key)`; a GM with the book corrects a number here.
Flags are 0 (off) / 1 (on). The seed's variants of §10 are per-battle setup options
(`battle.state.Options`), off by default; their defaults live here too.
"""

from warfare.engine.house import HouseDefault, Tag, table_lookup

HOUSE_DEFAULTS: tuple[HouseDefault, ...] = (
    HouseDefault(
        key="results.stand_hp_kept",
        value=1,
        tag=Tag.GAP,
        source="dnd5e §13 item 11",
        note="The article does not say how a surviving stand's lost HP maps back to the "
        "campaign (the reference recommends full strength): applying a battle's results "
        "writes each surviving stand's lost HP to its unit, and the next battle starts those "
        "stands hurt (0: surviving stands return at full HP).",
    ),
    HouseDefault(
        key="stand.hp_multiplier",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §4.1, §13 item 1",
        note="A stand has the hit points of ONE creature (as written); a campaign may multiply.",
    ),
    HouseDefault(
        key="speed.feet_per_square",
        value=5,
        tag=Tag.INFERRED,
        source="dnd5e §4.1",
        note="Speed in squares = speed in feet / 5, rounded down (the original's deliberate ÷5).",
    ),
    HouseDefault(
        key="range.half_square_ft",
        value=10,
        tag=Tag.INFERRED,
        source="dnd5e §5.4, §13 item 6",
        note="range_squares = max(1, (range_ft + 10) // 20): a range reaching 10 ft into a "
        "square covers it.",
    ),
    HouseDefault(
        key="regiment.split_move",
        value=0,
        tag=Tag.INFERRED,
        source="dnd5e §4.2, §13 item 3",
        note="Only skirmishers may move, act, then finish moving; a regiment moves then acts.",
    ),
    HouseDefault(
        key="configure.costs_action",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §4.3, §13 item 3",
        note="Configure is the regiment's action for the turn.",
    ),
    HouseDefault(
        key="dash.half_speed_to_full",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §5.6",
        note="Dash in Aid/Defend: the regiment moves its full speed (25 ft: 5 squares, not 2 + 2).",
    ),
    HouseDefault(
        key="rally.costs_bonus_action",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §4.5, §6.3",
        note="Rally is rolled automatically at the start of a broken unit's turn and uses the "
        "commander's bonus action; a failed rally is tried again next turn.",
    ),
    HouseDefault(
        key="commander.dc",
        value=15,
        tag=Tag.INFERRED,
        source="dnd5e §4.5",
        note="DC of the Charisma check for Prepare and Incite (the original's DC 15; the Russian "
        "labels are suggestions).",
    ),
    HouseDefault(
        key="overflow.chain",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §6.1, §13 item 5",
        note="Overflow continues from the second stand to a further adjacent identical stand; "
        "the attacker picks (default: the first by key).",
    ),
    HouseDefault(
        key="casualty.absorbs",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §6.1",
        note="A casualty counts as having 1 HP: damage to it loses 1 and the rest overflows.",
    ),
    HouseDefault(
        key="morale.every_round",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §6.2",
        note="A unit over the loss threshold checks every end of round while not broken "
        "(0: only in the round it first crosses the threshold).",
    ),
    HouseDefault(
        key="morale.dc",
        value=10,
        tag=Tag.DISCREPANCY,
        source="dnd5e §6.2, §10 item 2",
        note="DC of the morale (and rally) Wisdom saving throw; the seed says a Wisdom check.",
    ),
    HouseDefault(
        key="death_saves.per_round",
        value=10,
        tag=Tag.DISCREPANCY,
        source="dnd5e §6.2, §10 item 5",
        note="Death saves a dying solo makes at the end of each round, one after another "
        "(the seed: one per round, the `seed_one_death_save` option).",
    ),
    HouseDefault(
        key="destruction.ranged_ac",
        value=15,
        tag=Tag.INFERRED,
        source="dnd5e §7.1, §10 item 6",
        note="AC of a Destruction square against ranged attacks when the GM sets none "
        "(DMG wood 15, stone 17).",
    ),
    HouseDefault(
        key="protection.stands_needed",
        value=2,
        tag=Tag.DISCREPANCY,
        source="dnd5e §7.1, §10 item 8",
        note="Stands of the defender adjacent to a Protection square (the seed: one).",
    ),
    HouseDefault(
        key="protection.enemy_clearance",
        value=2,
        tag=Tag.INFERRED,
        source="dnd5e §7.1",
        note="No enemy stand or solo within this many squares of the protected square.",
    ),
    HouseDefault(
        key="within.counts_squares_between",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §3, §4.6",
        note="'Within n squares' (integrity, protection) counts the squares BETWEEN two pieces "
        "(diagonal neighbours are '1 square apart'); ranges count steps (adjacent = 1).",
    ),
    HouseDefault(
        key="isolation.lone_stand",
        value=0,
        tag=Tag.INFERRED,
        source="dnd5e §4.6",
        note="Whether the only stand of a unit left on the field counts as isolated (1: the "
        "literal reading, a one-stand unit is always isolated; 0: it is not).",
    ),
    HouseDefault(
        key="attrition.vp_per_unit",
        value=1,
        tag=Tag.GAP,
        source="dnd5e §7.1, §13 item 7",
        note="VP per enemy unit eliminated when an Attrition objective sets none.",
    ),
    HouseDefault(
        key="balance.min_chances",
        value=5,
        tag=Tag.INFERRED,
        source="dnd5e §7.2, §10 item 10",
        note="Scoring chances per side the balance hint asks for.",
    ),
    HouseDefault(
        key="balance.min_vp",
        value=12,
        tag=Tag.INFERRED,
        source="dnd5e §7.2, §10 item 10",
        note="VP available per side the balance hint asks for (12-15).",
    ),
    HouseDefault(
        key="victory.vp",
        value=10,
        tag=Tag.INFERRED,
        source="dnd5e §7.3",
        note="VP that end the battle at the end of a round (printed; kept here to tune).",
    ),
    HouseDefault(
        key="victory.total_margin",
        value=3,
        tag=Tag.INFERRED,
        source="dnd5e §7.3",
        note="VP lead for a total victory (printed).",
    ),
    HouseDefault(
        key="victory.desertion_roll",
        value=10,
        tag=Tag.INFERRED,
        source="dnd5e §7.3",
        note="After a total victory each surviving unit of the loser rolls a d20: this or "
        "more and it deserts, treated as eliminated (printed).",
    ),
    HouseDefault(
        key="end.army_gone",
        value=1,
        tag=Tag.GAP,
        source="dnd5e §7.3",
        note="The text ends a battle only at 10 VP. When an army has no stand on the field and "
        "no solo able to act at the end of a round, the battle ends: the other army, the "
        "last one standing, wins, or it is a draw when neither has anything left (0: fight "
        "on).",
    ),
    HouseDefault(
        key="siege.one_square",
        value=0,
        tag=Tag.INFERRED,
        source="dnd5e §8",
        note="Siege engines take the space of a solo of their size (0) or one square (1).",
    ),
    HouseDefault(
        key="siege.cauldron_reach",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §8",
        note="A suspended cauldron tips onto a square at most this many squares away.",
    ),
    HouseDefault(
        key="fly.ignores_terrain",
        value=1,
        tag=Tag.INFERRED,
        source="dnd5e §4.1, §4.7",
        note="A stand moving with a fly speed at least its walking speed ignores difficult "
        "terrain, elevation and water.",
    ),
)


def house_value(key: str) -> int:
    """The value of house default `key` (KeyError if there is no such entry)."""
    table, values = _INDEX
    if table is not HOUSE_DEFAULTS:  # the table was replaced: index the new one
        table, values = _INDEX[:] = [HOUSE_DEFAULTS, {}]
    try:
        return values[key]
    except KeyError:
        value = values[key] = table_lookup(table, key).value
        return value


_INDEX: list = [None, {}]
"""[the table indexed, key -> value]: the engine reads house values thousands of times a
battle (a forecast plays hundreds), the table is scanned once per key."""
