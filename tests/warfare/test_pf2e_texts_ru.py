"""Russian texts of the PF2e warfare data, from the gettext catalogue (the engine keeps the
English source strings; `warfare.systems.pf2e.labels` translates them with their contexts):
coverage, no stray keys, no dropped numbers, glossary names (reference §12); the markers that
put them in the catalogue (`warfare/systems/pf2e/texts.py`) are up to date."""

import re

import pytest
from django.core.management import call_command
from django.utils import translation

from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.gear import GEAR
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tactics import (
    ARMY_SPECIFIC_ACTIONS,
    BASIC_WAR_ACTIONS,
    TACTICAL_WAR_ACTIONS,
    TACTICS,
    WAR_ACTION_NAMES,
)
from warfare.systems.pf2e import labels


def _russian(label, keys) -> dict:
    """{key: its Russian text}, only where the catalogue translates the English one."""
    with translation.override("en"):
        english = {key: label(*key) if isinstance(key, tuple) else label(key) for key in keys}
    with translation.override("ru"):
        russian = {key: label(*key) if isinstance(key, tuple) else label(key) for key in keys}
    return {key: text for key, text in russian.items() if text != english[key]}


WAR_ACTIONS = BASIC_WAR_ACTIONS + TACTICAL_WAR_ACTIONS + ARMY_SPECIFIC_ACTIONS
GEAR_TIERS = {(gear.key, tier.tier): tier for gear in GEAR.values() for tier in gear.tiers}

# A number with an optional sign; a sign glued to a preceding word or digit ("1-2") is a dash.
NUMBER = re.compile(r"(?<!\w)[+\-]?\d+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")

TACTIC_NAMES_RU = _russian(labels.tactic_name, TACTICS)
TACTIC_EFFECTS_RU = _russian(labels.tactic_effect, TACTICS)
CONDITION_NAMES_RU = _russian(labels.condition_name, CONDITIONS)
CONDITION_EFFECTS_RU = _russian(labels.condition_effect, CONDITIONS)
GEAR_NAMES_RU = _russian(labels.gear_name, GEAR)
GEAR_EFFECTS_RU = _russian(labels.gear_effect, GEAR)
GEAR_TIER_NAMES_RU = _russian(labels.gear_tier_name, GEAR_TIERS)
SPECIALIZED_NAMES_RU = _russian(labels.specialized_name, SPECIALIZED_ARMIES)
WAR_ACTION_NAMES_RU = _russian(labels.war_action_name, WAR_ACTIONS)

# (Russian dict, English source texts by key) for every translated effect text.
EFFECTS = {
    "tactics": (TACTIC_EFFECTS_RU, {key: tactic.effect for key, tactic in TACTICS.items()}),
    "conditions": (
        CONDITION_EFFECTS_RU,
        {key: condition.effect for key, condition in CONDITIONS.items()},
    ),
    "gear": (GEAR_EFFECTS_RU, {key: gear.effect for key, gear in GEAR.items()}),
}

# (Russian dict, keys that must be covered, exactly) for every dict of the module.
COVERAGE = {
    "TACTIC_NAMES_RU": (TACTIC_NAMES_RU, set(TACTICS)),
    "TACTIC_EFFECTS_RU": (TACTIC_EFFECTS_RU, set(TACTICS)),
    "CONDITION_NAMES_RU": (CONDITION_NAMES_RU, set(CONDITIONS)),
    "CONDITION_EFFECTS_RU": (CONDITION_EFFECTS_RU, set(CONDITIONS)),
    "GEAR_NAMES_RU": (GEAR_NAMES_RU, set(GEAR)),
    "GEAR_EFFECTS_RU": (GEAR_EFFECTS_RU, set(GEAR)),
    "GEAR_TIER_NAMES_RU": (GEAR_TIER_NAMES_RU, set(GEAR_TIERS)),
    "SPECIALIZED_NAMES_RU": (SPECIALIZED_NAMES_RU, set(SPECIALIZED_ARMIES)),
    "WAR_ACTION_NAMES_RU": (WAR_ACTION_NAMES_RU, set(WAR_ACTIONS)),
}

RUSSIAN_DICTS = {name: texts for name, (texts, _keys) in COVERAGE.items()}


def _numbers(text: str) -> set[str]:
    return set(NUMBER.findall(text.replace("\u2212", "-")))


def _all_russian_texts():
    for name, texts in RUSSIAN_DICTS.items():
        for key, text in texts.items():
            yield pytest.param(text, id=f"{name}[{key}]")


# Coverage ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_every_data_key_is_covered(name):
    texts, keys = COVERAGE[name]
    assert sorted(keys - set(texts)) == []


@pytest.mark.parametrize("name", sorted(COVERAGE))
def test_no_keys_missing_from_the_data(name):
    texts, keys = COVERAGE[name]
    assert sorted(set(texts) - keys) == []


def test_english_war_action_names_cover_exactly_the_war_action_keys():
    assert set(WAR_ACTION_NAMES) == set(WAR_ACTIONS)
    assert all(name.strip() for name in WAR_ACTION_NAMES.values())


def test_war_action_key_tuples_have_no_duplicates():
    assert len(set(WAR_ACTIONS)) == len(WAR_ACTIONS) == 26


@pytest.mark.parametrize("key", sorted(TACTICS))
def test_every_tactic_has_a_russian_name_and_effect(key):
    assert TACTIC_NAMES_RU[key].strip()
    assert TACTIC_EFFECTS_RU[key].strip()


@pytest.mark.parametrize("key", sorted({g for tactic in TACTICS.values() for g in tactic.grants}))
def test_every_granted_action_has_names(key):
    assert WAR_ACTION_NAMES_RU[key]
    assert WAR_ACTION_NAMES[key]


# Texts ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", list(_all_russian_texts()))
def test_russian_texts_are_non_empty_cyrillic_without_english_words(text):
    assert text == text.strip()
    assert text
    assert CYRILLIC.search(text)
    assert not LATIN_WORD.findall(text)


def _effect_pairs():
    for group, (russian, english) in EFFECTS.items():
        for key, text_en in english.items():
            yield pytest.param(text_en, russian.get(key, ""), id=f"{group}[{key}]")


@pytest.mark.parametrize(("text_en", "text_ru"), list(_effect_pairs()))
def test_every_number_of_the_english_effect_is_in_the_russian_one(text_en, text_ru):
    missing = _numbers(text_en) - _numbers(text_ru)
    assert not missing, f"{sorted(missing)} dropped from {text_ru!r}"


def test_number_extraction_keeps_signs_and_ignores_dashes():
    assert _numbers("-4/-8 instead of -5/-10; 1-2 damage; +2 at level 10; d10; RT 1/4") == {
        "-4", "-8", "-5", "-10", "1", "2", "+2", "10", "4",
    }  # fmt: skip
    assert _numbers("штраф \u22122") == {"-2"}


# Names from the data and the glossary (§12) -----------------------------------------------------


@pytest.mark.parametrize("key", sorted(k for k, t in TACTICS.items() if t.name_ru))
def test_existing_tactic_names_ru_are_kept(key):
    assert TACTIC_NAMES_RU[key] == TACTICS[key].name_ru


@pytest.mark.parametrize("key", sorted(GEAR))
def test_existing_gear_names_ru_are_kept(key):
    if GEAR[key].name_ru:
        assert GEAR_NAMES_RU[key] == GEAR[key].name_ru


@pytest.mark.parametrize("key", sorted(GEAR_TIERS))
def test_existing_gear_tier_names_ru_are_kept(key):
    if GEAR_TIERS[key].name_ru:
        assert GEAR_TIER_NAMES_RU[key] == GEAR_TIERS[key].name_ru


@pytest.mark.parametrize("key", sorted(CONDITIONS))
def test_condition_names_ru_are_the_datas(key):
    assert CONDITION_NAMES_RU[key] == CONDITIONS[key].name_ru


@pytest.mark.parametrize("key", sorted(SPECIALIZED_ARMIES))
def test_existing_specialized_names_ru_are_kept(key):
    if SPECIALIZED_ARMIES[key].name_ru:
        assert SPECIALIZED_NAMES_RU[key] == SPECIALIZED_ARMIES[key].name_ru


@pytest.mark.parametrize(
    ("names", "key", "expected"),
    [
        (TACTIC_NAMES_RU, "overrun", "Конная лава"),
        (TACTIC_NAMES_RU, "engines_of_war", "Орудие войны"),
        (TACTIC_NAMES_RU, "ambush", "Засада"),
        (TACTIC_NAMES_RU, "opening_salvo", "Приветственный залп"),
        (TACTIC_NAMES_RU, "increased_ammunition", "Увеличенный боезапас"),
        (TACTIC_NAMES_RU, "darkvision", "Ночное зрение"),
        (GEAR_NAMES_RU, "additional_weapon", "Дополнительное оружие"),
        (GEAR_NAMES_RU, "healing_potions", "Зелья исцеления"),
        (GEAR_NAMES_RU, "magic_armor", "Магическая броня"),
        (GEAR_NAMES_RU, "magic_weapons", "Магическое оружие"),
        (WAR_ACTION_NAMES_RU, "rally", "Перегруппировка"),
        (WAR_ACTION_NAMES_RU, "retreat", "Отступление"),
        (SPECIALIZED_NAMES_RU, "sootscale_warriors", "Воины Сажечешуи"),
    ],
)
def test_glossary_names(names, key, expected):
    assert names[key] == expected


@pytest.mark.parametrize("key", ARMY_SPECIFIC_ACTIONS)
def test_army_specific_actions_are_named_like_their_unique_tactics(key):
    assert WAR_ACTION_NAMES[key] == TACTICS[key].name_en
    assert WAR_ACTION_NAMES_RU[key] == TACTIC_NAMES_RU[key]


@pytest.mark.parametrize("key", sorted(TACTICS))
def test_tactic_effects_use_the_glossary_terms(key):
    """Each English rules term in an effect shows up as its §12 Russian term."""
    text_en, text_ru = TACTICS[key].effect, TACTIC_EFFECTS_RU[key].lower()
    terms = {
        r"\bstatus\b": "бонус состояния|штраф состояния",
        r"\bcircumstance\b": "ситуативн",
        r"\bDC\b": "сл",
        r"\bAC\b": "кб",
        r"\bHP\b": "пз",
        r"\bManeuver\b": "манёвр",
        r"\bMorale\b": "боевого духа|боевому духу|боевой дух",
        r"\bScouting\b": "разведк",
        r"\bweary\b": "измотан",
        r"\bshaken\b": "потрясен",
        r"\bmired\b": "завязл",
        r"\brouted?\b": "бегств",
        r"\bengaged?\b": "вовлеч",
        r"\bdistant\b": "на отдалении",
        r"\bconcealed\b": "плохо видим",
        r"\bdefeated\b": "разгромлен",
        r"\bdestroyed\b": "уничтожен",
    }
    for english, russian in terms.items():
        if re.search(english, text_en):
            assert re.search(russian, text_ru), f"{english} -> {russian} in {text_ru!r}"


def test_the_catalogue_markers_match_the_rules_data():
    """warfare/systems/pf2e/texts.py marks exactly the data's English texts (make messages
    writes it): a changed or new text must reach the catalogue to be translated."""
    call_command("pf2e_texts", check=True)


def test_the_pages_show_the_russian_texts(client, gm, militia):
    """The army sheet in Russian names its tactic and its effect from the catalogue."""
    client.force_login(gm)
    client.cookies["django_language"] = "ru"
    page = client.get(militia.get_absolute_url()).content.decode()
    assert TACTIC_NAMES_RU["toughened_soldiers"] in page
    assert TACTIC_EFFECTS_RU["toughened_soldiers"] in page
