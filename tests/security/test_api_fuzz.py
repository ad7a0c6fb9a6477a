"""schemathesis against our own OpenAPI schema, in-process through the WSGI application, as a
GM and as a player (API tokens): whatever it sends, no 5xx, and every response matches the
schema (status code, content type, headers, body).

Bounded for `make test` (FUZZ_EXAMPLES, default 10 per operation, no coverage phase);
`make fuzz` raises the count and adds the coverage phase (FUZZ_COVERAGE=1).
Path ids mostly point at real objects of the world (the players' side, the enemy's, a hidden
faction's), so the fuzzing reaches the views' logic and not only their 404. The world has a
campaign with a battle of each rule system: every case of a battle's URL is sent to each of
the four battles (half the time with the battle's real `seq`, so that writes can go through).
"""

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.battle_worlds import SYSTEMS, system_campaign
from tests.openapi import CHECKS, load_schema, the_test_connection_kept

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
#: The coverage phase (every boundary and wrong type of every parameter: hundreds of cases,
#: whatever EXAMPLES says) runs in `make fuzz` only.
COVERAGE = os.environ.get("FUZZ_COVERAGE", "") == "1"

schema = load_schema(coverage=COVERAGE)


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    with the_test_connection_kept():
        yield


@pytest.fixture
def fuzz_world(world, gm, player, other_player, militia, raiders, hidden_faction, other_gm,
               objects):  # fmt: skip
    from rest_framework.authtoken.models import Token

    from battles.plugins import plugin_for
    from kingdoms.models import Campaign
    from warfare.systems.pf2e import services

    hidden_army = services.army_create(
        user=gm, campaign_id=world.pk, faction_id=hidden_faction.pk, name="Crownless Host",
        army_type="cavalry", level_override=5, hex="F11",
    )  # fmt: skip
    other_campaign = Campaign.objects.get(memberships__user=other_gm)
    battles = [(world.pk, objects["battle_id"])]  # Pathfinder 2e
    for system in SYSTEMS[1:]:  # as the API creates them (a test client would undo the above)
        campaign, body = system_campaign(system, gm=gm, player=player, rival=other_player)
        battles.append((campaign.pk, plugin_for(system).api_create(gm, campaign.pk, body).pk))
    return {
        "ids": {
            "campaign_id": [world.pk, other_campaign.pk, *(c for c, _b in battles[1:])],
            "faction_id": [militia.faction_id, raiders.faction_id, hidden_faction.pk],
            "army_id": [militia.pk, raiders.pk, hidden_army.pk],
        },
        "battles": battles,
        "tokens": [Token.objects.create(user=user).key for user in (gm, player)],
    }


def _aim(case, ids: dict[str, list[int]]) -> None:
    """Point most generated ids at real objects; one choice in n+1 keeps the random id."""
    from warfare.systems.pf2e.models import Army

    for key, value in (case.path_parameters or {}).items():
        choices = ids.get(key)
        if choices and str(value).isdigit():  # the coverage phase sends ints as text
            index = int(value) % (len(choices) + 1)
            if index < len(choices):
                case.path_parameters[key] = choices[index]
    army_id = (case.path_parameters or {}).get("army_id")
    if (
        isinstance(army_id, int)
        and isinstance(case.body, dict)
        and isinstance(case.body.get("version"), int)
    ):
        # Half the time, the army's real version, so that activities can go through.
        army = Army.objects.filter(pk=army_id).first()
        if army is not None and case.body["version"] % 2 == 0:
            case.body["version"] = army.version


def _battles(case, battles: list[tuple[int, int]]):
    """A battle's URL: the case once for each system's battle (its campaign with it), or,
    one time in five, once with the ids as generated."""
    from battles.models import Battle

    value = (case.path_parameters or {}).get("battle_id")
    if value is None or not str(value).isdigit() or int(value) % 5 == 0:
        yield case
        return
    seq = case.body.get("seq") if isinstance(case.body, dict) else None
    for campaign_id, battle_id in battles:
        case.path_parameters.update(campaign_id=campaign_id, battle_id=battle_id)
        if isinstance(seq, int) and seq % 2 == 0:  # half the time the real seq
            case.body["seq"] = Battle.objects.get(pk=battle_id).seq
        yield case


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_by_its_schema_as_gm_and_player(case, fuzz_world):
    _aim(case, fuzz_world["ids"])
    for aimed in _battles(case, fuzz_world["battles"]):
        for token in fuzz_world["tokens"]:
            aimed.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
