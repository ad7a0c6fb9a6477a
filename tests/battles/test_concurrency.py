"""Two clicks at once against the same board: one applies, the other gets StaleBoard."""

import threading

import pytest
from django.core.management import call_command
from django.db import connection

from battles import services
from battles.models import Battle, BattleCommand, BattleEvent
from warfare.systems.pf2e import services as army_services


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_actions_apply_once(world, gm, militia, enemy_faction):
    raiders = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",), level_override=3,
    )  # fmt: skip
    battle = services.battle_create(
        user=gm, campaign_id=world.pk, name="Race", sides={"a": [militia.pk], "b": [raiders.pk]}
    )
    actor = battle.snapshot["order"][0]
    barrier = threading.Barrier(2)
    results: list[str] = []

    def click():
        try:
            barrier.wait()
            command = {"actor": actor, "kind": "end_turn"}
            services.battle_act(
                user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0, command=command
            )
            results.append("applied")
        except services.StaleBoard:
            results.append("stale")
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["applied", "stale"]
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.seq == 1
    assert BattleCommand.objects.filter(battle=battle).count() == 1
    assert BattleEvent.objects.filter(battle=battle, command__isnull=False).exists()
    assert services.battle_verify(battle)
    call_command("verify_battles")
