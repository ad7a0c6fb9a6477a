"""Starting a kingdom turn from the army list (§10.2 Consumption, §9 idle decay)."""

import pytest
from django.urls import reverse

from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry


@pytest.fixture
def kingdom(kingdom_faction):
    Kingdom.objects.filter(faction=kingdom_faction).update(level=3, food=2, resource_points=20)
    return Kingdom.objects.get(faction=kingdom_faction)


@pytest.fixture
def armies(world, gm, kingdom):
    """Infantry (Consumption 1) and cavalry (Consumption 2): 3 Food per turn (§1.3)."""
    return [
        services.army_create(user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id,
                             name=name, army_type=kind, tactics=tactics, hex="C7")
        for name, kind, tactics in (("Foot", "infantry", ("keen_eyed",)),
                                    ("Horse", "cavalry", ()))
    ]  # fmt: skip


def post_turn(client, world, kingdom, **data):
    url = reverse("pf2e:kingdom-turn", args=[world.pk, kingdom.faction_id])
    payload = {"expected_turn": kingdom.turn, "pay_with": "rp", "other_consumption": 0}
    payload.update(data)
    return client.post(url, payload)


def test_consumption_short_of_food_is_paid_with_rp(client, world, gm, kingdom, armies):
    """§10.2: 3 Consumption, 2 Food: spend 2 Food, and 1 unpaid point costs 5 RP."""
    client.force_login(gm)
    response = post_turn(client, world, kingdom)
    assert response.status_code == 302
    kingdom.refresh_from_db()
    assert (kingdom.turn, kingdom.food, kingdom.resource_points) == (2, 0, 15)
    assert LogEntry.objects.filter(faction=kingdom.faction, code="kingdom.turn_started").exists()


def test_unpaid_consumption_makes_armies_weary_and_shaken(client, world, gm, kingdom, armies):
    """§10.2: unpaid Consumption -> every army weary +1 and shaken +1, Unrest +1d4."""
    client.force_login(gm)
    assert post_turn(client, world, kingdom, pay_with="unrest").status_code == 302
    kingdom.refresh_from_db()
    assert 1 <= kingdom.unrest <= 4
    for army in Army.objects.all():
        assert army.conditions.get("weary") == 1
        assert army.conditions.get("shaken") == 1


def test_a_second_click_does_not_pay_twice(client, world, gm, kingdom, armies):
    client.force_login(gm)
    post_turn(client, world, kingdom)
    again = post_turn(client, world, kingdom)  # the same expected_turn as the first click
    assert again.status_code == 409
    kingdom.refresh_from_db()
    assert (kingdom.turn, kingdom.resource_points) == (2, 15)


def test_paying_in_food_only_when_short_is_refused(client, world, gm, kingdom, armies):
    client.force_login(gm)
    response = post_turn(client, world, kingdom, pay_with="food")
    assert response.status_code == 400
    kingdom.refresh_from_db()
    assert (kingdom.turn, kingdom.food) == (1, 2)


def test_only_the_gm_starts_a_turn(client, world, player, kingdom, armies):
    client.force_login(player)
    assert post_turn(client, world, kingdom).status_code == 403
    assert Kingdom.objects.get(pk=kingdom.pk).turn == 1


def test_a_battles_next_turn_effects_apply_when_the_turn_starts(client, world, gm, kingdom,
                                                                armies):  # fmt: skip
    """§7.6 victory, critical success: Fame/Infamy +1 and Unrest −1 at the next Kingdom turn."""
    Kingdom.objects.filter(pk=kingdom.pk).update(unrest=2, fame_points=0)
    LogEntry.objects.create(
        faction_id=kingdom.faction_id, turn=1, code="battle.next_turn_effects",
        data={"battle": "Ford", "turn": 2, "pending": True, "fame": 1, "unrest": -1},
    )  # fmt: skip
    client.force_login(gm)
    assert post_turn(client, world, Kingdom.objects.get(pk=kingdom.pk)).status_code == 302
    kingdom.refresh_from_db()
    assert (kingdom.fame_points, kingdom.unrest) == (1, 1)
    assert LogEntry.objects.filter(code="battle.next_turn_applied").count() == 1
    # Applied once only.
    post_turn(client, world, kingdom)
    kingdom.refresh_from_db()
    assert kingdom.fame_points == 1
