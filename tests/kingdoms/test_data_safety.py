"""Export, import and delete pages, and stale edit forms: who may use them, what bad input
gets, and that nothing is silently overwritten or half-written."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from kingdoms import portability
from kingdoms.models import Campaign, Faction, Membership, Role, Settlement
from tests.conftest import ROLES
from warfare.systems.pf2e import services as army_services
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry


def _login(client, users, role):
    if users[role]:
        client.force_login(users[role])


MATRIX = {
    # (method, url name): expected status per role, in ROLES order; 302 = to the login page.
    ("get", "campaign-export"): (302, 404, 404, 403, 403, 200),
    ("get", "campaign-delete"): (302, 404, 404, 403, 403, 200),
    ("post", "campaign-delete"): (302, 404, 404, 403, 403, 400),
}


@pytest.mark.parametrize("key", MATRIX)
@pytest.mark.parametrize("role", ROLES)
def test_permission_matrix(client, users, world, key, role):
    method, name = key
    _login(client, users, role)
    url = reverse(f"kingdoms:{name}", args=[world.pk])
    response = getattr(client, method)(url, {"confirm_name": "wrong"} if method == "post" else {})
    assert response.status_code == MATRIX[key][ROLES.index(role)]
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))
    assert Campaign.objects.filter(pk=world.pk).exists()


@pytest.mark.parametrize("role", ROLES)
def test_import_page_is_for_every_signed_in_user(client, users, role):
    _login(client, users, role)
    response = client.get(reverse("kingdoms:campaign-import"))
    assert response.status_code == (302 if role == "anonymous" else 200)


def test_a_gm_sees_export_delete_and_import_links(client, world, gm, player):
    client.force_login(gm)
    page = client.get(world.get_absolute_url()).content.decode()
    assert reverse("kingdoms:campaign-export", args=[world.pk]) in page
    assert reverse("kingdoms:campaign-delete", args=[world.pk]) in page
    listing = client.get(reverse("kingdoms:campaign-list")).content.decode()
    assert reverse("kingdoms:campaign-import") in listing
    client.force_login(player)
    page = client.get(world.get_absolute_url()).content.decode()
    assert reverse("kingdoms:campaign-export", args=[world.pk]) not in page
    assert reverse("kingdoms:campaign-delete", args=[world.pk]) not in page


def test_export_downloads_an_attachment(client, world, gm):
    world.name = "The Stolen Lands: Part 2"
    world.save()
    client.force_login(gm)
    response = client.get(reverse("kingdoms:campaign-export", args=[world.pk]))
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == (
        'attachment; filename="the-stolen-lands-part-2-campaign.json"'
    )
    document = json.loads(response.content)
    assert document["format"] == "warfare-campaign"
    assert [f["name"] for f in document["factions"]] == [
        "Silverrun", "Thornback Horde", "Hollow Crown",
    ]  # fmt: skip


def _upload(content: bytes, name="campaign.json"):
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_import_page_creates_a_campaign_run_by_the_uploader(client, world, gm, outsider):
    data = portability.campaign_export_bytes(world)
    client.force_login(outsider)
    response = client.post(reverse("kingdoms:campaign-import"), {"file": _upload(data)})
    copy_ = Campaign.objects.exclude(pk=world.pk).get(name=world.name)
    assert response.status_code == 302
    assert response["Location"] == copy_.get_absolute_url()
    assert Membership.objects.get(campaign=copy_, user=outsider).role == Role.GM
    assert copy_.created_by == outsider


def test_import_page_refuses_a_bad_file_with_400_and_its_reason(client, world, outsider):
    client.force_login(outsider)
    before = Campaign.objects.count()
    response = client.post(reverse("kingdoms:campaign-import"), {"file": _upload(b"[1, 2]")})
    assert response.status_code == 400
    assert "not an object" in response.content.decode()
    response = client.post(reverse("kingdoms:campaign-import"), {})
    assert response.status_code == 400
    assert Campaign.objects.count() == before


def test_import_page_refuses_a_file_over_the_size_limit(client, outsider, monkeypatch):
    monkeypatch.setattr(portability, "MAX_UPLOAD_BYTES", 1024 * 1024)
    client.force_login(outsider)
    big = b"{" + b" " * (1024 * 1024) + b"}"
    response = client.post(reverse("kingdoms:campaign-import"), {"file": _upload(big)})
    assert response.status_code == 400
    assert "too large: at most 1 MB" in response.content.decode()
    assert not Campaign.objects.exists()


# --- Delete -------------------------------------------------------------------------------------


def test_deleting_needs_the_exact_name(client, world, gm, militia):
    client.force_login(gm)
    url = reverse("kingdoms:campaign-delete", args=[world.pk])
    for wrong in ("the stolen lands", "The Stolen Lands ", ""):
        response = client.post(url, {"confirm_name": wrong})
        assert response.status_code == 400
    assert "not the campaign" in client.post(url, {"confirm_name": "x"}).content.decode()
    assert Campaign.objects.filter(pk=world.pk).exists()
    assert Army.objects.filter(pk=militia.pk).exists()


def test_deleting_removes_the_campaign_and_everything_in_it(client, world, gm, militia, other_gm):
    other = Campaign.objects.get(name="Other campaign")
    client.force_login(gm)
    response = client.post(
        reverse("kingdoms:campaign-delete", args=[world.pk]), {"confirm_name": "The Stolen Lands"}
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("kingdoms:campaign-list")
    assert not Campaign.objects.filter(pk=world.pk).exists()
    assert not Faction.objects.filter(campaign_id=world.pk).exists()
    assert not Settlement.objects.filter(campaign_id=world.pk).exists()
    assert not Army.objects.exists() and not LogEntry.objects.exists()
    assert Campaign.objects.filter(pk=other.pk).exists()


# --- Stale edits --------------------------------------------------------------------------------


def test_a_stale_campaign_edit_is_refused_with_409_and_the_current_values(client, world, gm):
    client.force_login(gm)
    url = reverse("kingdoms:campaign-edit", args=[world.pk])
    form = {"name": "Mine", "description": "", "version": world.version}
    assert client.post(url, form).status_code == 302  # version 1 -> 2
    response = client.post(url, {**form, "name": "Stale"})
    assert response.status_code == 409
    html = response.content.decode()
    assert "someone changed this meanwhile" in html
    assert 'value="Mine"' in html and 'name="version" value="2"' in html
    world.refresh_from_db()
    assert (world.name, world.version) == ("Mine", 2)
    assert client.post(url, {**form, "name": "Fresh", "version": 2}).status_code == 302


def test_a_malformed_version_is_a_400_and_a_missing_one_skips_the_check(client, world, gm):
    client.force_login(gm)
    url = reverse("kingdoms:campaign-edit", args=[world.pk])
    assert client.post(url, {"name": "Bad", "version": "x"}).status_code == 400
    assert client.post(url, {"name": "Bad", "version": "-1"}).status_code == 400
    assert Campaign.objects.get(pk=world.pk).name == "The Stolen Lands"
    assert client.post(url, {"name": "Scripted"}).status_code == 302


def _faction_post(faction: Faction) -> dict:
    kingdom = faction.kingdom
    data = {
        "name": faction.name,
        "description": faction.description,
        "controlled_by": faction.controlled_by,
        "known_to_players": "on",
        "version": faction.version,
        "kingdom-version": kingdom.version,
    }
    for field in (
        "level", "xp", "size_hexes", "resource_points", "food", "unrest", "corruption",
        "corruption_threshold", "crime", "crime_threshold", "decay", "decay_threshold",
        "strife", "strife_threshold", "fame_kind", "fame_points",
    ):  # fmt: skip
        data[f"kingdom-{field}"] = getattr(kingdom, field)
    for skill, value in kingdom.skills.items():
        data[f"kingdom-{skill}_modifier"] = value["modifier"]
        data[f"kingdom-{skill}_rank"] = value["rank"]
    return data


def test_a_stale_faction_edit_is_refused_with_409(client, world, gm, kingdom_faction):
    client.force_login(gm)
    url = reverse("kingdoms:faction-edit", args=[world.pk, kingdom_faction.pk])
    stale = _faction_post(kingdom_faction)
    assert client.post(url, {**stale, "description": "first"}).status_code == 302
    response = client.post(url, {**stale, "description": "second"})
    assert response.status_code == 409
    assert "someone changed this meanwhile" in response.content.decode()
    assert ">\nfirst</textarea>" in response.content.decode()
    assert Faction.objects.get(pk=kingdom_faction.pk).description == "first"


def test_a_kingdom_turn_makes_an_open_faction_form_stale(client, world, gm, kingdom):
    """The kingdom changed (RP spent by a kingdom turn) while the GM had its form open."""
    faction = Faction.objects.get(pk=kingdom.faction_id)
    stale = _faction_post(faction)
    army_services.kingdom_turn_start(
        user=gm,
        campaign_id=world.pk,
        faction_id=faction.pk,
        expected_turn=kingdom.turn,
        pay_with="rp",
    )
    turned = Kingdom.objects.get(pk=kingdom.pk)
    assert turned.version > kingdom.version
    client.force_login(gm)
    url = reverse("kingdoms:faction-edit", args=[world.pk, faction.pk])
    response = client.post(url, {**stale, "kingdom-resource_points": 999})
    assert response.status_code == 409
    assert Kingdom.objects.get(pk=kingdom.pk).resource_points == turned.resource_points
    assert f'name="kingdom-version" value="{turned.version}"' in response.content.decode()


def test_a_stale_settlement_edit_is_refused_with_409(client, world, gm, kingdom_faction):
    settlement = kingdom_faction.settlements.get()
    client.force_login(gm)
    url = reverse("kingdoms:settlement-edit", args=[world.pk, settlement.pk])
    form = {
        "name": settlement.name,
        "faction": kingdom_faction.pk,
        "hex": "C7",
        "notes": "",
        "version": settlement.version,
    }
    assert client.post(url, {**form, "hex": "D8"}).status_code == 302
    response = client.post(url, {**form, "hex": "E9"})
    assert response.status_code == 409
    assert 'value="D8"' in response.content.decode()
    assert Settlement.objects.get(pk=settlement.pk).hex == "D8"


def test_every_save_bumps_the_version(world, kingdom_faction):
    kingdom = Kingdom.objects.get(faction=kingdom_faction)
    before = kingdom.version
    kingdom.food = 9
    kingdom.save(update_fields=["food"])
    assert Kingdom.objects.get(pk=kingdom.pk).version == before + 1
