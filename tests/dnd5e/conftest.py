"""A D&D 5e campaign: the shared cast, the SRD library, and two armies of three units each
(the players' Wardens against the enemy's Horde), with a battle between them."""

import pytest


@pytest.fixture
def dnd_world(world, gm):
    from kingdoms.models import RuleSystem
    from warfare.systems.dnd5e import services

    world.rule_system = RuleSystem.DND5E
    world.save()
    services.library_load_srd(user=gm, campaign_id=world.pk)
    return world


def _creature(campaign, key):
    from warfare.systems.dnd5e.models import Creature

    return Creature.objects.get(campaign=campaign, key=key)


@pytest.fixture
def wardens(dnd_world, kingdom_faction):
    """The players' army: knights (1 stand), guards (2), scouts (1 skirmisher stand) and a
    PC commanding the knights."""
    from warfare.systems.dnd5e.models import Army, Solo, Unit

    army = Army.objects.create(campaign=dnd_world, faction=kingdom_faction, name="Wardens")
    knight = _creature(dnd_world, "knight")
    hero = Solo.objects.create(army=army, name="Sir Aldric", creature=knight, pc=True)
    Unit.objects.create(army=army, name="Knights", creature=_creature(dnd_world, "knight"),
                        stands=1, commander=hero)  # fmt: skip
    Unit.objects.create(army=army, name="Guards", creature=_creature(dnd_world, "guard"),
                        stands=2)  # fmt: skip
    Unit.objects.create(army=army, name="Scouts", creature=_creature(dnd_world, "scout"),
                        stands=1, kind="skirmisher")  # fmt: skip
    return army


@pytest.fixture
def horde(dnd_world, enemy_faction):
    """The enemy: orcs (2 stands), goblins (1 skirmisher stand) and an ogre stand."""
    from warfare.systems.dnd5e.models import Army, Unit

    army = Army.objects.create(campaign=dnd_world, faction=enemy_faction, name="Horde")
    Unit.objects.create(army=army, name="Orcs", creature=_creature(dnd_world, "orc"), stands=2)
    Unit.objects.create(army=army, name="Goblins", creature=_creature(dnd_world, "goblin"),
                        stands=1, kind="skirmisher")  # fmt: skip
    Unit.objects.create(army=army, name="Ogres", creature=_creature(dnd_world, "ogre"), stands=1)
    return army


SETUP_POST = {
    "name": "Battle of the Old Bridge",
    "width": 10, "height": 6, "depth": 2, "preset": "open", "terrain_map": "",
    "attrition_a": 0, "attrition_b": 2, "destruction_side": "a", "objective_squares": "2,2",
    "square_hp": 10, "square_ac": 15, "square_vp": 10, "protection_vp": 1,
    "custom_a": "", "custom_a_vp": 3, "custom_b": "", "custom_b_vp": 3,
    "protection_stands": 2, "players_may_act": "on",
}  # fmt: skip


@pytest.fixture
def dnd_battle(dnd_world, gm, wardens, horde):
    """Deployed automatically: the Wardens on the left (x 0-1), the Horde on the right."""
    from warfare.systems.dnd5e.setup import battle_create

    return battle_create(
        user=gm, campaign_id=dnd_world.pk, name="Battle of the Old Bridge", army_a=wardens,
        army_b=horde, players_may_act=True, width=10, height=6, depth=2, squares=[],
        objectives=[{"key": "destruction", "type": "destruction", "side": "a",
                     "squares": [{"x": 2, "y": 2, "hp": 10, "ac": 15, "vp": 10}]},
                    {"key": "attrition_b", "type": "attrition", "side": "b", "vp": 2}],
        options={}, auto_deploy=True,
    )  # fmt: skip
