"""The API of auto-play and the forecast (issue 14, battles.api_autoplay), in every rule system:
each answer checked against the OpenAPI schema (schemathesis, as the battle contract test);
who may do what; the forecast's determinism, and its sanity on Pathfinder set-ups (four
armies against one of the same level win at least 95 %; a mirrored set-up 40-60 %)."""

import pytest
from rest_framework.test import APIClient

from battles import services
from battles.models import Battle, BattleCommand, BattleStatus
from kingdoms.models import Membership, Role
from tests.battle_worlds import SYSTEMS, system_campaign
from tests.factories import UserFactory
from tests.openapi import raw_schema, the_test_connection_kept

from .test_battle_contract import BATTLE, BATTLES, CHECKS, schema
from .test_battle_contract import Caller as _Caller

AUTOPLAY = BATTLE + "autoplay/"
UNDO_AUTOPLAY = AUTOPLAY + "undo/"
FORECAST = BATTLE + "forecast/"
SETUP_FORECAST = BATTLES + "forecast/"


class Caller(_Caller):
    """The contract test's caller, with a query string (`query`)."""

    def __call__(self, method: str, path: str, status: int, body=None, query=None, **ids):
        case = schema[path][method].Case(
            path_parameters={"campaign_id": self.campaign_id, **ids},
            **({"body": body, "media_type": "application/json"} if body is not None else {}),
            **({"query": query} if query else {}),
        )
        response = case.call(headers=self.headers)
        case.validate_response(response, checks=CHECKS, headers=self.headers)
        assert response.status_code == status, response.text[:2000]
        return response


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    with the_test_connection_kept():
        yield


@pytest.fixture(params=SYSTEMS)
def system_world(request, gm, player, other_player):
    """(campaign, create body, callers as the GM and each side's player) of a system."""
    campaign, body = system_campaign(request.param, gm=gm, player=player, rival=other_player)
    callers = {}
    for name, user in (("gm", gm), ("player", player), ("rival", other_player)):
        callers[name] = Caller(user, campaign.pk)
        callers[name].user = user
    return campaign, body, callers


def test_the_schema_documents_autoplay_and_the_forecast():
    paths = raw_schema()["paths"]
    for path in (AUTOPLAY, UNDO_AUTOPLAY, SETUP_FORECAST):
        assert "post" in paths[path], path
    assert "get" in paths[FORECAST]
    body = raw_schema()["components"]["schemas"]["AutoplayInputRequest"]["properties"]
    assert set(body) >= {"seq", "until", "sides"}
    for name in ("BattleCreateInput", "Dnd5eBattleCreateInput", "Gurps4eBattleCreateInput",
                 "Gurps3eBattleCreateInput"):  # fmt: skip
        assert "auto_sides" in raw_schema()["components"]["schemas"][name + "Request"]["properties"]


def test_resolve_the_battle_then_undo_the_autoplay(system_world):
    """The GM resolves the battle: every command applied and logged, the battle over; a
    stale seq is a 409 with the board; "undo the auto-play" takes it all back."""
    _campaign, body, call = system_world
    state = call["gm"]("POST", BATTLES, 201, body).json()
    ids = {"battle_id": state["id"]}
    stale = call["gm"]("POST", AUTOPLAY, 409, {"seq": 3, "until": "turn"}, **ids).json()
    assert stale["battle"]["seq"] == 0
    call["gm"]("POST", AUTOPLAY, 400, {"seq": 0, "until": "forever"}, **ids)
    answer = call["gm"]("POST", AUTOPLAY, 200, {"seq": 0, "until": "battle"}, **ids).json()
    assert answer["played"] == answer["battle"]["seq"] > 0
    assert answer["battle"]["status"] == "finished" and not answer["capped"]
    rows = BattleCommand.objects.filter(battle_id=state["id"])
    assert {str(row.batch) for row in rows} == {answer["batch"]}
    call["player"]("POST", UNDO_AUTOPLAY, 403, {"seq": answer["played"]}, **ids)
    undone = call["gm"]("POST", UNDO_AUTOPLAY, 200, {"seq": answer["played"]}, **ids).json()
    assert (undone["seq"], undone["status"]) == (0, "active")
    assert services.battle_verify(Battle.objects.get(pk=state["id"]))


def test_players_auto_play_only_their_own_actors(system_world):
    """Side A's player and side B's: whoever the board waits for may auto-play their own
    turn; the other is refused (403) unless the board waits for them too."""
    campaign, body, call = system_world
    state = call["gm"]("POST", BATTLES, 201, body).json()
    ids = {"battle_id": state["id"]}
    battle = Battle.objects.get(pk=state["id"])
    from battles.autoplay import battle_sides  # noqa: PLC0415 - the helper under test's module
    from warfare.engine.battle.registry import get_battle_system  # noqa: PLC0415

    system = get_battle_system(battle.system)
    waiting = system.awaiting(system.state_from_dict(battle.snapshot))
    assert battle_sides(battle) == ("a", "b")
    commanding = {
        name: any(
            services.may_command(
                Membership.objects.get(campaign=campaign, user=user), battle, w.actor
            )  # fmt: skip
            for w in waiting
        )
        for name, user in (("player", call["player"].user), ("rival", call["rival"].user))
    }
    for name, may in commanding.items():
        if not may:
            call[name]("POST", AUTOPLAY, 403, {"seq": 0, "until": "turn"}, **ids)
    name = next((name for name, may in commanding.items() if may), None)
    if name is None:
        return  # the GM's step first (e.g. D&D 5e's deployment): nobody else plays it
    answer = call[name]("POST", AUTOPLAY, 200, {"seq": 0, "until": "turn"}, **ids).json()
    assert answer["played"] > 0
    membership = Membership.objects.get(campaign=campaign, user=call[name].user)
    for row in BattleCommand.objects.filter(battle=battle):
        assert services.may_command(membership, battle, row.command["actor"])


def test_a_non_member_gets_404_and_a_bystander_403(system_world):
    campaign, body, call = system_world
    state = call["gm"]("POST", BATTLES, 201, body).json()
    ids = {"battle_id": state["id"]}
    outsider = Caller(UserFactory(username="outsider"), campaign.pk)
    outsider("POST", AUTOPLAY, 404, {"seq": 0, "until": "turn"}, **ids)
    outsider("GET", FORECAST, 404, **ids)
    outsider("POST", SETUP_FORECAST, 404, body)
    watcher = UserFactory(username="watcher")
    Membership.objects.create(campaign=campaign, user=watcher, role=Role.PLAYER)
    Caller(watcher, campaign.pk)("POST", AUTOPLAY, 403, {"seq": 0, "until": "battle"}, **ids)
    assert not BattleCommand.objects.exists()


def test_the_forecast_of_a_board_is_deterministic_and_the_gms_until_shared(system_world):
    campaign, body, call = system_world
    state = call["gm"]("POST", BATTLES, 201, body).json()
    ids = {"battle_id": state["id"]}
    path, query = FORECAST, {"simulations": 20, "seed": 5}
    first = call["gm"]("GET", path, 200, query=query, **ids).json()
    assert first["simulations"] == 20 and first["seq"] == 0
    assert first == call["gm"]("GET", path, 200, query=query, **ids).json()
    total = sum(side["win"] for side in first["sides"]) + first["draw"]
    assert total == pytest.approx(1)
    assert all(side["name"] for side in first["sides"]) and first["forces"]
    call["gm"]("GET", FORECAST, 400, query={"simulations": 0}, **ids)
    call["player"]("GET", path, 403, query=query, **ids)
    Battle.objects.filter(pk=state["id"]).update(forecast_shared=True)
    shared = call["player"]("GET", path, 200, query=query, **ids).json()
    assert shared["sides"] == first["sides"] and shared["rounds"] == first["rounds"]
    # A player sees the numbers of their own side's forces only (their chances all).
    enemy = [force for force in shared["forces"] if force["side"] == "b"]
    assert enemy and all(force["left"] is None for force in enemy)
    assert [f["chances"] for f in shared["forces"]] == [f["chances"] for f in first["forces"]]
    battle = Battle.objects.get(pk=state["id"])
    assert (battle.seq, battle.status) == (0, BattleStatus.ACTIVE)  # never touched


def test_the_forecast_of_a_set_up_saves_nothing(system_world):
    campaign, body, call = system_world
    first = call["gm"]("POST", SETUP_FORECAST, 200, {**body, "simulations": 20, "seed": 4})
    first = first.json()
    assert first["simulations"] == 20 and first["seq"] is None
    again = call["gm"]("POST", SETUP_FORECAST, 200, {**body, "simulations": 20, "seed": 4})
    assert again.json() == first
    assert not Battle.objects.exists()
    call["player"]("POST", SETUP_FORECAST, 403, body)
    call["gm"]("POST", SETUP_FORECAST, 400, {**body, "simulations": 99999})
    # Nothing is held: the battle can be set up for real afterwards.
    call["gm"]("POST", BATTLES, 201, body)


# --- sanity of the odds through the API (Pathfinder) ------------------------------------------


def _armies(gm, campaign, faction, count, prefix):
    from warfare.systems.pf2e import services as army_services  # noqa: PLC0415

    return [
        army_services.army_create(
            user=gm,
            campaign_id=campaign.pk,
            faction_id=faction.pk,
            name=f"{prefix} {i}",
            army_type="infantry",
            level_override=3,
            tactics=("toughened_soldiers",),
            hex="C7",
        ).pk  # fmt: skip
        for i in range(count)
    ]


def _setup_odds(gm, campaign, sides, simulations) -> dict:
    client = APIClient()
    client.force_login(gm)
    body = {"name": "Odds", "sides": sides, "simulations": simulations, "seed": 2}
    response = client.post(f"/api/v1/campaigns/{campaign.pk}/battles/forecast/", body,
                           format="json")  # fmt: skip
    assert response.status_code == 200, response.content[:1000]
    return {side["side"]: side for side in response.json()["sides"]} | {
        "draw": response.json()["draw"]
    }


@pytest.mark.django_db
def test_four_armies_against_one_of_the_same_level_win_at_least_95_percent(
    gm, campaign, kingdom_faction, enemy_faction
):
    ours = _armies(gm, campaign, kingdom_faction, 4, "Militia")
    theirs = _armies(gm, campaign, enemy_faction, 1, "Raiders")
    odds = _setup_odds(gm, campaign, {"a": ours, "b": theirs}, 200)
    assert odds["a"]["win"] >= 0.95, odds


@pytest.mark.django_db
def test_a_mirrored_set_up_is_between_40_and_60_percent(
    gm, campaign, kingdom_faction, enemy_faction
):
    ours = _armies(gm, campaign, kingdom_faction, 2, "Militia")
    theirs = _armies(gm, campaign, enemy_faction, 2, "Raiders")
    odds = _setup_odds(gm, campaign, {"a": ours, "b": theirs}, 200)
    decided = 1 - odds["draw"]
    assert 0.40 <= odds["a"]["win"] / decided <= 0.60, odds
