"""Every kingdoms page and action: who may open it, what bad input gets, what players see."""

import pytest
from django.urls import reverse

from kingdoms.models import Faction, Invite, Membership, Settlement
from tests.conftest import ROLES
from tests.factories import FactionFactory, InviteFactory, SettlementFactory
from warfare.systems.pf2e.models import Kingdom


def _url(name, world, **objs):
    args = {
        "campaign-list": [],
        "campaign-create": [],
        "campaign-detail": [world.pk],
        "campaign-edit": [world.pk],
        "faction-create": [world.pk],
        "faction-detail": [world.pk, objs.get("faction")],
        "faction-edit": [world.pk, objs.get("faction")],
        "settlement-create": [world.pk],
        "settlement-edit": [world.pk, objs.get("settlement")],
        "members": [world.pk],
        "member-update": [world.pk, objs.get("membership")],
        "member-remove": [world.pk, objs.get("membership")],
        "invite-create": [world.pk],
        "invite-revoke": [world.pk, objs.get("invite")],
    }[name]
    return reverse(f"kingdoms:{name}", args=args)


# Expected status per role, in ROLES order. 302 = sent to the login page.
GET_MATRIX = {
    "campaign-list": (302, 200, 200, 200, 200, 200),
    "campaign-create": (302, 200, 200, 200, 200, 200),
    "campaign-detail": (302, 404, 404, 200, 200, 200),
    "campaign-edit": (302, 404, 404, 403, 403, 200),
    "faction-create": (302, 404, 404, 403, 403, 200),
    "faction-detail": (302, 404, 404, 200, 200, 200),
    "faction-edit": (302, 404, 404, 403, 403, 200),
    "settlement-create": (302, 404, 404, 403, 403, 200),
    "settlement-edit": (302, 404, 404, 403, 403, 200),
    "members": (302, 404, 404, 403, 403, 200),
}


@pytest.mark.parametrize("name", GET_MATRIX)
@pytest.mark.parametrize("role", ROLES)
def test_get_permission_matrix(client, users, world, kingdom_faction, name, role):
    settlement = kingdom_faction.settlements.first()
    url = _url(name, world, faction=kingdom_faction.pk, settlement=settlement.pk)
    if users[role]:
        client.force_login(users[role])
    response = client.get(url)
    assert response.status_code == GET_MATRIX[name][ROLES.index(role)]
    if response.status_code == 302:
        assert response["Location"].startswith(reverse("login"))


POST_MATRIX = {
    # A player may remove only themselves (leave), so the target here is someone else.
    "member-update": (302, 404, 404, 403, 403, 302),
    "member-remove": (302, 404, 404, 403, 403, 302),
    "invite-create": (302, 404, 404, 403, 403, 302),
    "invite-revoke": (302, 404, 404, 403, 403, 302),
}


@pytest.mark.parametrize("name", POST_MATRIX)
@pytest.mark.parametrize("role", ROLES)
def test_post_permission_matrix(client, users, world, gm, other_player, name, role):
    target = Membership.objects.get(campaign=world, user__username="rival")
    if role == "other_player":
        target = Membership.objects.get(campaign=world, user__username="player")
    invite = InviteFactory(campaign=world)
    url = _url(name, world, membership=target.pk, invite=invite.pk)
    data = {"role": "player", "faction": "", "lifetime": "7d"}
    if users[role]:
        client.force_login(users[role])
    response = client.post(url, data)
    assert response.status_code == POST_MATRIX[name][ROLES.index(role)]


def test_a_player_never_sees_hidden_factions_or_enemy_numbers(client, world, player, gm):
    Kingdom.objects.filter(faction__name="Thornback Horde").update(resource_points=777)
    client.force_login(player)
    page = client.get(reverse("kingdoms:campaign-detail", args=[world.pk])).content.decode()
    assert "Silverrun" in page and "Thornback Horde" in page
    assert "Hollow Crown" not in page and "Ashfen" not in page
    assert "777" not in page
    hidden = Faction.objects.get(name="Hollow Crown")
    assert (
        client.get(reverse("kingdoms:faction-detail", args=[world.pk, hidden.pk])).status_code
        == 404
    )
    enemy = Faction.objects.get(name="Thornback Horde")
    enemy_page = client.get(reverse("kingdoms:faction-detail", args=[world.pk, enemy.pk]))
    assert "777" not in enemy_page.content.decode()
    assert "known only to the game master" in enemy_page.content.decode()

    client.force_login(gm)
    gm_page = client.get(reverse("kingdoms:campaign-detail", args=[world.pk])).content.decode()
    assert "Hollow Crown" in gm_page and "777" in gm_page


def test_campaign_list_counts_every_member_and_no_hidden_faction(client, world, player, gm):
    """The campaign tile counts all members (three here), not just the viewer; a player is not
    told how many factions there are (one is hidden from them); the GM is."""
    client.force_login(player)
    page = client.get(reverse("kingdoms:campaign-list")).content.decode()
    assert "3 members" in page
    assert "factions" not in page
    client.force_login(gm)
    page = client.get(reverse("kingdoms:campaign-list")).content.decode()
    assert "3 members" in page and "3 factions" in page


def test_a_player_sees_their_own_kingdom_in_full(client, world, player, kingdom_faction):
    Kingdom.objects.filter(faction=kingdom_faction).update(
        resource_points=31, level=4, size_hexes=30
    )
    client.force_login(player)
    page = client.get(
        reverse("kingdoms:faction-detail", args=[world.pk, kingdom_faction.pk])
    ).content.decode()
    assert "31" in page
    # §10.4: level 4 base Control DC 18 + size 25-49 hexes +2 = 20.
    assert "<dt>Control DC</dt><dd>20</dd>" in page


def _kingdom_post(faction, **overrides):
    data = {
        "name": faction.name,
        "description": "",
        "controlled_by": "players",
        "known_to_players": "on",
        "kingdom-level": "5",
        "kingdom-xp": "0",
        "kingdom-size_hexes": "10",
        "kingdom-resource_points": "12",
        "kingdom-food": "3",
        "kingdom-unrest": "0",
        "kingdom-fame_kind": "fame",
        "kingdom-fame_points": "1",
    }
    for ruin in ("corruption", "crime", "decay", "strife"):
        data[f"kingdom-{ruin}"] = "0"
        data[f"kingdom-{ruin}_threshold"] = "10"
    for skill in ("warfare", "statecraft", "intrigue", "exploration", "boating", "magic",
                  "defense", "politics", "engineering", "trade", "scholarship", "folklore",
                  "wilderness", "arts"):  # fmt: skip
        data[f"kingdom-{skill}_modifier"] = "4"
        data[f"kingdom-{skill}_rank"] = "trained"
    data.update(overrides)
    return data


def test_gm_edits_a_kingdom(client, world, gm, kingdom_faction):
    client.force_login(gm)
    url = reverse("kingdoms:faction-edit", args=[world.pk, kingdom_faction.pk])
    data = _kingdom_post(kingdom_faction, **{"kingdom-magic_rank": "expert"})
    data["kingdom-structures"] = ["barracks", "castle"]
    response = client.post(url, data)
    assert response.status_code == 302
    kingdom = Kingdom.objects.get(faction=kingdom_faction)
    assert (kingdom.level, kingdom.resource_points) == (5, 12)
    assert kingdom.skills["magic"] == {"modifier": 4, "rank": "expert"}
    assert kingdom.structures == ["barracks", "castle"]
    bad = client.post(url, {**data, "kingdom-structures": ["moon_base"]})
    assert bad.status_code == 400
    assert Kingdom.objects.get(faction=kingdom_faction).structures == ["barracks", "castle"]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("kingdom-level", "21", "less than or equal to 20"),
        ("kingdom-level", "0", "greater than or equal to 1"),
        ("kingdom-resource_points", "-1", "greater than or equal to 0"),
        ("kingdom-warfare_modifier", "abc", "Enter a whole number"),
        ("kingdom-magic_rank", "godlike", "Select a valid choice"),
        ("name", "", "This field is required"),
    ],
)
def test_bad_kingdom_input_is_refused_with_a_message_and_nothing_saved(
    client, world, gm, kingdom_faction, field, value, message
):
    client.force_login(gm)
    before = Kingdom.objects.get(faction=kingdom_faction)
    url = reverse("kingdoms:faction-edit", args=[world.pk, kingdom_faction.pk])
    response = client.post(url, _kingdom_post(kingdom_faction, **{field: value}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert "Nothing was saved" in response.content.decode()
    after = Kingdom.objects.get(faction=kingdom_faction)
    assert (after.level, after.resource_points, after.skills) == (
        before.level,
        before.resource_points,
        before.skills,
    )
    assert Faction.objects.get(pk=kingdom_faction.pk).name == kingdom_faction.name


def test_creating_a_faction_creates_its_kingdom_in_one_go(client, world, gm):
    client.force_login(gm)
    url = reverse("kingdoms:faction-create", args=[world.pk])
    stub = Faction(name="Pitax")
    response = client.post(url, _kingdom_post(stub, **{"controlled_by": "gm"}))
    assert response.status_code == 302
    assert Kingdom.objects.get(faction__name="Pitax").level == 5


def test_duplicate_faction_name_is_refused(client, world, gm, enemy_faction):
    client.force_login(gm)
    url = reverse("kingdoms:faction-create", args=[world.pk])
    response = client.post(url, _kingdom_post(Faction(name="thornback horde")))
    assert response.status_code == 400
    assert "already has a faction of that name" in response.content.decode()
    assert Faction.objects.filter(campaign=world).count() == 3


def test_settlement_validation(client, world, gm, kingdom_faction):
    client.force_login(gm)
    url = reverse("kingdoms:settlement-create", args=[world.pk])
    bad_hex = client.post(url, {"name": "Tatzlford", "faction": kingdom_faction.pk, "hex": "<b>"})
    assert bad_hex.status_code == 400
    assert "Use letters, digits" in bad_hex.content.decode()
    clash = client.post(url, {"name": "silverrun keep", "faction": kingdom_faction.pk})
    assert clash.status_code == 400
    assert "already has a settlement of that name" in clash.content.decode()
    ok = client.post(url, {"name": "Tatzlford", "faction": kingdom_faction.pk, "hex": "D4"})
    assert ok.status_code == 302
    assert Settlement.objects.get(name="Tatzlford").hex == "D4"


def test_settlement_cannot_be_given_to_another_campaigns_faction(client, world, gm):
    client.force_login(gm)
    stranger = FactionFactory()
    url = reverse("kingdoms:settlement-create", args=[world.pk])
    response = client.post(url, {"name": "Smuggled", "faction": stranger.pk})
    assert response.status_code == 400
    assert not Settlement.objects.filter(name="Smuggled").exists()


def test_campaign_create_and_edit(client, gm):
    client.force_login(gm)
    bad = client.post(reverse("kingdoms:campaign-create"), {"name": "", "rule_system": "pf2e"})
    assert bad.status_code == 400
    unknown = client.post(reverse("kingdoms:campaign-create"), {"name": "X", "rule_system": "d20"})
    assert unknown.status_code == 400
    assert "Select a valid choice" in unknown.content.decode()
    response = client.post(
        reverse("kingdoms:campaign-create"), {"name": "Iron Hills", "rule_system": "gurps3e"}
    )
    campaign = Membership.objects.get(user=gm, campaign__name="Iron Hills").campaign
    assert response["Location"] == campaign.get_absolute_url()
    # The rule system is fixed after creation: a posted change is ignored.
    client.post(
        reverse("kingdoms:campaign-edit", args=[campaign.pk]),
        {"name": "Iron Hills II", "rule_system": "pf2e"},
    )
    campaign.refresh_from_db()
    assert (campaign.name, campaign.rule_system) == ("Iron Hills II", "gurps3e")


def test_gurps_factions_keep_their_command_staff(client, gm):
    client.force_login(gm)
    client.post(reverse("kingdoms:campaign-create"), {"name": "Mass", "rule_system": "gurps4e"})
    campaign = Membership.objects.get(user=gm, campaign__name="Mass").campaign
    response = client.post(
        reverse("kingdoms:faction-create", args=[campaign.pk]),
        {
            "name": "Legion",
            "controlled_by": "gm",
            "staff-commander": "Marcus",
            "staff-strategy": "14",
            "staff-tactics": "13",
            "staff-leadership": "12",
            "staff-intelligence_analysis": "11",
            "staff-administration": "10",
        },
    )
    assert response.status_code == 302
    faction = Faction.objects.get(name="Legion")
    assert (faction.command_staff.commander, faction.command_staff.strategy) == ("Marcus", 14)
    assert not Kingdom.objects.filter(faction=faction).exists()


def test_gm_demoting_the_last_gm_over_htmx_gets_the_panel_back_with_the_reason(client, world, gm):
    client.force_login(gm)
    own = Membership.objects.get(campaign=world, user=gm)
    response = client.post(
        reverse("kingdoms:member-update", args=[world.pk, own.pk]),
        {"role": "player", "faction": ""},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 400
    body = response.content.decode()
    assert 'id="member-list"' in body and "<html" not in body
    assert "only game master" in body
    assert Membership.objects.get(pk=own.pk).role == "gm"


def test_invite_panel_over_htmx(client, world, gm, kingdom_faction):
    client.force_login(gm)
    response = client.post(
        reverse("kingdoms:invite-create", args=[world.pk]),
        {"faction": kingdom_faction.pk, "lifetime": "1d"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    invite = Invite.objects.get(campaign=world)
    assert invite.get_absolute_url() in response.content.decode()
    assert invite.expires_at is not None
    bad = client.post(
        reverse("kingdoms:invite-create", args=[world.pk]),
        {"lifetime": "forever"},
        HTTP_HX_REQUEST="true",
    )
    assert bad.status_code == 400
    assert Invite.objects.filter(campaign=world).count() == 1


def test_invite_link_flow_for_a_newcomer(client, world, kingdom_faction):
    invite = InviteFactory(campaign=world, faction=kingdom_faction)
    landing = client.get(invite.get_absolute_url())
    assert landing.status_code == 200
    assert "The Stolen Lands" in landing.content.decode()
    signup = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "a-long-enough-password",
            "password2": "a-long-enough-password",
            "next": invite.get_absolute_url(),
        },
    )
    assert signup["Location"] == invite.get_absolute_url()
    joined = client.post(invite.get_absolute_url())
    assert joined["Location"] == world.get_absolute_url()
    membership = Membership.objects.get(campaign=world, user__username="newbie")
    assert (membership.role, membership.faction) == ("player", kingdom_faction)
    assert client.get(world.get_absolute_url()).status_code == 200


def test_unknown_revoked_and_expired_links(client, world, gm):
    assert client.get(reverse("kingdoms:invite-accept", args=["nope"])).status_code == 404
    invite = InviteFactory(campaign=world)
    client.force_login(gm)
    client.post(reverse("kingdoms:invite-revoke", args=[world.pk, invite.pk]))
    client.logout()
    response = client.get(invite.get_absolute_url())
    assert response.status_code == 410
    assert "revoked" in response.content.decode()


def test_signup_refuses_an_offsite_next_and_bad_passwords(client, db):
    mismatch = client.post(
        reverse("signup"), {"username": "a", "password1": "x-long-pass-1", "password2": "nope"}
    )
    assert mismatch.status_code == 400
    ok = client.post(
        reverse("signup"),
        {
            "username": "b",
            "password1": "a-long-enough-password",
            "password2": "a-long-enough-password",
            "next": "https://evil.example/",
        },
    )
    assert ok["Location"] == reverse("kingdoms:campaign-list")


def test_bad_login_is_a_400_with_a_message(client, gm):
    response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 400
    assert "Please enter a correct username and password" in response.content.decode()


# Query counts: each page costs the same whatever the number of factions and settlements.
PAGES = {
    "campaign-list": lambda c, f: reverse("kingdoms:campaign-list"),
    "campaign-detail": lambda c, f: reverse("kingdoms:campaign-detail", args=[c.pk]),
    "faction-detail": lambda c, f: reverse("kingdoms:faction-detail", args=[c.pk, f.pk]),
    "members": lambda c, f: reverse("kingdoms:members", args=[c.pk]),
    "faction-edit": lambda c, f: reverse("kingdoms:faction-edit", args=[c.pk, f.pk]),
}
MAX_QUERIES = {
    "campaign-list": 5,
    "campaign-detail": 8,
    "faction-detail": 7,
    "members": 7,
    "faction-edit": 6,
}


def _count_queries(client, url, django_assert_max_num_queries, limit):
    with django_assert_max_num_queries(limit) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", PAGES)
def test_page_query_count_does_not_grow_with_rows(
    client, world, gm, kingdom_faction, page, django_assert_max_num_queries
):
    client.force_login(gm)
    url = PAGES[page](world, kingdom_faction)
    few = _count_queries(client, url, django_assert_max_num_queries, MAX_QUERIES[page])
    for i in range(6):
        faction = FactionFactory(campaign=world, name=f"Extra {i}")
        SettlementFactory(faction=faction, name=f"Extra town {i}")
        SettlementFactory(faction=kingdom_faction, name=f"Extra village {i}")
        InviteFactory(campaign=world, faction=faction)
    many = _count_queries(client, url, django_assert_max_num_queries, MAX_QUERIES[page])
    assert many == few


def test_the_members_list_does_not_name_hidden_factions(client, world, player, hidden_faction):
    """A member playing a faction hidden from players does not reveal it on the campaign page."""
    from tests.factories import MembershipFactory, UserFactory

    MembershipFactory(campaign=world, user=UserFactory(username="cultist"), faction=hidden_faction)
    client.force_login(player)
    page = client.get(reverse("kingdoms:campaign-detail", args=[world.pk])).content.decode()
    assert "cultist" in page
    assert "Hollow Crown" not in page


@pytest.mark.parametrize("value", ["99999999999999", "31", "0"])
def test_command_staff_skills_out_of_range_are_refused_with_a_message(client, gm, value):
    """A GURPS skill level is 1-30 (it was saved as 99,999,999,999,999 and a recon roll read
    "vs 50000000000005"): the faction form answers 400 with the reason and saves nothing."""
    client.force_login(gm)
    client.post(reverse("kingdoms:campaign-create"), {"name": "Mass", "rule_system": "gurps4e"})
    campaign = Membership.objects.get(user=gm, campaign__name="Mass").campaign
    response = client.post(
        reverse("kingdoms:faction-create", args=[campaign.pk]),
        {"name": "Legion", "controlled_by": "gm", "staff-commander": "Marcus",
         "staff-strategy": "14", "staff-tactics": "13", "staff-leadership": "12",
         "staff-intelligence_analysis": value, "staff-administration": "10"},
    )  # fmt: skip
    assert response.status_code == 400
    assert "A skill level is a whole number from 1 to 30." in response.content.decode()
    assert not Faction.objects.filter(name="Legion").exists()


def test_a_gurps_3e_faction_asks_only_for_its_commanders_strategy(client, gm):
    """gurps §B.8: a 3e battle reads the commander's Strategy and nothing else of the command
    staff; the faction form and page leave the 4e skills out."""
    client.force_login(gm)
    client.post(reverse("kingdoms:campaign-create"), {"name": "Old", "rule_system": "gurps3e"})
    campaign = Membership.objects.get(user=gm, campaign__name="Old").campaign
    url = reverse("kingdoms:faction-create", args=[campaign.pk])
    page = client.get(url).content.decode()
    assert 'name="staff-strategy"' in page and 'name="staff-commander"' in page
    for unused in ("tactics", "leadership", "intelligence_analysis", "administration",
                   "intelligence_officer", "logistics_officer"):  # fmt: skip
        assert f'name="staff-{unused}"' not in page
    response = client.post(url, {"name": "Host", "controlled_by": "gm",
                                 "staff-commander": "Aldo", "staff-strategy": "15"})  # fmt: skip
    assert response.status_code == 302
    faction = Faction.objects.get(name="Host")
    assert (faction.command_staff.commander, faction.command_staff.strategy) == ("Aldo", 15)
    detail = client.get(reverse("kingdoms:faction-detail", args=[campaign.pk, faction.pk]))
    detail = detail.content.decode()
    assert "Strategy 15" in detail and "Intelligence Analysis" not in detail
