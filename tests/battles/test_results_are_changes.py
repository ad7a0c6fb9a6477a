"""Pathfinder: applying a battle's results writes what the battle changed onto the armies as
they are then, never the copy the battle was set up from (DESIGN.md "Results"); an army is
on one unfinished board at a time, and what would change it under the board waits
(battles.holds); a destroyed army's gear is destroyed (pf2e §5, §9 Destroyed)."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from battles import services
from battles.models import Battle
from tests.factories import overlapping_battle
from warfare.systems.pf2e import services as army_services
from warfare.systems.pf2e.mapping import army_stat_block
from warfare.systems.pf2e.models import Army

MAGIC_ARMOR = {"key": "magic_armor", "tier": 1, "weapon": None, "doses": 0, "source": "purchased"}


def _act(gm, battle, command):
    battle, _events = services.battle_act(user=gm, campaign_id=battle.campaign_id,
                                          battle_id=battle.pk, expected_seq=battle.seq,
                                          command=command)  # fmt: skip
    return battle


def _finish(gm, battle, hp: dict):
    """The GM sets HP on the board ({army: hp}), then turns end until a side wins."""
    for army, value in hp.items():
        battle = _act(gm, battle, {"actor": None, "kind": "gm_correction",
                                   "params": {"army": str(army.pk), "hp": value}})  # fmt: skip
    while battle.status == "active" and battle.seq < 40:
        actor = battle.snapshot["order"][battle.snapshot["turn"]]
        battle = _act(gm, battle, {"actor": actor, "kind": "end_turn"})
    assert battle.status == "finished"
    return battle


def _apply(gm, battle, **kwargs):
    return services.battle_apply_results(user=gm, campaign_id=battle.campaign_id,
                                         battle_id=battle.pk, expected_seq=battle.seq,
                                         **kwargs)  # fmt: skip


def _legacy_battle(gm, world, name, a, b):
    """A second battle of the same armies, set up past the one-battle check (older data)."""
    sides = {"a": [Army.objects.get(pk=a.pk)], "b": [Army.objects.get(pk=b.pk)]}
    setup = services.battle_setup(armies_by_side=sides, pcs_side=None, terrain=())
    return overlapping_battle(gm, world, name, setup)


@pytest.fixture
def armoured_raiders(world, gm, enemy_faction):
    """Level 5 raiders in Magic Armor (+1 item bonus to AC, §5), weary 1."""
    raiders = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",), hex="C7", level_override=5,
    )  # fmt: skip
    Army.objects.filter(pk=raiders.pk).update(gear=[MAGIC_ARMOR], conditions={"weary": 1})
    return Army.objects.get(pk=raiders.pk)


def test_the_results_are_changes_to_the_army_as_it_is_now(world, gm, militia, raiders, kingdom):
    """The militia loses 2 HP on the board. Meanwhile its row changed (a Train Army taken and
    1 HP lost elsewhere, written before one battle at a time): applying adds the battle's −2
    HP to what the row has now and keeps the tactic and the activity counted this turn. A
    typed 5 makes the §7.6 Warfare check a failure (5 + 7 = 12 vs DC 17: no extra effect)."""
    full = army_stat_block(militia).max_hp.value
    battle = services.battle_create(user=gm, campaign_id=world.pk, name="Ford",
                                    sides={"a": [militia.pk], "b": [raiders.pk]})  # fmt: skip
    battle = _finish(gm, battle, {militia: full - 2, raiders: 0})
    Army.objects.filter(pk=militia.pk).update(
        tactics=["toughened_soldiers", "keen_eyed"], activities_this_turn=1, hp=full - 1
    )
    _apply(gm, battle, typed_dice={"a": (5, None)})
    militia.refresh_from_db()
    assert militia.hp == full - 3
    assert militia.tactics == ["toughened_soldiers", "keen_eyed"]
    assert (militia.activities_this_turn, militia.fought_this_turn) == (1, True)
    assert militia.status == "active"


def test_an_army_destroyed_in_one_battle_stays_destroyed_when_another_is_applied(
    world, gm, militia, armoured_raiders, kingdom
):
    """Two unfinished battles held the raiders (older data). The first destroys them (§7.3:
    every army of their side defeated); the second, applied after, ends with the raiders
    standing at full HP, but they stay destroyed: 0 HP, their gear gone (§5)."""
    raiders = armoured_raiders
    first = services.battle_create(user=gm, campaign_id=world.pk, name="Ford",
                                   sides={"a": [militia.pk], "b": [raiders.pk]})  # fmt: skip
    second = _legacy_battle(gm, world, "Mill", militia, raiders)
    first = _finish(gm, first, {raiders: 0})
    second = _finish(gm, second, {militia: 0})
    _apply(gm, first, typed_dice={"a": (5, None), "b": (5, None)})
    _apply(gm, second, typed_dice={"a": (5, None), "b": (5, None)})
    raiders.refresh_from_db()
    assert (raiders.status, raiders.hp, raiders.gear, raiders.conditions) == (
        "destroyed", 0, [], {}
    )  # fmt: skip
    militia.refresh_from_db()
    assert militia.status == "destroyed"


def test_a_destroyed_army_loses_its_gear_and_is_offered_no_activity(
    client, world, gm, militia, armoured_raiders, kingdom
):
    """§5 "A destroyed army's gear is destroyed", §9 Destroyed "all its gear is destroyed":
    no Magic Armor in its stat block any more (AC = its level's alone), and its activity page
    offers nothing (a post is refused)."""
    raiders = armoured_raiders
    client.force_login(gm)
    detail = reverse("pf2e:army-detail", args=[world.pk, raiders.pk])
    assert "Magic Armor" in client.get(detail).content.decode()
    battle = services.battle_create(user=gm, campaign_id=world.pk, name="Ford",
                                    sides={"a": [militia.pk], "b": [raiders.pk]})  # fmt: skip
    _apply(gm, _finish(gm, battle, {raiders: 0}), typed_dice={"a": (5, None), "b": (5, None)})
    raiders.refresh_from_db()
    assert (raiders.status, raiders.gear, raiders.potion_doses) == ("destroyed", [], 0)
    assert "Magic Armor" not in client.get(detail).content.decode()
    url = reverse("pf2e:army-activity", args=[world.pk, raiders.pk])
    page = client.get(url, {"activity": "deploy_army"}, HTTP_HX_REQUEST="true")
    body = page.content.decode()
    assert page.status_code == 200
    assert "takes no more Army activities" in body and "<form" not in body
    data = {"activity": "deploy_army", "version": raiders.version, "skill": "exploration",
            "destination": "D8", "hexes": "1"}  # fmt: skip
    post = client.post(url, data)
    assert post.status_code == 400
    listing = client.get(reverse("pf2e:army-list", args=[world.pk, raiders.faction_id]))
    assert url not in listing.content.decode()


def test_an_army_on_a_board_joins_no_other_battle(as_role, client, world, gm, militia, raiders):
    """Set-up page and API: 400 naming the unfinished battle; once its results are applied,
    the army is free again."""
    battle = services.battle_create(user=gm, campaign_id=world.pk, name="Ford",
                                    sides={"a": [militia.pk], "b": [raiders.pk]})  # fmt: skip
    client.force_login(gm)
    page = client.post(reverse("battles:create", args=[world.pk]), {
        "name": "Mill", f"army_{militia.pk}": "a", f"army_{raiders.pk}": "b"})  # fmt: skip
    assert page.status_code == 400
    assert "Silverrun Militia is already in the battle “Ford”" in page.content.decode()
    api = as_role("gm").post(reverse("api:battle-list", args=[world.pk]),
                             {"name": "Mill", "sides": {"a": [militia.pk], "b": [raiders.pk]}},
                             format="json")  # fmt: skip
    assert api.status_code == 400
    assert any("already in the battle “Ford”" in error for error in api.json()["errors"])
    assert Battle.objects.count() == 1
    _apply(gm, _finish(gm, battle, {raiders: 0}), typed_dice={"a": (5, None), "b": (5, None)})
    fresh = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=raiders.faction_id, name="Fresh Raiders",
        army_type="infantry", tactics=("keen_eyed",), hex="C7", level_override=3,
    )  # fmt: skip
    again = services.battle_create(user=gm, campaign_id=world.pk, name="Mill",
                                   sides={"a": [militia.pk], "b": [fresh.pk]})  # fmt: skip
    assert again.status == "active"


def test_nothing_changes_an_army_under_its_board(client, world, gm, player, militia, raiders,
                                                 kingdom):  # fmt: skip
    """An activity, a GM edit, a condition changed, gear handed over, the next kingdom turn:
    each is refused with a message naming the battle, and nothing changes (§7.1, §10.1: the
    encounter is played before the next kingdom turn)."""
    services.battle_create(user=gm, campaign_id=world.pk, name="Ford",
                           sides={"a": [militia.pk], "b": [raiders.pk]})  # fmt: skip
    militia.refresh_from_db()
    before = Army.objects.filter(pk=militia.pk).values().get()
    with pytest.raises(ValidationError, match="in the battle “Ford”"):
        army_services.army_activity(
            user=player, campaign_id=world.pk, army_id=militia.pk, activity="train_army",
            version=militia.version, skill="warfare",
            options={"tactic": "keen_eyed", "replace": "toughened_soldiers"}, typed_die=20,
        )  # fmt: skip
    with pytest.raises(ValidationError, match="in the battle “Ford”"):
        army_services.army_update(user=gm, campaign_id=world.pk, army_id=militia.pk,
                                  version=militia.version, hp=1)  # fmt: skip
    with pytest.raises(ValidationError, match="in the battle “Ford”"):
        army_services.army_adjust_condition(user=gm, campaign_id=world.pk, army_id=militia.pk,
                                            condition="weary", delta=1,
                                            version=militia.version)  # fmt: skip
    client.force_login(gm)
    page = client.post(reverse("pf2e:army-activity", args=[world.pk, militia.pk]), {
        "activity": "deploy_army", "version": militia.version, "skill": "exploration",
        "destination": "D8", "hexes": "1", "two_hex_costs": "0"})  # fmt: skip
    assert page.status_code == 400 and "in the battle “Ford”" in page.content.decode()
    turn = client.post(reverse("pf2e:kingdom-turn", args=[world.pk, kingdom.faction_id]),
                       {"expected_turn": kingdom.turn, "pay_with": "food",
                        "other_consumption": 0})  # fmt: skip
    assert turn.status_code == 400
    assert "The next kingdom turn waits for the battle “Ford”" in turn.content.decode()
    assert Army.objects.filter(pk=militia.pk).values().get() == before
    kingdom.refresh_from_db()
    assert kingdom.turn == 1
