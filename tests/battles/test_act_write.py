"""The board action's read and write (`battles.services.battle_act`): the member and the
battle read in one query, the write one statement conditional on the version read."""

import pytest
from django.http import Http404
from django.utils import timezone

from battles import forecasting, services
from battles.models import Battle, BattleCommand, BattleEvent
from tests.engine.lean_checks import demo_setup
from warfare.engine.battle.protocol import Rejected, command_dice
from warfare.engine.battle.registry import get_battle_system


def _copy(battle: Battle) -> Battle:
    """A second battle like `battle` at its start (its setup, seed, snapshot, opening events)."""
    copy = Battle.objects.get(pk=battle.pk)
    copy.pk = None
    copy.save()
    events = list(BattleEvent.objects.filter(battle=battle, command=None).order_by("pk"))
    for event in events:
        event.pk, event.battle = None, copy
    BattleEvent.objects.bulk_create(events)
    return Battle.objects.get(pk=copy.pk)


def _stored(battle: Battle):
    """What the database holds of a battle's commands and events, ids and times left out."""
    battle = Battle.objects.get(pk=battle.pk)
    commands = [(row.position, row.command, row.actor_id, row.undone_at, row.batch)
                for row in BattleCommand.objects.filter(battle=battle).order_by("pk")]  # fmt: skip
    events = [
        (row.command.position if row.command else None, row.round, row.code, row.params)
        for row in BattleEvent.objects.filter(battle=battle).order_by("pk")
    ]
    columns = (battle.seq, battle.snapshot, battle.status, battle.outcome, battle.autoplay_batch)
    return columns, commands, events


def test_the_orm_write_stores_what_the_statement_stores(world, gm, battle):
    """The write without PostgreSQL's one statement (SQLite under `make run`) stores the same
    rows, the events in the same order (the log's)."""
    twin = _copy(battle)
    membership, _battle = services.access_battle(gm, world.pk, battle.pk)
    actor = battle.snapshot["order"][0]
    command = {"actor": actor, "kind": "end_turn"}
    orm = lambda act: services._write_act_orm(act, timezone.now())  # noqa: E731
    for one, write in ((battle, services._write_act), (twin, orm)):
        act = services._act(gm, membership, Battle.objects.get(pk=one.pk), 0, command)
        assert write(act)
    assert _stored(battle) == _stored(twin)
    assert len(_stored(battle)[1]) >= 1 and len(_stored(battle)[2]) > 1


@pytest.mark.parametrize("write", ["statement", "orm"])
def test_a_write_on_a_version_no_longer_current_writes_nothing(world, gm, battle, write):
    membership, read = services.access_battle(gm, world.pk, battle.pk)
    act = services._act(gm, membership, read, 0, {"actor": battle.snapshot["order"][0],
                                                  "kind": "end_turn"})  # fmt: skip
    forecasting.battle_share_forecast(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, shared=True
    )  # fmt: skip  (a save: a new version)
    before = _stored(battle)
    now = Battle.objects.get(pk=battle.pk).updated_at
    written = (
        services._write_act(act) if write == "statement" else services._write_act_orm(act, now)
    )
    assert written is False
    assert _stored(battle) == before
    assert read.seq == 0  # the battle read is left as it was


def test_an_action_from_a_board_another_action_moved_on_is_stale(world, gm, battle):
    """Two clicks on the same board, one after the other: the second (its battle read before
    the first was written) writes nothing and answers the board as it is now."""
    membership, read = services.access_battle(gm, world.pk, battle.pk)
    command = {"actor": battle.snapshot["order"][0], "kind": "end_turn"}
    services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                        command=command)  # fmt: skip
    seq = Battle.objects.get(pk=battle.pk).seq
    with pytest.raises(services.StaleBoard) as stale:
        services.battle_act(user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
                            command=command, membership=membership, battle=read)  # fmt: skip
    assert stale.value.battle.seq == seq != 0
    assert BattleCommand.objects.filter(battle=battle, position=0).count() == 1


def test_an_action_on_a_row_changed_without_a_command_applies_to_it(world, gm, battle):
    """The GM shared the forecast between the board's read and the click (same seq, a new
    version): the action is applied to the row as it is now, which keeps the change."""
    membership, read = services.access_battle(gm, world.pk, battle.pk)
    forecasting.battle_share_forecast(user=gm, campaign_id=world.pk, battle_id=battle.pk,
                                      shared=True)  # fmt: skip
    command = {"actor": battle.snapshot["order"][0], "kind": "end_turn"}
    after, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0, command=command,
        membership=membership, battle=read,
    )  # fmt: skip
    stored = Battle.objects.get(pk=battle.pk)
    assert after.seq == stored.seq >= 1 and after.updated_at == stored.updated_at
    assert stored.forecast_shared and after.forecast_shared
    assert BattleCommand.objects.filter(battle=battle).count() == stored.seq
    assert services.battle_verify(stored)


def test_the_member_and_the_battle_are_read_together(
    world, gm, player, outsider, other_gm, battle, django_assert_num_queries
):
    with django_assert_num_queries(1):
        membership, read = services.access_battle(player, world.pk, battle.pk)
        assert (membership.user_id, membership.campaign, read.campaign) == (player.pk, world, world)
        assert membership.faction.pk == membership.faction_id and read.snapshot
        assert membership.campaign is read.campaign and not hasattr(read, "member")
    other_campaign = other_gm.memberships.get().campaign_id
    for user, campaign_id, battle_id in (
        (outsider, world.pk, battle.pk),  # not a member
        (other_gm, other_campaign, battle.pk),  # a member of another campaign
        (other_gm, world.pk, battle.pk),
        (gm, world.pk, battle.pk + 1000),  # no such battle
    ):
        with pytest.raises(Http404):
            services.access_battle(user, campaign_id, battle_id)


def _round_trips(system, state, seed: int, commands: int = 40) -> int:
    """Play `state` on with the system's policy, checking each state against its JSON read
    back; how many commands were played."""
    for position in range(commands):
        assert system.state_from_dict(state.to_dict()) == state, position
        waiting = system.awaiting(state)
        if not waiting or system.outcome(state) is not None:
            return position
        command = system.suggest(state, waiting[0].actor)
        result = system.apply(state, command, command_dice(seed, position))
        assert not isinstance(result, Rejected)
        state = result[0]
    return commands


@pytest.mark.parametrize("system_key", ["gurps4e", "gurps3e", "dnd5e"])
def test_a_state_read_back_from_its_json_equals_it(system_key):
    """An action's new state is the board's next engine state (`services._acted`), not read
    back from the snapshot it wrote: both must be the same state."""
    system = get_battle_system(system_key)
    assert _round_trips(system, system.start(demo_setup(system_key), 7), 7) > 3


def test_a_pathfinder_state_read_back_from_its_json_equals_it(battle):
    system = get_battle_system("pf2e")
    assert _round_trips(system, system.state_from_dict(battle.snapshot), battle.seed) > 3


def test_the_api_action_reads_the_member_and_the_battle_once(as_role, world, battle):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    client = as_role("gm")
    body = {"seq": 0, "actor": battle.snapshot["order"][0], "kind": "end_turn", "params": {}}
    with CaptureQueriesContext(connection) as captured:
        response = client.post(reverse("api:battle-actions", args=[world.pk, battle.pk]), body,
                               format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    sql = [query["sql"] for query in captured.captured_queries]
    assert sum('FROM "kingdoms_membership"' in s for s in sql) == 1
    assert sum(s.startswith("SELECT") and 'FROM "battles_battle"' in s for s in sql) == 1
    assert not any("FOR NO KEY UPDATE" in s or "SAVEPOINT" in s for s in sql)
