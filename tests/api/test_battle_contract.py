"""The battle API says what it answers, in every rule system: each answer (create, state,
log, action, undo, apply, the 409 of a stale `seq`, the 400 of a refused command) is checked
against the OpenAPI schema by schemathesis (status code, content type, headers, body), for a
battle of each of the four systems, as its GM and as each side's player.

The schema documents a battle's state as one `oneOf` per rule system, told apart by `system`;
every system's answer has `id`, `system`, `seq` and `status` at the top level."""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.battle_worlds import SYSTEMS, system_campaign
from tests.openapi import CHECKS, load_schema, raw_schema, the_test_connection_kept

schema = load_schema()
BATTLES = "/api/v1/campaigns/{campaign_id}/battles/"
BATTLE = BATTLES + "{battle_id}/"
ENVELOPE = {"id", "name", "system", "status", "status_label", "seq", "players_may_act"}


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    with the_test_connection_kept():
        yield


class Caller:
    """One member's API calls on one campaign, each answer checked against the schema."""

    def __init__(self, user, campaign_id: int):
        self.headers = {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0]}"}
        self.campaign_id = campaign_id

    def __call__(self, method: str, path: str, status: int, body=None, **ids):
        case = schema[path][method].Case(
            path_parameters={"campaign_id": self.campaign_id, **ids},
            **({"body": body, "media_type": "application/json"} if body is not None else {}),
        )
        response = case.call(headers=self.headers)
        case.validate_response(response, checks=CHECKS, headers=self.headers)
        assert response.status_code == status, response.text[:2000]
        return response


@pytest.fixture(params=SYSTEMS)
def contract(request, gm, player, other_player):
    """(system, the create body, callers as the GM, side A's player and side B's)."""
    campaign, body = system_campaign(request.param, gm=gm, player=player, rival=other_player)
    callers = {name: Caller(user, campaign.pk) for name, user in
               (("gm", gm), ("player", player), ("rival", other_player))}  # fmt: skip
    return request.param, body, callers


def _created(contract):
    system, body, call = contract
    response = call["gm"]("POST", BATTLES, 201, body)
    return response, response.json()


def test_creating_a_battle_answers_201_with_its_id_seq_and_location(contract):
    """Issue 16: a D&D 5e battle created through the API answered without its `id` (and
    `seq`); every system answers alike, with a Location header a script can follow."""
    system, _body, call = contract
    response, state = _created(contract)
    assert set(state) >= ENVELOPE
    assert (state["system"], state["seq"], state["status"]) == (system, 0, "active")
    detail = reverse("api:battle-detail", args=[call["gm"].campaign_id, state["id"]])
    assert response.headers["location"] == [f"http://localhost{detail}"]
    again = call["gm"]("GET", BATTLE, 200, battle_id=state["id"]).json()
    assert (again["id"], again["system"], again["seq"]) == (state["id"], system, 0)


def test_every_battle_answer_matches_the_schema(contract):
    """State (GM and both sides), log, action, bad action, stale action, undo, stale undo,
    apply before the end, then played to the end: stale apply and apply."""
    system, _body, call = contract
    _response, state = _created(contract)
    ids = {"battle_id": state["id"]}
    for who in ("gm", "player", "rival"):
        seen = call[who]("GET", BATTLE, 200, **ids).json()
        assert set(seen) >= ENVELOPE and seen["system"] == system
        call[who]("GET", BATTLE + "log/", 200, **ids)
    actions, undo = BATTLE + "actions/", BATTLE + "undo/"
    move = FIRST_MOVE[system](state)
    after = call["gm"]("POST", actions, 200, {"seq": 0, **move}, **ids).json()
    assert (after["id"], after["system"], after["seq"]) == (state["id"], system, 1)
    call["gm"]("POST", actions, 400, {"seq": 1, "actor": None, "kind": "no_such_thing"}, **ids)
    stale = call["gm"]("POST", actions, 409, {"seq": 0, **move}, **ids).json()
    assert stale["errors"] and set(stale["battle"]) >= ENVELOPE
    assert (stale["battle"]["system"], stale["battle"]["seq"]) == (system, 1)
    assert call["gm"]("POST", undo, 409, {"seq": 0}, **ids).json()["battle"]["seq"] == 1
    undone = call["gm"]("POST", undo, 200, {"seq": 1}, **ids).json()
    assert (undone["system"], undone["status"]) == (system, "active")
    apply = BATTLE + "apply/"
    call["gm"]("POST", apply, 400, {"seq": undone["seq"]}, **ids)
    finished = FINISH[system](call["gm"], ids, undone)
    assert finished["status"] == "finished", finished
    call["player"]("GET", BATTLE, 200, **ids)
    call["rival"]("GET", BATTLE + "log/", 200, **ids)
    assert call["gm"]("POST", apply, 409, {"seq": 0}, **ids).json()["battle"]["system"] == system
    applied = call["gm"]("POST", apply, 200, {"seq": finished["seq"]}, **ids).json()
    assert (applied["id"], applied["system"], applied["status"]) == (state["id"], system, "applied")


def test_the_schema_tells_the_systems_battle_states_apart_by_system():
    components = raw_schema()["components"]["schemas"]
    state = components["BattleStateOutput"]
    assert state["discriminator"]["propertyName"] == "system"
    # Every registered system's state: the four, and the toy system the test settings add.
    assert set(state["discriminator"]["mapping"]) == {*SYSTEMS, "toy"}
    assert len(state["oneOf"]) == len(SYSTEMS) + 1
    for system, ref in state["discriminator"]["mapping"].items():
        sub = components[ref.rsplit("/", 1)[1]]
        assert {"id", "system", "seq", "status"} <= set(sub["required"]), system
    paths = raw_schema()["paths"]
    created = paths[BATTLES]["post"]["responses"]["201"]
    assert created["content"]["application/json"]["schema"]["$ref"].endswith("/BattleStateOutput")
    assert created["headers"]["Location"]["required"] is True
    for action in ("actions", "undo", "apply"):
        answers = paths[f"{BATTLE}{action}/"]["post"]["responses"]
        assert answers["200"]["content"]["application/json"]["schema"]["$ref"].endswith(
            "/BattleStateOutput"
        )
        stale = answers["409"]["content"]["application/json"]["schema"]["$ref"]
        battle = components[stale.rsplit("/", 1)[1]]["properties"]["battle"]
        assert battle["$ref"].endswith("/BattleStateOutput")


# --- Moves, and playing a battle to its end, per system (through the API, checked) ----------


def _listed(state) -> dict:
    """The first option of the first legal action the reader is offered (Pathfinder)."""
    action = state["actions"][0]
    return {"actor": action["actor"], "kind": action["key"],
            "params": action["options"][0]["params"]}  # fmt: skip


def _gurps4e_move(state) -> dict:
    """The first legal action of an actor that has not chosen this round yet (a choice can
    be changed until the round resolves)."""
    chosen = {side["key"] for side in state["sides"] if side["chosen"]}
    chosen |= set(state["state"].get("pc_choices") or ())
    action = next((a for a in state["actions"] if a["actor"] not in chosen), state["actions"][0])
    return {"actor": action["actor"], "kind": action["key"],
            "params": action["options"][0]["params"]}  # fmt: skip


def _gurps3e_move(state) -> dict:
    action = state["actions"][0]
    return {"actor": action["actor"], "kind": action["kind"], "params": action["options"][0]}


def _dnd5e_move(state) -> dict:
    board = state["state"]
    if board["phase"] == "casualties":
        return {"actor": board["pending"][0], "kind": "done", "params": {}}
    return {"actor": board["turn"]["actor"], "kind": "end_turn", "params": {}}


FIRST_MOVE = {"pf2e": _listed, "dnd5e": _dnd5e_move, "gurps4e": _gurps4e_move,
              "gurps3e": _gurps3e_move}  # fmt: skip


def _play(call, ids, state, move, limit: int = 120) -> dict:
    for _ in range(limit):
        if state["status"] != "active":
            return state
        body = {"seq": state["seq"], **move(state)}
        state = call("POST", BATTLE + "actions/", 200, body, **ids).json()
    return state


def _finish_pf2e(call, ids, state) -> dict:
    """Side B's army knocked to 0 HP by the GM, then turns ended until side A wins."""
    enemy = state["sides"][1]["armies"][0]["key"]
    body = {"seq": state["seq"], "actor": None, "kind": "gm_correction",
            "params": {"army": enemy, "hp": 0}}  # fmt: skip
    state = call("POST", BATTLE + "actions/", 200, body, **ids).json()

    def end_turn(state):
        return {"actor": state["current"]["key"], "kind": "end_turn", "params": {}}

    return _play(call, ids, state, end_turn)


def _finish_dnd5e(call, ids, state) -> dict:
    """Side A's custom objective (10 VP) awarded by the GM, then turns ended (dnd5e §7)."""
    body = {"seq": state["seq"], "actor": None, "kind": "award",
            "params": {"objective": "custom_a"}}  # fmt: skip
    state = call("POST", BATTLE + "actions/", 200, body, **ids).json()
    return _play(call, ids, state, _dnd5e_move)


FINISH = {
    "pf2e": _finish_pf2e,
    "dnd5e": _finish_dnd5e,
    "gurps4e": lambda call, ids, state: _play(call, ids, state, _gurps4e_move),
    "gurps3e": lambda call, ids, state: _play(call, ids, state, _gurps3e_move),
}
