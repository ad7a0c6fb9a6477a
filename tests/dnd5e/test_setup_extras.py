"""D&D 5e set-up options beyond the armies: siege engines with their crews on the board
(dnd5e §8), a surprised side (§5.2), initiative dice typed at the table (§5.2, §11.3), the
same through the API; a siege action played through the board and replayed exactly."""

import json

import pytest
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleEvent
from warfare.systems.dnd5e.models import Solo, Unit
from warfare.systems.dnd5e.setup import ENGINE_LABELS

from .conftest import SETUP_POST

pytestmark = pytest.mark.django_db


def _key(name):
    return f"u{Unit.objects.get(name=name).pk}"


def _post(wardens, horde, **change):
    return {**SETUP_POST, "army_a": wardens.pk, "army_b": horde.pk, "height": 8,
            "auto_deploy": "on", **change}  # fmt: skip


def _engines(wardens, horde):
    """A ballista of side A at (0, 0) crewed by the Knights; a mangonel of side B with no
    square (the back of its zone) crewed by the Orcs."""
    knights = Unit.objects.get(name="Knights").pk
    orcs = Unit.objects.get(name="Orcs").pk
    return {"engine_1_kind": "ballista", "engine_1_side": "a", "engine_1_square": "0,0",
            "engine_1_crew": knights, "engine_2_kind": "mangonel", "engine_2_side": "b",
            "engine_2_square": "", "engine_2_crew": orcs}  # fmt: skip


def test_gm_sets_up_engines_surprise_and_typed_initiative(client, gm, player, wardens, horde):
    """§8: engines with crews at set-up (2 × 2 squares for Large, at the back of the zone
    when no square is given); §5.2: side B surprised: its units and solos skip round 1;
    the Knights' d20 typed at the table is used and logged as typed."""
    client.force_login(gm)
    url = reverse("battles:create", args=[wardens.campaign_id])
    page = client.get(url).content.decode()
    assert "Siege engines (§8)" in page and 'name="engine_3_kind"' in page
    assert f'name="initiative_{_key("Knights")}"' in page
    post = _post(wardens, horde, **_engines(wardens, horde), surprised_b="on",
                 **{f"initiative_{_key('Knights')}": 17})  # fmt: skip
    response = client.post(url, post)
    assert response.status_code == 302, response.content.decode()[:2000]
    battle = Battle.objects.get()
    assert battle.setup["engines"] == [
        {"key": "e1", "kind": "ballista", "side": "a", "pos": [0, 0],
         "crew": _key("Knights")},
        {"key": "e2", "kind": "mangonel", "side": "b", "pos": [8, 0], "crew": _key("Orcs")},
    ]  # fmt: skip
    assert battle.setup["initiative_dice"] == {_key("Knights"): 17}
    horde_side = battle.setup["sides"][1]
    assert all(u["surprised"] for u in horde_side["units"])
    assert not any(u.get("surprised") for u in battle.setup["sides"][0]["units"])
    # Initiative: the typed die, flagged typed; the others rolled.
    rolls = {e.params["actor"]: e.params for e in BattleEvent.objects.filter(
        battle=battle, code="dnd5e.initiative")}  # fmt: skip
    assert rolls[_key("Knights")]["die"] == 17 and rolls[_key("Knights")]["typed"] is True
    assert rolls[_key("Guards")]["typed"] is False
    # Surprise: round 1 began and skipped every Horde unit; the turn is a Warden's.
    snapshot = battle.snapshot
    assert snapshot["phase"] == "round" and snapshot["round"] == 1
    surprised = set(BattleEvent.objects.filter(battle=battle, code="dnd5e.surprised")
                    .values_list("params__actor", flat=True))  # fmt: skip
    horde_units = {u["key"] for u in horde_side["units"]}
    assert snapshot["turn"]["actor"] not in horde_units
    board = client.get(battle.get_absolute_url()).content.decode()
    assert "(typed at the table)" in board
    assert "Siege engines" in board and "Ballista" in board and "Mangonel" in board
    assert "HP 50/50" in board and "HP 100/100" in board  # the GM sees both
    assert board.count('class="piece side-a engine"') == 4  # 2 × 2 squares
    # End the Wardens' turns: the surprised Horde skipped, round 2 begins.
    for _ in range(6):
        battle.refresh_from_db()
        if battle.snapshot["round"] == 2:
            break
        battle = _act(gm, battle, battle.snapshot["turn"]["actor"], "end_turn")
    surprised = set(BattleEvent.objects.filter(battle=battle, code="dnd5e.surprised")
                    .values_list("params__actor", flat=True))  # fmt: skip
    assert horde_units <= surprised
    rounds = BattleEvent.objects.filter(battle=battle, code="dnd5e.surprised")
    assert set(rounds.values_list("round", flat=True)) == {1}  # logged in round 1
    turns = BattleEvent.objects.filter(battle=battle, code="dnd5e.turn", round=1)
    assert not {t.params["actor"] for t in turns} & horde_units
    client.force_login(player)  # the Wardens' player: own engine's HP only
    board = client.get(battle.get_absolute_url()).content.decode()
    assert "HP 50/50" in board and "HP 100/100" not in board
    state = client.get(reverse("api:battle-detail", args=[battle.campaign_id, battle.pk]))
    engines = {e["key"]: e for e in state.json()["state"]["engines"]}
    assert engines["e1"]["hp"] == 50 and engines["e2"]["hp"] is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"engine_1_crew": "orcs"}, "The crew must be a unit of the same side."),
        ({"engine_1_side": ""}, "Say whose siege engine it is."),
        ({"engine_1_square": "12,2"}, "is off the grid"),
        ({"engine_1_square": "9,0"}, "it does not fit there"),
        ({"engine_1_square": "1,1; 2,2"}, "Give one square"),
        ({"engine_1_kind": "catapult"}, "Select a valid choice."),
        ({"engine_1_crew": "spent"}, "That unit has no stands left to crew it."),
        ({"initiative": 21}, "Ensure this value is less than or equal to 20."),
    ],
)
def test_bad_engine_or_initiative_input_is_a_400(client, gm, wardens, horde, change, message):
    client.force_login(gm)
    change = dict(change)
    if change.get("engine_1_crew") == "orcs":
        change["engine_1_crew"] = Unit.objects.get(name="Orcs").pk
    if change.get("engine_1_crew") == "spent":
        spent = Unit.objects.create(army=wardens, name="Spent", stands=0,
                                    creature=Unit.objects.get(name="Guards").creature)  # fmt: skip
        change["engine_1_crew"] = spent.pk
    if "initiative" in change:
        change = {f"initiative_{_key('Knights')}": change.pop("initiative")}
    post = _post(wardens, horde, **{**_engines(wardens, horde), **change})
    response = client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Battle.objects.exists()


def test_engine_set_up_problems_read_as_sentences():
    """The engine's own refusals of an engine set-up (a crew of the other side) name it."""
    from warfare.engine.problems import Problem
    from warfare.systems.dnd5e.setup import setup_messages

    problem = Problem("dnd5e.setup.bad_crew", {"engine": "e1"})
    assert setup_messages([problem], {"e1": "Ballista"}) == [
        "Ballista: its crew must be a unit of its side."]  # fmt: skip


def _act(user, battle, actor, kind, **params):
    battle.refresh_from_db()
    return services.battle_act(
        user=user, campaign_id=battle.campaign_id, battle_id=battle.pk,
        expected_seq=battle.seq, command={"actor": actor, "kind": kind, "params": params},
    )[0]  # fmt: skip


def test_a_siege_engine_is_loaded_through_the_board_and_replays_exactly(client, gm, wardens,
                                                                         horde):  # fmt: skip
    """§8: the crew stand next to its ballista spends the Knights' action on loading; the
    board offers load (not aim or fire yet), the click goes through the board's act view,
    the engine shows loaded 1/1, and replaying the commands gives the same snapshot."""
    client.force_login(gm)
    knights = _key("Knights")
    post = _post(wardens, horde, **_engines(wardens, horde), **{f"initiative_{knights}": 20})
    client.post(reverse("battles:create", args=[wardens.campaign_id]), post)
    battle = Battle.objects.get()
    for _ in range(8):  # to the Knights' turn
        battle.refresh_from_db()
        if battle.snapshot["turn"]["actor"] == knights:
            break
        battle = _act(gm, battle, battle.snapshot["turn"]["actor"], "end_turn")
    page = client.get(battle.get_absolute_url(), {"sel": f"{knights}.1"}).content.decode()
    assert "Siege engine: Ballista, load, Knights #1" in page
    assert "Ballista, aim" not in page and "Ballista, fire" not in page
    params = {"engine": "e1", "stand": f"{knights}.1", "step": "load"}
    act = {"seq": battle.seq, "actor": knights, "kind": "siege", "params": json.dumps(params)}
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    assert client.post(url, act).status_code == 302
    battle.refresh_from_db()
    engine = battle.snapshot["engines"][0]
    assert (engine["loaded"], engine["aimed"]) == (1, 0)
    page = client.get(battle.get_absolute_url()).content.decode()
    assert "Ballista: loaded." in page and "loaded 1/1" in page and "aimed 0/1" in page
    assert services.battle_verify(battle)


def test_the_api_takes_engines_surprise_and_typed_initiative(as_role, wardens, horde):
    client = as_role("gm")
    url = reverse("api:battle-list", args=[wardens.campaign_id])
    hero = Solo.objects.get(name="Sir Aldric").pk
    body = {"name": "By the API", "army_a": wardens.pk, "army_b": horde.pk, "height": 8,
            "width": 10, "depth": 3, "auto_deploy": True, "surprised_a": True,
            "engines": [{"kind": "ballista", "side": "a", "pos": [0, 0],
                         "crew": Unit.objects.get(name="Knights").pk},
                        {"kind": "trebuchet", "side": "b", "pos": None, "crew": None}],
            "initiative_dice": {f"s{hero}": 3, _key("Orcs"): 11}}  # fmt: skip
    response = client.post(url, body, format="json")
    assert response.status_code == 201, response.content
    battle = Battle.objects.get(name="By the API")
    assert [(e["kind"], e["pos"]) for e in battle.setup["engines"]] == [
        ("ballista", [0, 0]),
        ("trebuchet", [7, 0]),
    ]  # Huge: 3 × 3 at the back (x 7-9)
    assert battle.setup["initiative_dice"] == {f"s{hero}": 3, _key("Orcs"): 11}
    assert all(u["surprised"] for u in battle.setup["sides"][0]["units"])
    battle.status = "applied"  # the armies are free for another battle
    battle.save()
    for bad, message in [
        ({"initiative_dice": {"u999999": 5}}, "no unit or solo u999999"),
        ({"engines": "ballista"}, "engines: a list of objects."),
        ({"engines": [{"kind": "ram", "side": "a", "pos": [0]}]}, "pos is [x, y] or null"),
        ({"engines": [{"kind": "ram", "side": "c"}]}, "engine_1_side"),
        ({"depth": 2}, "There is no room for the Trebuchet"),  # 3 × 3 in 2 columns
    ]:
        response = client.post(url, {**body, "name": "Bad", **bad}, format="json")
        assert response.status_code == 400 and message in str(response.json()), bad
    assert not Battle.objects.filter(name="Bad").exists()


def test_the_schema_documents_every_systems_create_body(client):
    """POST …/battles/ takes the campaign's rule system's body: the OpenAPI schema lists
    Pathfinder's, D&D 5e's (with engines and typed initiative), GURPS 4e's and GURPS 3e's."""
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    body = schema["paths"]["/api/v1/campaigns/{campaign_id}/battles/"]["post"]["requestBody"]
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    components = schema["components"]["schemas"]
    names = {r["$ref"].rsplit("/", 1)[1] for r in components[ref]["oneOf"]}
    assert names == {
        "BattleCreateInputRequest",
        "Dnd5eBattleCreateInputRequest",
        "Gurps4eBattleCreateInputRequest",
        "Gurps3eBattleCreateInputRequest",
    }
    dnd = components["Dnd5eBattleCreateInputRequest"]
    assert {"army_a", "army_b", "engines", "initiative_dice", "surprised_a",
            "seed_autohit"} <= set(dnd["properties"])  # fmt: skip
    assert set(dnd["required"]) == {"name", "army_a", "army_b"}  # the rest has defaults
    assert "forces" in components["Gurps4eBattleCreateInputRequest"]["properties"]
    assert "defender" in components["Gurps3eBattleCreateInputRequest"]["properties"]


def test_typed_initiative_and_siege_words_read_in_russian():
    """§5.2: a typed initiative die says so; §8/§9: the seed's names of the engines."""
    from django.utils import translation

    from warfare.systems.dnd5e.board import _option_label
    from warfare.systems.dnd5e.log import event_line

    typed = {"actor": "u1", "die": 17, "modifier": 0, "terms": [], "total": 17, "typed": True}
    rolled = {**typed, "typed": False}
    names = {"u1": "Knights", "u1.1": "Knights #1", "e1": "Ballista"}
    assert event_line("dnd5e.initiative", typed, names, bool) == (
        "Knights: initiative d20 17 (typed at the table) +0 = 17.")  # fmt: skip
    assert event_line("dnd5e.initiative", rolled, names, bool) == (
        "Knights: initiative d20 17 +0 = 17.")  # fmt: skip
    with translation.override("ru"):
        assert event_line("dnd5e.initiative", typed, names, bool) == (
            "Knights: инициатива к20 17 (брошено за столом) +0 = 17.")  # fmt: skip
        names["e1"] = str(ENGINE_LABELS["ballista"])
        label = _option_label("siege", {"engine": "e1", "stand": "u1.1", "step": "aim"}, names)
        assert label == "Осадное орудие: Баллиста, навести, Knights #1"


def test_set_up_page_query_count_does_not_grow(client, gm, wardens, horde,
                                               django_assert_max_num_queries):  # fmt: skip
    """The crew and initiative fields of every unit and solo come from one prefetch."""
    from warfare.systems.dnd5e.models import Army

    url = reverse("battles:create", args=[wardens.campaign_id])
    client.force_login(gm)

    def count():
        with django_assert_max_num_queries(20) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    few = count()
    more = Army.objects.create(campaign=wardens.campaign, faction=horde.faction, name="Second")
    for n in range(3):
        Unit.objects.create(army=more, name=f"Orcs {n}", creature=Unit.objects.get(
            name="Orcs").creature, stands=2)  # fmt: skip
        Solo.objects.create(army=more, name=f"Boss {n}", creature=Unit.objects.get(
            name="Ogres").creature)  # fmt: skip
    assert count() == few


def test_the_demo_has_a_dnd5e_battle_with_engines_once():
    """`make run`'s demo: a D&D 5e campaign with a battle ready on the board (§8 engines,
    §5.2 surprise); loading it again changes nothing."""
    from warfare.systems.dnd5e.demo import DEMO_CAMPAIGN, load_demo

    assert load_demo().created
    assert not load_demo().created
    battle = Battle.objects.get(campaign__name=DEMO_CAMPAIGN)
    assert [e["kind"] for e in battle.setup["engines"]] == ["ballista", "mangonel"]
    assert battle.snapshot["phase"] == "round"  # deployed automatically
    assert all(u["surprised"] for u in battle.setup["sides"][1]["units"])
    assert services.battle_verify(battle)
