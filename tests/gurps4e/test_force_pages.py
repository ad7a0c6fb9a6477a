"""GURPS Mass Combat force pages: element types, forces, rows and the TS calculator
(gurps §A.2.4, §A.5.2, §A.5.3), with their permissions and fixed query counts."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

pytestmark = pytest.mark.django_db


def _url(name, *args):
    return reverse(f"gurps4e:{name}", args=args)


def test_ts_working_shows_every_row_and_the_support_share(client, gm, legion):
    """§A.2.4 [errata p. 26]: 10 × 4 = 40; 5 × (1)* at TL3 = (2) each, 10 at 10 % = 1; TS 41."""
    client.force_login(gm)
    page = client.get(_url("force-detail", legion.campaign_id, legion.pk)).content.decode()
    assert "TS 41" in page
    assert "Heavy Infantry: 10 × 4" in page
    assert "Light Artillery: 5 × 2" in page
    assert "0.1 support share" in page
    # Class TS counts support elements in full (§A.2.4 [errata p. 21]): Artillery 10.
    assert "<dt>Artillery</dt><dd>10</dd>" in page


def test_strength_left_after_battles_scales_the_ts(client, gm, legion):
    """§A.7.3: TS × (1 − casualties): 41 at 80 % = 32.8."""
    Force.objects.filter(pk=legion.pk).update(strength_percent=80)
    client.force_login(gm)
    page = client.get(_url("force-detail", legion.campaign_id, legion.pk)).content.decode()
    assert "TS 32.8" in page


def test_gm_compares_with_an_enemy_force(client, gm, legion, horde):
    """§A.5.2: 41 vs 36 is 1.14:1, no relative TS bonus; §A.5.3: only the Horde has Cav and F
    (+3 each), only the Legion Art (+3): BSM of the Legion +3."""
    client.force_login(gm)
    url = _url("force-detail", legion.campaign_id, legion.pk) + f"?enemy={horde.pk}"
    page = client.get(url).content.decode()
    assert "Relative TS: 41 against 36" in page
    assert "only Legion has it: +3" in page
    assert "only Horde has it: +3" in page
    assert "Basic Strategy Modifier +3" in page


def test_player_sees_own_force_in_full_but_not_the_enemys(client, player, legion, horde):
    client.force_login(player)
    own = client.get(_url("force-detail", legion.campaign_id, legion.pk)).content.decode()
    assert "TS 41" in own and "Compare with an enemy force" not in own
    enemy = client.get(_url("force-detail", horde.campaign_id, horde.pk)).content.decode()
    assert "TS 36" not in enemy and "Horse Archers" not in enemy
    assert "Only its own side and the GM know" in enemy
    listing = client.get(_url("force-list", legion.campaign_id)).content.decode()
    assert "Horde" in listing and ">36<" not in listing and ">41<" in listing


def test_force_of_a_hidden_faction_is_404_for_players(client, player, gurps_world, hidden_faction):
    force = Force.objects.create(campaign=gurps_world, faction=hidden_faction, name="Shadows")
    client.force_login(player)
    assert client.get(_url("force-detail", gurps_world.pk, force.pk)).status_code == 404
    assert "Shadows" not in client.get(_url("force-list", gurps_world.pk)).content.decode()


def test_pages_are_404_in_a_campaign_of_another_rule_system(client, gm, world):
    client.force_login(gm)
    assert client.get(_url("force-list", world.pk)).status_code == 404
    assert client.get(_url("element-types", world.pk)).status_code == 404


def test_gm_adds_an_element_type_and_bad_input_is_a_400(client, gm, gurps_world):
    client.force_login(gm)
    url = _url("element-types", gurps_world.pk)
    data = {"name": "Knights", "tl": 3, "base_ts": "6", "classes": ["Cav"], "raise_cost": 0,
            "monthly_cost": 0}  # fmt: skip
    assert client.post(url, data).status_code == 302
    knights = ElementType.objects.get(name="Knights")
    assert knights.classes == ["Cav"] and knights.base_ts == 6
    again = client.post(url, data)
    assert again.status_code == 400
    assert "already has an element type of that name and TL" in again.content.decode()
    negative = client.post(url, {**data, "name": "Ghosts", "base_ts": "-1"})
    assert negative.status_code == 400
    assert ElementType.objects.filter(campaign=gurps_world).count() == 1


def test_players_cannot_add_element_types(client, player, gurps_world):
    client.force_login(player)
    url = _url("element-types", gurps_world.pk)
    assert client.get(url).status_code == 200
    response = client.post(url, {"name": "Cheat", "tl": 3, "base_ts": "99"})
    assert response.status_code == 403
    assert not ElementType.objects.filter(name="Cheat").exists()


def test_gm_builds_a_force_row_by_row(client, gm, gurps_world, kingdom_faction, heavy_infantry):
    client.force_login(gm)
    response = client.post(
        _url("force-create", gurps_world.pk),
        {"name": "Vanguard", "faction": kingdom_faction.pk, "mobile": "on",
         "posture": "marching", "strength_percent": 100},
    )  # fmt: skip
    force = Force.objects.get(name="Vanguard")
    assert response.status_code == 302 and response["Location"] == force.get_absolute_url()
    add = _url("force-row-add", gurps_world.pk, force.pk)
    row = {"row-element_type": heavy_infantry.pk, "row-count": 3, "row-troop_quality": "good",
           "row-equipment_quality": "average"}  # fmt: skip
    assert client.post(add, row).status_code == 302
    page = client.get(force.get_absolute_url()).content.decode()
    assert "TS 18" in page  # 3 × 4 × 1.5 (§A.2.4, good troops [impl])
    bad = client.post(add, {**row, "row-count": 0})
    assert bad.status_code == 400
    below = client.post(add, {**row, "row-tl": 1})
    assert below.status_code == 400 and "below the type" in below.content.decode()
    assert ForceElement.objects.filter(force=force).count() == 1
    version = Force.objects.get(pk=force.pk).version
    assert version == 2  # adding a row bumps the force


def test_used_element_type_cannot_be_deleted(client, gm, legion, heavy_infantry):
    client.force_login(gm)
    url = _url("element-type-delete", legion.campaign_id, heavy_infantry.pk)
    response = client.post(url, follow=True)
    assert "still use Heavy Infantry" in response.content.decode()
    assert ElementType.objects.filter(pk=heavy_infantry.pk).exists()


def test_stale_force_edit_is_a_409(client, gm, legion):
    client.force_login(gm)
    url = _url("force-edit", legion.campaign_id, legion.pk)
    data = {"name": "Legion II", "posture": "entrenched", "strength_percent": 100,
            "version": legion.version}  # fmt: skip
    assert client.post(url, data).status_code == 302
    stale = client.post(url, {**data, "name": "Legion III"})
    assert stale.status_code == 409
    assert Force.objects.get(pk=legion.pk).name == "Legion II"


def test_row_removal_is_gm_only(client, gm, player, legion):
    row = legion.elements.first()
    url = _url("force-row-remove", legion.campaign_id, legion.pk, row.pk)
    client.force_login(player)
    assert client.post(url).status_code == 403
    client.force_login(gm)
    assert client.post(url).status_code == 302
    assert not ForceElement.objects.filter(pk=row.pk).exists()


def _queries(client, url) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def test_force_pages_do_not_query_per_row(client, gm, legion, horde, heavy_infantry):
    client.force_login(gm)
    detail = _url("force-detail", legion.campaign_id, legion.pk) + f"?enemy={horde.pk}"
    listing = _url("force-list", legion.campaign_id)
    before = (_queries(client, detail), _queries(client, listing))
    for index in range(5):
        extra = Force.objects.create(
            campaign_id=legion.campaign_id, faction=horde.faction, name=f"Band {index}"
        )
        ForceElement.objects.create(force=extra, element_type=heavy_infantry, count=2)
        ForceElement.objects.create(force=legion, element_type=heavy_infantry, count=1)
    assert (_queries(client, detail), _queries(client, listing)) == before
