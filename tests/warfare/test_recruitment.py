"""The recruitment wizard (§3.1), walked through the web for each basic army type."""

import pytest
from django.urls import reverse

from tests.factories import SettlementFactory
from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry, Recruitment


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
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
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
    client.post(reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id]),
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
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    client.post(start, {"army_type": "infantry"})
    url = Recruitment.objects.get().get_absolute_url()
    client.post(url, {"action": "roll", "typed_die": "1"})  # 9 vs 15, natural 1
    kingdom.refresh_from_db()
    assert kingdom.unrest == 1
    assert kingdom.recruit_blocked_until_turn == kingdom.turn + 1
    assert client.post(url, {"action": "name", "name": "Nope"}).status_code == 400
    assert not Army.objects.exists()


def test_a_critical_failure_blocks_recruit_army_until_the_next_kingdom_turn(
    client, world, gm, player, kingdom
):
    """§4.1 critical failure: "you cannot attempt Recruit Army again until the next Kingdom
    turn" — step 1 says so and starts nothing; the next turn lifts it."""
    client.force_login(player)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    client.post(start, {"army_type": "infantry"})
    client.post(Recruitment.objects.get().get_absolute_url(), {"action": "roll", "typed_die": "1"})
    turn = Kingdom.objects.get(pk=kingdom.pk).turn
    page = client.get(start).content.decode()
    reason = f"Recruit Army failed critically: try again from turn {turn + 1}."
    assert reason in page
    assert 'name="army_type" value="infantry" disabled' in page
    again = client.post(start, {"army_type": "infantry"})
    assert again.status_code == 400
    assert reason in again.content.decode()
    assert Recruitment.objects.count() == 1
    services.kingdom_turn_start(user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id,
                                expected_turn=turn, pay_with="food")  # fmt: skip
    assert client.post(start, {"army_type": "infantry"}).status_code == 302
    assert Recruitment.objects.count() == 2


def test_a_rolled_recruitment_left_unfinished_is_resumed_never_rolled_again(
    client, world, player, kingdom
):
    """§3.1/§4.1: one Recruit Army check per recruitment; starting another while a rolled one
    is open leads back to it, and the armies page lists it."""
    client.force_login(player)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    client.post(start, {"army_type": "infantry"})
    recruitment = Recruitment.objects.get()
    url = recruitment.get_absolute_url()
    client.post(url, {"action": "roll", "typed_die": "10"})  # 18 vs 15: a success
    armies = client.get(reverse("pf2e:army-list", args=[world.pk, kingdom.faction_id]))
    listed = armies.content.decode()
    assert "Recruitment in progress" in listed and f'href="{url}"' in listed
    step_one = client.get(start).content.decode()
    assert "Recruitment in progress" in step_one
    assert "Finish the recruitment in progress before starting another." in step_one
    again = client.post(start, {"army_type": "infantry"})
    assert again.status_code == 302 and again["Location"] == url
    assert Recruitment.objects.count() == 1
    recruitment.refresh_from_db()
    assert recruitment.check_result["die"] == 10
    assert LogEntry.objects.filter(code="activity.resolved").count() == 1


def test_a_recruitment_not_yet_rolled_takes_the_new_choice(client, world, player, kingdom):
    _set_level(kingdom, 3)
    client.force_login(player)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    client.post(start, {"army_type": "infantry"})
    client.post(start, {"army_type": "cavalry"})
    assert Recruitment.objects.get().army_type == "cavalry"


def test_step_one_shows_each_types_level_check_and_consumption(client, world, player, kingdom):
    """§1.2/§1.3/§2 at kingdom level 3: Recruitment DC 18 for every basic type, Consumption
    infantry 1, cavalry 2; the check is Warfare +8 (§4.1)."""
    _set_level(kingdom, 3)
    client.force_login(player)
    page = client.get(reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id]))
    choices = {c["value"]: c for c in page.context["choices"]}
    assert (choices["infantry"]["level"], choices["infantry"]["consumption"]) == (3, 1)
    assert (choices["cavalry"]["level"], choices["cavalry"]["consumption"]) == (3, 2)
    assert choices["infantry"]["check"]["dc"] == choices["cavalry"]["check"]["dc"] == 18
    assert choices["infantry"]["check"]["modifier"] == 8
    text = page.content.decode()
    assert "level 3 · Warfare +8 vs DC 18 · Consumption 2" in text


def test_no_settlement_with_a_hex_is_said_before_any_roll(client, world, gm, kingdom):
    """§3.1 step 5: a basic army starts in a settlement's hex; with none, step 1 says so with
    a link to add one, and the Recruit Army check is not rolled."""
    kingdom.faction.settlements.update(hex="")
    client.force_login(gm)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    page = client.get(start).content.decode()
    assert "This faction has no settlement with a hex" in page
    assert f"/campaigns/{world.pk}/settlements/new/?faction={kingdom.faction_id}" in page
    client.post(start, {"army_type": "infantry"})
    recruitment = Recruitment.objects.get()
    refused = client.post(recruitment.get_absolute_url(), {"action": "roll", "typed_die": "10"})
    assert refused.status_code == 400
    assert "none has a hex yet" in refused.content.decode()
    recruitment.refresh_from_db()
    assert (recruitment.step, recruitment.check_result) == ("roll", None)


def test_the_tactics_step_keeps_the_ticks_on_an_error(client, world, player, kingdom):
    """Level 1 infantry knows one tactic (§1.2): ticking two is refused, both stay ticked."""
    client.force_login(player)
    client.post(reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id]),
                {"army_type": "infantry"})  # fmt: skip
    url = Recruitment.objects.get().get_absolute_url()
    client.post(url, {"action": "roll", "typed_die": "10"})
    ticked = ["keen_eyed", "toughened_soldiers"]
    refused = client.post(url, {"action": "tactics", "tactics": ticked})
    assert refused.status_code == 400
    options = {o["key"]: o["chosen"] for o in refused.context["tactic_options"]}
    assert options["keen_eyed"] and options["toughened_soldiers"]
    assert not options["hold_the_line"]
    assert 'value="keen_eyed" checked' in refused.content.decode()


def test_types_above_the_kingdom_level_are_greyed_out_with_the_reason(
    client, world, player, kingdom
):
    """§3.1 step 1 / §1.3: siege engines need kingdom level 7."""
    client.force_login(player)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    page = client.get(start).content.decode()
    assert "kingdom level 7" in page
    assert client.post(start, {"army_type": "siege"}).status_code == 400
    assert not Recruitment.objects.exists()


def test_only_the_kingdoms_players_and_the_gm_recruit(client, world, other_player, kingdom):
    client.force_login(other_player)
    start = reverse("pf2e:recruit-start", args=[world.pk, kingdom.faction_id])
    assert client.get(start).status_code == 403
    assert client.post(start, {"army_type": "infantry"}).status_code == 403
