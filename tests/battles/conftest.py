"""Battle fixtures shared by the API and report tests: the Battle of the Ford (the players'
militia on side A against the Thornback raiders on side B), at its start, with the militia to
act, struck, and finished."""

import pytest
from django.urls import reverse

from battles import services
from tests.conftest import board_queries
from warfare.systems.pf2e import services as army_services
from warfare.systems.pf2e import setup as pf2e_setup


@pytest.fixture
def raiders(world, gm, enemy_faction):
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",), hex="C7", level_override=3,
    )  # fmt: skip


@pytest.fixture
def battle(world, gm, militia, raiders):
    return pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Ford",
        sides={"a": [militia.pk], "b": [raiders.pk]}, pcs_side="a",
    )  # fmt: skip


def act(user, battle, command: dict):
    """`user` sends `command` on the board as it is now; the battle as it is afterwards."""
    battle, _events = services.battle_act(
        user=user, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command=command,
    )  # fmt: skip
    return battle


def assert_board_queries_stay(client, battle, answer: dict, django_assert_max_num_queries):
    """The board of `battle` takes as many queries (at most 10) while it asks a question as
    once `answer` (a command, sent by the GM) has answered it."""
    asking = board_queries(client, battle, django_assert_max_num_queries)
    act(battle.created_by, battle, answer)
    assert board_queries(client, battle, django_assert_max_num_queries) == asking


def end_turn(gm, battle):
    """The GM ends the turn of whoever acts; the battle as it is afterwards."""
    return act(gm, battle, {"actor": battle.snapshot["order"][battle.snapshot["turn"]],
                            "kind": "end_turn"})  # fmt: skip


@pytest.fixture
def militia_to_act(gm, battle, militia):
    """The battle after at least one command, with the militia (the player's army) to act."""
    battle = end_turn(gm, battle)
    while battle.snapshot["order"][battle.snapshot["turn"]] != str(militia.pk):
        battle = end_turn(gm, battle)
    return battle


@pytest.fixture
def struck(as_role, militia_to_act, militia, raiders):
    """The player's militia advances on the raiders and strikes them through the API, with
    typed-in 20s: a critical hit, 2 damage (the raiders' HP 4 -> 2)."""
    client = as_role("player")
    battle = militia_to_act
    actions = reverse("api:battle-actions", args=[battle.campaign_id, battle.pk])
    target = {"target": str(raiders.pk)}
    body = {"seq": battle.seq, "actor": str(militia.pk), "kind": "advance", "params": target,
            "typed_dice": [20]}  # fmt: skip
    state = client.post(actions, body, format="json").json()
    body = {**body, "seq": state["seq"], "kind": "battle",
            "params": {**target, "weapon": "melee"}}  # fmt: skip
    response = client.post(actions, body, format="json")
    assert response.status_code == 200, response.content
    battle.refresh_from_db()
    return battle


@pytest.fixture
def finished_battle(gm, battle, raiders):
    """The raiders knocked to 0 HP by the GM, then turns ended until side A wins."""
    battle, _events = services.battle_act(
        user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction",
                 "params": {"army": str(raiders.pk), "hp": 0}},
    )  # fmt: skip
    while battle.status == "active" and battle.seq < 20:
        battle = end_turn(gm, battle)
    assert battle.status == "finished"
    return battle
