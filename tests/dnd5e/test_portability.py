"""A D&D 5e campaign in the campaign file (format version 3): creatures, armies, units and
solos, and battles whose board keys ("u<id>", "u<id>.<n>", "s<id>") are file refs."""

import pytest

from battles.models import Battle
from kingdoms.portability import campaign_export
from tests.portability_checks import (
    assert_import_page_refuses,
    assert_refused,
    assert_same_campaign_pages,
    clone_battle,
    export_queries,
    play,
    round_trip,
)
from warfare.systems.dnd5e.models import Army, Creature, Solo, Unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(gm, dnd_battle):
    return play(gm, dnd_battle, 8)


def test_a_campaign_with_a_played_battle_round_trips_and_the_battle_verifies(
    client, gm, played, wardens
):
    assert played.seq >= 4
    document, copy_ = round_trip(played.campaign, gm)
    section = document["dnd5e"]
    assert {a["name"] for a in section["armies"]} == {"Wardens", "Horde"}
    # The rows come back with their creatures, stands, commanders and solos.
    units = Unit.objects.filter(army__campaign=copy_).select_related("creature", "commander")
    assert sorted((u.name, u.creature.key, u.stands, u.kind) for u in units) == sorted(
        (u.name, u.creature.key, u.stands, u.kind)
        for u in Unit.objects.filter(army__campaign=played.campaign)
    )
    knights = units.get(name="Knights")
    assert knights.commander.name == "Sir Aldric" and knights.commander.army == knights.army
    assert (
        Creature.objects.filter(campaign=copy_).count()
        == Creature.objects.filter(campaign=played.campaign).count()
    )
    # The board keys and the setup's ids name this installation's rows.
    battle = Battle.objects.get(campaign=copy_)
    side = battle.setup["sides"][0]
    assert side["army"] == Army.objects.get(campaign=copy_, name="Wardens").pk
    assert side["faction"] == knights.army.faction_id
    for unit in side["units"]:
        assert unit["key"] == f"u{unit['unit_id']}"
        assert Unit.objects.get(pk=unit["unit_id"]).army.campaign == copy_
    for solo in side["solos"]:
        assert solo["key"] == f"s{solo['solo_id']}"
    # The same pages and the same board.
    client.force_login(gm)
    assert_same_campaign_pages(client, played, battle, lists=("dnd5e:army-list", "dnd5e:creatures"),
                               details=[("dnd5e:army-detail", Army)])  # fmt: skip


def test_file_keys_are_refs_not_database_ids(gm, played):
    document = campaign_export(played.campaign)
    refs = {u["ref"] for a in document["dnd5e"]["armies"] for u in a["units"]}
    battle = document["battles"][0]
    keys = {u["key"] for s in battle["setup"]["sides"] for u in s["units"]}
    assert keys == {f"u{ref}" for ref in refs}
    assert {u["unit_id"] for s in battle["setup"]["sides"] for u in s["units"]} == refs
    assert battle["setup"]["sides"][0]["faction"] == "Silverrun"


def test_a_unit_deleted_after_the_battle_keeps_a_key_no_row_has(gm, played):
    """The battle still replays; its deleted unit is "u-1" in the file and after import."""
    unit = Unit.objects.get(army__campaign=played.campaign, name="Ogres")
    unit.delete()
    document, copy_ = round_trip(played.campaign, gm)
    sides = document["battles"][0]["setup"]["sides"]
    ogres = next(u for s in sides for u in s["units"] if u["name"] == "Ogres")
    assert (ogres["key"], ogres["unit_id"]) == ("u-1", None)
    battle = Battle.objects.get(campaign=copy_)
    assert "u-1" in battle.snapshot["order"]


DAMAGE = {
    "unknown board key": (
        lambda d: d["battles"][0]["commands"][0]["command"].update(actor="u999"),
        r"battles\[0\].commands\[0\].command.actor: no unit “u999” in the file",
    ),
    "unknown unit id in the setup": (
        lambda d: d["battles"][0]["setup"]["sides"][0]["units"][0].update(unit_id=999),
        r"setup.sides\[0\].units\[0\].unit_id: no unit “999” in the file",
    ),
    "unknown creature": (
        lambda d: d["dnd5e"]["armies"][0]["units"][0].update(creature="dragon-xx"),
        r"dnd5e.armies\[0\].units\[0\].creature: no creature “dragon-xx” in the file",
    ),
    "unknown faction": (
        lambda d: d["dnd5e"]["armies"][0].update(faction="Nobody"),
        r"dnd5e.armies\[0\].faction: no faction “Nobody” in the file",
    ),
    "two armies with one name": (
        lambda d: d["dnd5e"]["armies"][1].update(
            name=d["dnd5e"]["armies"][0]["name"], faction=d["dnd5e"]["armies"][0]["faction"]
        ),
        r"appears twice",
    ),
    "a commander of another army": (
        lambda d: d["dnd5e"]["armies"][1]["units"][0].update(
            commander=d["dnd5e"]["armies"][0]["solos"][0]["ref"]
        ),
        r"no solo of this army",
    ),
    "stands out of range": (
        lambda d: d["dnd5e"]["armies"][0]["units"][0].update(stands=500),
        r"dnd5e.armies\[0\].units\[0\]: stands:",
    ),
    "an unreadable stat block": (
        lambda d: d["dnd5e"]["creatures"][0].update(abilities={"str": "strong"}),
        r"dnd5e.creatures\[0\]: the rules cannot read this stat block",
    ),
    "a board the commands do not give": (
        lambda d: d["battles"][0]["snapshot"].update(round=99),
        r"replaying the commands of the battle",
    ),
    "a battle of a system without a board": (
        lambda d: d["battles"][0].update(system="chess"),
        r"battles\[0\]: no battle board for the rule system “chess”",
    ),
    "a D&D 5e battle passed off as GURPS 4e": (
        lambda d: d["battles"][0].update(system="gurps4e"),
        r"battles\[0\].setup.sides: expected an object with the sides a and b",
    ),
}


@pytest.mark.parametrize("case", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_file_is_refused_and_nothing_is_written(gm, played, case):
    assert_refused(campaign_export(played.campaign), gm, *DAMAGE[case])


def test_the_import_page_refuses_a_damaged_dnd5e_file_with_400(client, gm, played):
    document = campaign_export(played.campaign)
    document["dnd5e"]["armies"][0]["solos"][0]["creature"] = "nobody"
    assert_import_page_refuses(client, gm, document, "no creature “nobody” in the file")


def test_the_export_takes_as_many_queries_for_more_armies_and_battles(gm, played, horde):
    before = export_queries(played.campaign)
    clone_battle(played)
    army = Army.objects.create(campaign=played.campaign, faction=horde.faction, name="Second")
    orc = Creature.objects.get(campaign=played.campaign, key="orc")
    chief = Solo.objects.create(army=army, name="Chief", creature=orc)
    Unit.objects.create(army=army, name="More orcs", creature=orc, stands=3, commander=chief)
    Unit.objects.create(army=army, name="Even more", creature=orc, stands=2)
    assert export_queries(played.campaign) == before


def test_a_list_where_a_ref_belongs_is_refused(gm, played):
    assert_refused(
        campaign_export(played.campaign),
        gm,
        lambda d: d["battles"][0]["setup"]["sides"][1].update(army=[1]),
        r"setup.sides\[1\].army: no army “\[1\]” in the file",
    )


def test_keys_inside_codes_are_mapped_too():
    """A solo's spell uses are keyed "s4:fireball"; a stand is "u9.2"; names stay text."""
    from warfare.systems.dnd5e import portability as hook

    doc = {
        "setup": {"sides": []},
        "snapshot": {"spell_uses": {"s4:fireball": 1}, "order": ["u9", "s4"]},
        "outcome": None,
        "commands": [{"command": {"actor": "u9", "params": {"piece": "u9.2", "target": "s4"}}}],
        "events": [{"params": {"name": "u9", "creature": "s4", "target": "sq:2:3"}}],
    }
    context = {"units": {9: 3}, "solos": {4: 1}, "armies": {}, "factions": {}}
    out = hook.SECTION.battle_out(doc, context)
    assert out["snapshot"] == {"spell_uses": {"s1:fireball": 1}, "order": ["u3", "s1"]}
    assert out["commands"][0]["command"] == {
        "actor": "u3", "params": {"piece": "u3.2", "target": "s1"}
    }  # fmt: skip
    assert out["events"][0]["params"] == {"name": "u9", "creature": "s4", "target": "sq:2:3"}
