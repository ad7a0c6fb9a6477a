"""The recruitment wizard (§3.1), walked through the web for each basic army type."""

import pytest
from django.urls import reverse

from kingdoms.models import Kingdom
from tests.factories import SettlementFactory
from warfare.models import Army, LogEntry, Recruitment


@pytest.fixture
def kingdom(kingdom_faction):
    SettlementFactory(faction=kingdom_faction, name="Tatzlford", hex="D4")
    kingdom = Kingdom.objects.get(faction=kingdom_faction)
    kingdom.skills = {**kingdom.skills, "warfare": {"modifier": 8, "rank": "trained"}}
    kingdom.save()
    return kingdom


def _set_level(kingdom, level):
    Kingdom.objects.filter(pk=kingdom.pk).update(level=level)


# (type, kingdom level = its minimum (§2), a tactic to choose or None, Recruitment DC (§1.2))
TYPES = [
    ("infantry", 1, "toughened_soldiers", 15),
    ("cavalry", 3, None, 18),
    ("skirmisher", 5, "keen_eyed", 20),
    ("siege", 7, "hold_the_line", 23),
]


@pytest.mark.parametrize(("army_type", "level", "tactic", "dc"), TYPES)
def test_wizard_recruits_each_basic_type(
    client, world, player, kingdom, army_type, level, tactic, dc
):
    _set_level(kingdom, level)
    client.force_login(player)
    start = reverse("warfare:recruit-start", args=[world.pk, kingdom.faction_id])
    assert client.get(start).status_code == 200
    response = client.post(start, {"army_type": army_type})
    assert response.status_code == 302
    recruitment = Recruitment.objects.get()
    url = recruitment.get_absolute_url()
    assert response["Location"] == url
    page = client.get(url).content.decode()
    assert f"vs DC {dc}" in page  # the Recruitment DC of a level-`level` army

    # Step 2: Warfare +8, die 10 -> 18 (success at DC 15 and 18; failure at 20 and 23 …)
    die = max(1, dc - 8)  # exactly the DC: a success
    client.post(url, {"action": "roll", "typed_die": str(die)})
    recruitment.refresh_from_db()
    assert recruitment.check_result["total"] == dc
    assert recruitment.check_result["degree"] == "success"
    # A reload or a repeated click does not roll again.
    client.post(url, {"action": "roll", "typed_die": "1"})
    recruitment.refresh_from_db()
    assert recruitment.check_result["die"] == die

    tactics = [tactic] if tactic else []
    assert client.post(url, {"action": "tactics", "tactics": tactics}).status_code == 302
    assert client.post(url, {"action": "place", "hex": "ZZ9"}).status_code == 400
    assert client.post(url, {"action": "place", "hex": "D4"}).status_code == 302
    assert not Army.objects.exists()  # the army exists only after the last step
    done = client.post(url, {"action": "name", "name": "New Company"})
    army = Army.objects.get()
    assert done["Location"] == army.get_absolute_url()
    assert (army.army_type, army.hex, army.faction_id) == (army_type, "D4", kingdom.faction_id)
    mandatory = {"cavalry": ["overrun"], "siege": ["engines_of_war"]}.get(army_type, [])
    assert army.tactics == mandatory + tactics
    assert army.conditions == {}
    # Finishing twice does not make a second army.
    client.post(url, {"action": "name", "name": "New Company"})
    assert Army.objects.count() == 1
    kingdom.refresh_from_db()
    assert kingdom.unrest == 0
    assert LogEntry.objects.filter(code="army.recruited", army=army).exists()


def test_critical_success_makes_the_army_efficient(client, world, player, kingdom):
    """§4.1: critical success -> recruited and efficient."""
    client.force_login(player)
    client.post(reverse("warfare:recruit-start", args=[world.pk, kingdom.faction_id]),
                {"army_type": "infantry"})  # fmt: skip
    url = Recruitment.objects.get().get_absolute_url()
    client.post(url, {"action": "roll", "typed_die": "17"})  # 25 vs 15: critical success
    client.post(url, {"action": "tactics", "tactics": ["keen_eyed"]})
    client.post(url, {"action": "place", "hex": "D4"})
    client.post(url, {"action": "name", "name": "Eager Levy"})
    assert Army.objects.get().conditions == {"efficient": 1}


def test_critical_failure_adds_unrest_and_ends_the_wizard(client, world, player, kingdom):
    """§4.1: critical failure -> not recruited, Unrest +1, no new attempt this turn."""
    client.force_login(player)
    start = reverse("warfare:recruit-start", args=[world.pk, kingdom.faction_id])
    client.post(start, {"army_type": "infantry"})
    url = Recruitment.objects.get().get_absolute_url()
    client.post(url, {"action": "roll", "typed_die": "1"})  # 9 vs 15, natural 1
    kingdom.refresh_from_db()
    assert kingdom.unrest == 1
    assert kingdom.recruit_blocked_until_turn == kingdom.turn + 1
    assert client.post(url, {"action": "name", "name": "Nope"}).status_code == 400
    assert not Army.objects.exists()
    again = client.post(start, {"army_type": "infantry"})
    assert client.post(Recruitment.objects.first().get_absolute_url(),
                       {"action": "roll"}).status_code == 400  # fmt: skip
    assert again.status_code == 302


def test_types_above_the_kingdom_level_are_greyed_out_with_the_reason(
    client, world, player, kingdom
):
    """§3.1 step 1 / §1.3: siege engines need kingdom level 7."""
    client.force_login(player)
    start = reverse("warfare:recruit-start", args=[world.pk, kingdom.faction_id])
    page = client.get(start).content.decode()
    assert "kingdom level 7" in page
    assert client.post(start, {"army_type": "siege"}).status_code == 400
    assert not Recruitment.objects.exists()


def test_only_the_kingdoms_players_and_the_gm_recruit(client, world, other_player, kingdom):
    client.force_login(other_player)
    start = reverse("warfare:recruit-start", args=[world.pk, kingdom.faction_id])
    assert client.get(start).status_code == 403
    assert client.post(start, {"army_type": "infantry"}).status_code == 403
