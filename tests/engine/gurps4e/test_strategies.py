"""The strategy table (gurps §A.6.3, all [impl]) and its effects list."""

import pytest

from warfare.engine.systems.gurps4e.strategies import (
    STRATEGIES,
    strategy_effects,
    superiority_bonus_terms,
)


def _codes(key):
    return {e["code"].removeprefix("strategy."): e["params"] for e in strategy_effects(key)}


@pytest.mark.parametrize(
    ("key", "group", "modifier"),
    [("all_out_attack", "attack", 2), ("attack", "attack", 0), ("deliberate_attack", "attack", 1),
     ("indirect_attack", "attack", -3), ("all_out_defense", "defense", 2),
     ("defense", "defense", 1), ("deliberate_defense", "defense", 1),
     ("mobile_defense", "defense", 0), ("parley", "defense", 0), ("rally", "defense", -2),
     ("fighting_retreat", "retreat", 3), ("full_retreat", "retreat", 8),
     ("raid", "raid_skirmish", 0), ("skirmish", "raid_skirmish", 2)],
)  # fmt: skip
def test_every_strategy_has_its_group_and_modifier(key, group, modifier):
    """gurps §A.6.3 strategy table [impl]: group and Strategy modifier."""
    assert (STRATEGIES[key].group, STRATEGIES[key].modifier) == (group, modifier)
    effects = _codes(key)
    assert effects["group"] == {"group": group}
    assert effects["modifier"] == {"value": modifier}


def test_strategy_effects_list_what_each_strategy_does():
    """gurps §A.6.3: the effects shown before choosing."""
    assert _codes("all_out_attack")["own_casualties_multiplied"] == {"factor": 2}
    assert _codes("all_out_attack")["enemy_casualties_on_win"] == {"percent": 5}
    assert "gains_pb_on_win" in _codes("attack")
    assert _codes("deliberate_attack")["superiority_bonus"] == {"cls": "Art", "value": 1}
    assert {"slow", "not_desperate", "not_in_encounter_battle", "not_if_started_confused"} <= set(
        _codes("deliberate_attack"))  # fmt: skip
    assert _codes("indirect_attack")["margin_multiplied"] == {"first": 2.0, "later": 1.5}
    assert _codes("indirect_attack")["repeat_modifier"] == {"value": -2}
    assert _codes("all_out_defense")["enemy_pb_gain_shift"] == {"value": -1}
    assert _codes("deliberate_defense")["enemy_casualties_on_win_or_tie"] == {"percent": 5}
    assert "needs_db_first_round_or_siege" in _codes("deliberate_defense")
    md = _codes("mobile_defense")
    assert md["own_casualties_reduced_on_loss_or_tie"] == {"percent": 5}
    assert md["superiority_bonus_any"] == {"classes": ["Cav", "Nav"], "value": 1}
    assert md["enemy_pb_on_tie"] == {"value": 1}
    assert "only_when_confused" in _codes("rally")
    assert "uses_db" in _codes("parley")
    fr = _codes("fighting_retreat")
    assert "enemy_casualties_halved" in fr
    assert fr["leaves_field"] == {"when": "win_or_tie"}
    assert _codes("full_retreat")["full_retreat_casualties"] == {"own_minus": 10}
    assert _codes("full_retreat")["confused_modifier"] == {"value": -2}
    assert {"reduces_enemy_pb", "casualties_to_enemy_logistics"} <= set(_codes("raid"))
    assert _codes("skirmish")["own_casualties_reduced"] == {"percent": 5}
    assert "own_margin_halved" in _codes("skirmish")
    assert not any(STRATEGIES[k].gains_pb for k in STRATEGIES if STRATEGIES[k].group != "attack")


def test_strategy_superiority_bonuses():
    """gurps §A.6.3: Raid +1 per Air, Cav, Nav and Rec superiority; Skirmish +1 once for Air,
    Art or F; Mobile Defense +1 for Cav or Nav; Indirect +1 with C3I."""
    sups = {"Air": 1, "Cav": 2, "Nav": 0, "Rec": 3, "Art": 1, "F": 1, "C3I": 1}
    assert superiority_bonus_terms("raid", sups) == [
        ("strategy_superiority.Air", 1), ("strategy_superiority.Cav", 1),
        ("strategy_superiority.Rec", 1)]  # fmt: skip
    assert superiority_bonus_terms("skirmish", sups) == [("strategy_superiority.Air", 1)]
    assert superiority_bonus_terms("mobile_defense", sups) == [("strategy_superiority.Cav", 1)]
    assert superiority_bonus_terms("indirect_attack", sups) == [("strategy_superiority.C3I", 1)]
    assert superiority_bonus_terms("deliberate_attack", {"Art": 0}) == []


def test_strategy_effects_come_in_the_table_order():
    """gurps §A.6.3: the board lists a strategy's effects in the table's order: group,
    modifier, casualties, superiority and Position Bonus, then when it may be chosen and
    what follows."""
    assert [e["code"] for e in strategy_effects("mobile_defense")] == [
        "strategy.group", "strategy.modifier", "strategy.own_casualties_reduced_on_loss_or_tie",
        "strategy.superiority_bonus_any", "strategy.enemy_pb_gain_shift",
        "strategy.enemy_pb_on_tie", "strategy.uses_db",
    ]  # fmt: skip
    assert [e["code"] for e in strategy_effects("indirect_attack")][2:] == [
        "strategy.superiority_bonus", "strategy.gains_pb_on_win", "strategy.margin_multiplied",
        "strategy.repeat_modifier",
    ]  # fmt: skip
