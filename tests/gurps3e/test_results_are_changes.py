"""GURPS 3e: applying a battle writes what it changed onto the forces and characters as they
are then (a force that fought two battles loses the men of both, §B.8.2); a force or a
character is on one unfinished board at a time, and is not edited under it (battles.holds)."""

import copy

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.models import Battle
from tests.factories import overlapping_battle
from warfare.systems.gurps3e import services
from warfare.systems.gurps3e.models import Character, Unit

from .conftest import setup_post

pytestmark = pytest.mark.django_db


def _act(client, battle, **data):
    battle.refresh_from_db()
    data.setdefault("seq", battle.seq)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 200


def _fight(client, battle, percent: int):
    """Both commanders commit; the GM enters `percent` casualties for every unit (§B.8.2)."""
    _act(client, battle, kind="commit", actor="a")
    _act(client, battle, kind="commit", actor="b")
    battle.refresh_from_db()
    units = battle.snapshot["pending"]["fought"]
    _act(client, battle, kind="gm_casualties", **{f"pct_{key}": percent for key in units})
    battle.refresh_from_db()
    assert battle.status == "finished"
    return battle


def _apply(client, battle):
    url = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
    assert client.post(url, {"seq": battle.seq}).status_code == 302


def test_a_force_that_fought_two_battles_loses_the_men_of_both(client, gm, g3_world, host, horde):
    """The Host fought the Ford (15 % casualties) and, on a second board set up before one
    battle at a time, the Mill (10 %). Pikes 100: −15 and −10 → 75; archers 50: −8 (7.5
    rounded up) and −5 → 37; two battles each. Before, the second apply wrote its own copy
    (90 and 45) over the first's losses."""
    client.force_login(gm)
    data = setup_post(host, horde, casualties="gm")
    assert client.post(reverse("battles:create", args=[g3_world.pk]), data).status_code == 302
    ford = Battle.objects.get()
    mill = overlapping_battle(gm, g3_world, "Mill", copy.deepcopy(ford.setup))
    _apply(client, _fight(client, ford, 15))
    _apply(client, _fight(client, mill, 10))
    men = {unit.name: (unit.men, unit.battles) for unit in Unit.objects.filter(force=host)}
    assert men == {"Pikes": (75, 2), "Archers": (37, 2)}
    assert Unit.objects.get(force=horde).men == 200 - 30 - 20  # 15 % and 10 % of 200


def test_a_character_keeps_what_happened_meanwhile(client, gm, g3_world, host, horde, aldric):
    """Aldric's reputation entry written by the GM while the battle ran (older data: no
    refusal then) stays; the battle's own changes (HT, rank, glory) are added."""
    client.force_login(gm)
    data = setup_post(host, horde, aldric, casualties="gm")
    assert client.post(reverse("battles:create", args=[g3_world.pk]), data).status_code == 302
    battle = Battle.objects.get()
    _act(client, battle, kind="choose_risk", actor=f"c{aldric.pk}", risk=0)
    battle = _fight(client, battle, 10)
    aldric.reputation.create(value=2, expires=9, source="gm")
    Character.objects.filter(pk=aldric.pk).update(ht=11)
    after = next(c for c in battle.outcome["details"]["characters"] if c["key"] == f"c{aldric.pk}")
    _apply(client, battle)
    aldric.refresh_from_db()
    assert aldric.ht == min(aldric.ht_max, 11 + after["ht"] - 12)
    assert (2, 9) in {(e.value, e.expires) for e in aldric.reputation.all()}


def test_one_unfinished_battle_at_a_time(client, gm, g3_world, host, horde, aldric):
    """A second set-up with the Host or Aldric: 400 naming the battle; their edits (a unit,
    the sheet, a reputation entry, deleting them) are refused until the results are in."""
    client.force_login(gm)
    create = reverse("battles:create", args=[g3_world.pk])
    assert client.post(create, setup_post(host, horde, aldric)).status_code == 302
    again = client.post(create, {**setup_post(host, horde, aldric), "name": "Mill"})
    assert again.status_code == 400
    page = again.content.decode()
    assert "Host is already in the battle “Battle of the Ford”" in page
    assert "Aldric is already in the battle “Battle of the Ford”" in page
    assert Battle.objects.count() == 1
    pikes = Unit.objects.get(name="Pikes")
    with pytest.raises(ValidationError, match="in the battle “Battle of the Ford”"):
        services.unit_update(user=gm, campaign_id=g3_world.pk, force_id=host.pk,
                             unit_id=pikes.pk, men=120)  # fmt: skip
    with pytest.raises(ValidationError, match="in the battle “Battle of the Ford”"):
        services.character_update(user=gm, campaign_id=g3_world.pk, character_id=aldric.pk,
                                  ht=3)  # fmt: skip
    with pytest.raises(ValidationError, match="in the battle “Battle of the Ford”"):
        services.reputation_add(user=gm, campaign_id=g3_world.pk, character_id=aldric.pk,
                                value=1, expires=None, source="gm")  # fmt: skip
    delete = client.post(reverse("gurps3e:force-delete", args=[g3_world.pk, host.pk]))
    assert delete.status_code == 400 and "in the battle" in delete.content.decode()
    delete = client.post(reverse("gurps3e:character-delete", args=[g3_world.pk, aldric.pk]))
    assert delete.status_code == 400
    assert Unit.objects.get(pk=pikes.pk).men == 100 and Character.objects.filter(pk=aldric.pk)
