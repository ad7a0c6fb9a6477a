"""Battles on the board: set-up, actions, stale clicks, undo, replay, visibility."""

import json

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleCommand
from kingdoms.models import Kingdom


def _first_action(client, battle, user):
    from battles.selectors import board_context
    from kingdoms.access import access_campaign

    context = board_context(membership=access_campaign(user, battle.campaign_id), battle=battle)
    return context["actions"]


def test_creating_a_battle_rolls_initiative_and_logs_it(battle):
    assert battle.seq == 0
    assert battle.status == "active"
    assert set(battle.snapshot["order"]) == {
        str(pk) for pk in [a["army"]["key"] for s in battle.setup["sides"] for a in s["armies"]]
    }
    assert battle.events.filter(code="battle.initiative").count() == 2


def test_gm_acts_and_a_stale_click_gets_409(client, world, gm, battle):
    client.force_login(gm)
    actions = _first_action(client, battle, gm)
    end_turn = next(a for a in actions if a["key"] == "end_turn")
    url = reverse("battles:act", args=[world.pk, battle.pk])
    data = {"seq": 0, "actor": end_turn["actor"], "kind": "end_turn", "params": "{}"}
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 409
    battle.refresh_from_db()
    assert battle.seq == 1
    assert BattleCommand.objects.filter(battle=battle).count() == 1
    assert services.battle_verify(battle)


def test_undo_replays_to_the_same_state(client, world, gm, battle):
    before = battle.snapshot
    actor = battle.snapshot["order"][0]
    services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                        command={"actor": actor, "kind": "end_turn"})  # fmt: skip
    battle.refresh_from_db()
    assert battle.snapshot != before
    services.battle_undo(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=1)
    battle.refresh_from_db()
    assert battle.snapshot == before
    assert battle.seq == 0
    assert BattleCommand.objects.get(battle=battle).undone_at is not None


def test_players_act_only_for_their_own_armies(client, world, battle, player, other_player):
    actor = battle.snapshot["order"][0]
    factions = services.army_factions(battle)
    own = player if factions[actor] == player.memberships.get().faction_id else other_player
    stranger = other_player if own is player else player
    url = reverse("battles:act", args=[world.pk, battle.pk])
    data = {"seq": 0, "actor": actor, "kind": "end_turn", "params": json.dumps({})}
    client.force_login(stranger)
    assert client.post(url, data).status_code == 403
    client.force_login(own)
    assert client.post(url, data).status_code == 302


def test_enemy_numbers_stay_hidden_on_the_board(client, world, battle, player):
    client.force_login(player)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "Raiders" in page and "Silverrun Militia" in page
    assert page.count("<progress") == 1  # only the player's own army shows its HP


def test_an_unchanged_board_costs_a_304(client, world, gm, battle):
    client.force_login(gm)
    url = reverse("battles:board", args=[world.pk, battle.pk])
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("role", ["anonymous", "outsider", "other_gm", "player", "gm"])
def test_board_permissions(client, world, battle, role, outsider, other_gm, player, gm):
    users = {"anonymous": None, "outsider": outsider, "other_gm": other_gm, "player": player,
             "gm": gm}  # fmt: skip
    if users[role]:
        client.force_login(users[role])
    expected = {"anonymous": 302, "outsider": 404, "other_gm": 404, "player": 200, "gm": 200}
    url = reverse("battles:board", args=[world.pk, battle.pk])
    assert client.get(url).status_code == expected[role]
    create = reverse("battles:create", args=[world.pk])
    assert client.get(create).status_code == {"player": 403, "gm": 200}.get(role, expected[role])


def test_board_query_count_does_not_grow(client, world, gm, battle, django_assert_max_num_queries):
    client.force_login(gm)
    url = reverse("battles:board", args=[world.pk, battle.pk])

    def count():
        with django_assert_max_num_queries(10) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    few = count()
    for seq in range(4):
        battle.refresh_from_db()
        actor = battle.snapshot["order"][battle.snapshot["turn"]]
        command = {"actor": actor, "kind": "end_turn"}
        services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=seq, command=command
        )
    assert count() == few
    assert Battle.objects.get(pk=battle.pk).seq == 4


def test_a_finished_battle_writes_its_results_back(client, world, gm, battle, militia, raiders,
                                                   kingdom):  # fmt: skip
    """§7.6: the winner's kingdom gains XP for each enemy army it defeated (level 3 enemy vs
    a level 3 kingdom: 40 XP); armies leave the battle as the board left them."""
    raiders_key = str(raiders.pk)
    battle, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction", "params": {"army": raiders_key, "hp": 0}},
    )  # fmt: skip
    # Play on until the engine declares the end (the enemy's only army is defeated).
    seq = battle.seq
    while battle.status == "active" and seq < 20:
        actor = battle.snapshot["order"][battle.snapshot["turn"]]
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=seq,
            command={"actor": actor, "kind": "end_turn"},
        )  # fmt: skip
        seq = battle.seq
    assert battle.status == "finished"
    assert battle.outcome["winner"] == "a"
    client.force_login(gm)
    url = reverse("battles:apply", args=[world.pk, battle.pk])
    assert client.post(url, {"seq": battle.seq}).status_code == 302
    raiders.refresh_from_db()
    kingdom.refresh_from_db()
    assert raiders.hp == 0
    assert raiders.fought_this_turn is True
    assert kingdom.xp == 40
    assert Battle.objects.get(pk=battle.pk).status == "applied"
    # Applying twice changes nothing.
    assert client.post(url, {"seq": battle.seq}).status_code == 400
    assert Kingdom.objects.get(pk=kingdom.pk).xp == 40


def test_the_live_poll_answers_304_while_nothing_changed(
    client, world, gm, battle, outsider, django_assert_max_num_queries
):
    client.force_login(gm)
    url = reverse("battles:board", args=[world.pk, battle.pk])
    with django_assert_max_num_queries(4):  # session, user, seq: no rendering
        assert client.get(url, {"since": 0}, HTTP_HX_REQUEST="true").status_code == 304
    actor = battle.snapshot["order"][0]
    services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                        command={"actor": actor, "kind": "end_turn"})  # fmt: skip
    changed = client.get(url, {"since": 0}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 200
    assert 'id="board"' in changed.content.decode()
    client.force_login(outsider)
    assert client.get(url, {"since": 1}, HTTP_HX_REQUEST="true").status_code == 404


def test_gm_correction_from_the_board(client, world, gm, player, battle, raiders):
    url = reverse("battles:act", args=[world.pk, battle.pk])
    data = {"seq": 0, "kind": "gm_correction", "army": str(raiders.pk), "hp": "1",
            "condition": "shaken", "value": "2"}  # fmt: skip
    client.force_login(player)
    assert client.post(url, data).status_code == 403
    client.force_login(gm)
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    battle.refresh_from_db()
    entry = next(a for a in battle.snapshot["armies"] if a["key"] == str(raiders.pk))
    assert entry["army"]["hp"] == 1
    assert entry["army"]["spec"]["conditions"]["shaken"] == 2
    bad = client.post(url, {**data, "seq": 1, "hp": "50"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400


def test_the_board_log_never_names_enemy_hp(client, world, struck, player, other_player, gm):
    """The player's critical hit on the raiders (4 -> 2 HP): the raiders' side and the GM read
    the HP left in the log; the player sees the damage but not the HP left."""
    url = reverse("battles:board", args=[world.pk, struck.pk])
    client.force_login(player)
    page = client.get(url).content.decode()
    assert "Raiders takes 2 damage." in page
    assert "Raiders takes 2 damage (HP 2)." not in page
    for insider in (other_player, gm):
        client.force_login(insider)
        assert "Raiders takes 2 damage (HP 2)." in client.get(url).content.decode()
