"""The battles' JSON API: who may do what, stale seqs, bad input, hidden numbers."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from battles import services
from battles.models import Battle, BattleCommand, BattleEvent
from kingdoms.models import Campaign, Role, RuleSystem
from tests.api.statuses import GM, GM_CREATES, MEMBERS, OWN_SIDE
from tests.conftest import ROLES
from tests.factories import CampaignFactory, MembershipFactory
from warfare.systems.pf2e import services as army_services

HIDDEN_KEYS = {"hp", "max_hp", "rout_threshold", "shots", "potions"}


def url(name: str, *args) -> str:
    return reverse(f"api:{name}", args=args)


def battle_row(battle: Battle) -> tuple:
    battle = Battle.objects.get(pk=battle.pk)
    commands = BattleCommand.objects.filter(battle=battle)
    undone = commands.filter(undone_at__isnull=False).count()
    events = BattleEvent.objects.count()
    return (battle.seq, battle.status, battle.snapshot, commands.count(), undone, events)


def armies_by_name(state: dict) -> dict[str, dict]:
    return {army["name"]: army for side in state["sides"] for army in side["armies"]}


# --- Permission matrix --------------------------------------------------------------------

#: name -> (method, url(f), body(f) or None, battle fixture or None, statuses in ROLES order);
#: `f` fetches a fixture by name.
MATRIX = {
    "list": (
        "get", lambda f: url("battle-list", f("world").pk), None, "battle",
        MEMBERS),
    "create": (
        "post", lambda f: url("battle-list", f("world").pk),
        lambda f: {"name": "Second Ford",
                   "sides": {"a": [f("militia").pk], "b": [f("raiders").pk]}},
        None, GM_CREATES),
    "detail": (
        "get", lambda f: url("battle-detail", f("world").pk, f("battle").pk), None, "battle",
        MEMBERS),
    "log": (
        "get", lambda f: url("battle-log", f("world").pk, f("battle").pk), None, "battle",
        MEMBERS),
    "action": (
        "post", lambda f: url("battle-actions", f("world").pk, f("militia_to_act").pk),
        lambda f: {"seq": f("militia_to_act").seq, "actor": str(f("militia").pk),
                   "kind": "end_turn"},
        "militia_to_act", OWN_SIDE),
    "undo": (
        "post", lambda f: url("battle-undo", f("world").pk, f("militia_to_act").pk),
        lambda f: {"seq": f("militia_to_act").seq}, "militia_to_act",
        GM),
    "apply": (
        "post", lambda f: url("battle-apply", f("world").pk, f("finished_battle").pk),
        lambda f: {"seq": f("finished_battle").seq}, "finished_battle",
        GM),
    # The report is an HTML page: anonymous visitors are sent to the log-in page.
    "report": (
        "get", lambda f: reverse("battles:report", args=[f("world").pk, f("battle").pk]), None,
        "battle", (302, 404, 404, 200, 200, 200)),
    "report-md": (
        "get", lambda f: reverse("battles:report", args=[f("world").pk, f("battle").pk])
        + "?format=md", None, "battle", (302, 404, 404, 200, 200, 200)),
}  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", list(MATRIX))
def test_permission_matrix(endpoint, role, request, as_role, world):
    """Non-members (and GMs of other campaigns) get 404, members without the role 403,
    anonymous API requests 403; refused writes change nothing."""
    method, make_url, make_body, battle_fixture, statuses = MATRIX[endpoint]
    fixture = request.getfixturevalue
    target = make_url(fixture)
    body = make_body(fixture) if make_body else None
    battle = fixture(battle_fixture) if battle_fixture else None
    before = battle_row(battle) if battle else Battle.objects.count()
    client = as_role(role)
    post = method == "post"
    response = client.post(target, body, format="json") if post else client.get(target)
    expected = statuses[ROLES.index(role)]
    assert response.status_code == expected, response.content
    if method == "post" and expected >= 400:
        assert (battle_row(battle) if battle else Battle.objects.count()) == before
    if endpoint == "create" and expected == 201:
        assert Battle.objects.count() == before + 1


def test_unknown_ids_are_404(as_role, world, battle):
    gm = as_role("gm")
    assert gm.get(url("battle-list", 999_999)).status_code == 404
    assert gm.get(url("battle-detail", world.pk, 999_999)).status_code == 404
    assert gm.get(url("battle-log", world.pk, 999_999)).status_code == 404
    assert (
        gm.post(url("battle-undo", world.pk, 999_999), {"seq": 0}, format="json").status_code == 404
    )
    # This campaign's battle asked for under another campaign of the same GM.
    other = CampaignFactory(name="Elsewhere", created_by=world.created_by)
    MembershipFactory(campaign=other, user=world.created_by, role=Role.GM)
    assert gm.get(url("battle-detail", other.pk, battle.pk)).status_code == 404
    assert gm.get(reverse("battles:report", args=[world.pk, 999_999])).status_code == 404


# --- Reading ------------------------------------------------------------------------------


def test_list(as_role, world, battle):
    data = as_role("player").get(url("battle-list", world.pk)).json()
    assert [(b["id"], b["name"], b["status"], b["seq"]) for b in data["results"]] == [
        (battle.pk, "Battle of the Ford", "active", 0)
    ]
    assert (
        as_role("gm").get(url("battle-list", world.pk), {"status": "finished"}).json()["count"] == 0
    )
    assert as_role("gm").get(url("battle-list", world.pk), {"status": "nope"}).status_code == 400


def test_hidden_numbers_are_absent_from_the_players_json(as_role, world, battle, militia,
                                                         raiders):  # fmt: skip
    player = armies_by_name(as_role("player").get(url("battle-detail", world.pk, battle.pk)).json())
    assert player["Silverrun Militia"]["full"] is True
    assert set(player["Silverrun Militia"]) >= HIDDEN_KEYS
    assert player["Raiders"]["full"] is False
    assert not HIDDEN_KEYS & set(player["Raiders"])
    assert player["Raiders"]["position"] == "near"  # …but its public face is there
    rival = armies_by_name(
        as_role("other_player").get(url("battle-detail", world.pk, battle.pk)).json()
    )
    assert set(rival["Raiders"]) >= HIDDEN_KEYS
    assert not HIDDEN_KEYS & set(rival["Silverrun Militia"])
    gm = armies_by_name(as_role("gm").get(url("battle-detail", world.pk, battle.pk)).json())
    assert gm["Raiders"]["hp"] == 4
    assert gm["Silverrun Militia"]["hp"] == 5


def test_legal_actions_only_for_who_may_act(as_role, world, militia_to_act, militia):
    def state(role):
        return as_role(role).get(url("battle-detail", world.pk, militia_to_act.pk)).json()

    player = state("player")
    assert player["current"] == {"key": str(militia.pk), "name": "Silverrun Militia"}
    assert player["may_act"] is True
    keys = [action["key"] for action in player["actions"]]
    assert "end_turn" in keys and "advance" in keys
    advance = next(action for action in player["actions"] if action["key"] == "advance")
    check = advance["options"][0]["checks"][0]
    assert {"stat", "modifier", "dc", "modifier_breakdown", "dc_breakdown"} <= set(check)
    # The same actions as the GM's, but the enemy's DC is the GM's to know (issue 11).
    gm_advance = next(a for a in state("gm")["actions"] if a["key"] == "advance")
    gm_check = gm_advance["options"][0]["checks"][0]
    assert (check["dc"], check["dc_breakdown"]) == (None, [])
    assert gm_check["dc"] == 16
    assert {**gm_check, "dc": None, "dc_breakdown": []} == check
    assert [a["key"] for a in state("gm")["actions"]] == keys
    rival = state("other_player")
    assert (rival["may_act"], rival["actions"]) == (False, [])


def test_the_log_hides_enemy_hp_but_not_the_dice(as_role, world, struck, raiders):
    militia_to_act = struck

    def damaged(role):
        events = as_role(role).get(url("battle-log", world.pk, militia_to_act.pk)).json()
        strike = next(e for e in events["results"] if e["code"] == "battle.battle")
        return strike, next(e for e in events["results"] if e["code"] == "battle.damaged")

    strike, player = damaged("player")
    assert player["params"] == {
        "army": str(raiders.pk),
        "by": 2,
        "reason": player["params"]["reason"],
    }
    assert player["text"] == "Raiders takes 2 damage."
    assert strike["params"]["check"]["die"] == 20  # the dice are public at the table
    _strike, gm = damaged("gm")
    assert gm["params"]["now"] == 2
    assert gm["text"] == "Raiders takes 2 damage (HP 2)."
    _strike, rival = damaged("other_player")  # the raiders' own side
    assert rival["params"]["now"] == 2


def test_the_log_hides_the_gms_corrections_of_enemy_armies(as_role, world, gm, battle, raiders):
    services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=0,
        command={"actor": None, "kind": "gm_correction",
                 "params": {"army": str(raiders.pk), "hp": 3}},
    )  # fmt: skip

    def correction(role):
        events = as_role(role).get(url("battle-log", world.pk, battle.pk)).json()["results"]
        return next(e for e in events if e["code"] == "battle.gm_correction")

    assert set(correction("player")["params"]) == {"army"}
    assert correction("player")["text"] == "The GM corrects Raiders."
    assert correction("gm")["params"]["after"]["hp"] == 3


def test_the_log_pages_and_polls(as_role, world, battle):
    client = as_role("player")
    events = client.get(url("battle-log", world.pk, battle.pk)).json()["results"]
    assert events[0]["code"] == "battle.started"
    assert [e["id"] for e in events] == sorted(e["id"] for e in events)
    newer = client.get(url("battle-log", world.pk, battle.pk), {"after": events[1]["id"]}).json()
    assert [e["id"] for e in newer["results"]] == [e["id"] for e in events[2:]]
    assert client.get(url("battle-log", world.pk, battle.pk), {"after": "x"}).status_code == 400


# --- Acting -------------------------------------------------------------------------------


def test_end_turn_then_a_stale_seq_gets_409_and_changes_nothing(as_role, world, battle):
    client = as_role("gm")
    state = client.get(url("battle-detail", world.pk, battle.pk)).json()
    end_turn = next(a for a in state["actions"] if a["key"] == "end_turn")
    body = {"seq": state["seq"], "actor": end_turn["actor"], "kind": "end_turn",
            "params": end_turn["options"][0]["params"]}  # fmt: skip
    response = client.post(url("battle-actions", world.pk, battle.pk), body, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["seq"] == 1
    assert response.json()["current"]["key"] != end_turn["actor"]
    before = battle_row(battle)

    stale = client.post(url("battle-actions", world.pk, battle.pk), body, format="json")
    assert stale.status_code == 409
    assert stale.json()["errors"]
    assert stale.json()["battle"]["seq"] == 1  # the board as it is now
    assert battle_row(battle) == before
    assert services.battle_verify(Battle.objects.get(pk=battle.pk))


def test_a_stale_board_for_a_player_keeps_enemy_numbers_hidden(as_role, world, militia_to_act,
                                                               militia):  # fmt: skip
    body = {"seq": militia_to_act.seq - 1, "actor": str(militia.pk), "kind": "end_turn"}
    response = as_role("player").post(
        url("battle-actions", world.pk, militia_to_act.pk), body, format="json"
    )
    assert response.status_code == 409
    raiders = armies_by_name(response.json()["battle"])["Raiders"]
    assert not HIDDEN_KEYS & set(raiders)


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"actor": "1", "kind": "end_turn"},  # no seq
        {"seq": -1, "actor": "1", "kind": "end_turn"},
        {"seq": "x", "actor": "1", "kind": "end_turn"},
        {"seq": 0, "actor": "1"},  # no kind
        {"seq": 0, "actor": "1", "kind": "end_turn", "params": [1]},
        {"seq": 0, "actor": "1", "kind": "end_turn", "typed_dice": 20},
        {"seq": 0, "actor": "1", "kind": "end_turn", "typed_dice": [0]},
        {"seq": 0, "actor": "ACTOR", "kind": "fly_away"},  # no such action
        {"seq": 0, "actor": "ACTOR", "kind": "advance", "params": {"target": "nobody"}},
        # A typed-in d20 of 25: the engine refuses it.
        {
            "seq": 0,
            "actor": "ACTOR",
            "kind": "advance",
            "params": {"target": "ENEMY"},
            "typed_dice": [25],
        },
    ],
)
def test_bad_action_input_is_400_and_changes_nothing(as_role, world, battle, body):
    actor, enemy = battle.snapshot["order"]
    if body.get("actor") == "ACTOR":
        body = {**body, "actor": actor}
    if body.get("params") == {"target": "ENEMY"}:
        body = {**body, "params": {"target": enemy}}
    before = battle_row(battle)
    response = as_role("gm").post(url("battle-actions", world.pk, battle.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert battle_row(battle) == before


def test_a_body_that_is_not_an_object_is_400(as_role, world, battle):
    response = as_role("gm").post(url("battle-actions", world.pk, battle.pk), [1], format="json")
    assert response.status_code == 400
    assert response.json()["errors"]


def test_a_player_acting_for_an_enemy_army_gets_403(as_role, world, militia_to_act, raiders,
                                                    militia):  # fmt: skip
    before = battle_row(militia_to_act)
    actions = url("battle-actions", world.pk, militia_to_act.pk)
    seq = militia_to_act.seq
    for role, actor in (("player", raiders), ("other_player", militia)):
        body = {"seq": seq, "actor": str(actor.pk), "kind": "end_turn"}
        assert as_role(role).post(actions, body, format="json").status_code == 403
    # Nor may a player correct the board.
    body = {"seq": seq, "actor": None, "kind": "gm_correction",
            "params": {"army": str(raiders.pk), "hp": 0}}  # fmt: skip
    assert as_role("player").post(actions, body, format="json").status_code == 403
    assert battle_row(militia_to_act) == before


def test_players_watch_when_the_battle_says_so(as_role, world, militia_to_act, militia):
    Battle.objects.filter(pk=militia_to_act.pk).update(players_may_act=False)
    client = as_role("player")
    state = client.get(url("battle-detail", world.pk, militia_to_act.pk)).json()
    assert (state["may_act"], state["actions"]) == (False, [])
    body = {"seq": militia_to_act.seq, "actor": str(militia.pk), "kind": "end_turn"}
    response = client.post(url("battle-actions", world.pk, militia_to_act.pk), body, format="json")
    assert response.status_code == 403


# --- The GM's writes ----------------------------------------------------------------------


def test_create(as_role, world, militia, raiders):
    body = {"name": "Second Ford", "sides": {"a": [militia.pk], "b": [raiders.pk]},
            "pcs_side": "a", "terrain": ["heavy_fog"], "players_may_act": False}  # fmt: skip
    response = as_role("gm").post(url("battle-list", world.pk), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    battle = Battle.objects.get(pk=data["id"])
    assert (data["name"], data["seq"], data["status"]) == ("Second Ford", 0, "active")
    assert data["terrain"] == ["heavy_fog"] and battle.players_may_act is False
    assert [side["pcs_side"] for side in data["sides"]] == [True, False]
    assert len(data["order"]) == 2


@pytest.fixture
def scouts(world, gm, enemy_faction):
    """Level 8 skirmishers with Ambush (§6.1: level 8, skirmishers)."""
    return army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Scouts",
        army_type="skirmisher", tactics=("ambush",), hex="C7", level_override=8,
    )  # fmt: skip


def _initiative(log: list[dict]) -> dict[str, tuple[int, str]]:
    return {
        e["params"]["army"]: (e["params"]["die"], e["params"]["source"])
        for e in log
        if e["code"] == "battle.initiative"
    }


def test_create_takes_every_setup_option_of_the_form(as_role, world, militia, raiders, scouts,
                                                     capsys):  # fmt: skip
    """§7.5 a tower (AC 20, HP 2, 1 army) for side B with the raiders inside, fortified;
    §7.3 initiative dice typed in (the scouts 20, the militia 3; the raiders' die is the
    server's) and the scouts' Ambush start, engaged with the militia (they act first)."""
    militia_key, raiders_key, scouts_key = (str(a.pk) for a in (militia, raiders, scouts))
    body = {
        "name": "Ambush at the Ford",
        "sides": {"a": [militia.pk], "b": [raiders.pk, scouts.pk]},
        "pcs_side": "a", "terrain": ["dim_light"], "players_may_act": False,
        "fortifications": {"a": None, "b": "tower"},
        "inside": [raiders.pk],
        "starts": {scouts_key: {"start": "engaged", "target": militia.pk}},
        "initiative_dice": {scouts_key: 20, militia_key: 3},
    }  # fmt: skip
    client = as_role("gm")
    response = client.post(url("battle-list", world.pk), body, format="json")
    assert response.status_code == 201, response.content
    data = response.json()
    battle = Battle.objects.get(pk=data["id"])
    assert battle.players_may_act is False and data["terrain"] == ["dim_light"]
    assert battle.setup["fortifications"] == [{"key": "fort_b", "kind": "tower", "side": "b"}]
    assert battle.setup["initiative_dice"] == {scouts_key: 20, militia_key: 3}
    armies = {a["key"]: a for side in data["sides"] for a in side["armies"]}
    assert armies[raiders_key]["fortification"] == "fort_b"
    assert armies[raiders_key]["conditions"].get("fortified") == 1
    assert data["order"][0]["key"] == scouts_key
    assert armies[scouts_key]["engaged_with"] == [militia_key]
    log = client.get(url("battle-log", world.pk, battle.pk)).json()["results"]
    rolled = _initiative(log)
    assert rolled[scouts_key] == (20, "typed") and rolled[militia_key] == (3, "typed")
    assert rolled[raiders_key][1] == "seeded"
    assert "battle.engaged" in {e["code"] for e in log}
    # Replaying the setup, seed and commands gives the board exactly.
    assert services.battle_verify(battle)
    call_command("verify_battles")
    assert "All 1 battles replay to their snapshot." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"initiative_dice": {"MILITIA": 21}}, "less than or equal to 20"),
        ({"initiative_dice": {"MILITIA": 0}}, "greater than or equal to 1"),
        ({"initiative_dice": {"MILITIA": "x"}}, "valid integer"),
        ({"initiative_dice": {"militia": 5}}, "militia is not an army id."),
        ({"initiative_dice": {"٣": 5}}, "٣ is not an army id."),  # a digit, not ASCII
        ({"initiative_dice": {str(2**63): 5}}, f"{2**63} is not an army id."),
        ({"inside": [2**63]}, "less than or equal to"),
        ({"starts": {"SCOUTS": None}}, "may not be null"),
        ({"starts": {"SCOUTS": {"start": "engaged", "target": 2**63}}}, "less than or equal to"),
        ({"initiative_dice": {"SCOUTS": 5}}, "an army that does not fight"),
        ({"fortifications": {"c": "tower"}}, "The sides are a and b."),
        ({"fortifications": {"a": "palace"}}, "not a valid choice"),
        ({"inside": ["RAIDERS"]}, "Only armies of a side with a fortification"),
        ({"fortifications": {"a": "tower"}, "inside": ["MILITIA", "ARCHERS"]},
         "A tower holds at most 1 armies; 2 are put inside."),
        ({"starts": {"SCOUTS": {"start": "engaged"}}}, "An army starts distant, or engaged"),
        ({"starts": {"SCOUTS": {"start": "distant", "target": "MILITIA"}}},
         "An army starts distant, or engaged"),
        ({"starts": {"SCOUTS": {"start": "flying"}}}, "not a valid choice"),
        ({"starts": {"SCOUTS": "distant"}}, "Expected a dictionary"),
        ({"starts": {"RAIDERS": {"start": "distant"}}}, "Raiders knows no tactic"),
        ({"starts": {"MILITIA": {"start": "engaged", "target": "ARCHERS"}}},
         "only with an enemy army"),
        ({"starts": {"MILITIA": {"start": "engaged", "target": "RAIDERS"}}},
         "Silverrun Militia knows no tactic"),
        ({"starts": {"SCOUTS": {"start": "engaged", "target": "MILITIA"}}},
         "A starting position was chosen for an army that does not fight."),
        ({"players_may_act": "perhaps"}, "valid boolean"),
        ({"auto_reactions": {"c": True}}, "Sides are a and b."),
        ({"auto_reactions": {"a": "often"}}, "valid boolean"),
    ],
)  # fmt: skip
def test_create_refuses_bad_setup_options(as_role, world, gm, kingdom, militia, raiders, scouts,
                                          change, message):  # fmt: skip
    """Each bad option: 400 with the reason, and no battle (nor any change to an army)."""
    archers = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=kingdom.faction_id, name="Archers",
        army_type="infantry", tactics=("toughened_soldiers",), hex="C7",
    )  # fmt: skip
    ids = {"MILITIA": militia.pk, "RAIDERS": raiders.pk, "SCOUTS": scouts.pk,
           "ARCHERS": archers.pk}  # fmt: skip

    def swap(value):
        if isinstance(value, dict):
            return {str(ids.get(k, k)): swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return ids.get(value, value) if isinstance(value, str) else value

    body = {"name": "Bad", "sides": {"a": [militia.pk, archers.pk], "b": [raiders.pk]},
            **swap(change)}  # fmt: skip
    response = as_role("gm").post(url("battle-list", world.pk), body, format="json")
    assert response.status_code == 400, response.content
    assert any(message in error for error in response.json()["errors"]), response.json()
    assert not Battle.objects.exists()


def test_a_player_cannot_create_a_battle_with_typed_initiative(as_role, world, militia, raiders):
    body = {"name": "Mine", "sides": {"a": [militia.pk], "b": [raiders.pk]},
            "initiative_dice": {str(militia.pk): 20}}  # fmt: skip
    for role, status in (("player", 403), ("outsider", 404)):
        response = as_role(role).post(url("battle-list", world.pk), body, format="json")
        assert response.status_code == status
    assert not Battle.objects.exists()


def test_an_action_posted_with_typed_dice_logs_them_as_typed(as_role, world, struck, militia):
    """The `struck` fixture posts the advance and the strike with a typed-in 20 each."""
    log = as_role("gm").get(url("battle-log", world.pk, struck.pk)).json()["results"]
    checks = [e["params"]["check"] for e in log if e["code"] in ("battle.advance", "battle.battle")]
    assert [(c["die"], c["source"]) for c in checks] == [(20, "typed"), (20, "typed")]
    assert services.battle_verify(struck)


def test_the_schema_names_every_setup_and_apply_option(client):
    schema = client.get(reverse("api:schema"), {"format": "json"}).json()
    components = schema["components"]["schemas"]
    assert {"name", "sides", "pcs_side", "terrain", "players_may_act", "fortifications",
            "inside", "starts", "initiative_dice"} <= set(
        components["BattleCreateInputRequest"]["properties"]
    )  # fmt: skip
    assert {"seq", "pc_encounter", "typed_dice", "choices", "regain"} <= set(
        components["BattleApplyInputRequest"]["properties"]
    )
    assert {"seq", "actor", "kind", "params", "typed_dice"} <= set(
        components["BattleActionInputRequest"]["properties"]
    )


@pytest.mark.parametrize(
    "sides",
    [
        {"a": ["MILITIA"], "b": []},  # nobody on side B (the service's rule)
        {"a": ["MILITIA"], "b": ["MILITIA"]},  # one army on both sides
        {"a": ["MILITIA"], "b": [999_999]},  # no such army
        {"a": ["MILITIA"]},
        ["MILITIA"],
    ],
)
def test_create_refuses_bad_sides(as_role, world, militia, raiders, sides):
    def ids(values):
        return [militia.pk if value == "MILITIA" else value for value in values]

    sides = (
        {key: ids(value) for key, value in sides.items()} if isinstance(sides, dict) else ids(sides)
    )
    response = as_role("gm").post(
        url("battle-list", world.pk), {"name": "Bad", "sides": sides}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response.json()["errors"]
    assert not Battle.objects.exists()


def test_create_refuses_unknown_terrain_and_missing_name(as_role, world, militia, raiders):
    sides = {"a": [militia.pk], "b": [raiders.pk]}
    client = as_role("gm")
    for body in ({"sides": sides}, {"name": "X", "sides": sides, "terrain": ["lava"]},
                 {"name": "X", "sides": sides, "pcs_side": "c"}):  # fmt: skip
        assert client.post(url("battle-list", world.pk), body, format="json").status_code == 400
    assert not Battle.objects.exists()


def test_each_rule_system_takes_its_own_set_up(as_role, world, militia, raiders):
    """A Pathfinder body names no GURPS forces nor D&D armies: a 400, nothing created."""
    body = {"name": "X", "sides": {"a": [militia.pk], "b": [raiders.pk]}}
    for system in (RuleSystem.GURPS3E, RuleSystem.DND5E):
        Campaign.objects.filter(pk=world.pk).update(rule_system=system)
        response = as_role("gm").post(url("battle-list", world.pk), body, format="json")
        assert response.status_code == 400, (system, response.content)
    assert not Battle.objects.exists()


def test_undo(as_role, world, battle):
    client = as_role("gm")
    before = Battle.objects.get(pk=battle.pk).snapshot
    actor = battle.snapshot["order"][0]
    body = {"seq": 0, "actor": actor, "kind": "end_turn"}
    assert (
        client.post(url("battle-actions", world.pk, battle.pk), body, format="json").status_code
        == 200
    )
    undo = url("battle-undo", world.pk, battle.pk)
    assert client.post(undo, {"seq": 0}, format="json").status_code == 409
    response = client.post(undo, {"seq": 1}, format="json")
    assert response.status_code == 200
    assert response.json()["seq"] == 0
    assert Battle.objects.get(pk=battle.pk).snapshot == before
    # Nothing left to undo; a missing seq is bad input.
    assert client.post(undo, {"seq": 0}, format="json").status_code == 400
    assert client.post(undo, {}, format="json").status_code == 400


def test_apply(as_role, world, finished_battle, kingdom):
    client = as_role("gm")
    apply = url("battle-apply", world.pk, finished_battle.pk)
    assert client.post(apply, {"seq": finished_battle.seq + 1}, format="json").status_code == 409
    response = client.post(apply, {"seq": finished_battle.seq}, format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "applied"
    assert response.json()["outcome"]["winner"] == "a"
    kingdom.refresh_from_db()
    assert kingdom.xp == 40
    # Twice changes nothing.
    assert client.post(apply, {"seq": finished_battle.seq}, format="json").status_code == 400
    kingdom.refresh_from_db()
    assert kingdom.xp == 40


def test_apply_refuses_a_running_battle(as_role, world, battle):
    response = as_role("gm").post(
        url("battle-apply", world.pk, battle.pk), {"seq": 0}, format="json"
    )
    assert response.status_code == 400
    assert Battle.objects.get(pk=battle.pk).status == "active"


def test_players_see_the_outcome_without_the_armies_numbers(as_role, world, finished_battle):
    player = as_role("player").get(url("battle-detail", world.pk, finished_battle.pk)).json()
    assert player["outcome"]["winner"] == "a"
    assert "armies" not in player["outcome"]["details"]
    assert set(player["outcome"]["details"]["kingdom_checks"]) == {"a"}
    gm = as_role("gm").get(url("battle-detail", world.pk, finished_battle.pk)).json()
    assert "armies" in gm["outcome"]["details"]


def test_create_takes_each_sides_reaction_mode(as_role, world, militia, raiders):
    """§0.5: a side's reactions are used automatically (true) or offered (false); null keeps
    the default (the players' side is asked when players act, the GM's side automatic)."""
    body = {"name": "Ford", "sides": {"a": [militia.pk], "b": [raiders.pk]},
            "auto_reactions": {"a": True, "b": False}}  # fmt: skip
    response = as_role("gm").post(url("battle-list", world.pk), body, format="json")
    assert response.status_code == 201, response.content
    sides = {side["key"]: side["auto_reactions"] for side in Battle.objects.get().setup["sides"]}
    assert sides == {"a": True, "b": False}
    Battle.objects.update(status="applied")  # the armies are free for another battle
    body = {**body, "name": "Ford again", "auto_reactions": {"a": None}}
    response = as_role("gm").post(url("battle-list", world.pk), body, format="json")
    sides = {
        s["key"]: s["auto_reactions"] for s in Battle.objects.get(name="Ford again").setup["sides"]
    }
    assert sides == {"a": False, "b": True}
