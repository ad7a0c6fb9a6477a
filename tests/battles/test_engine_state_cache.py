"""`Battle.engine_state` (issue 13): the engine state an action computed is what the next
read of that battle version gets, not its snapshot parsed again (`battles.models._STATES`);
a snapshot not as read from the database at its version is parsed, and the states kept are
bounded."""

import pytest

from battles import models
from battles.models import Battle
from tests.battles.conftest import end_turn
from warfare.engine.battle.registry import get_battle_system

pytestmark = pytest.mark.django_db


def _parsed(battle):
    return get_battle_system(battle.system).state_from_dict(battle.snapshot)


def test_the_state_an_action_wrote_is_the_one_read_next(gm, battle):
    acted = end_turn(gm, battle)
    state = acted.engine_state()
    read = Battle.objects.get(pk=battle.pk)
    assert read.seq == acted.seq and read.engine_state() is state
    assert state == _parsed(read)  # (what parsing it would give)
    again = end_turn(gm, read)
    assert Battle.objects.get(pk=battle.pk).engine_state() is again.engine_state()
    assert again.engine_state() is not state


def test_a_version_read_is_parsed_once_in_the_process(gm, battle):
    models._STATES.clear()
    first = Battle.objects.get(pk=battle.pk).engine_state()
    assert Battle.objects.get(pk=battle.pk).engine_state() is first


def test_a_snapshot_changed_after_reading_is_parsed(gm, battle):
    acted = end_turn(gm, battle)
    read = Battle.objects.get(pk=battle.pk)
    read.snapshot = Battle.objects.get(pk=battle.pk).snapshot | {"round": 7}
    assert read.engine_state() is not acted.engine_state()
    assert read.engine_state() == _parsed(read) and read.engine_state().round == 7
    partial = Battle.objects.only("pk", "system", "snapshot").get(pk=battle.pk)
    assert partial.engine_state() is not acted.engine_state()  # (no version read with it)
    assert partial.engine_state() == acted.engine_state()


def test_the_states_kept_are_bounded(gm, battle):
    models._STATES.clear()
    for seq in range(models.STATES_KEPT + 5):
        models._keep(("default", battle.pk, seq, battle.updated_at), object())
    assert len(models._STATES) == models.STATES_KEPT
    assert ("default", battle.pk, 0, battle.updated_at) not in models._STATES  # the oldest
