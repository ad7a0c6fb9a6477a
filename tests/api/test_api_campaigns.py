"""The JSON API for campaigns, factions, settlements and members: who may do what, the pages'
rules (a 400 saves nothing), stale versions (409 with the current object), the last GM."""

import pytest
from django.urls import reverse

from kingdoms.models import (
    Campaign,
    CommandStaff,
    Faction,
    Membership,
    Role,
    RuleSystem,
    Settlement,
)
from tests.api.statuses import GM, GM_ALONE_SEES, GM_CREATES, MEMBERS
from tests.conftest import ROLES
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.pf2e.models import Kingdom

PUBLIC_FACTION_KEYS = {"id", "name", "description", "controlled_by"}
PUBLIC_SETTLEMENT_KEYS = {"id", "name", "faction", "hex", "is_capital"}


def url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


@pytest.fixture
def bystander(world, kingdom_faction):
    """A second player of the players' kingdom."""
    return MembershipFactory(
        campaign=world, user=UserFactory(username="bystander"), role=Role.PLAYER,
        faction=kingdom_faction,
    )  # fmt: skip


@pytest.fixture
def gurps(gm):
    campaign = CampaignFactory(name="Mass Combat", rule_system=RuleSystem.GURPS4E, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    return campaign


def membership_of(user, campaign) -> Membership:
    return Membership.objects.get(user=user, campaign=campaign)


def kingdom_row(faction: Faction) -> tuple:
    k = Kingdom.objects.get(faction=faction)
    return (k.version, k.level, k.resource_points, k.unrest, k.skills, k.structures)


def faction_row(faction: Faction) -> tuple:
    f = Faction.objects.get(pk=faction.pk)
    return (f.version, f.name, f.description, f.controlled_by, f.known_to_players)


# --- Permission matrix --------------------------------------------------------------------

#: name -> (method, url(f), body(f) or None, statuses in ROLES order). `f` holds the fixtures.
MATRIX = {
    "campaign-create": (
        "post", lambda f: url("campaign-list"), lambda f: {"name": "A New War"},
        (403, 201, 201, 201, 201, 201)),
    "campaign-update": (
        "patch", lambda f: url("campaign-detail", f["world"].pk),
        lambda f: {"description": "Edited"}, GM),
    "faction-create": (
        "post", lambda f: url("faction-list", f["world"].pk), lambda f: {"name": "Newcomers"},
        GM_CREATES),
    "faction-detail": (
        "get", lambda f: url("faction-detail", f["world"].pk, f["kingdom_faction"].pk), None,
        MEMBERS),
    "faction-detail-hidden": (
        "get", lambda f: url("faction-detail", f["world"].pk, f["hidden_faction"].pk), None,
        GM_ALONE_SEES),
    "faction-update": (
        "patch", lambda f: url("faction-detail", f["world"].pk, f["kingdom_faction"].pk),
        lambda f: {"description": "Edited"}, GM),
    "faction-update-hidden": (
        "patch", lambda f: url("faction-detail", f["world"].pk, f["hidden_faction"].pk),
        lambda f: {"description": "Edited"}, GM),
    "settlement-list": (
        "get", lambda f: url("settlement-list", f["world"].pk), None,
        MEMBERS),
    "settlement-create": (
        "post", lambda f: url("settlement-list", f["world"].pk),
        lambda f: {"name": "Tatzlford", "faction": f["kingdom_faction"].pk, "hex": "C8"},
        GM_CREATES),
    "settlement-detail": (
        "get", lambda f: url("settlement-detail", f["world"].pk, f["keep"].pk), None,
        MEMBERS),
    "settlement-detail-hidden": (
        "get", lambda f: url("settlement-detail", f["world"].pk, f["ashfen"].pk), None,
        GM_ALONE_SEES),
    "settlement-update": (
        "patch", lambda f: url("settlement-detail", f["world"].pk, f["keep"].pk),
        lambda f: {"notes": "Walls mended"}, GM),
    "member-list": (
        "get", lambda f: url("member-list", f["world"].pk), None,
        MEMBERS),
    "member-update": (
        "patch", lambda f: url("member-detail", f["world"].pk, f["bystander"].pk),
        lambda f: {"role": "gm"}, GM),
    "member-remove": (
        "delete", lambda f: url("member-detail", f["world"].pk, f["bystander"].pk), None,
        (403, 404, 404, 403, 403, 204)),
    # The player's own membership: they may leave, the enemy's player may not remove them.
    "member-leave": (
        "delete", lambda f: url("member-detail", f["world"].pk, f["player_membership"].pk), None,
        (403, 404, 404, 403, 204, 204)),
}  # fmt: skip


def _snapshot():
    return (
        list(Campaign.objects.order_by("pk").values_list("pk", "version")),
        list(Faction.objects.order_by("pk").values_list("pk", "version")),
        list(Settlement.objects.order_by("pk").values_list("pk", "version")),
        list(Membership.objects.order_by("pk").values_list("pk", "role", "faction_id")),
    )


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_permission_matrix(endpoint, role, as_role, world, player, kingdom_faction,
                           hidden_faction, bystander):  # fmt: skip
    """Non-members and GMs of other campaigns 404, members without the role 403, anonymous
    403; a refused request changes nothing."""
    method, make_url, make_body, statuses = MATRIX[endpoint]
    fixtures = {
        "world": world,
        "kingdom_faction": kingdom_faction,
        "hidden_faction": hidden_faction,
        "keep": Settlement.objects.get(name="Silverrun Keep"),
        "ashfen": Settlement.objects.get(name="Ashfen"),
        "bystander": bystander,
        "player_membership": membership_of(player, world),
    }
    before = _snapshot()
    body = make_body(fixtures) if make_body else None
    kwargs = {"format": "json"} if body is not None else {}
    response = getattr(as_role(role), method)(make_url(fixtures), body, **kwargs)
    expected = statuses[ROLES.index(role)]
    assert response.status_code == expected, response.content
    if expected >= 400 or method == "get":
        assert _snapshot() == before


def test_unknown_ids_are_404(as_role, world):
    gm = as_role("gm")
    assert gm.get(url("faction-detail", world.pk, 999_999)).status_code == 404
    assert gm.patch(url("faction-detail", world.pk, 999_999), {}, format="json").status_code == 404
    assert gm.get(url("settlement-detail", world.pk, 999_999)).status_code == 404
    assert (
        gm.patch(url("settlement-detail", world.pk, 999_999), {}, format="json").status_code == 404
    )
    assert gm.patch(url("member-detail", world.pk, 999_999), {}, format="json").status_code == 404
    assert gm.delete(url("member-detail", world.pk, 999_999)).status_code == 404
    assert gm.get(url("member-list", 999_999)).status_code == 404


def test_another_campaigns_objects_are_404(as_role, world, other_gm):
    """Ids of another campaign's faction, settlement or member under this campaign's id."""
    other = Campaign.objects.get(memberships__user=other_gm)
    foreign = FactionFactory(campaign=other, name="Elsewhere")
    settlement = Settlement.objects.create(campaign=other, faction=foreign, name="Far Town")
    member = membership_of(other_gm, other)
    gm = as_role("gm")
    assert gm.get(url("faction-detail", world.pk, foreign.pk)).status_code == 404
    assert gm.get(url("settlement-detail", world.pk, settlement.pk)).status_code == 404
    body = {"notes": "x"}
    response = gm.patch(url("settlement-detail", world.pk, settlement.pk), body, format="json")
    assert response.status_code == 404
    assert gm.delete(url("member-detail", world.pk, member.pk)).status_code == 404
    assert Membership.objects.filter(pk=member.pk).exists()


# --- Campaigns ----------------------------------------------------------------------------


def test_creating_a_campaign_makes_you_its_gm(as_role, outsider):
    body = {"name": "Rivers Run Red", "description": "Act II", "rule_system": "gurps4e"}
    response = as_role("outsider").post(url("campaign-list"), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    campaign = Campaign.objects.get(pk=data["id"])
    assert (campaign.name, campaign.rule_system, campaign.created_by) == (
        "Rivers Run Red", "gurps4e", outsider)  # fmt: skip
    assert data["role"] == "gm"
    assert data["version"] == campaign.version
    assert membership_of(outsider, campaign).role == Role.GM


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "x" * 121},
        {"name": "Ok", "rule_system": "chess"},
        {"name": "Ok", "narrative_warfare": "perhaps"},
        {"name": {"nested": True}},
        ["not", "an", "object"],
    ],
)
def test_bad_campaign_is_400_and_nothing_is_made(body, as_role):
    before = Campaign.objects.count()
    response = as_role("outsider").post(url("campaign-list"), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert Campaign.objects.count() == before


def test_gm_edits_the_campaign(as_role, world):
    body = {"name": "The Stolen Lands, Book 2", "narrative_warfare": True,
            "version": world.version}  # fmt: skip
    response = as_role("gm").patch(url("campaign-detail", world.pk), body, format="json")
    assert response.status_code == 200, response.content
    world.refresh_from_db()
    assert (world.name, world.narrative_warfare) == ("The Stolen Lands, Book 2", True)
    assert response.json()["version"] == world.version


def test_the_rule_system_is_fixed(as_role, world):
    client = as_role("gm")
    before = Campaign.objects.get(pk=world.pk).version
    response = client.patch(
        url("campaign-detail", world.pk), {"rule_system": "dnd5e", "name": "X"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["fields"]["rule_system"]
    world.refresh_from_db()
    assert (world.rule_system, world.name, world.version) == ("pf2e", "The Stolen Lands", before)
    # Sending the same one is fine.
    response = client.patch(
        url("campaign-detail", world.pk), {"rule_system": "pf2e", "name": "Y"}, format="json"
    )
    assert response.status_code == 200


def test_stale_campaign_edit_is_409_with_the_campaign(as_role, world):
    client = as_role("gm")
    old = world.version
    first = client.patch(url("campaign-detail", world.pk),
                         {"description": "First", "version": old}, format="json")  # fmt: skip
    assert first.status_code == 200
    second = client.patch(url("campaign-detail", world.pk),
                          {"description": "Second", "version": old}, format="json")  # fmt: skip
    assert second.status_code == 409
    data = second.json()
    assert data["errors"]
    assert data["campaign"]["description"] == "First"
    assert data["campaign"]["version"] == old + 1
    world.refresh_from_db()
    assert (world.description, world.version) == ("First", old + 1)


# --- Factions -----------------------------------------------------------------------------


def test_gm_creates_a_kingdom_with_numbers_and_skills(as_role, world):
    body = {
        "name": "Pitax",
        "controlled_by": "gm",
        "known_to_players": False,
        "kingdom": {"level": 5, "resource_points": 12, "structures": ["barracks"],
                    "skills": {"warfare": {"modifier": 11, "rank": "expert"}}},
    }  # fmt: skip
    response = as_role("gm").post(url("faction-list", world.pk), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    faction = Faction.objects.get(pk=data["id"])
    kingdom = faction.kingdom
    assert (faction.name, faction.known_to_players) == ("Pitax", False)
    assert (kingdom.level, kingdom.resource_points, kingdom.structures) == (5, 12, ["barracks"])
    assert kingdom.skills["warfare"] == {"modifier": 11, "rank": "expert"}
    assert kingdom.skills["arts"] == {"modifier": 0, "rank": "untrained"}
    assert data["kingdom"]["level"] == 5
    assert data["kingdom"]["version"] == kingdom.version
    assert data["command_staff"] is None


def test_gm_creates_a_gurps_faction_with_its_command_staff(as_role, gurps):
    body = {"name": "Legion", "command_staff": {"commander": "Varro", "strategy": 14}}
    response = as_role("gm").post(url("faction-list", gurps.pk), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    staff = CommandStaff.objects.get(faction_id=data["id"])
    assert (staff.commander, staff.strategy, staff.tactics) == ("Varro", 14, 10)
    assert data["command_staff"]["commander"] == "Varro"
    assert data["kingdom"] is None
    assert not Kingdom.objects.filter(faction_id=data["id"]).exists()


@pytest.mark.parametrize("value", [99_999_999_999_999, 31, 0])
def test_command_staff_skills_out_of_range_are_400_with_the_reason(as_role, gurps, value):
    """A GURPS skill level is 1-30: the API refuses others field by field, saves nothing."""
    before = Faction.objects.count()
    body = {"name": "Legion", "command_staff": {"commander": "Varro", "strategy": value}}
    response = as_role("gm").post(url("faction-list", gurps.pk), body, format="json")
    assert response.status_code == 400
    assert "A skill level is a whole number from 1 to 30." in response.content.decode()
    assert Faction.objects.count() == before


def test_records_of_another_rule_system_are_400(as_role, world, gurps):
    client = as_role("gm")
    before = Faction.objects.count()
    body = {"name": "Legion", "kingdom": {"level": 2}}
    assert client.post(url("faction-list", gurps.pk), body, format="json").status_code == 400
    body = {"name": "Legion", "command_staff": {"strategy": 12}}
    assert client.post(url("faction-list", world.pk), body, format="json").status_code == 400
    assert Faction.objects.count() == before


@pytest.mark.parametrize(
    "body",
    [
        {"name": "Pitax", "kingdom": {"level": 21}},
        {"name": "Pitax", "kingdom": {"level": 0}},
        {"name": "Pitax", "kingdom": {"resource_points": -1}},
        {"name": "Pitax", "kingdom": {"skills": {"warfare": {"modifier": 61}}}},
        {"name": "Pitax", "kingdom": {"skills": {"warfare": {"rank": "godlike"}}}},
        {"name": "Pitax", "kingdom": {"structures": ["moat"]}},
        {"name": "Pitax", "kingdom": {"level": "five"}},
        {"name": "Pitax", "kingdom": [1, 2]},
        {"name": "silverrun"},  # the pages' rule: names are unique, whatever their case
        {"name": "Pitax", "controlled_by": "nobody"},
        {"description": "no name"},
    ],
)
def test_bad_faction_is_400_and_nothing_is_saved(body, as_role, world, kingdom_faction):
    before = (Faction.objects.count(), Kingdom.objects.count())
    response = as_role("gm").post(url("faction-list", world.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert all(isinstance(error, str) for error in response.json()["errors"])
    assert (Faction.objects.count(), Kingdom.objects.count()) == before


def test_faction_edit_changes_only_what_was_sent(as_role, world, kingdom):
    faction = kingdom.faction
    body = {"description": "River kingdom", "version": faction.version,
            "kingdom": {"unrest": 2, "version": kingdom.version,
                        "skills": {"warfare": {"modifier": 9}}}}  # fmt: skip
    response = as_role("gm").patch(url("faction-detail", world.pk, faction.pk), body, format="json")
    assert response.status_code == 200, response.content
    fresh = Kingdom.objects.get(pk=kingdom.pk)
    assert (fresh.unrest, fresh.resource_points, fresh.level) == (2, 30, 3)
    assert fresh.skills["warfare"] == {"modifier": 9, "rank": "trained"}
    assert fresh.skills["politics"] == {"modifier": 5, "rank": "trained"}
    assert Faction.objects.get(pk=faction.pk).description == "River kingdom"
    assert Faction.objects.get(pk=faction.pk).name == "Silverrun"
    data = response.json()
    assert data["kingdom"]["unrest"] == 2
    assert data["version"] == faction.version + 1


@pytest.mark.parametrize(
    "kingdom_body",
    [{"level": 21}, {"resource_points": -1}, {"skills": {"magic": {"modifier": -11}}}],
)
def test_bad_kingdom_edit_is_400_and_nothing_is_saved(kingdom_body, as_role, world, kingdom):
    faction = kingdom.faction
    before = (kingdom_row(faction), faction_row(faction))
    body = {"description": "Changed", "kingdom": kingdom_body}
    response = as_role("gm").patch(url("faction-detail", world.pk, faction.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert (kingdom_row(faction), faction_row(faction)) == before


def test_renaming_a_faction_to_anothers_name_is_400(as_role, world, kingdom_faction,
                                                      enemy_faction):  # fmt: skip
    before = faction_row(kingdom_faction)
    response = as_role("gm").patch(url("faction-detail", world.pk, kingdom_faction.pk),
                                   {"name": "THORNBACK HORDE"}, format="json")  # fmt: skip
    assert response.status_code == 400
    assert "name" in response.json()["fields"]
    assert faction_row(kingdom_faction) == before


@pytest.mark.parametrize("stale", ["faction", "kingdom"])
def test_stale_faction_edit_is_409_with_the_faction(stale, as_role, world, kingdom):
    faction = kingdom.faction
    client = as_role("gm")
    endpoint = url("faction-detail", world.pk, faction.pk)
    versions = {"version": faction.version, "kingdom": {"version": kingdom.version}}
    # Someone else saves first (the faction, or the kingdom: e.g. a kingdom turn).
    if stale == "faction":
        Faction.objects.get(pk=faction.pk).save()
    else:
        Kingdom.objects.get(pk=kingdom.pk).save()
    before = (kingdom_row(faction), faction_row(faction))
    body = {"description": "Late", "version": versions["version"],
            "kingdom": {"unrest": 4, "version": versions["kingdom"]["version"]}}  # fmt: skip
    response = client.patch(endpoint, body, format="json")
    assert response.status_code == 409, response.content
    data = response.json()
    assert data["errors"]
    assert data["faction"]["id"] == faction.pk
    assert data["faction"]["version"] == before[1][0]
    assert data["faction"]["kingdom"]["version"] == before[0][0]
    assert data["faction"]["kingdom"]["unrest"] == 0
    assert (kingdom_row(faction), faction_row(faction)) == before


def test_stale_command_staff_is_409(as_role, gurps):
    faction = FactionFactory(campaign=gurps, name="Legion")
    staff = CommandStaff.objects.get(faction=faction)
    old = staff.version
    staff.save()
    body = {"command_staff": {"strategy": 15, "version": old}}
    response = as_role("gm").patch(url("faction-detail", gurps.pk, faction.pk), body,
                                   format="json")  # fmt: skip
    assert response.status_code == 409
    assert response.json()["faction"]["command_staff"]["version"] == old + 1
    assert CommandStaff.objects.get(pk=staff.pk).strategy == 10


def test_faction_detail_hides_other_sides_numbers(as_role, world, kingdom, enemy_faction,
                                                  hidden_faction):  # fmt: skip
    own = as_role("player").get(url("faction-detail", world.pk, kingdom.faction_id)).json()
    assert own["kingdom"]["resource_points"] == 30
    assert own["kingdom"]["control_dc"]["value"] == 17
    enemy = as_role("player").get(url("faction-detail", world.pk, enemy_faction.pk))
    assert set(enemy.json()) == PUBLIC_FACTION_KEYS
    for hidden in ('"kingdom"', '"version"', '"resource_points"', '"skills"'):
        assert hidden not in enemy.content.decode()
    gm = as_role("gm").get(url("faction-detail", world.pk, enemy_faction.pk)).json()
    assert gm["kingdom"]["level"] == 1
    rival = as_role("other_player").get(url("faction-detail", world.pk, kingdom.faction_id))
    assert set(rival.json()) == PUBLIC_FACTION_KEYS
    assert as_role("player").get(url("faction-detail", world.pk, hidden_faction.pk)).status_code \
        == 404  # fmt: skip


# --- Settlements --------------------------------------------------------------------------


def test_settlement_list_shows_what_the_member_may_see(as_role, world):
    endpoint = url("settlement-list", world.pk)
    rows = as_role("player").get(endpoint).json()["results"]
    assert sorted(row["name"] for row in rows) == ["Silverrun Keep", "Thornhold"]
    assert all(set(row) == PUBLIC_SETTLEMENT_KEYS for row in rows)
    gm_rows = as_role("gm").get(endpoint).json()["results"]
    assert sorted(row["name"] for row in gm_rows) == ["Ashfen", "Silverrun Keep", "Thornhold"]
    assert all({"notes", "version"} <= set(row) for row in gm_rows)
    capital = as_role("gm").get(endpoint, {"is_capital": "true"}).json()["results"]
    assert [row["name"] for row in capital] == ["Silverrun Keep"]


def test_gm_founds_and_edits_a_settlement(as_role, world, kingdom_faction, enemy_faction):
    client = as_role("gm")
    body = {"name": "Tatzlford", "faction": kingdom_faction.pk, "hex": "C8", "notes": "Ford"}
    response = client.post(url("settlement-list", world.pk), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    settlement = Settlement.objects.get(pk=data["id"])
    assert (settlement.name, settlement.faction, settlement.hex, settlement.campaign) == (
        "Tatzlford", kingdom_faction, "C8", world)  # fmt: skip
    detail = url("settlement-detail", world.pk, settlement.pk)
    body = {"faction": enemy_faction.pk, "version": data["version"]}
    response = client.patch(detail, body, format="json")
    assert response.status_code == 200, response.content
    settlement.refresh_from_db()
    assert (settlement.faction, settlement.notes, settlement.hex) == (enemy_faction, "Ford", "C8")
    assert response.json()["version"] == settlement.version


@pytest.mark.parametrize(
    "body",
    [
        {"faction": "own"},  # no name
        {"name": "Silverrun keep"},  # the name is taken (whatever its case)
        {"name": "Tatzlford", "hex": "<script>"},
        {"name": "Tatzlford", "hex": "x" * 17},
        {"name": "Tatzlford", "faction": "foreign"},  # another campaign's faction
        {"name": "Tatzlford", "faction": 999_999},
        {"name": "Tatzlford", "faction": None},
    ],
)
def test_bad_settlement_is_400_and_nothing_is_saved(body, as_role, world, kingdom_faction,
                                                    other_gm):  # fmt: skip
    foreign = FactionFactory(campaign=Campaign.objects.get(memberships__user=other_gm))
    body = {"faction": kingdom_faction.pk, **body}
    if body["faction"] == "own":
        body["faction"] = kingdom_faction.pk
    if body["faction"] == "foreign":
        body["faction"] = foreign.pk
    before = list(Settlement.objects.values_list("pk", "version"))
    response = as_role("gm").post(url("settlement-list", world.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert list(Settlement.objects.values_list("pk", "version")) == before


def test_stale_settlement_edit_is_409_with_the_settlement(as_role, world):
    keep = Settlement.objects.get(name="Silverrun Keep")
    old = keep.version
    keep.save()
    response = as_role("gm").patch(url("settlement-detail", world.pk, keep.pk),
                                   {"hex": "D1", "version": old}, format="json")  # fmt: skip
    assert response.status_code == 409
    data = response.json()
    assert data["errors"]
    assert (data["settlement"]["hex"], data["settlement"]["version"]) == ("C7", old + 1)
    assert Settlement.objects.get(pk=keep.pk).hex == "C7"


def test_settlement_notes_are_for_the_gm(as_role, world):
    keep = Settlement.objects.get(name="Silverrun Keep")
    Settlement.objects.filter(pk=keep.pk).update(notes="GM-SECRET tunnel")
    for role in ("player", "other_player"):
        response = as_role(role).get(url("settlement-detail", world.pk, keep.pk))
        assert set(response.json()) == PUBLIC_SETTLEMENT_KEYS
        assert "GM-SECRET" not in response.content.decode()
        listing = as_role(role).get(url("settlement-list", world.pk))
        assert "GM-SECRET" not in listing.content.decode()
    assert as_role("gm").get(url("settlement-detail", world.pk, keep.pk)).json()["notes"] == (
        "GM-SECRET tunnel"
    )


# --- Members ------------------------------------------------------------------------------


def test_members_are_listed_to_every_member(as_role, world, gm, player, other_player,
                                            kingdom_faction, hidden_faction):  # fmt: skip
    spy = MembershipFactory(campaign=world, user=UserFactory(username="spy"),
                            role=Role.PLAYER, faction=hidden_faction)  # fmt: skip
    rows = as_role("player").get(url("member-list", world.pk)).json()["results"]
    by_name = {row["username"]: row for row in rows}
    assert set(by_name) == {"gm", "player", "rival", "spy"}
    assert by_name["gm"]["role"] == "gm"
    assert by_name["player"] == {"id": membership_of(player, world).pk, "username": "player",
                                 "role": "player", "faction": kingdom_faction.pk}  # fmt: skip
    # A faction hidden from players is not named to them, even as someone's faction.
    assert by_name["spy"]["faction"] is None
    gm_rows = as_role("gm").get(url("member-list", world.pk), {"role": "player"}).json()
    assert {row["username"]: row["faction"] for row in gm_rows["results"]}["spy"] == (
        hidden_faction.pk
    )
    assert spy.pk in {row["id"] for row in gm_rows["results"]}


def test_gm_changes_a_members_role_and_faction(as_role, world, bystander, enemy_faction):
    endpoint = url("member-detail", world.pk, bystander.pk)
    response = as_role("gm").patch(endpoint, {"faction": enemy_faction.pk}, format="json")
    assert response.status_code == 200, response.content
    bystander.refresh_from_db()
    assert (bystander.role, bystander.faction) == ("player", enemy_faction)
    response = as_role("gm").patch(endpoint, {"role": "gm", "faction": None}, format="json")
    assert response.status_code == 200
    assert response.json() == {"id": bystander.pk, "username": "bystander", "role": "gm",
                               "faction": None}  # fmt: skip


@pytest.mark.parametrize(
    "body", [{"role": "king"}, {"faction": "foreign"}, {"faction": 999_999}, {"faction": "x"}]
)
def test_bad_member_edit_is_400(body, as_role, world, bystander, other_gm):
    if body.get("faction") == "foreign":
        body = {"faction": FactionFactory(campaign=Campaign.objects.get(
            memberships__user=other_gm)).pk}  # fmt: skip
    before = (bystander.role, bystander.faction_id)
    response = as_role("gm").patch(url("member-detail", world.pk, bystander.pk), body,
                                   format="json")  # fmt: skip
    assert response.status_code == 400, response.content
    bystander.refresh_from_db()
    assert (bystander.role, bystander.faction_id) == before


def test_the_last_gm_cannot_be_demoted_or_leave(as_role, world, gm, player):
    own = membership_of(gm, world)
    client = as_role("gm")
    endpoint = url("member-detail", world.pk, own.pk)
    response = client.patch(endpoint, {"role": "player"}, format="json")
    assert response.status_code == 400
    assert "only game master" in " ".join(response.json()["errors"])
    response = client.delete(endpoint)
    assert response.status_code == 400
    assert "only game master" in " ".join(response.json()["errors"])
    assert membership_of(gm, world).role == Role.GM

    # With a second GM, the first may step down, then leave.
    second = membership_of(player, world)
    assert client.patch(url("member-detail", world.pk, second.pk), {"role": "gm"},
                        format="json").status_code == 200  # fmt: skip
    assert client.patch(endpoint, {"role": "player"}, format="json").status_code == 200
    assert membership_of(gm, world).role == Role.PLAYER
    assert client.delete(endpoint).status_code == 204
    assert not Membership.objects.filter(pk=own.pk).exists()
    # The remaining GM is now the last one.
    response = as_role("player").delete(url("member-detail", world.pk, second.pk))
    assert response.status_code == 400


def test_a_player_leaves_but_removes_nobody_else(as_role, world, player, bystander):
    client = as_role("player")
    assert client.delete(url("member-detail", world.pk, bystander.pk)).status_code == 403
    assert Membership.objects.filter(pk=bystander.pk).exists()
    own = membership_of(player, world)
    assert client.delete(url("member-detail", world.pk, own.pk)).status_code == 204
    assert not Membership.objects.filter(pk=own.pk).exists()
    assert client.get(url("campaign-detail", world.pk)).status_code == 404
