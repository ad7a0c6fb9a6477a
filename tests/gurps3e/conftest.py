"""A GURPS 3e campaign: the shared cast, two forces and three characters."""

import pytest


def troop(campaign, name: str, ts_per_man: int):
    """The campaign's troop type of that name (created with that TS per man)."""
    from warfare.systems.gurps3e.models import TroopType

    return TroopType.objects.get_or_create(
        campaign=campaign, name=name, defaults={"ts_per_man": ts_per_man}
    )[0]


@pytest.fixture
def g3_world(world):
    """The campaign in GURPS 3e; the players' commander has Strategy 14, the enemy's 12."""
    from kingdoms.models import CommandStaff, RuleSystem

    world.rule_system = RuleSystem.GURPS3E
    world.save()
    for faction in world.factions.all():
        staff, _ = CommandStaff.objects.get_or_create(faction=faction)
        staff.strategy = 14 if faction.name == "Silverrun" else 12
        staff.commander = "Lady Jamandi" if faction.name == "Silverrun" else "Grask"
        staff.save()
    return world


@pytest.fixture
def host(g3_world, kingdom_faction):
    """100 veteran heavy infantry at TS 4 (400) and 50 archers at TS 3 + 1 (200): TS 600."""
    from warfare.systems.gurps3e.models import Force, Unit

    force = Force.objects.create(campaign=g3_world, faction=kingdom_faction, name="Host", tl=3)
    Unit.objects.create(force=force, name="Pikes", troop_type=troop(g3_world, "heavy infantry", 4),
                        men=100, armour="heavy", quality="veteran")  # fmt: skip
    Unit.objects.create(force=force, name="Archers", troop_type=troop(g3_world, "archers", 3),
                        men=50, equipment=1, armour="light")  # fmt: skip
    return force


@pytest.fixture
def horde(g3_world, enemy_faction):
    """200 lizard-men raiders at TS 2 + 3 racial (1000)."""
    from warfare.systems.gurps3e.models import Force, Unit

    force = Force.objects.create(campaign=g3_world, faction=enemy_faction, name="Horde", tl=3)
    Unit.objects.create(force=force, name="Raiders", troop_type=troop(g3_world, "raiders", 2),
                        men=200, racial=3, morale=11)  # fmt: skip
    return force


@pytest.fixture
def aldric(g3_world, kingdom_faction, player):
    """The player's own PC, a unit commander: Tactics 13, Broadsword 14 → Combat Skill 13."""
    from warfare.systems.gurps3e.models import Character, Reputation

    character = Character.objects.create(
        campaign=g3_world, name="Aldric", faction=kingdom_faction, owner=player,
        ht_max=12, ht=12, iq=11, dr=3, luck=1, tactics=13, weapon_skill=14,
        role="unit_commander", rank=2,
    )  # fmt: skip
    Reputation.objects.create(character=character, value=1, expires=5, source="gm")
    return character


@pytest.fixture
def brenna(g3_world, kingdom_faction):
    """A PC of the players' faction with no single player; berserk (Risk not above 0)."""
    from warfare.systems.gurps3e.models import Character

    return Character.objects.create(
        campaign=g3_world, name="Brenna", faction=kingdom_faction, ht_max=11, ht=11,
        weapon_skill=13, limits=["berserk"],
    )  # fmt: skip


@pytest.fixture
def grask(g3_world, enemy_faction):
    """The enemy's named NPC."""
    from warfare.systems.gurps3e.models import Character

    return Character.objects.create(
        campaign=g3_world, name="Grask", is_pc=False, faction=enemy_faction, ht_max=14, ht=14,
        tactics=12, weapon_skill=15, role="army_commander", notes="GM-SECRET plans",
    )  # fmt: skip


def setup_post(host, horde, *pcs, **extra) -> dict:
    """The set-up form's POST: the Host on side A attacks the Horde on side B."""
    data = {
        "name": "Battle of the Ford", "defender": "b", "days": 1, "month": 1,
        "casualties": "house", "intensity": 0, "players_may_act": "on",
        f"force_{host.pk}": "a", f"force_{horde.pk}": "b",
    }  # fmt: skip
    for pc in pcs:
        data[f"pc_{pc.pk}"] = "a" if pc.faction_id == host.faction_id else "b"
    data.update(extra)
    return data


@pytest.fixture
def g3_battle(client, gm, g3_world, host, horde, aldric, brenna):
    """A started 3e battle: the Host attacks the Horde, Aldric and Brenna fight with the Host."""
    from django.urls import reverse

    from battles.models import Battle

    client.force_login(gm)
    response = client.post(
        reverse("battles:create", args=[g3_world.pk]), setup_post(host, horde, aldric, brenna)
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    client.logout()
    return Battle.objects.get(campaign=g3_world)
