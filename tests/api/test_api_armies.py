"""The JSON API (/api/v1/): who gets what, hidden numbers, activities with typed dice."""

import json

import pytest
from django.urls import reverse

from tests.api.statuses import GM_ALONE_SEES, GM_CREATES, MEMBERS, OWN_SIDE
from tests.conftest import ROLES, make_army
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry

PUBLIC_ARMY_KEYS = {"id", "name", "type", "status", "faction"}
PUBLIC_FACTION_KEYS = {"id", "name", "description", "controlled_by"}
GARRISON = {"activity": "garrison_army", "location": "settlement", "territory": "own"}


@pytest.fixture
def enemy_army(world, gm, enemy_faction):
    """Level 9 infantry: AC 28 (its level), which only the GM and its own side may see."""
    return make_army(world, enemy_faction.pk, "Thornback Raiders", level_override=9, hex="D8")


@pytest.fixture
def hidden_army(world, gm, hidden_faction):
    return make_army(world, hidden_faction.pk, "Crownless Host", army_type="cavalry",
                     tactics=(), level_override=5, hex="F11")  # fmt: skip


def url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def army_row(army: Army) -> tuple:
    army = Army.objects.get(pk=army.pk)
    return (army.version, army.hp, army.hex, army.garrison, army.conditions, army.tactics,
            army.activities_this_turn, army.status)  # fmt: skip


def kingdom_row(kingdom: Kingdom) -> tuple:
    kingdom = Kingdom.objects.get(pk=kingdom.pk)
    return (kingdom.resource_points, kingdom.food, kingdom.unrest, kingdom.turn)


# --- Permission matrix --------------------------------------------------------------------

#: name -> (method, url(fixtures), body(fixtures), statuses in ROLES order)
MATRIX = {
    "campaign-list": (
        "get", lambda f: url("campaign-list"), None, (403, 200, 200, 200, 200, 200)),
    "campaign-detail": (
        "get", lambda f: url("campaign-detail", f["world"].pk), None,
        MEMBERS),
    "faction-list": (
        "get", lambda f: url("faction-list", f["world"].pk), None,
        MEMBERS),
    "army-list": (
        "get", lambda f: url("faction-army-list", f["world"].pk, f["kingdom_faction"].pk), None,
        MEMBERS),
    "army-list-hidden-faction": (
        "get", lambda f: url("faction-army-list", f["world"].pk, f["hidden_faction"].pk), None,
        GM_ALONE_SEES),
    "army-create": (
        "post", lambda f: url("faction-army-list", f["world"].pk, f["enemy_faction"].pk),
        lambda f: {"name": "Fresh Levy", "army_type": "infantry", "tactics": ["keen_eyed"]},
        GM_CREATES),
    "army-create-hidden-faction": (
        "post", lambda f: url("faction-army-list", f["world"].pk, f["hidden_faction"].pk),
        lambda f: {"name": "Fresh Levy", "army_type": "infantry", "tactics": ["keen_eyed"]},
        GM_CREATES),
    "army-detail": (
        "get", lambda f: url("army-detail", f["world"].pk, f["militia"].pk), None,
        MEMBERS),
    "army-detail-hidden": (
        "get", lambda f: url("army-detail", f["world"].pk, f["hidden_army"].pk), None,
        GM_ALONE_SEES),
    "activity": (
        "post", lambda f: url("army-activities", f["world"].pk, f["militia"].pk),
        lambda f: {**GARRISON, "version": f["militia"].version, "typed_die": 20},
        OWN_SIDE),
    "activity-hidden": (
        "post", lambda f: url("army-activities", f["world"].pk, f["hidden_army"].pk),
        lambda f: {**GARRISON, "version": f["hidden_army"].version, "typed_die": 20},
        GM_ALONE_SEES),
    "army-log": (
        "get", lambda f: url("army-log", f["world"].pk, f["militia"].pk), None,
        OWN_SIDE),
    "army-log-hidden": (
        "get", lambda f: url("army-log", f["world"].pk, f["hidden_army"].pk), None,
        GM_ALONE_SEES),
}  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_permission_matrix(endpoint, role, as_role, world, kingdom_faction, enemy_faction,
                           hidden_faction, militia, hidden_army):  # fmt: skip
    """Non-members (and GMs of other campaigns) get 404, members without the role 403,
    anonymous users DRF's 403 (SessionAuthentication has no WWW-Authenticate challenge)."""
    method, make_url, make_body, statuses = MATRIX[endpoint]
    fixtures = {
        "world": world,
        "kingdom_faction": kingdom_faction,
        "enemy_faction": enemy_faction,
        "hidden_faction": hidden_faction,
        "militia": militia,
        "hidden_army": hidden_army,
    }
    armies_before = Army.objects.count()
    client = as_role(role)
    kwargs = {"format": "json"} if method == "post" else {}
    body = make_body(fixtures) if make_body else None
    response = getattr(client, method)(make_url(fixtures), body, **kwargs)
    expected = statuses[ROLES.index(role)]
    assert response.status_code == expected, response.content
    if endpoint.startswith("army-create"):
        assert Army.objects.count() == armies_before + (1 if expected == 201 else 0)


def test_unknown_ids_are_404(as_role, world, militia, kingdom_faction):
    gm = as_role("gm")
    assert gm.get(url("campaign-detail", 999_999)).status_code == 404
    assert gm.get(url("faction-list", 999_999)).status_code == 404
    assert gm.get(url("faction-army-list", world.pk, 999_999)).status_code == 404
    assert gm.get(url("army-detail", world.pk, 999_999)).status_code == 404
    assert gm.get(url("army-log", world.pk, 999_999)).status_code == 404
    body = {**GARRISON, "version": 1}
    response = gm.post(url("army-activities", world.pk, 999_999), body, format="json")
    assert response.status_code == 404
    # An army of this campaign asked for under another campaign's id.
    assert gm.get(url("army-detail", world.pk + 1, militia.pk)).status_code == 404
    assert gm.get("/api/v1/campaigns/abc/").status_code == 404


# --- What each member sees ----------------------------------------------------------------


def test_campaign_list_shows_own_campaigns_with_role(as_role, world):
    data = as_role("player").get(url("campaign-list")).json()["results"]
    assert [(c["id"], c["role"]) for c in data] == [(world.pk, "player")]
    assert data[0]["faction_count"] == 3
    gm_data = as_role("gm").get(url("campaign-list")).json()["results"]
    assert [(c["id"], c["role"]) for c in gm_data] == [(world.pk, "gm")]
    assert [c["name"] for c in as_role("other_gm").get(url("campaign-list")).json()["results"]] == [
        "Other campaign"
    ]
    assert as_role("outsider").get(url("campaign-list")).json()["results"] == []


def test_campaign_detail(as_role, world, kingdom_faction):
    data = as_role("player").get(url("campaign-detail", world.pk)).json()
    assert data["id"] == world.pk
    assert data["role"] == "player"
    assert data["faction"] == kingdom_faction.pk


def test_factions_hide_other_kingdoms_numbers(as_role, world, kingdom, enemy_faction,
                                              hidden_faction):  # fmt: skip
    data = {
        f["name"]: f for f in as_role("player").get(url("faction-list", world.pk)).json()["results"]
    }
    assert set(data) == {"Silverrun", "Thornback Horde"}  # the hidden faction is not listed
    assert set(data["Thornback Horde"]) == PUBLIC_FACTION_KEYS
    own = data["Silverrun"]["kingdom"]
    assert own["level"] == 3
    assert own["control_dc"]["value"] == 17
    assert own["skills"]["politics"]["modifier"] == 5
    assert own["resource_points"] == 30

    gm_data = {
        f["name"]: f for f in as_role("gm").get(url("faction-list", world.pk)).json()["results"]
    }
    assert set(gm_data) == {"Silverrun", "Thornback Horde", "Hollow Crown"}
    assert gm_data["Silverrun"]["kingdom"]["control_dc"]["value"] == 17
    assert gm_data["Thornback Horde"]["kingdom"]["level"] == 1
    assert gm_data["Hollow Crown"]["known_to_players"] is False


def test_enemy_army_numbers_hidden_from_players(as_role, world, enemy_army, enemy_faction):
    """A level 9 enemy army: AC 28 for the GM and its own side, no numbers for the others."""
    detail = url("army-detail", world.pk, enemy_army.pk)
    listing = url("faction-army-list", world.pk, enemy_faction.pk)

    public = as_role("player").get(detail)
    assert public.status_code == 200
    assert public.json() == {
        "id": enemy_army.pk,
        "name": "Thornback Raiders",
        "type": "infantry",
        "status": "active",
        "faction": enemy_faction.pk,
    }
    rows = as_role("player").get(listing).json()["results"]
    assert [set(row) for row in rows] == [PUBLIC_ARMY_KEYS]
    for text in (public.content.decode(), json.dumps(rows)):
        for hidden in ('"stat_block"', '"ac"', '"hp"', '"level"', '"hex"', '"version"', "D8"):
            assert hidden not in text
    assert as_role("player").get(url("army-log", world.pk, enemy_army.pk)).status_code == 403

    for role in ("gm", "other_player"):
        full = as_role(role).get(detail).json()
        assert full["stat_block"]["ac"] == {"value": 28, "breakdown": [["level", 28]],
                                            "ignored": []}  # fmt: skip
        assert full["level"] == 9
        assert full["hex"] == "D8"
        assert full["version"] == 1
        assert full["hp"] == full["stat_block"]["max_hp"]["value"]
        rows = as_role(role).get(listing).json()["results"]
        assert rows[0]["stat_block"]["ac"]["value"] == 28
    assert "notes" in as_role("gm").get(detail).json()
    assert "notes" not in as_role("other_player").get(detail).json()


def test_own_army_in_full_with_every_stat(as_role, world, militia):
    data = as_role("player").get(url("army-detail", world.pk, militia.pk)).json()
    block = data["stat_block"]
    for stat in ("ac", "maneuver", "morale", "melee", "scouting", "max_hp", "consumption"):
        assert {"value", "breakdown", "ignored"} <= set(block[stat])
    assert data["tactics"] == ["toughened_soldiers"]
    assert data["conditions"] == {}
    assert data["status"] == "active"
    assert data["level"] == 3


# --- Activities ---------------------------------------------------------------------------


def test_garrison_through_the_api_with_a_typed_die(as_role, world, militia, kingdom):
    """§4.4 Garrison: Politics +5, die 20 -> 25 vs Control DC 17: critical success."""
    body = {**GARRISON, "version": militia.version, "typed_die": 20}
    response = as_role("player").post(
        url("army-activities", world.pk, militia.pk), body, format="json"
    )
    assert response.status_code == 200, response.content
    data = response.json()
    assert data["degree"] == "critical_success"
    check = data["check"]
    assert (check["die"], check["source"], check["skill"]) == (20, "typed", "politics")
    assert check["modifier"]["value"] == 5
    assert check["dc"]["value"] == 17
    assert check["total"] == 25
    assert data["events"] and all({"code", "params", "text"} <= set(e) for e in data["events"])
    assert data["army"]["version"] == militia.version + 1
    assert data["army"]["garrison"] == "until_deployed"

    militia.refresh_from_db()
    assert militia.garrison == "until_deployed"
    log = as_role("player").get(url("army-log", world.pk, militia.pk)).json()["results"]
    codes = [entry["code"] for entry in log]
    assert codes[-1] == "army.placed"
    first = next(entry for entry in log if entry["data"].get("check"))
    assert first["data"]["check"]["total"] == 25
    assert first["turn"] == 1
    assert first["actor"] == "player"
    assert {"id", "code", "text", "data", "turn", "actor", "created_at"} == set(first)


def test_stale_version_is_409_and_changes_nothing(as_role, world, militia, kingdom):
    before, kingdom_before = army_row(militia), kingdom_row(kingdom)
    entries = LogEntry.objects.count()
    body = {**GARRISON, "version": militia.version + 5, "typed_die": 20}
    response = as_role("player").post(
        url("army-activities", world.pk, militia.pk), body, format="json"
    )
    assert response.status_code == 409
    data = response.json()
    assert data["errors"]
    assert data["army"]["version"] == militia.version
    assert "stat_block" in data["army"]
    assert army_row(militia) == before
    assert kingdom_row(kingdom) == kingdom_before
    assert LogEntry.objects.count() == entries


BAD_BODIES = {
    "unknown activity": lambda v: {"activity": "summon_dragons", "version": v},
    "activity not a string": lambda v: {"activity": ["deploy_army"], "version": v},
    "no activity": lambda v: {"version": v},
    "no version": lambda v: {**GARRISON, "typed_die": 20},
    "version not a number": lambda v: {**GARRISON, "version": "one"},
    "die above 20": lambda v: {**GARRISON, "version": v, "typed_die": 21},
    "die as text": lambda v: {**GARRISON, "version": v, "typed_die": "twenty"},
    "die as float": lambda v: {**GARRISON, "version": v, "typed_die": 7.5},
    "unknown choice": lambda v: {**GARRISON, "version": v, "location": "volcano"},
    "missing field": lambda v: {"activity": "deploy_army", "version": v,
                                "skill": "exploration", "destination": "D8"},
    "nested value": lambda v: {"activity": "deploy_army", "version": v, "skill": "exploration",
                               "destination": {"hex": "D8"}, "hexes": 2},
    "hexes zero": lambda v: {"activity": "deploy_army", "version": v, "skill": "exploration",
                             "destination": "D8", "hexes": 0},
    "rules: tactic not learnable": lambda v: {"activity": "train_army", "version": v,
                                              "skill": "warfare", "tactic": "overrun",
                                              "typed_die": 10},
    "body is a list": lambda v: [GARRISON],
}  # fmt: skip


@pytest.mark.parametrize("case", list(BAD_BODIES))
def test_bad_activity_input_is_400_and_changes_nothing(case, as_role, world, militia, kingdom):
    before, kingdom_before = army_row(militia), kingdom_row(kingdom)
    entries = LogEntry.objects.count()
    response = as_role("gm").post(
        url("army-activities", world.pk, militia.pk), BAD_BODIES[case](militia.version),
        format="json",
    )  # fmt: skip
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert errors
    assert all(isinstance(error, str) for error in errors)
    assert army_row(militia) == before
    assert kingdom_row(kingdom) == kingdom_before
    assert LogEntry.objects.count() == entries


def test_rule_problem_after_rolling_is_400(as_role, world, gm, militia, kingdom):
    """§4.6: buying gear without the RP is refused by the service; nothing moves."""
    Kingdom.objects.filter(pk=kingdom.pk).update(resource_points=0)
    before, kingdom_before = army_row(militia), kingdom_row(kingdom)
    body = {"activity": "outfit_army", "version": militia.version, "gear": "healing_potions",
            "tier": 1, "doses": 1, "source": "purchased", "typed_die": 15}  # fmt: skip
    response = as_role("gm").post(url("army-activities", world.pk, militia.pk), body,
                                  format="json")  # fmt: skip
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert army_row(militia) == before
    assert kingdom_row(kingdom) == kingdom_before


def test_malformed_json_is_400(as_role, world, militia):
    response = as_role("gm").post(
        url("army-activities", world.pk, militia.pk), "{not json",
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 400
    assert response.json()["errors"]


def test_form_encoded_activity_works_too(as_role, world, militia, kingdom):
    body = {**GARRISON, "version": str(militia.version), "typed_die": "1"}
    response = as_role("player").post(url("army-activities", world.pk, militia.pk), body)
    assert response.status_code == 200, response.content
    assert response.json()["degree"] == "critical_failure"
    assert Kingdom.objects.get(pk=kingdom.pk).unrest == 1


# --- Placing armies -----------------------------------------------------------------------


def test_gm_places_an_army(as_role, world, enemy_faction):
    body = {"name": "Thornback Wolves", "army_type": "cavalry", "level_override": 4,
            "hex": "E9", "notes": "Waits in the hills."}  # fmt: skip
    response = as_role("gm").post(url("faction-army-list", world.pk, enemy_faction.pk), body,
                                  format="json")  # fmt: skip
    assert response.status_code == 201, response.content
    data = response.json()
    army = Army.objects.get(pk=data["id"])
    assert (army.name, army.army_type, army.level_override, army.hex, army.faction_id) == (
        "Thornback Wolves", "cavalry", 4, "E9", enemy_faction.pk)  # fmt: skip
    assert data["tactics"] == ["overrun"]  # cavalry get Overrun by themselves
    assert data["level"] == 4
    assert data["notes"] == "Waits in the hills."
    assert data["hp"] == data["stat_block"]["max_hp"]["value"]
    assert LogEntry.objects.filter(army=army, code="army.placed").exists()


def test_player_may_not_place_an_army(as_role, world, kingdom_faction):
    body = {"name": "Own Levy", "army_type": "infantry", "tactics": ["keen_eyed"]}
    response = as_role("player").post(url("faction-army-list", world.pk, kingdom_faction.pk),
                                      body, format="json")  # fmt: skip
    assert response.status_code == 403
    assert not Army.objects.filter(name="Own Levy").exists()


@pytest.mark.parametrize(
    "body",
    [
        {"army_type": "infantry", "tactics": ["keen_eyed"]},  # no name
        {"name": "X", "army_type": "dragons", "tactics": ["keen_eyed"]},
        {"name": "X", "army_type": "infantry", "tactics": "keen_eyed"},
        {"name": "X", "army_type": "infantry", "tactics": ["no_such_tactic"]},
        {"name": "X", "army_type": "infantry", "tactics": ["keen_eyed"], "level_override": 21},
        {"name": "X", "army_type": "infantry", "tactics": ["keen_eyed"], "level_override": "x"},
        {"name": "X", "army_type": "infantry"},  # rules: a basic army knows a tactic
        {"name": "X", "army_type": "infantry", "tactics": ["keen_eyed", "hold_the_line"],
         "level_override": 1},  # rules: too many tactics at level 1
        ["not", "an", "object"],
    ],
)  # fmt: skip
def test_bad_placement_is_400(body, as_role, world, enemy_faction):
    before = Army.objects.count()
    response = as_role("gm").post(url("faction-army-list", world.pk, enemy_faction.pk), body,
                                  format="json")  # fmt: skip
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert Army.objects.count() == before


# --- Never a 500 --------------------------------------------------------------------------

JUNK = (None, "", "x", -1, 10**12, True, 2.5)


def test_junk_in_any_activity_field_is_never_a_500(as_role, world, militia, kingdom):
    """Every field of every activity form, filled with junk: 200, 400 or 409, never 500."""
    from warfare.systems.pf2e.activity_forms import ACTIVITY_FORMS

    client = as_role("gm")
    statuses = set()
    # Disband last: afterwards every activity is refused by the rules.
    for activity in sorted(ACTIVITY_FORMS, key=lambda key: key == "disband_army"):
        form_class = ACTIVITY_FORMS[activity]
        fields = [name for name in form_class(army=militia).fields if name != "version"]
        for field in fields:
            for junk in JUNK:
                militia.refresh_from_db()
                body = {"activity": activity, "version": militia.version, field: junk}
                response = client.post(
                    url("army-activities", world.pk, militia.pk), body, format="json"
                )
                assert response.status_code in (200, 400, 409), (activity, field, junk)
                statuses.add(response.status_code)
    assert statuses == {200, 400}
    assert Army.objects.get(pk=militia.pk).status == "disbanded"
    rows = client.get(url("faction-army-list", world.pk, militia.faction_id)).json()["results"]
    assert rows[0]["status"] == "disbanded"
    assert "stat_block" in rows[0]


def test_every_specialized_army_placement_is_201_or_400(as_role, world, enemy_faction):
    from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES

    client = as_role("gm")
    listing = url("faction-army-list", world.pk, enemy_faction.pk)
    for key in SPECIALIZED_ARMIES:
        for level in (None, 1, 20):
            body = {"name": f"{key} {level}", "army_type": "infantry", "specialized": key,
                    "level_override": level}  # fmt: skip
            response = client.post(listing, body, format="json")
            assert response.status_code in (201, 400), (key, level, response.content)
    response = client.get(listing, {"page_size": 200})
    assert response.status_code == 200
    assert all("stat_block" in row for row in response.json()["results"])
