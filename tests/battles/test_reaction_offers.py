"""Reactions offered on the board (issue #4, pf2e §0.5, §8.2): the players' side is asked by
default, the GM's side reacts automatically; the reacting army's player (and the GM) see the
Use / Decline buttons, everyone else sees that the board waits."""

import json

import pytest
from django.urls import reverse

from battles import services
from tests.battles.conftest import act, assert_board_queries_stay
from warfare.systems.pf2e import services as army_services
from warfare.systems.pf2e import setup as pf2e_setup


@pytest.fixture
def veterans(world, gm, kingdom):
    """The players' level 5 infantry with Flexible Tactics (Counterattack, §6.1)."""
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Veterans",
        army_type="infantry", tactics=("flexible_tactics",), hex="C7", level_override=5,
    )  # fmt: skip


def _guard(world, gm, veterans, raiders, typed_dice=(), **create):
    """The raiders (GM's side) Guard against the engaged veterans (players' side), with
    `typed_dice` typed at the table; the set-up's options `create`."""
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Ambush at the Ford",
        sides={"a": [veterans.pk], "b": [raiders.pk]}, pcs_side="a", **create,
    )  # fmt: skip
    ours, theirs = str(veterans.pk), str(raiders.pk)
    battle = act(gm, battle, {"actor": None, "kind": "gm_correction",
                              "params": {"army": ours, "engage": [theirs]}})  # fmt: skip
    while battle.snapshot["order"][battle.snapshot["turn"]] != theirs:
        battle = act(gm, battle, {"actor": ours, "kind": "end_turn"})
    guard = {"actor": theirs, "kind": "guard", "params": {"target": ours}}
    return act(gm, battle, {**guard, "typed_dice": list(typed_dice)} if typed_dice else guard)


@pytest.fixture
def offered(world, gm, player, veterans, raiders):
    """The raiders (GM's side) Guard against the engaged veterans (players' side, asked by
    default): a Counterattack is offered to the veterans' player."""
    battle = _guard(world, gm, veterans, raiders)
    assert battle.snapshot["pending"]["army"] == str(veterans.pk)
    return battle


def test_the_players_side_is_asked_and_the_gms_side_automatic(offered):
    """Set-up default: asked where a player's faction fights and players act, else automatic."""
    flags = [side["auto_reactions"] for side in offered.setup["sides"]]
    assert flags == [False, True]


def test_the_gm_may_choose_per_side(world, gm, player, veterans, raiders):
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Ford", sides={"a": [veterans.pk], "b": [raiders.pk]},
        auto_reactions={"a": True, "b": False},
    )  # fmt: skip
    assert [side["auto_reactions"] for side in battle.setup["sides"]] == [True, False]


def test_the_setup_form_has_the_choice(client, world, gm, veterans, raiders):
    client.force_login(gm)
    data = {"name": "Ford", f"army_{veterans.pk}": "a", f"army_{raiders.pk}": "b",
            "reactions_a": "auto", "reactions_b": "ask"}  # fmt: skip
    response = client.post(reverse("battles:create", args=[world.pk]), data)
    assert response.status_code == 302, response.content
    battle = world.battles.get(name="Ford")
    assert [side["auto_reactions"] for side in battle.setup["sides"]] == [True, False]


def test_the_reacting_player_sees_use_and_decline_and_answers(
    client, world, offered, player, veterans
):
    client.force_login(player)
    url = reverse("battles:board", args=[world.pk, offered.pk])
    page = client.get(url).content.decode()
    assert "Veterans may react to Raiders (Guard): Counterattack" in page
    assert 'value="use_reaction"' in page and 'value="decline_reaction"' in page
    # §1.2: level 5 melee +15; the enemy's AC (level 3: DC 19) is not the player's to know.
    assert "Melee +15" in " ".join(page.split()) and "DC 19" not in page
    assert 'value="guard"' not in page and 'value="end_turn"' not in page
    act = reverse("battles:act", args=[world.pk, offered.pk])
    data = {"seq": offered.seq, "actor": str(veterans.pk), "kind": "use_reaction",
            "params": json.dumps({})}  # fmt: skip
    assert client.post(act, data).status_code == 302
    offered.refresh_from_db()
    assert "pending" not in offered.snapshot
    assert offered.events.filter(code="battle.counterattack").exists()
    assert services.battle_verify(offered)


def test_another_member_waits_and_cannot_answer(client, world, offered, other_player, veterans):
    client.force_login(other_player)
    page = client.get(reverse("battles:board", args=[world.pk, offered.pk])).content.decode()
    assert "Waiting for Veterans to decide." in page
    assert 'value="use_reaction"' not in page and "vs DC 19" not in page
    act = reverse("battles:act", args=[world.pk, offered.pk])
    data = {"seq": offered.seq, "actor": str(veterans.pk), "kind": "use_reaction",
            "params": json.dumps({})}  # fmt: skip
    assert client.post(act, data).status_code == 403
    # The rival plays the raiders, whose Guard waits: their actions are refused meanwhile.
    data = {**data, "actor": offered.snapshot["order"][offered.snapshot["turn"]],
            "kind": "end_turn"}  # fmt: skip
    response = client.post(act, data)
    assert response.status_code == 400
    assert "A reaction is offered" in response.content.decode()


def test_the_gm_may_answer_and_the_api_lists_the_answers(
    as_role, world, offered, veterans, raiders
):
    url = reverse("api:battle-detail", args=[world.pk, offered.pk])
    for role in ("gm", "player"):
        data = as_role(role).get(url).json()
        assert [a["key"] for a in data["actions"]] == ["use_reaction", "decline_reaction"]
        assert data["actions"][0]["actor"] == str(veterans.pk)
        assert data["reaction"]["reaction"] == "counterattack"
        assert data["reaction"]["by"]["key"] == str(raiders.pk)
    rival = as_role("other_player").get(url).json()
    assert rival["actions"] == [] and rival["may_act"] is False
    actions = reverse("api:battle-actions", args=[world.pk, offered.pk])
    body = {"seq": offered.seq, "actor": str(veterans.pk), "kind": "decline_reaction",
            "params": {}}  # fmt: skip
    response = as_role("gm").post(actions, body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["reaction"] is None


def test_undo_brings_the_offer_back(world, gm, offered, veterans):
    pending = offered.snapshot["pending"]
    battle = act(gm, offered, {"actor": str(veterans.pk), "kind": "decline_reaction"})
    services.battle_undo(user=gm, campaign_id=world.pk, battle_id=battle.pk,
                         expected_seq=battle.seq)  # fmt: skip
    battle.refresh_from_db()
    assert battle.snapshot["pending"] == pending


def test_board_query_count_stays_fixed_with_an_offer(
    client, world, offered, player, django_assert_max_num_queries
):
    client.force_login(player)
    answer = {"actor": offered.snapshot["pending"]["army"], "kind": "decline_reaction"}
    assert_board_queries_stay(client, offered, answer, django_assert_max_num_queries)


def _guard_with_a_typed_die(world, gm, veterans, raiders, *, ask: bool):
    """The raiders (GM's side) Guard against the engaged veterans with a 12 typed at the
    table; the veterans' Counterattack is offered (`ask`) or used automatically."""
    return _guard(world, gm, veterans, raiders, [12], auto_reactions={"a": not ask})


def _checks(battle):
    guard = battle.events.filter(code="battle.guard").latest("pk").params["check"]
    counter = battle.events.filter(code="battle.counterattack").latest("pk").params["check"]
    return (guard["die"], guard["source"]), (counter["die"], counter["source"])


@pytest.mark.parametrize(("answer_dice", "source"), [(None, "seeded"), ([7], "typed")])
def test_a_typed_die_goes_to_the_roll_it_was_typed_for_across_a_reaction(
    client, world, gm, player, veterans, raiders, answer_dice, source
):
    """pf2e §0.5, §8.2: the 12 typed with the raiders' Guard is Guard's die, not the
    Counterattack it triggers (that took the 12 and Guard got a server roll); the
    Counterattack rolls the die typed with the player's answer, else the server's; the log
    marks which were typed; the stored commands replay to the same board."""
    battle = _guard_with_a_typed_die(world, gm, veterans, raiders, ask=True)
    assert battle.snapshot["pending"]["typed"] == [12]
    battle = act(player, battle, {"actor": str(veterans.pk), "kind": "use_reaction",
                                   "typed_dice": answer_dice})  # fmt: skip
    guard, counterattack = _checks(battle)
    assert guard == (12, "typed")
    assert counterattack[1] == source and (answer_dice is None or counterattack[0] == 7)
    assert services.battle_verify(battle)
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "Raiders: Guard" in page and "(d20 12 (typed at the table) +" in page


def test_an_automatic_reaction_never_takes_the_die_typed_for_the_action(
    world, gm, veterans, raiders
):
    """The veterans' side reacts automatically: their Counterattack rolls the server's die,
    Guard the 12 typed for it."""
    battle = _guard_with_a_typed_die(world, gm, veterans, raiders, ask=False)
    guard, counterattack = _checks(battle)
    assert guard == (12, "typed") and counterattack[1] == "seeded"
    assert services.battle_verify(battle)
