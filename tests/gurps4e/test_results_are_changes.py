"""GURPS Mass Combat 4e: applying a battle multiplies the share of TS the force has when the
GM applies by what the battle left of the TS it went in with (gurps §A.7.3) — a change, not
the set-up's copy; a force is on one unfinished board at a time and is not edited under it
(battles.holds)."""

import copy
import json
from fractions import Fraction

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.models import Battle
from tests.factories import overlapping_battle
from warfare import seeds
from warfare.systems.gurps4e import services
from warfare.systems.gurps4e.models import Force, ForceElement
from warfare.systems.gurps4e.results import new_strength_percent

pytestmark = pytest.mark.django_db


def _setup(legion, horde, name="Battle of the Ford") -> dict:
    return {"name": name, "force_a": legion.pk, "force_b": horde.pk, "battle_type": "land",
            "terrain": "plains", "kind": "pitched", "initiative": "a"}  # fmt: skip


def _act(client, battle, **data):
    data.setdefault("seq", Battle.objects.get(pk=battle.pk).seq)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200, response.content.decode()[:2000]


def _play(client, battle) -> Battle:
    """All-out attacks until the battle ends (pursuing when offered)."""
    for _round in range(40):
        snapshot = Battle.objects.get(pk=battle.pk).snapshot
        if snapshot["finished"]:
            break
        if snapshot["phase"] == "pursuit":
            _act(client, battle, actor=("a", "b")[snapshot["victor"]], kind="choose_pursuit",
                 params=json.dumps({"pursue": True}))  # fmt: skip
            continue
        for actor in ("a", "b"):
            _act(client, battle, actor=actor, kind="choose_strategy",
                 option=json.dumps({"strategy": "all_out_attack", "desperate": False}))  # fmt: skip
    battle = Battle.objects.get(pk=battle.pk)
    assert battle.status == "finished"
    return battle


def test_a_force_that_fought_two_battles_keeps_the_share_both_left(
    monkeypatch, client, gm, gurps_world, legion, horde
):
    """The Legion fought two boards that both began at full TS (the second set up before one
    battle at a time): each apply scales the share the Legion has then (§A.7.3). The seeds
    are pinned to a pair where the Legion is wiped out on the first board and wins the
    second, so the share from the set-up (100 %) and the share now (0 %) give different
    answers."""
    pinned = iter((8007, 8008))
    monkeypatch.setattr(seeds, "draw", lambda _bits: next(pinned))
    client.force_login(gm)
    create = reverse("battles:create", args=[gurps_world.pk])
    assert client.post(create, _setup(legion, horde)).status_code == 302
    ford = Battle.objects.get()
    mill = overlapping_battle(gm, gurps_world, "Mill", copy.deepcopy(ford.setup))
    share = 100
    for battle in (_play(client, ford), _play(client, mill)):
        side = battle.outcome["details"]["sides"]["a"]
        from_setup = new_strength_percent(100, Fraction(str(side["old_ts"])), int(side["new_ts"]))
        share = new_strength_percent(share, Fraction(str(side["old_ts"])), int(side["new_ts"]))
        apply = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
        assert client.post(apply, {"seq": battle.seq}).status_code == 302
        legion.refresh_from_db()
        assert legion.strength_percent == share
    assert (share, from_setup) == (0, 78)  # the pinned seeds tell the two readings apart


def test_a_force_on_a_board_fights_no_other_battle_and_is_not_changed(
    as_role, client, gm, gurps_world, legion, horde, heavy_infantry
):
    client.force_login(gm)
    create = reverse("battles:create", args=[gurps_world.pk])
    assert client.post(create, _setup(legion, horde)).status_code == 302
    again = client.post(create, _setup(legion, horde, name="Mill"))
    assert again.status_code == 400
    assert "Legion is already in the battle “Battle of the Ford”" in again.content.decode()
    api = as_role("gm").post(reverse("api:battle-list", args=[gurps_world.pk]),
                             {"name": "Mill", "forces": {"a": legion.pk, "b": horde.pk}},
                             format="json")  # fmt: skip
    assert api.status_code == 400 and "“Battle of the Ford”" in str(api.json())
    assert Battle.objects.count() == 1
    with pytest.raises(ValidationError, match="in the battle “Battle of the Ford”"):
        services.force_update(user=gm, campaign_id=gurps_world.pk, force_id=legion.pk,
                              strength_percent=50)  # fmt: skip
    rows = ForceElement.objects.filter(force=legion).count()
    row = {"row-element_type": heavy_infantry.pk, "row-count": 3,
           "row-troop_quality": "average", "row-equipment_quality": "average"}  # fmt: skip
    added = client.post(reverse("gurps4e:force-row-add", args=[gurps_world.pk, legion.pk]), row)
    assert added.status_code == 400 and "in the battle" in added.content.decode()
    deleted = client.post(reverse("gurps4e:force-delete", args=[gurps_world.pk, legion.pk]))
    assert deleted.status_code == 400
    legion = Force.objects.get(pk=legion.pk)
    assert (legion.strength_percent, legion.elements.count()) == (100, rows)
