"""What a battle changed on a Pathfinder army, applied to the army as it is now
(warfare.engine.systems.pf2e.battle.results; DESIGN.md "Results")."""

from dataclasses import replace

from warfare.engine.systems.pf2e.activities.state import ArmyState
from warfare.engine.systems.pf2e.armies import ArmySpec
from warfare.engine.systems.pf2e.battle.results import apply_changes, army_changes
from warfare.engine.systems.pf2e.gear import GearChoice
from warfare.engine.systems.pf2e.tables import ArmyType


def _army(hp=4, conditions=None, tactics=("keen_eyed",), **kw) -> ArmyState:
    spec = ArmySpec(ArmyType.INFANTRY, 3, tactics=tactics, conditions=conditions or {},
                    gear=kw.pop("gear", ()))  # fmt: skip
    return ArmyState("7", spec, hp, "C7", **kw)


def test_hp_conditions_and_potions_are_differences_added_to_the_army_now():
    """In: 4 HP, weary 1, 2 doses. Out: 1 HP, weary 2, shaken 1, 1 dose, routed ended.
    Now: 3 HP, weary 1, mired 1, a tactic learnt, 2 activities: the battle's −3 HP, weary
    +1, shaken +1 and one dose are added; the rest stays."""
    before = _army(conditions={"weary": 1, "routed": 1}, potion_doses=2)
    after = _army(hp=1, conditions={"weary": 2, "shaken": 1}, potion_doses=1)
    now = _army(hp=3, conditions={"weary": 1, "mired": 1}, tactics=("keen_eyed", "hold_the_line"),
                potion_doses=2, activities_this_turn=2)  # fmt: skip
    result = apply_changes(now, army_changes(before, after))
    assert result.hp == 0  # 3 − 3
    assert result.spec.condition_values == {"weary": 2, "mired": 1, "shaken": 1}
    assert (result.potion_doses, result.activities_this_turn) == (1, 2)
    assert result.spec.tactics == ("keen_eyed", "hold_the_line")


def test_hp_never_passes_the_armys_maximum_nor_zero():
    healed = army_changes(_army(hp=2), _army(hp=4))
    assert apply_changes(_army(hp=4), healed).hp == _army().max_hp
    hurt = army_changes(_army(hp=4), _army(hp=0))
    assert apply_changes(_army(hp=1), hurt).hp == 0


def test_a_destroyed_army_stays_destroyed_and_a_destroying_battle_takes_its_gear():
    armour = (GearChoice("magic_armor", 1),)
    gone = replace(_army(hp=0), status="destroyed")
    standing = army_changes(_army(hp=2), _army(hp=4))
    assert apply_changes(gone, standing) == gone
    destroying = army_changes(_army(), replace(_army(hp=0), status="destroyed"))
    result = apply_changes(_army(gear=armour, conditions={"weary": 2}, potion_doses=1),
                           destroying)  # fmt: skip
    assert (result.status, result.hp, result.spec.gear, result.potion_doses) == (
        "destroyed", 0, (), 0
    )  # fmt: skip
    assert result.spec.condition_values == {}
