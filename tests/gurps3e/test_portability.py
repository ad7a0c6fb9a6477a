"""A GURPS 3e campaign in the campaign file (format version 3): troop types, forces and
units, characters with their owners and reputation, and battles whose board keys ("u<id>",
"c<id>") are file refs."""

import pytest

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
from warfare.systems.gurps3e.board import apply_results
from warfare.systems.gurps3e.models import Character, Force, Reputation, Unit

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(gm, g3_battle, grask):
    return play(gm, g3_battle, 6)


def test_a_campaign_with_a_finished_battle_round_trips_and_applies_to_its_own_units(
    client, gm, player, played, aldric
):
    assert played.status == BattleStatus.FINISHED and played.seq == 4
    document, copy_ = round_trip(played.campaign, gm)
    section = document["gurps3e"]
    assert {t["name"] for t in section["troop_types"]} == {"heavy infantry", "archers", "raiders"}
    owners = {c["name"]: c["owner"] for c in section["characters"]}
    assert owners == {"Aldric": "player", "Brenna": None, "Grask": None}
    new_aldric = Character.objects.get(campaign=copy_, name="Aldric")
    assert (new_aldric.owner, new_aldric.faction.name, new_aldric.tactics) == (
        player, "Silverrun", 13,
    )  # fmt: skip
    assert list(Reputation.objects.filter(character=new_aldric).values_list("value", "expires"))
    units = Unit.objects.filter(force__campaign=copy_).select_related("troop_type")
    assert sorted((u.name, u.men, u.troop_type.ts_per_man) for u in units) == [
        ("Archers", 50, 3), ("Pikes", 100, 4), ("Raiders", 200, 2),
    ]  # fmt: skip
    battle = Battle.objects.get(campaign=copy_)
    side_a = battle.setup["sides"][0]
    assert side_a["forces"] == [Force.objects.get(campaign=copy_, name="Host").pk]
    assert side_a["factions"] == [new_aldric.faction_id]
    pc = next(pc for pc in battle.setup["pcs"] if pc["name"] == "Aldric")
    assert (pc["key"], pc["character"], pc["owner"]) == (
        f"c{new_aldric.pk}", new_aldric.pk, player.pk,
    )  # fmt: skip
    # The same pages and the same board.
    client.force_login(gm)
    assert_same_campaign_pages(
        client, played, battle,
        lists=("gurps3e:force-list", "gurps3e:troop-types", "gurps3e:character-list"),
        details=[("gurps3e:force-detail", Force), ("gurps3e:character-detail", Character)],
    )  # fmt: skip
    # The results of the imported battle go to the imported units, not the source's.
    before = {u.pk: u.men for u in Unit.objects.filter(force__campaign=played.campaign)}
    apply_results(user=gm, campaign_id=copy_.pk, battle_id=battle.pk,
                  expected_seq=battle.seq, data={})  # fmt: skip
    left = {u["key"]: u["men"] for f in battle.outcome["details"]["forces"] for u in f["units"]}
    assert {f"u{u.pk}": u.men for u in Unit.objects.filter(force__campaign=copy_)} == left
    assert before == {u.pk: u.men for u in Unit.objects.filter(force__campaign=played.campaign)}


def test_an_unfinished_battle_verifies_after_import(gm, g3_battle, grask):
    battle = play(gm, g3_battle, 2)
    assert battle.status == BattleStatus.ACTIVE and battle.seq == 2
    _document, copy_ = round_trip(battle.campaign, gm)
    assert battle_services.battle_verify(Battle.objects.get(campaign=copy_))


def test_an_owner_without_an_account_here_leaves_the_character_to_its_faction(gm, played):
    document = campaign_export(played.campaign)
    document["gurps3e"]["characters"][0]["owner"] = "stranger"
    for pc in document["battles"][0]["setup"]["pcs"]:
        pc["owner"] = "stranger"
    copy_ = campaign_import(user=gm, data=document)
    assert Character.objects.get(campaign=copy_, name="Aldric").owner is None
    battle = Battle.objects.get(campaign=copy_)
    assert {pc["owner"] for pc in battle.setup["pcs"]} == {None}
    assert battle_services.battle_verify(battle)


DAMAGE = {
    "unknown character key": (
        lambda d: d["battles"][0]["commands"][0]["command"].update(actor="c99"),
        r"battles\[0\].commands\[0\].command.actor: no character “c99” in the file",
    ),
    "unknown force in a side": (
        lambda d: d["battles"][0]["setup"]["sides"][0].update(forces=[99]),
        r"setup.sides\[0\].forces\[0\]: no force “99” in the file",
    ),
    "unknown troop type": (
        lambda d: d["gurps3e"]["forces"][0]["units"][0].update(troop_type="dragons"),
        r"gurps3e.forces\[0\].units\[0\].troop_type: no troop type “dragons” in the file",
    ),
    "unknown faction of a character": (
        lambda d: d["gurps3e"]["characters"][0].update(faction="Nobody"),
        r"gurps3e.characters\[0\].faction: no faction “Nobody” in the file",
    ),
    "two troop types with one name": (
        lambda d: d["gurps3e"]["troop_types"][1].update(
            name=d["gurps3e"]["troop_types"][0]["name"]
        ),
        r"appears twice",
    ),
    "men out of range": (
        lambda d: d["gurps3e"]["forces"][0]["units"][0].update(men=5000),
        r"gurps3e.forces\[0\].units\[0\]: men:",
    ),
    "reputation as text": (
        lambda d: d["gurps3e"]["characters"][0]["reputation"][0].update(value="+1"),
        r"reputation\[0\].value: expected a whole number",
    ),
    "a board the commands do not give": (
        lambda d: d["battles"][0]["snapshot"].update(day=7),
        r"replaying the commands of the battle",
    ),
}


@pytest.mark.parametrize("case", DAMAGE, ids=list(DAMAGE))
def test_a_damaged_file_is_refused_and_nothing_is_written(gm, played, case):
    assert_refused(campaign_export(played.campaign), gm, *DAMAGE[case])


def test_the_export_takes_as_many_queries_for_more_forces_and_battles(gm, played, horde):
    before = export_queries(played.campaign)
    clone_battle(played)
    force = Force.objects.create(campaign=played.campaign, faction=horde.faction, name="Second")
    troop = Unit.objects.filter(force=horde).first().troop_type
    Unit.objects.create(force=force, name="More raiders", troop_type=troop, men=50)
    Unit.objects.create(force=force, name="Even more", troop_type=troop, men=60)
    character = Character.objects.create(campaign=played.campaign, name="Vek",
                                         faction=horde.faction)  # fmt: skip
    Reputation.objects.create(character=character, value=-2)
    assert export_queries(played.campaign) == before


def test_keys_inside_codes_are_mapped_too():
    """A Glory term ("glory.c7") and a roll's purpose ("morale:u9") name pieces as well."""
    from warfare.systems.gurps3e import portability as hook

    doc = {
        "setup": {"sides": [], "pcs": []},
        "snapshot": {"terms": [["glory.c7", 2]], "routed": ["u9", "u10"]},
        "outcome": None,
        "commands": [{"command": {"actor": "c7", "kind": "choose_risk", "params": {}}}],
        "events": [{"params": {"purpose": "morale:u9", "name": "c7", "unit": "u55"}}],
    }
    context = {"units": {9: 1, 10: 2}, "characters": {7: 1}, "factions": {}, "forces": {},
               "users": {}}  # fmt: skip
    out = hook.SECTION.battle_out(doc, context)
    assert out["snapshot"] == {"terms": [["glory.c1", 2]], "routed": ["u1", "u2"]}
    assert out["commands"][0]["command"]["actor"] == "c1"
    # A name is text; a unit deleted since is "u-1".
    assert out["events"][0]["params"] == {"purpose": "morale:u1", "name": "c7", "unit": "u-1"}


def test_the_import_page_refuses_a_damaged_gurps3e_file_with_400(client, gm, played):
    document = campaign_export(played.campaign)
    document["battles"][0]["setup"]["pcs"][0]["character"] = 42
    message = "battles[0].setup.pcs[0].character: no character “42” in the file"
    assert_import_page_refuses(client, gm, document, message)
