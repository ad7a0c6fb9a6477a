"""The set-up form's options: a fortification per side with the armies garrisoned inside
(§7.5), starting positions for the armies whose tactics allow them (§7.3: Ambush, Opening
Salvo, Swamp Charge), and the engine's setup problems shown as form errors."""

import pytest
from django.urls import reverse

from battles.models import Battle
from warfare.systems.pf2e import services as army_services


@pytest.fixture
def archers(world, gm, kingdom):
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Archers",
        army_type="infantry", tactics=("toughened_soldiers",), hex="C7",
    )  # fmt: skip


@pytest.fixture
def scouts(world, gm, enemy_faction):
    """Level 8 skirmishers with Ambush (§6.1: level 8, skirmishers)."""
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Scouts",
        army_type="skirmisher", tactics=("ambush",), hex="C7", level_override=8,
    )  # fmt: skip


def _post(client, world, data):
    return client.post(reverse("battles:create", args=[world.pk]), {"name": "Siege", **data})


def test_a_fortification_with_its_garrison(client, world, gm, player, other_player, militia,
                                           raiders):  # fmt: skip
    """§7.5: a tower (AC 20, HP 2, 1 army) for side A with the militia inside: fortified. The
    card shows the tower with its HP to the GM and side A, without it to side B."""
    client.force_login(gm)
    response = _post(client, world, {f"army_{militia.pk}": "a", f"army_{raiders.pk}": "b",
                                     "fort_a": "tower", f"inside_{militia.pk}": "on"})  # fmt: skip
    assert response.status_code == 302
    battle = Battle.objects.get(name="Siege")
    assert battle.setup["fortifications"] == [{"key": "fort_a", "kind": "tower", "side": "a"}]
    entry = next(a for a in battle.snapshot["armies"] if a["key"] == str(militia.pk))
    assert entry["fortification"] == "fort_a"
    assert entry["army"]["spec"]["conditions"].get("fortified") == 1
    url = reverse("battles:board", args=[world.pk, battle.pk])
    for user, shown in ((gm, True), (player, True), (other_player, False)):
        client.force_login(user)
        page = client.get(url).content.decode()
        assert "tower" in page
        assert ("tower · HP 2/2" in page) is shown, user


def test_setup_problems_are_form_errors(client, world, gm, militia, archers, raiders):
    """A tower holds one army (§7.5): two inside is the engine's setup problem, a 400 with
    the reason; an army inside a side without a fortification is the form's own error."""
    client.force_login(gm)
    sides = {f"army_{militia.pk}": "a", f"army_{archers.pk}": "a", f"army_{raiders.pk}": "b"}
    full = _post(client, world, {**sides, "fort_a": "tower", f"inside_{militia.pk}": "on",
                                 f"inside_{archers.pk}": "on"})  # fmt: skip
    assert full.status_code == 400
    assert "A tower holds at most 1 armies; 2 are put inside." in full.content.decode()
    homeless = _post(client, world, {**sides, f"inside_{raiders.pk}": "on"})
    assert homeless.status_code == 400
    assert "Give its side a fortification first" in homeless.content.decode()
    assert not Battle.objects.exists()


def test_starting_positions_are_offered_to_the_armies_that_know_them(
    client, world, gm, militia, raiders, scouts
):
    """§7.3: Ambush lets the scouts start engaged with an enemy (if they act before every
    enemy); the militia and the raiders know no such tactic and get no choice."""
    client.force_login(gm)
    page = client.get(reverse("battles:create", args=[world.pk])).content.decode()
    assert f'name="start_{scouts.pk}"' in page
    assert f'name="start_{militia.pk}"' not in page and f'name="start_{raiders.pk}"' not in page
    assert f'value="engaged:{militia.pk}"' in page
    response = _post(client, world, {f"army_{militia.pk}": "a", f"army_{scouts.pk}": "b",
                                     f"start_{scouts.pk}": f"engaged:{militia.pk}"})  # fmt: skip
    assert response.status_code == 302
    battle = Battle.objects.get(name="Siege")
    entry = next(e for s in battle.setup["sides"] for e in s["armies"]
                 if e["army"]["key"] == str(scouts.pk))  # fmt: skip
    assert (entry["start"], entry["start_target"]) == ("engaged", str(militia.pk))
    opening = set(battle.events.values_list("code", flat=True))
    first = battle.snapshot["order"].index(str(scouts.pk)) == 0
    assert ("battle.engaged" in opening) is first
    assert ("battle.start_refused" in opening) is not first


def test_a_start_against_an_ally_is_refused(client, world, gm, militia, raiders, scouts):
    client.force_login(gm)
    """The scouts' choice names the militia, but the GM put both on side A."""
    response = _post(client, world, {f"army_{raiders.pk}": "b", f"army_{militia.pk}": "a",
                                     f"army_{scouts.pk}": "a",
                                     f"start_{scouts.pk}": f"engaged:{militia.pk}"})  # fmt: skip
    assert response.status_code == 400
    assert "An army can start engaged only with an enemy army." in response.content.decode()


def test_an_initiative_die_typed_in_per_army(client, world, gm, militia, raiders):
    """§7.3 step 1: the militia's Scouting check uses the d20 typed in at the table (logged
    as typed, total 7 + its Scouting modifier); the raiders' is rolled by the server. A die
    outside 1-20 is the field's error, and no battle is made."""
    client.force_login(gm)
    page = client.get(reverse("battles:create", args=[world.pk])).content.decode()
    assert f'name="initiative_{militia.pk}"' in page and f'name="initiative_{raiders.pk}"' in page
    sides = {f"army_{militia.pk}": "a", f"army_{raiders.pk}": "b"}
    bad = _post(client, world, {**sides, f"initiative_{militia.pk}": "21"})
    assert bad.status_code == 400
    assert "Ensure this value is less than or equal to 20." in bad.content.decode()
    assert not Battle.objects.exists()
    response = _post(client, world, {**sides, f"initiative_{militia.pk}": "7"})
    assert response.status_code == 302
    battle = Battle.objects.get(name="Siege")
    assert battle.setup["initiative_dice"] == {str(militia.pk): 7}
    rolls = {r["army"]: r for r in battle.snapshot["initiative"]}
    militia_roll, raiders_roll = rolls[str(militia.pk)], rolls[str(raiders.pk)]
    assert (militia_roll["die"], militia_roll["source"]) == (7, "typed")
    assert militia_roll["total"] == 7 + militia_roll["modifier"]
    assert raiders_roll["source"] == "seeded"
    event = battle.events.get(code="battle.initiative", params__army=str(militia.pk))
    assert (event.params["die"], event.params["source"]) == (7, "typed")
