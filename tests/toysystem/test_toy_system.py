"""A fifth rule system is one package (issue 12): the test-only toy system (tests/toysystem)
is set up, played, undone, replayed, reported and served by the API through the shared board
code, which never names it."""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

from battles import services
from battles.models import Battle, BattleStatus
from battles.plugins import UnknownSystem, plugin_for
from kingdoms.portability import campaign_export
from tests.portability_checks import assert_refused, round_trip

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def toy_world(world):
    world.rule_system = "toy"
    world.save()
    return world


@pytest.fixture
def toy_battle(toy_world, gm, kingdom_faction, enemy_faction):
    client = APIClient()
    client.force_login(gm)
    body = {"name": "Skirmish", "side_a": "Reds", "side_b": "Blues",
            "faction_a": kingdom_faction.pk, "faction_b": enemy_faction.pk}  # fmt: skip
    response = client.post(reverse("api:battle-list", args=[toy_world.pk]), body, format="json")
    assert response.status_code == 201, response.content
    return Battle.objects.get(pk=response.json()["id"])


def _attack(user, battle, side, die):
    return services.battle_act(
        user=user, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": side, "kind": "attack", "typed_dice": [die]},
    )[0]  # fmt: skip


def test_the_core_does_not_name_the_toy_system():
    """No module of the shared apps (or the project's settings but the test ones) knows it."""
    for folder in ("battles", "kingdoms", "warfare"):
        for path in (ROOT / folder).rglob("*.py"):
            if path.name == "test.py" and path.parent.name == "settings":
                continue
            assert "toysystem" not in path.read_text(), path


def test_an_unregistered_system_has_no_board():
    with pytest.raises(UnknownSystem):
        plugin_for("nosuchsystem")


def test_the_gm_sets_a_toy_battle_up_on_the_page(client, gm, toy_world):
    client.force_login(gm)
    url = reverse("battles:create", args=[toy_world.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": ""}).status_code == 400
    response = client.post(url, {"name": "Duel", "side_a": "Reds", "side_b": "Blues"})
    battle = Battle.objects.get(campaign=toy_world, name="Duel")
    assert response.status_code == 302
    assert response["Location"] == battle.get_absolute_url()
    assert (battle.system, battle.seq, battle.status) == ("toy", 0, BattleStatus.ACTIVE)
    assert battle.events.filter(code="toy.started").exists()


def test_a_toy_battle_is_played_undone_replayed_and_won(gm, toy_battle):
    battle = _attack(gm, toy_battle, "a", 6)  # a hit (4+)
    battle = _attack(gm, battle, "b", 1)  # a miss
    assert battle.snapshot["hits"] == {"a": 1, "b": 0}
    assert battle.snapshot["round"] == 2
    with pytest.raises(services.StaleBoard):
        _attack(gm, Battle(pk=battle.pk, campaign_id=battle.campaign_id, seq=0), "a", 6)
    battle = services.battle_undo(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                                  expected_seq=battle.seq)  # fmt: skip
    assert (battle.seq, battle.snapshot["turn"]) == (1, "b")
    assert battle.commands.filter(undone_at__isnull=False).count() == 1
    for side, die in (("b", 2), ("a", 4), ("b", 3), ("a", 5)):
        battle = _attack(gm, battle, side, die)
    assert battle.status == BattleStatus.FINISHED
    assert battle.outcome["winner"] == "a"
    assert battle.snapshot["hits"] == {"a": 3, "b": 0}
    assert services.battle_verify(battle)
    call_command("verify_battles")  # every stored battle replays to its snapshot


def test_the_engine_refuses_a_side_out_of_turn(gm, toy_battle):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as error:
        _attack(gm, toy_battle, "b", 6)
    assert error.value.messages == ["It is not the turn of b."]


def test_players_attack_for_their_own_side_only(client, player, toy_battle):
    client.force_login(player)
    url = reverse("battles:act", args=[toy_battle.campaign_id, toy_battle.pk])
    other = client.post(url, {"seq": 0, "actor": "b", "kind": "attack"})
    assert other.status_code == 403
    own = client.post(url, {"seq": 0, "actor": "a", "kind": "attack", "typed_die": 6})
    assert own.status_code == 302
    toy_battle.refresh_from_db()
    assert toy_battle.snapshot["hits"]["a"] == 1


def test_the_board_page_and_its_partial(client, gm, player, outsider, toy_battle):
    _attack(gm, toy_battle, "a", 6)
    client.force_login(player)
    page = client.get(toy_battle.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert "Reds: 1 hits" in text
    assert "Reds attacks Blues: d6 6, a hit." in text
    partial = client.get(toy_battle.get_absolute_url(), headers={"HX-Request": "true"})
    assert partial.status_code == 200
    assert "<html" not in partial.content.decode()
    client.force_login(outsider)
    assert client.get(toy_battle.get_absolute_url()).status_code == 404


def test_the_api_serves_the_toy_board(gm, player, toy_battle):
    client = APIClient()
    client.force_login(player)
    url = reverse("api:battle-detail", args=[toy_battle.campaign_id, toy_battle.pk])
    state = client.get(url).json()
    assert (state["system"], state["turn"], state["may_act"]) == ("toy", "a", True)
    assert state["actions"] == [{"key": "attack", "actor": "a"}]
    actions = reverse("api:battle-actions", args=[toy_battle.campaign_id, toy_battle.pk])
    body = {"seq": 0, "actor": "a", "kind": "attack", "typed_dice": [5]}
    answer = client.post(actions, body, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["hits"] == {"a": 1, "b": 0}
    stale = client.post(actions, body, format="json")
    assert stale.status_code == 409
    assert stale.json()["battle"]["seq"] == 1
    log = client.get(reverse("api:battle-log", args=[toy_battle.campaign_id, toy_battle.pk]))
    texts = [event["text"] for event in log.json()["results"]]
    assert texts == ["The toy battle begins: Reds strikes first.",
                     "Reds attacks Blues: d6 5, a hit."]  # fmt: skip


def test_the_api_sets_up_and_applies_a_toy_battle(gm, toy_world, toy_battle):
    client = APIClient()
    client.force_login(gm)
    listing = reverse("api:battle-list", args=[toy_world.pk])
    assert client.post(listing, {"name": "No sides"}, format="json").status_code == 400
    assert client.post(listing, ["a list"], format="json").status_code == 400
    battle = toy_battle
    for side, die in (("a", 6), ("b", 1), ("a", 6), ("b", 1), ("a", 6)):
        battle = _attack(gm, battle, side, die)
    apply = reverse("api:battle-apply", args=[toy_world.pk, battle.pk])
    answer = client.post(apply, {"seq": battle.seq}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == BattleStatus.APPLIED


def test_the_report_reads_the_toy_battle(client, gm, toy_battle):
    battle = _attack(gm, toy_battle, "a", 2)
    client.force_login(gm)
    url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert "Reds attacks Blues: d6 2, a miss." in page.content.decode()
    markdown = client.get(url, {"format": "md"}).content.decode()
    assert markdown.startswith("# Skirmish\n")
    assert "- Reds attacks Blues: d6 2, a miss." in markdown


def test_the_openapi_schema_lists_the_toy_board(client):
    schema = client.get(reverse("api:schema"), {"format": "json"})
    components = json.loads(schema.content)["components"]["schemas"]
    assert "ToyBattleStateOutput" in components
    assert "ToyBattleCreateInputRequest" in components


def test_the_toy_templates_use_no_translations():
    """Test-only words stay out of the Russian catalogue (`make messages` reads every file)."""
    for path in (ROOT / "tests" / "toysystem").rglob("*"):
        if path.suffix in {".py", ".html"} and not path.name.startswith("test_"):
            assert not re.search(r"gettext|\{% ?(trans|blocktrans)", path.read_text()), path


def test_a_played_toy_campaign_is_exported_and_imported_through_the_shared_code(
    gm, toy_battle, kingdom_faction, enemy_faction
):
    """The toy's campaign-file section (tests/toysystem/portability.py) names each side's
    faction by name; the imported copy's battle plays the copy's factions and exports to the
    same file."""
    battle = _attack(gm, toy_battle, "a", 6)
    battle = _attack(gm, battle, "b", 1)
    battle = services.battle_undo(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                                  expected_seq=battle.seq)  # fmt: skip
    battle = _attack(gm, battle, "b", 5)
    first, copy_ = round_trip(battle.campaign, gm)
    (exported,) = first["battles"]
    assert exported["system"] == "toy"
    assert [side["faction"] for side in exported["setup"]["sides"]] == [
        kingdom_faction.name, enemy_faction.name
    ]  # fmt: skip
    assert [c["undone_at"] is not None for c in exported["commands"]] == [False, True, False]
    imported = Battle.objects.get(campaign=copy_)
    factions = dict(copy_.factions.values_list("name", "pk"))
    assert plugin_for("toy").actor_factions(imported) == {
        "a": factions[kingdom_faction.name], "b": factions[enemy_faction.name]
    }  # fmt: skip
    assert imported.snapshot == battle.snapshot


def test_a_toy_battle_naming_a_faction_not_in_the_file_is_refused(gm, toy_battle):
    document = campaign_export(toy_battle.campaign)

    def stray_faction(doc):
        doc["battles"][0]["setup"]["sides"][1]["faction"] = "Nobody's faction"

    assert_refused(document, gm, stray_faction, re.escape("battles[0].setup.sides[1].faction"))


def test_a_campaign_of_a_rule_system_no_app_registered_is_refused(gm, toy_battle):
    document = campaign_export(toy_battle.campaign)

    def unknown_system(doc):
        doc["campaign"]["rule_system"] = "chess"

    assert_refused(document, gm, unknown_system, "is not a valid choice")
