"""D&D 5e: applying a battle writes its losses onto the armies as they are then (two battles:
the losses of both), surviving stands keep the HP they lost (a flagged house default, §13
item 11), and an army is on one unfinished board at a time (battles.holds)."""

import copy

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles.models import Battle, BattleStatus
from tests.factories import overlapping_battle
from warfare.engine.house import HouseDefault
from warfare.engine.systems.dnd5e import house_rules
from warfare.systems.dnd5e import services
from warfare.systems.dnd5e.models import Solo, Unit
from warfare.systems.dnd5e.setup import battle_create

from .conftest import SETUP_POST
from .test_board import _end_turns_until

pytestmark = pytest.mark.django_db
KNIGHT_HP = 52  # SRD knight (§4.1: a stand has one creature's HP)


def _battle(gm, world, wardens, horde, name="Skirmish"):
    Unit.objects.filter(army=horde, stands=0).update(stands=1)  # deserters come back
    return battle_create(
        user=gm, campaign_id=world.pk, name=name, army_a=wardens, army_b=horde,
        players_may_act=True, width=10, height=6, depth=2, squares=[],
        objectives=[{"key": "custom_a", "type": "custom", "side": "a", "vp": 10,
                     "label": "Hold the ford"}],
        options={}, auto_deploy=True,
    )  # fmt: skip


def _fight(client, gm, battle, corrections: dict[str, int]) -> Battle:
    """The GM sets HP on the board ({piece: hp}) and awards the Wardens' 10 VP objective:
    the battle ends at the end of round 1 (§7.3)."""
    url = reverse("dnd5e:battle-gm-command", args=[battle.campaign_id, battle.pk])
    client.force_login(gm)
    commands = [("gm_correction", {"piece": piece, "hp": hp}) for piece, hp in corrections.items()]
    for kind, extra in [*commands, ("award", {"objective": "custom_a"})]:
        battle.refresh_from_db()
        assert client.post(url, {"seq": battle.seq, "kind": kind, **extra}).status_code == 302
    return _end_turns_until(gm, battle, lambda b: b.status == BattleStatus.FINISHED)


def _apply(client, battle):
    url = reverse("battles:apply", args=[battle.campaign_id, battle.pk])
    assert client.post(url, {"seq": battle.seq}).status_code == 302


def test_two_battles_take_the_losses_of_both(client, gm, dnd_world, wardens, horde):
    """Two boards held the Wardens (the second set up before one battle at a time). The Ford
    eliminates a guard stand and leaves Sir Aldric at 20 HP and the knights' stand at 30; the
    Mill eliminates a guard stand and leaves them at 40 and 40. Applied one after the other:
    no guards left, Sir Aldric 52 − 32 − 12 = 8 HP, the knight stand 22 + 12 = 34 HP lost.
    Before, the second apply wrote its own copy (a guard stand, 40 HP)."""
    ford = _battle(gm, dnd_world, wardens, horde)
    mill = overlapping_battle(gm, dnd_world, "Mill", copy.deepcopy(ford.setup))
    guards, knights = Unit.objects.get(name="Guards"), Unit.objects.get(name="Knights")
    hero = Solo.objects.get(name="Sir Aldric")
    ford = _fight(client, gm, ford, {f"u{guards.pk}.1": 0, f"s{hero.pk}": 20,
                                     f"u{knights.pk}.1": 30})  # fmt: skip
    mill = _fight(client, gm, mill, {f"u{guards.pk}.2": 0, f"s{hero.pk}": 40,
                                     f"u{knights.pk}.1": 40})  # fmt: skip
    _apply(client, ford)
    _apply(client, mill)
    guards.refresh_from_db()
    knights.refresh_from_db()
    hero.refresh_from_db()
    assert guards.stands == 0
    assert (knights.stands, knights.stand_damage) == (1, [KNIGHT_HP - 30 + KNIGHT_HP - 40])
    assert (hero.hp, hero.dead) == (8, False)


def test_surviving_stands_keep_the_hp_they_lost_a_house_default(
    client, gm, dnd_world, wardens, horde, monkeypatch
):
    """§13 item 11 leaves it open: by the house default the knights' stand, left at 30 of 52
    HP, starts the next battle at 30 — flagged as a house default on the army page; with the
    default off it comes back at full HP."""
    knights = Unit.objects.get(name="Knights")
    _apply(client, _fight(client, gm, _battle(gm, dnd_world, wardens, horde),
                          {f"u{knights.pk}.1": 30}))  # fmt: skip
    knights.refresh_from_db()
    assert knights.stand_damage == [22]
    page = client.get(reverse("dnd5e:army-detail", args=[dnd_world.pk, wardens.pk]))
    assert "hurt: 22 HP lost · house default" in page.content.decode()
    entry = house_rules.table_lookup(house_rules.HOUSE_DEFAULTS, "results.stand_hp_kept")
    assert (entry.value, entry.source) == (1, "dnd5e §13 item 11")
    nxt = _battle(gm, dnd_world, wardens, horde, name="Again")
    stand = next(s for s in nxt.snapshot["stands"] if s["key"] == f"u{knights.pk}.1")
    assert (stand["hp"], stand["max_hp"]) == (30, KNIGHT_HP)
    _apply(client, _fight(client, gm, nxt, {f"u{knights.pk}.1": 20}))
    knights.refresh_from_db()
    assert knights.stand_damage == [32]
    off = HouseDefault(**{**entry.to_dict(), "value": 0, "tag": entry.tag})
    table = tuple(off if e.key == entry.key else e for e in house_rules.HOUSE_DEFAULTS)
    monkeypatch.setattr(house_rules, "HOUSE_DEFAULTS", table)
    _apply(client, _fight(client, gm, _battle(gm, dnd_world, wardens, horde, name="Third"),
                          {f"u{knights.pk}.1": 10}))  # fmt: skip
    knights.refresh_from_db()
    assert knights.stand_damage == []


def test_an_army_on_a_board_fights_no_other_battle_and_is_not_changed(
    as_role, client, gm, dnd_world, wardens, horde
):
    battle = _battle(gm, dnd_world, wardens, horde)
    client.force_login(gm)
    post = {**SETUP_POST, "name": "Mill", "army_a": wardens.pk, "army_b": horde.pk,
            "auto_deploy": "on"}  # fmt: skip
    again = client.post(reverse("battles:create", args=[dnd_world.pk]), post)
    assert again.status_code == 400
    assert "Wardens is already in the battle “Skirmish”" in again.content.decode()
    api = as_role("gm").post(reverse("api:battle-list", args=[dnd_world.pk]),
                             {**post, "auto_deploy": True}, format="json")  # fmt: skip
    assert api.status_code == 400 and "“Skirmish”" in str(api.json())
    assert Battle.objects.count() == 1
    guards = Unit.objects.get(name="Guards")
    with pytest.raises(ValidationError, match="in the battle “Skirmish”"):
        services.unit_update(user=gm, campaign_id=dnd_world.pk, army_id=wardens.pk,
                             unit_id=guards.pk, creature=guards.creature, name="Guards",
                             kind=guards.kind, configuration=guards.configuration,
                             stands=9)  # fmt: skip
    with pytest.raises(ValidationError, match="in the battle “Skirmish”"):
        services.solo_add(user=gm, campaign_id=dnd_world.pk, army_id=wardens.pk,
                          creature=guards.creature, name="Late", pc=False)  # fmt: skip
    deleted = client.post(reverse("dnd5e:army-delete", args=[dnd_world.pk, wardens.pk]))
    assert deleted.status_code == 400 and "in the battle" in deleted.content.decode()
    assert Unit.objects.get(pk=guards.pk).stands == 2
    _apply(client, _fight(client, gm, battle, {}))
    services.solo_add(user=gm, campaign_id=dnd_world.pk, army_id=wardens.pk,
                      creature=guards.creature, name="Late", pc=False)  # fmt: skip
