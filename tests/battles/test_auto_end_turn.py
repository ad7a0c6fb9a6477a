"""Pathfinder's end of a turn with no action left (pf2e §0.5), taken by the board itself
(issue 14 "Fewer clicks"): stored as an ordinary command right after the action that spent
the last action, in the same transaction and logged; one undo takes both back; replay gives
the same board."""

import pytest
from django.urls import reverse

from battles import services
from battles.models import BattleCommand
from warfare.engine.battle.registry import get_battle_system

pytestmark = pytest.mark.django_db


def _one_action(battle, actor):
    """A 1-action command of `actor` that the engine lists now and that cannot end the
    battle (advance or guard, not a strike: two critical strikes rout or defeat the raiders
    on some seeds, and a finished battle ends no turn)."""
    system = get_battle_system("pf2e")
    state = system.state_from_dict(battle.snapshot)
    for spec in system.legal_actions(state, actor):
        if spec.cost == 1 and spec.key in {"advance", "guard"}:
            return {"actor": actor, "kind": spec.key, "params": dict(spec.options[0].params)}
    raise AssertionError("no 1-action command")


def _act(gm, battle, command):
    battle, events = services.battle_act(
        user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command=command,
    )  # fmt: skip
    return battle, events


def test_the_third_action_ends_the_turn_and_one_undo_takes_both_back(gm, militia_to_act, militia):
    battle, actor = militia_to_act, str(militia.pk)
    for left in (2, 1):
        battle, _events = _act(gm, battle, _one_action(battle, actor))
        assert battle.snapshot["actions_left"] == left
        assert battle.snapshot["order"][battle.snapshot["turn"]] == actor
    before = battle.seq
    third = _one_action(battle, actor)
    battle, events = _act(gm, battle, third)
    assert battle.seq == before + 2  # the action and the end of turn, two commands
    assert battle.snapshot["order"][battle.snapshot["turn"]] != actor
    assert battle.snapshot["actions_left"] == 3
    codes = [event.code for event in events]
    assert codes.index("battle.action") < codes.index("battle.turn_ended")
    last = BattleCommand.objects.filter(battle=battle, undone_at__isnull=True).order_by(
        "-position"
    )[:2]
    forced, action = list(last)
    assert forced.command == {"actor": actor, "kind": "end_turn", "params": {},
                              "typed_dice": None, "forced": True}  # fmt: skip
    assert action.command["kind"] == third["kind"] and "forced" not in action.command
    assert forced.events.filter(code="battle.turn_ended", params__army=actor).exists()
    assert services.battle_verify(battle)

    battle = services.battle_undo(user=gm, campaign_id=battle.campaign_id,
                                  battle_id=battle.pk, expected_seq=battle.seq)  # fmt: skip
    assert battle.seq == before
    assert battle.snapshot["actions_left"] == 1
    assert battle.snapshot["order"][battle.snapshot["turn"]] == actor
    assert BattleCommand.objects.filter(battle=battle, undone_at__isnull=False).count() == 2
    assert services.battle_verify(battle)


def test_ending_a_turn_early_is_not_forced(gm, militia_to_act, militia):
    """With actions left the army ends its turn itself (one command, nothing added)."""
    battle, actor = militia_to_act, str(militia.pk)
    battle, _events = _act(gm, battle, _one_action(battle, actor))
    before = battle.seq
    battle, _events = _act(gm, battle, {"actor": actor, "kind": "end_turn"})
    assert battle.seq == before + 1
    battle = services.battle_undo(user=gm, campaign_id=battle.campaign_id,
                                  battle_id=battle.pk, expected_seq=battle.seq)  # fmt: skip
    assert battle.seq == before and battle.snapshot["actions_left"] == 2


def test_the_api_answers_the_board_after_the_forced_end_of_turn(as_role, militia_to_act, militia):
    """A player's third action through the API: the answer is the board of the next army's
    turn, its seq counting both commands."""
    client = as_role("player")
    battle, actor = militia_to_act, str(militia.pk)
    url = reverse("api:battle-actions", args=[battle.campaign_id, battle.pk])
    seq = battle.seq
    for _ in range(3):
        battle.refresh_from_db()
        body = {**_one_action(battle, actor), "seq": seq}
        response = client.post(url, body, format="json")
        assert response.status_code == 200, response.content
        seq = response.json()["seq"]
    battle.refresh_from_db()
    assert seq == battle.seq and battle.snapshot["order"][battle.snapshot["turn"]] != actor
