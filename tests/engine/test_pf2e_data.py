"""PF2e warfare data tables against the reference (shared/rules/pf2e-kingmaker-warfare.md)."""

import re
from pathlib import Path

import pytest

from warfare.engine.house import Tag
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR, purchasable_variants
from warfare.engine.systems.pf2e.house_rules import HOUSE_DEFAULTS, house_value
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import (
    BASIC_ARMIES,
    LEVELS,
    TYPE_RULES,
    ArmyType,
    LevelRow,
    Save,
    level_row,
)
from warfare.engine.systems.pf2e.tactics import (
    ARMY_SPECIFIC_ACTIONS,
    BASIC_WAR_ACTIONS,
    GENERAL_TACTICS,
    TACTICAL_WAR_ACTIONS,
    TACTICS,
    UNIQUE_TACTICS,
)
from warfare.engine.systems.pf2e.xp import kingdom_xp_for_defeated_army

ENGINE = Path(__file__).resolve().parents[2] / "warfare" / "engine"


# §1.2 -----------------------------------------------------------------------------------------


def test_section_1_2_level_table_has_20_rows():
    assert sorted(LEVELS) == list(range(1, 21))


@pytest.mark.parametrize(
    "row",
    [
        LevelRow(1, 7, 15, 16, 10, 4, 9, 1),
        LevelRow(5, 12, 20, 22, 15, 9, 15, 2),
        LevelRow(8, 16, 24, 27, 19, 13, 20, 3),
        LevelRow(16, 28, 35, 39, 30, 25, 32, 5),
        LevelRow(20, 33, 40, 45, 36, 30, 38, 6),
    ],
)
def test_section_1_2_level_rows(row):
    """§1.2: level, Scouting, Standard DC, AC, high save, low save, attack, max tactics."""
    assert LEVELS[row.level] == row


def test_section_1_2_level_5_spot_values():
    """§1.2 level 5: Scouting +12, DC 20, AC 22, high +15, low +9, attack +15, tactics 2."""
    row = level_row(5)
    assert (row.scouting, row.standard_dc, row.ac) == (12, 20, 22)
    assert (row.high_save, row.low_save, row.attack, row.max_tactics) == (15, 9, 15, 2)


def test_section_1_2_every_column_grows_with_level():
    for low, high in zip(range(1, 20), range(2, 21), strict=True):
        a, b = LEVELS[low], LEVELS[high]
        for column in ("scouting", "standard_dc", "ac", "high_save", "low_save", "attack"):
            assert getattr(b, column) > getattr(a, column), (column, high)
        assert b.max_tactics >= a.max_tactics


@pytest.mark.parametrize("level", [0, 21, None])
def test_section_1_2_levels_outside_1_to_20_are_rejected(level):
    with pytest.raises(ValueError, match="1-20"):
        level_row(level)


# §1.3 / §2 ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("army_type", "minimum", "high", "hp", "rt", "consumption", "melee", "ranged"),
    [
        (ArmyType.INFANTRY, 1, Save.MORALE, 4, 2, 1, True, False),
        (ArmyType.CAVALRY, 3, Save.MANEUVER, 4, 2, 2, True, False),
        (ArmyType.SKIRMISHER, 5, Save.MANEUVER, 4, 2, 1, True, False),
        (ArmyType.SIEGE, 7, Save.MORALE, 6, 3, 1, False, True),
    ],
)
def test_section_1_3_type_rules(army_type, minimum, high, hp, rt, consumption, melee, ranged):
    """§1.3: minimum level, high save, HP (RT), Consumption, weapons by type."""
    rules = TYPE_RULES[army_type]
    assert (rules.min_level, rules.high_save, rules.hp, rules.rt) == (minimum, high, hp, rt)
    assert (rules.consumption, rules.melee, rules.ranged) == (consumption, melee, ranged)


def test_section_1_3_skirmisher_adjustment_is_ac_minus_2_saves_plus_2():
    skirmisher = TYPE_RULES[ArmyType.SKIRMISHER]
    assert (skirmisher.ac_adjustment, skirmisher.save_adjustment) == (-2, 2)
    others = [TYPE_RULES[t] for t in ArmyType if t is not ArmyType.SKIRMISHER]
    assert all((r.ac_adjustment, r.save_adjustment) == (0, 0) for r in others)


def test_section_2_four_basic_armies_as_printed():
    """§2: level, Scouting, Rec DC, Consumption, AC, Maneuver, Morale, HP (RT), attacks."""
    assert len(BASIC_ARMIES) == 4
    rows = {
        t: (
            a.level,
            a.scouting,
            a.recruitment_dc,
            a.consumption,
            a.ac,
            a.maneuver,
            a.morale,
            a.hp,
            a.rt,
            a.melee,
            a.ranged,
            a.mandatory_tactic,
        )
        for t, a in BASIC_ARMIES.items()
    }
    assert rows == {
        ArmyType.INFANTRY: (1, 7, 15, 1, 16, 4, 10, 4, 2, 9, None, None),
        ArmyType.CAVALRY: (3, 9, 18, 2, 19, 12, 6, 4, 2, 12, None, "overrun"),
        ArmyType.SKIRMISHER: (5, 12, 20, 1, 20, 17, 11, 4, 2, 15, None, None),
        ArmyType.SIEGE: (7, 15, 23, 1, 25, 12, 18, 6, 3, None, 15, "engines_of_war"),
    }


# §3.4 -----------------------------------------------------------------------------------------


def test_section_3_4_eighteen_specialized_armies_all_marked_verify():
    assert len(SPECIALIZED_ARMIES) == 18
    assert all(army.verify for army in SPECIALIZED_ARMIES.values())


def test_section_3_4_spot_values_tiger_lord_berserkers():
    """§3.4: Tiger Lord Berserkers 12 infantry +23, DC 32, Cons 1, AC 32, +19/+25, 6 (2), +28."""
    army = SPECIALIZED_ARMIES["tiger_lord_berserkers"]
    s = army.stats
    assert (army.level, army.type) == (12, ArmyType.INFANTRY)
    assert (s.scouting, s.recruitment_dc, s.consumption, s.ac) == (23, 32, 1, 32)
    assert (s.maneuver, s.morale, s.hp, s.rt, s.melee, s.ranged) == (19, 25, 6, 2, 28, None)
    assert army.tactics == ("furious_charge", "reactive_rally", "revel_in_battle", "warmongers")


def test_section_3_4_discrepant_numbers_come_from_house_defaults():
    """§3.4 / §15 item 15: Greengripe AC 25 (KMT 23), Frog Riders AC 27 (KMT 30), Troll
    Scouting +16 (KMT +14), Wyvern melee +26 (AP +18), Sootscale 5 shots (Foundry text 7)."""
    armies = SPECIALIZED_ARMIES
    assert armies["greengripe_bombardiers"].stats.ac == house_value("greengripe_bombardiers.ac")
    assert armies["greengripe_bombardiers"].stats.ac == 25
    assert armies["mbotuu_frog_riders"].stats.ac == 27
    assert armies["troll_marauders"].stats.scouting == 16
    assert armies["wyvern_flight"].stats.melee == 26
    assert armies["sootscale_warriors"].stats.shots == 5
    assert armies["pitaxian_raiders"].stats.shots == 5
    tusker = armies["tusker_riders"].stats
    assert (tusker.melee, tusker.ranged) == (30, 28)
    first_world = armies["first_world_army"].stats
    assert (first_world.melee, first_world.ranged) == (33, 33)


def test_section_3_4_not_recruitable_armies_have_no_recruitment_dc():
    """§3.4: '—' Rec DC = not recruitable."""
    recruitable = {k for k, a in SPECIALIZED_ARMIES.items() if a.recruitable}
    assert recruitable == {
        "sootscale_warriors",
        "lizardfolk_defenders",
        "greengripe_bombardiers",
        "nomen_scouts",
        "mbotuu_frog_riders",
        "tok_nikrat_scouts",
        "tiger_lord_berserkers",
    }


def test_section_3_4_every_specialized_tactic_exists_and_unique_ones_point_back():
    for key, army in SPECIALIZED_ARMIES.items():
        for tactic in army.tactics:
            assert tactic in TACTICS, (key, tactic)
            if TACTICS[tactic].unique:
                assert TACTICS[tactic].unique_to == key


# §5 / §13 gear --------------------------------------------------------------------------------


def test_section_13_four_gear_items_and_eleven_purchasable_variants():
    assert len(GEAR) == 4
    assert len(list(purchasable_variants())) == 11


@pytest.mark.parametrize(
    ("key", "tiers"),
    [
        ("additional_weapon", [(1, 10, 0)]),
        ("healing_potions", [(1, 15, 0)]),
        ("magic_armor", [(5, 25, 1), (11, 50, 2), (18, 75, 3)]),
        ("magic_weapons", [(2, 20, 1), (10, 40, 2), (16, 60, 3)]),
    ],
)
def test_section_5_gear_levels_prices_and_bonuses(key, tiers):
    """§5: item level, price in RP, item bonus per tier."""
    assert [(t.level, t.price, t.bonus) for t in GEAR[key].tiers] == tiers


def test_section_5_magic_gear_is_the_gear_with_the_magical_trait():
    """§4.6/§5: magic gear needs Magic expert; potions carry the magical trait too."""
    assert {k for k, g in GEAR.items() if g.magical} == {
        "healing_potions",
        "magic_armor",
        "magic_weapons",
    }


# §6 tactics -----------------------------------------------------------------------------------


def test_section_13_tactic_counts_56_is_23_general_plus_33_unique():
    assert len(TACTICS) == 56
    assert len(GENERAL_TACTICS) == 23
    assert len(UNIQUE_TACTICS) == 33
    assert all(t.unique for t in UNIQUE_TACTICS)
    assert not any(t.unique for t in GENERAL_TACTICS)


@pytest.mark.parametrize(
    ("key", "level", "types", "name_ru"),
    [
        ("overrun", 3, {"cavalry"}, "Конная лава"),
        ("engines_of_war", 7, {"siege"}, "Орудие войны"),
        ("ambush", 8, {"skirmisher"}, "Засада"),
        ("opening_salvo", 8, {"cavalry", "siege", "skirmisher"}, "Приветственный залп"),
        (
            "increased_ammunition",
            5,
            {"cavalry", "infantry", "siege", "skirmisher"},
            "Увеличенный боезапас",
        ),
        ("darkvision", 1, {"cavalry", "infantry", "siege", "skirmisher"}, "Ночное зрение"),
        (
            "low_light_vision",
            1,
            {"cavalry", "infantry", "siege", "skirmisher"},
            "Сумеречное зрение",
        ),
        ("explosive_shot", 11, {"siege"}, ""),
        ("sharpshooter", 5, {"cavalry", "infantry", "skirmisher"}, ""),
        ("field_triage", 6, {"infantry", "skirmisher"}, ""),
        ("merciless", 5, {"cavalry", "infantry"}, ""),
        ("keen_eyed", 1, {"cavalry", "infantry", "siege", "skirmisher"}, ""),
        ("brave", 8, {"cavalry"}, ""),
        ("primal_magic", 16, {"skirmisher"}, ""),
    ],
)
def test_section_6_tactic_level_types_and_russian_name(key, level, types, name_ru):
    """§6.1/§6.2 levels and types; Russian names from the glossary (§12)."""
    tactic = TACTICS[key]
    assert (tactic.level, {t.value for t in tactic.types}, tactic.name_ru) == (
        level,
        types,
        name_ru,
    )
    assert tactic.name_en and tactic.effect


def test_section_6_1_only_increased_ammunition_and_toughened_soldiers_repeat():
    assert {t.key for t in TACTICS.values() if t.repeatable} == {
        "increased_ammunition",
        "toughened_soldiers",
    }


def test_section_2_mandatory_tactics_are_overrun_and_engines_of_war():
    mandatory = {t.key: t.mandatory_for for t in TACTICS.values() if t.mandatory}
    assert mandatory == {"overrun": ArmyType.CAVALRY, "engines_of_war": ArmyType.SIEGE}


def test_section_6_1_keen_eyed_level_is_the_house_default():
    """§6.1 [discrepancy]: Keen Eyed is level 1 (KMT pack says 5)."""
    assert TACTICS["keen_eyed"].level == house_value("keen_eyed.level") == 1


def test_section_8_war_action_counts_and_grants():
    """§8: 6 basic + 11 tactical actions, 9 army-specific; every grant is a known action and
    every tactical action is granted by some tactic (§8.2 tactic -> action map)."""
    assert (len(BASIC_WAR_ACTIONS), len(TACTICAL_WAR_ACTIONS)) == (6, 11)
    assert len(ARMY_SPECIFIC_ACTIONS) == 9
    known = set(TACTICAL_WAR_ACTIONS) | set(ARMY_SPECIFIC_ACTIONS)
    granted = {action for t in TACTICS.values() for action in t.grants}
    assert granted == known
    assert TACTICS["flexible_tactics"].grants == (
        "dirty_fighting",
        "feint",
        "counterattack",
        "false_retreat",
    )
    assert TACTICS["merciless"].grants == ("all_out_assault",)


# §9 conditions --------------------------------------------------------------------------------


def test_section_9_fourteen_conditions_three_valued():
    assert len(CONDITIONS) == 14
    assert {k for k, c in CONDITIONS.items() if c.valued} == {"mired", "shaken", "weary"}


@pytest.mark.parametrize(
    ("key", "name_ru"),
    [
        ("pinned", "Взято в котёл"),
        ("shaken", "Потрясено"),
        ("weary", "Измотано"),
        ("concealed", "Плохо видимо"),
        ("efficient", "Эффективно"),
        ("outflanked", "Окружено"),
    ],
)
def test_section_9_russian_condition_names(key, name_ru):
    assert CONDITIONS[key].name_ru == name_ru


# §7.6 kingdom XP ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("army_level", "kingdom_level", "xp"),
    [
        (1, 5, 10),
        (2, 5, 15),
        (3, 5, 20),
        (4, 5, 30),
        (5, 5, 40),
        (6, 5, 60),
        (7, 5, 80),
        (8, 5, 120),
        (9, 5, 160),
        (1, 6, 0),
        (10, 5, 160),
        (20, 1, 160),
    ],
)
def test_section_7_6_kingdom_xp_by_level_difference(army_level, kingdom_level, xp):
    """§7.6: -4..+4 -> 10,15,20,30,40,60,80,120,160; below -4: 0; above +4: house default."""
    assert kingdom_xp_for_defeated_army(army_level, kingdom_level) == xp


# House defaults and purity --------------------------------------------------------------------


def test_house_defaults_have_unique_keys_and_reference_tags():
    keys = [entry.key for entry in HOUSE_DEFAULTS]
    assert len(keys) == len(set(keys))
    assert all(isinstance(entry.tag, Tag) and "§" in entry.source for entry in HOUSE_DEFAULTS)


def test_every_house_default_is_read_by_engine_code():
    """A house default that no code reads would be a number the GM edits for nothing."""
    code = "\n".join(
        path.read_text(encoding="utf-8")
        for path in ENGINE.rglob("*.py")
        if path.name != "house_rules.py"
    )
    for entry in HOUSE_DEFAULTS:
        assert f'house_value("{entry.key}")' in code, entry.key


def test_engine_imports_no_django_and_uses_no_global_random():
    forbidden = re.compile(
        r"^\s*(from|import)\s+(django|rest_framework|kingdoms|battles)\b|\brandom\.(random|"
        r"randint|randrange|choice|choices|shuffle|sample|uniform|seed|gauss)\(",
        re.MULTILINE,
    )
    for path in ENGINE.rglob("*.py"):
        assert not forbidden.search(path.read_text(encoding="utf-8")), path
