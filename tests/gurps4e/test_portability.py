"""A GURPS Mass Combat 4e campaign in the campaign file (format version 3): element types,
forces and their element rows, and battles whose setup names forces, factions and players
by file refs, names and usernames."""

import json

import pytest
from django.urls import reverse

from battles import services as battle_services
from battles.models import Battle, BattleStatus
from kingdoms.portability import campaign_export, campaign_import
from tests.portability_checks import (
    assert_import_page_refuses,
    assert_refused,
    assert_same_campaign_pages,
    clone_battle,
    export_queries,
    play,
    round_trip,
)
from warfare.systems.gurps4e.models import ElementType, Force, ForceElement
from warfare.systems.gurps4e.results import gurps4e_apply_results

pytestmark = pytest.mark.django_db


@pytest.fixture
def battle(client, gm, player, gurps_world, legion, horde):
    """The Legion against the Horde; Ann (played by `player`) fights with the Legion."""
    client.force_login(gm)
    response = client.post(
        reverse("battles:create", args=[gurps_world.pk]),
        {
            "name": "Battle of the Ford", "force_a": legion.pk, "force_b": horde.pk,
            "battle_type": "land", "terrain": "plains", "kind": "pitched", "initiative": "a",
            "db_a": "2", "players_may_act": "on", "neutralize_a": "on", "neutralize_b": "on",
            "pc1_name": "Ann", "pc1_side": "a", "pc1_hp": "12", "pc1_skill_15": "on",
            "pc1_owner": f"user:{player.pk}",
        },
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    client.logout()
    return play(gm, Battle.objects.get(name="Battle of the Ford"), 6)


def test_a_campaign_with_a_played_battle_round_trips_and_the_battle_verifies(
    client, gm, player, battle, legion
):
    assert battle.seq >= 3
    document, copy_ = round_trip(battle.campaign, gm)
    section = document["gurps4e"]
    assert [(t["name"], t["base_ts"]) for t in section["element_types"]] == [
        ("Heavy Infantry", "4.00"), ("Light Artillery", "1.00"), ("Horse Archers", "3.00"),
    ]  # fmt: skip
    new_legion = Force.objects.get(campaign=copy_, name="Legion")
    rows = ForceElement.objects.filter(force=new_legion).select_related("element_type")
    assert [(r.element_type.name, r.count, r.tl) for r in rows] == [
        ("Heavy Infantry", 10, None), ("Light Artillery", 5, 3),
    ]  # fmt: skip
    assert ElementType.objects.filter(campaign=copy_).count() == 3
    imported = Battle.objects.get(campaign=copy_)
    side = imported.setup["sides"]["a"]
    assert (side["force_id"], side["faction"]) == (new_legion.pk, new_legion.faction_id)
    assert side["pcs"][0]["owner"] == player.pk
    file_side = document["battles"][0]["setup"]["sides"]["a"]
    assert (file_side["force_id"], file_side["faction"]) == (1, "Silverrun")
    assert file_side["pcs"][0]["owner"] == "player"
    # The battle's copy of the force keeps its row keys (labels inside the battle).
    assert side["force"] == battle.setup["sides"]["a"]["force"]
    # The same pages (TS, rows) and the same board.
    client.force_login(gm)
    assert_same_campaign_pages(
        client, battle, imported, lists=("gurps4e:force-list", "gurps4e:element-types"),
        details=[("gurps4e:force-detail", Force)],
    )  # fmt: skip


def test_results_of_an_imported_battle_go_to_the_imported_forces(gm, battle, legion):
    battle = battle_services.battle_act(
        user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": None, "kind": "gm_end_battle",
                 "params": {"victor": "a", "reason": "gm"}},
    )[0]  # fmt: skip
    assert battle.status == BattleStatus.FINISHED
    _document, copy_ = round_trip(battle.campaign, gm)
    imported = Battle.objects.get(campaign=copy_)
    gurps4e_apply_results(
        user=gm, campaign_id=copy_.pk, battle_id=imported.pk, expected_seq=imported.seq
    )
    imported.refresh_from_db()
    assert imported.outcome["applied"]["a"]["force"] == "Legion"
    legion.refresh_from_db()
    assert legion.strength_percent == 100  # the source's force is untouched


DAMAGE = {
    "unknown force of a side": (
        lambda d: d["battles"][0]["setup"]["sides"]["b"].update(force_id=77),
        r"battles\[0\].setup.sides.b.force_id: no force “77” in the file",
    ),
    "a PC's faction unknown": (
        lambda d: d["battles"][0]["setup"]["sides"]["a"]["pcs"][0].update(faction="Nobody"),
        r"setup.sides.a.pcs\[0\].faction: no faction “Nobody” in the file",
    ),
    "sides as a list": (
        lambda d: d["battles"][0]["setup"].update(sides=[]),
        r"battles\[0\].setup.sides: expected an object with the sides a and b",
    ),
    "unknown element type": (
        lambda d: d["gurps4e"]["forces"][0]["elements"][0].update(element_type=42),
        r"gurps4e.forces\[0\].elements\[0\].element_type: no element type “42” in the file",
    ),
    "TS as a number": (
        lambda d: d["gurps4e"]["element_types"][0].update(base_ts=4),
        r"gurps4e.element_types\[0\].base_ts: expected text",
    ),
    "TS not a number": (
        lambda d: d["gurps4e"]["element_types"][0].update(base_ts="lots"),
        r"gurps4e.element_types\[0\]: base_ts:",
    ),
    "strength over 100%": (
        lambda d: d["gurps4e"]["forces"][0].update(strength_percent=150),
        r"gurps4e.forces\[0\]: strength_percent:",
    ),
    "two forces of one name": (
        lambda d: d["gurps4e"]["forces"][1].update(
            name="Legion", faction=d["gurps4e"]["forces"][0]["faction"]
        ),
        r"appears twice",
    ),
    "a board the commands do not give": (
        lambda d: d["battles"][0]["snapshot"].update(round=9),
        r"replaying the commands of the battle",
    ),
}


@pytest.mark.parametrize("case", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_file_is_refused_and_nothing_is_written(gm, battle, case):
    assert_refused(campaign_export(battle.campaign), gm, *DAMAGE[case])


def test_a_version_2_file_of_a_gurps_campaign_still_imports(gm, gurps_world, legion):
    """Version 2 carried no GURPS rows: the upgrade adds empty sections."""
    document = campaign_export(gurps_world)
    for key in ("gurps4e", "gurps3e", "dnd5e"):
        del document[key]
    document["version"] = 2
    copy_ = campaign_import(user=gm, data=json.loads(json.dumps(document)))
    assert copy_.rule_system == "gurps4e"
    assert not Force.objects.filter(campaign=copy_).exists()


def test_the_export_takes_as_many_queries_for_more_forces_and_battles(gm, battle, horde):
    before = export_queries(battle.campaign)
    clone_battle(battle)
    element_type = ElementType.objects.create(
        campaign=battle.campaign, name="Scouts", tl=2, base_ts="1.5", classes=["Rec"]
    )
    force = Force.objects.create(campaign=battle.campaign, faction=horde.faction, name="Second")
    ForceElement.objects.create(force=force, element_type=element_type, count=4)
    ForceElement.objects.create(force=horde, element_type=element_type, count=2)
    assert export_queries(battle.campaign) == before


def test_the_import_page_refuses_a_damaged_gurps4e_file_with_400(client, gm, battle):
    document = campaign_export(battle.campaign)
    document["gurps4e"]["forces"][0]["faction"] = "Nobody"
    message = "gurps4e.forces[0].faction: no faction “Nobody” in the file"
    assert_import_page_refuses(client, gm, document, message)
