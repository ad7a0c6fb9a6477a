"""Starting positions offered on the board after initiative (issue #4, pf2e §7.3, §6.1
Ambush): whoever commands the choosing army (its faction's player, the GM) sees the options,
everyone else sees that the board waits."""

import json

import pytest
from django.urls import reverse

from battles import services
from tests.battles.conftest import assert_board_queries_stay
from warfare.systems.pf2e import services as army_services
from warfare.systems.pf2e import setup as pf2e_setup


@pytest.fixture
def scouts(world, gm, kingdom):
    """The players' level 8 skirmishers with Ambush (§6.1)."""
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Scouts",
        army_type="skirmisher", tactics=("ambush",), hex="C7", level_override=8,
    )  # fmt: skip


def _create(gm, world, scouts, raiders, **kw):
    return pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Ambush at the Ford",
        sides={"a": [scouts.pk], "b": [raiders.pk]}, pcs_side="a",
        initiative_dice={scouts.pk: 20, raiders.pk: 1}, **kw,
    )  # fmt: skip


@pytest.fixture
def offered(world, gm, player, scouts, raiders):
    """The scouts act before the raiders: Ambush lets them choose their start (§6.1)."""
    battle = _create(gm, world, scouts, raiders)
    assert battle.snapshot["positions"] == [[str(scouts.pk), None, None]]
    return battle


def _choose(battle, scouts, params):
    return {"seq": battle.seq, "actor": str(scouts.pk), "kind": "choose_start",
            "params": json.dumps(params)}  # fmt: skip


def test_the_players_army_is_offered_and_the_player_answers(
    client, world, offered, player, scouts, raiders
):
    client.force_login(player)
    page = " ".join(client.get(reverse("battles:board", args=[world.pk, offered.pk]))
                    .content.decode().split())  # fmt: skip
    assert "Scouts may choose its starting position" in page
    assert ">Near</button>" in page and ">Engaged with Raiders</button>" in page
    assert 'value="end_turn"' not in page
    assert "Scouts may choose its starting position." in page  # the log says it too
    act = reverse("battles:act", args=[world.pk, offered.pk])
    data = _choose(offered, scouts, {"start": "engaged", "target": str(raiders.pk)})
    assert client.post(act, data).status_code == 302
    offered.refresh_from_db()
    assert "positions" not in offered.snapshot
    assert offered.snapshot["engagements"] == [sorted([str(scouts.pk), str(raiders.pk)])]
    assert offered.events.filter(code="battle.round_started").exists()
    assert services.battle_verify(offered)
    page = client.get(reverse("battles:board", args=[world.pk, offered.pk])).content.decode()
    assert "may choose its starting position</h2>" not in page
    assert 'value="end_turn"' in page  # round 1: the scouts act first


def test_another_player_waits_and_cannot_choose(client, world, offered, other_player, scouts):
    client.force_login(other_player)
    page = client.get(reverse("battles:board", args=[world.pk, offered.pk])).content.decode()
    assert "Waiting for Scouts to choose its starting position." in page
    assert ">Near</button>" not in page
    act = reverse("battles:act", args=[world.pk, offered.pk])
    assert client.post(act, _choose(offered, scouts, {"start": "near"})).status_code == 403
    offered.refresh_from_db()
    assert offered.seq == 0


def test_other_commands_wait_with_a_clear_message(client, world, gm, offered, scouts):
    client.force_login(gm)
    act = reverse("battles:act", args=[world.pk, offered.pk])
    data = {**_choose(offered, scouts, {}), "kind": "end_turn"}
    response = client.post(act, data, headers={"HX-Request": "true"})
    assert response.status_code == 400
    assert "choosing its starting position" in response.content.decode()
    response = client.post(act, _choose(offered, scouts, {"start": "distant"}),
                           headers={"HX-Request": "true"})  # fmt: skip
    assert response.status_code == 400
    assert "cannot take that starting position" in response.content.decode()


def test_the_api_lists_the_choice_to_its_commanders_only(as_role, world, offered, scouts):
    url = reverse("api:battle-detail", args=[world.pk, offered.pk])
    for role in ("gm", "player"):
        data = as_role(role).get(url).json()
        assert [a["key"] for a in data["actions"]] == ["choose_start"]
        assert [o["params"]["start"] for o in data["actions"][0]["options"]] == [
            "near", "engaged",
        ]  # fmt: skip
        assert data["start_choice"]["army"]["key"] == str(scouts.pk)
        assert data["current"] is None
    rival = as_role("other_player").get(url).json()
    assert rival["actions"] == [] and rival["may_act"] is False
    assert rival["start_choice"]["army"]["name"] == "Scouts"
    actions = reverse("api:battle-actions", args=[world.pk, offered.pk])
    body = {"seq": offered.seq, "actor": str(scouts.pk), "kind": "choose_start",
            "params": {"start": "near"}}  # fmt: skip
    response = as_role("player").post(actions, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["start_choice"] is None
    assert response.json()["current"]["key"] == str(scouts.pk)


def test_undo_brings_the_choice_back(world, gm, offered, scouts):
    battle, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=offered.pk, expected_seq=0,
        command={"actor": str(scouts.pk), "kind": "choose_start", "params": {"start": "near"}},
    )  # fmt: skip
    services.battle_undo(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=1)
    battle.refresh_from_db()
    assert battle.snapshot == offered.snapshot


def test_a_pre_choice_on_the_set_up_form_is_not_asked_again(client, world, gm, scouts, raiders):
    """The set-up form keeps the start as an optional pre-choice (near included)."""
    client.force_login(gm)
    url = reverse("battles:create", args=[world.pk])
    assert "starting position (optional pre-choice)" in client.get(url).content.decode()
    data = {"name": "Ford", f"army_{scouts.pk}": "a", f"army_{raiders.pk}": "b",
            f"initiative_{scouts.pk}": 20, f"initiative_{raiders.pk}": 1,
            f"start_{scouts.pk}": "near"}  # fmt: skip
    response = client.post(url, data)
    assert response.status_code == 302, response.content
    battle = world.battles.get(name="Ford")
    assert "positions" not in battle.snapshot
    assert battle.snapshot["order"][battle.snapshot["turn"]] == str(scouts.pk)
    assert battle.events.filter(code="battle.start_near").exists()


def test_board_query_count_stays_fixed_with_a_choice(
    client, world, offered, player, scouts, django_assert_max_num_queries
):
    client.force_login(player)
    answer = {"actor": str(scouts.pk), "kind": "choose_start", "params": {"start": "near"}}
    assert_board_queries_stay(client, offered, answer, django_assert_max_num_queries)
