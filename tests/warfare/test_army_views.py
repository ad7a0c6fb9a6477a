"""Army pages: permissions, hidden numbers, GM condition controls, stale edits, query counts."""

import pytest
from django.urls import reverse

from tests.conftest import ROLES, make_army
from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, LogEntry


@pytest.fixture
def raiders(world, gm, enemy_faction):
    return make_army(world, enemy_faction.pk, "Thornback Raiders", tactics=("hold_the_line",),
                     level_override=9)  # fmt: skip


MATRIX = {
    # name: (url builder, expected per role)
    "army-list": (
        lambda w, a: reverse("pf2e:army-list", args=[w.pk, a.faction_id]),
        (302, 404, 404, 200, 200, 200),
    ),
    "army-detail": (
        lambda w, a: reverse("pf2e:army-detail", args=[w.pk, a.pk]),
        (302, 404, 404, 200, 200, 200),
    ),
    "army-edit": (
        lambda w, a: reverse("pf2e:army-edit", args=[w.pk, a.pk]),
        (302, 404, 404, 403, 403, 200),
    ),
    "army-create": (
        lambda w, a: reverse("pf2e:army-create", args=[w.pk, a.faction_id]),
        (302, 404, 404, 403, 403, 200),
    ),
}


@pytest.mark.parametrize("name", MATRIX)
@pytest.mark.parametrize("role", ROLES)
def test_army_pages_permission_matrix(client, users, world, militia, name, role):
    build, expected = MATRIX[name]
    if users[role]:
        client.force_login(users[role])
    assert client.get(build(world, militia)).status_code == expected[ROLES.index(role)]


@pytest.mark.parametrize("role", ROLES)
def test_condition_post_is_gm_only(client, users, world, militia, role):
    if users[role]:
        client.force_login(users[role])
    url = reverse("pf2e:army-condition", args=[world.pk, militia.pk])
    response = client.post(url, {"condition": "weary", "delta": "1", "version": militia.version})
    assert response.status_code == (302, 404, 404, 403, 403, 302)[ROLES.index(role)]
    militia.refresh_from_db()
    assert militia.conditions == ({"weary": 1} if role == "gm" else {})


def test_hidden_faction_armies_are_404_to_players(client, world, gm, player, hidden_faction):
    army = make_army(world, hidden_faction.pk, "Crown Cultists")
    client.force_login(player)
    assert client.get(reverse("pf2e:army-detail", args=[world.pk, army.pk])).status_code == 404
    assert (
        client.get(reverse("pf2e:army-list", args=[world.pk, hidden_faction.pk])).status_code == 404
    )


def test_players_never_see_enemy_army_numbers(client, world, player, raiders):
    client.force_login(player)
    page = client.get(reverse("pf2e:army-detail", args=[world.pk, raiders.pk])).content.decode()
    assert "Thornback Raiders" in page
    # Level 9 infantry (§1.2): AC 28, Morale +21. None of it may reach the player.
    for secret in ("<strong>28</strong>", "<strong>21</strong>", "level 9", "stat-table"):
        assert secret not in page
    listing = client.get(reverse("pf2e:army-list", args=[world.pk, raiders.faction_id]))
    listing_html = listing.content.decode()
    assert "Thornback Raiders" in listing_html
    assert '<td class="num">9</td>' not in listing_html and "Consumption" not in listing_html
    # The GM does see them.
    client.force_login(raiders.faction.campaign.created_by)
    gm_page = client.get(reverse("pf2e:army-detail", args=[world.pk, raiders.pk]))
    assert "<strong>28</strong>" in gm_page.content.decode()


def test_stat_block_shows_its_working(client, world, gm, militia):
    """Level 3 infantry (§1.2): AC 19; Toughened Soldiers: 4 HP + 1 (§6.1)."""
    client.force_login(gm)
    page = client.get(reverse("pf2e:army-detail", args=[world.pk, militia.pk])).content.decode()
    assert "= 19 level" in page
    assert "= 4 army type + 1 Toughened Soldiers" in page


def test_gm_condition_controls_update_the_sheet_in_place(client, world, gm, militia):
    client.force_login(gm)
    url = reverse("pf2e:army-condition", args=[world.pk, militia.pk])
    response = client.post(
        url,
        {"condition": "weary", "delta": "1", "version": militia.version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="sheet"' in body and "<html" not in body
    # §9 weary 1: -1 to AC.
    assert "= 19 level − 1 Weary" in body or "= 19 level − 1 weary" in body.lower()
    militia.refresh_from_db()
    assert militia.conditions == {"weary": 1}
    assert LogEntry.objects.filter(army=militia, code="army.condition_set").count() == 1


def test_a_stale_condition_change_is_refused_with_409(client, world, gm, militia):
    client.force_login(gm)
    url = reverse("pf2e:army-condition", args=[world.pk, militia.pk])
    stale = militia.version
    client.post(url, {"condition": "weary", "delta": "1", "version": stale})
    response = client.post(
        url, {"condition": "weary", "delta": "1", "version": stale}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 409
    militia.refresh_from_db()
    assert militia.conditions == {"weary": 1}


def test_bad_condition_input_is_a_400(client, world, gm, militia):
    client.force_login(gm)
    url = reverse("pf2e:army-condition", args=[world.pk, militia.pk])
    for data in (
        {"condition": "sleepy", "delta": "1", "version": militia.version},
        {"condition": "weary", "delta": "5", "version": militia.version},
        {"condition": "weary"},
    ):
        assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 400
    militia.refresh_from_db()
    assert militia.conditions == {}


def test_gm_places_an_army_and_rules_are_enforced(client, world, gm, enemy_faction):
    client.force_login(gm)
    url = reverse("pf2e:army-create", args=[world.pk, enemy_faction.pk])
    # §2: siege engines need level 7; the enemy kingdom is level 1 (§1.3 minimum level).
    bad = client.post(url, {"name": "Catapults", "army_type": "siege", "tactics": []})
    assert bad.status_code == 400
    assert "Siege" in bad.content.decode() or "level" in bad.content.decode()
    ok = client.post(
        url, {"name": "Pikes", "army_type": "infantry", "tactics": ["toughened_soldiers"]}
    )
    assert ok.status_code == 302
    assert Army.objects.get(name="Pikes").hp == 5
    assert not Army.objects.filter(name="Catapults").exists()


def test_army_list_query_count_does_not_grow(
    client, world, gm, kingdom_faction, django_assert_max_num_queries
):
    client.force_login(gm)
    url = reverse("pf2e:army-list", args=[world.pk, kingdom_faction.pk])

    def count():
        with django_assert_max_num_queries(8) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    def add(n):
        for i in range(n):
            services.army_create(
                user=gm,
                campaign_id=world.pk,
                faction_id=kingdom_faction.pk,
                name=f"Company {i}-{n}",
                army_type="infantry",
                tactics=("keen_eyed",),
            )

    add(1)
    few = count()
    add(8)
    assert count() == few
