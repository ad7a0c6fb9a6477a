"""Battles on the board: set-up, actions, stale clicks, undo, replay, visibility."""

import json

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleCommand
from tests.conftest import board_queries
from warfare.systems.pf2e import results as pf2e_results
from warfare.systems.pf2e.models import Kingdom


def _first_action(client, battle, user):
    from kingdoms.access import access_campaign
    from warfare.systems.pf2e.board import board_context

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
    factions = pf2e_results.army_factions(battle)
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
    assert page.count('class="hp-bar"') == 1  # only the player's own army shows its HP


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

    def count():
        return board_queries(client, battle, django_assert_max_num_queries)

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


def test_a_die_typed_at_the_table_decides_the_action(client, world, gm, militia_to_act,
                                                     militia, raiders):  # fmt: skip
    """Each action that rolls offers a "die rolled at the table" input; its value is the
    command's typed die: a typed 20 on Advance is logged as typed, a critical success."""
    battle = militia_to_act
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert 'name="typed_die"' in page
    actions = _first_action(client, battle, gm)
    advance = next(a for a in actions if a["key"] == "advance")
    assert advance["rolls"] is True
    url = reverse("battles:act", args=[world.pk, battle.pk])
    data = {"seq": battle.seq, "actor": str(militia.pk), "kind": "advance",
            "params": advance["params"], "typed_die": "20"}  # fmt: skip
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200
    command = BattleCommand.objects.filter(battle=battle).order_by("-position").first()
    assert command.command["typed_dice"] == [20]
    event = battle.events.filter(code="battle.advance").latest("pk")
    assert (event.params["check"]["die"], event.params["check"]["source"]) == (20, "typed")
    assert event.params["check"]["degree"] == "critical_success"
    bad = client.post(url, {**data, "seq": battle.seq + 1, "typed_die": "21"},
                      HTTP_HX_REQUEST="true")  # fmt: skip
    assert bad.status_code == 400


def test_end_turn_offers_a_typed_die_only_when_it_rolls(client, world, gm, battle, raiders):
    """Ending the last turn of a round rolls the rout checks of the armies at or below their
    rout threshold (§7.3 step 3): only then does End turn take a typed die; a typed 1 there
    is the raiders' rout check (a natural 1)."""
    battle, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction", "params": {"army": str(raiders.pk),
                                                                   "hp": 1}},
    )  # fmt: skip
    order = battle.snapshot["order"]
    for index, actor in enumerate(order):
        end_turn = next(a for a in _first_action(client, battle, gm) if a["key"] == "end_turn")
        last = index == len(order) - 1
        assert end_turn["rolls"] is last
        typed = [1] if last else None
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": actor, "kind": "end_turn", "typed_dice": typed},
        )  # fmt: skip
    rout = battle.events.get(code="battle.rout_check")
    assert rout.params["army"] == str(raiders.pk)
    assert (rout.params["check"]["die"], rout.params["check"]["source"]) == (1, "typed")


def test_the_hp_bar_marks_the_rout_threshold_and_pips_count_actions(client, world, gm, battle,
                                                                    raiders):  # fmt: skip
    """The raiders (level 3 infantry: HP 4, rout threshold 2, §1.2) at 3 HP: 3 segments on,
    the first 2 marked as at or below the threshold, the 2nd as the threshold itself; the
    acting army shows ●●● for its 3 actions."""
    from warfare.systems.pf2e.board import _segments

    assert _segments(3, 4, 2) == ("on rt", "on rt rt-edge", "on", "off")
    services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction", "params": {"army": str(raiders.pk),
                                                                   "hp": 3}},
    )  # fmt: skip
    client.force_login(gm)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert "HP 3 of 4, routs at 2" in page
    assert page.count('class="hp-seg on rt rt-edge"') >= 1
    assert 'aria-label="3 actions left"' in page
    assert page.count('class="pip on"') == 3


def test_a_rout_check_shows_its_die_modifier_and_dc_in_the_round_it_was_rolled(
    client, world, gm, player, other_player, battle, raiders
):
    """pf2e §7.3 step 3: the rout check at the end of round 1 is logged in round 1 (it read
    round 2) with its die — typed at the table, and marked so — its modifier, total and DC,
    on the board and in the report (it read "rout check, Failure." alone), for whoever may
    see them: the GM and the raiders' side; the other side reads the die, the degree and
    its own army's Morale DC (the enemy's modifier is not theirs to see)."""
    battle, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction", "params": {"army": str(raiders.pk),
                                                                   "hp": 1}},
    )  # fmt: skip
    order = battle.snapshot["order"]
    for index, actor in enumerate(order):
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": actor, "kind": "end_turn",
                     "typed_dice": [2] if index == len(order) - 1 else None},
        )  # fmt: skip
    assert battle.snapshot["round"] == 2
    rout = battle.events.get(code="battle.rout_check")
    assert rout.round == 1
    check = rout.params["check"]
    text = (
        f"Raiders: rout check, Failure (d20 2 (typed at the table) + {check['modifier']}"
        f" = {check['total']} vs DC {check['dc']})."
    )
    report = reverse("battles:report", args=[world.pk, battle.pk])
    for insider in (gm, other_player):
        client.force_login(insider)
        page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
        assert f'<span>{text}</span><span class="small muted">round 1</span>' in page
        assert text in client.get(report).content.decode()
        assert f"- {text}" in client.get(report, {"format": "md"}).content.decode()
    client.force_login(player)
    page = client.get(reverse("battles:board", args=[world.pk, battle.pk])).content.decode()
    assert f"Raiders: rout check, Failure (d20 2 (typed at the table) vs DC {check['dc']})." in page
    assert f"+ {check['modifier']} = {check['total']}" not in page
