"""A GURPS Mass Combat campaign: the shared cast, with element types and two forces."""

from decimal import Decimal

import pytest


@pytest.fixture
def gurps_world(world):
    from kingdoms.models import CommandStaff, RuleSystem

    world.rule_system = RuleSystem.GURPS4E
    world.save()
    for faction in world.factions.all():
        CommandStaff.objects.get_or_create(faction=faction)
    return world


@pytest.fixture
def heavy_infantry(gurps_world):
    from warfare.systems.gurps4e.models import ElementType

    return ElementType.objects.create(
        campaign=gurps_world, name="Heavy Infantry", tl=2, base_ts=Decimal(4), classes=[]
    )


@pytest.fixture
def light_artillery(gurps_world):
    """TS (1)* at TL2, class Art: support, doubles per TL (gurps §A.2.1)."""
    from warfare.systems.gurps4e.models import ElementType

    return ElementType.objects.create(
        campaign=gurps_world, name="Light Artillery", tl=2, base_ts=Decimal(1),
        is_support=True, ts_doubles_per_tl=True, classes=["Art"],
    )  # fmt: skip


@pytest.fixture
def horse_archers(gurps_world):
    from warfare.systems.gurps4e.models import ElementType

    return ElementType.objects.create(
        campaign=gurps_world, name="Horse Archers", tl=2, base_ts=Decimal(3), classes=["Cav", "F"]
    )


@pytest.fixture
def legion(gurps_world, kingdom_faction, heavy_infantry, light_artillery):
    """10 Heavy Infantry (TS 40) and 5 Light Artillery at TL3 ((2) each: 10, counting 1)."""
    from warfare.systems.gurps4e.models import Force, ForceElement

    force = Force.objects.create(campaign=gurps_world, faction=kingdom_faction, name="Legion")
    ForceElement.objects.create(force=force, element_type=heavy_infantry, count=10)
    ForceElement.objects.create(force=force, element_type=light_artillery, count=5, tl=3)
    return force


@pytest.fixture
def horde(gurps_world, enemy_faction, horse_archers):
    """6 elite Horse Archers: 6 × 3 × 2 = TS 36, Cav and F."""
    from warfare.systems.gurps4e.models import Force, ForceElement

    force = Force.objects.create(campaign=gurps_world, faction=enemy_faction, name="Horde")
    ForceElement.objects.create(
        force=force, element_type=horse_archers, count=6, troop_quality="elite"
    )
    return force
