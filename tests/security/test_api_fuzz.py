"""schemathesis against our own OpenAPI schema, in-process through the WSGI application, as a
GM and as a player (API tokens): whatever it sends, no 5xx, and every response matches the
schema (status code, content type, body).

Bounded for `make test` (FUZZ_EXAMPLES, default 10 per operation, no coverage phase);
`make fuzz` raises the count and adds the coverage phase (FUZZ_COVERAGE=1).
Path ids mostly point at real objects of the world (the players' side, the enemy's, a hidden
faction's), so the fuzzing reaches the views' logic and not only their 404.
"""

import json
import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
#: The coverage phase (every boundary and wrong type of every parameter: hundreds of cases,
#: whatever EXAMPLES says) runs in `make fuzz` only.
COVERAGE = os.environ.get("FUZZ_COVERAGE", "") == "1"
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def _load_schema():
    """Our OpenAPI schema as the app serves it (built in-process: no request at collection),
    with the WSGI application to send the cases to."""
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    from warfare.wsgi import application

    raw = json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))
    config = schemathesis.Config.from_dict({"phases": {"coverage": {"enabled": COVERAGE}}})
    loaded = schemathesis.openapi.from_dict(raw, config=config)
    loaded.app = application
    return loaded


schema = _load_schema()


@pytest.fixture(autouse=True)
def _keep_the_test_connection():
    """As Django's test client does: keep the test's database connection (and its transaction)
    open across the requests that go through the WSGI handler."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def fuzz_world(world, gm, player, militia, raiders, hidden_faction, other_gm, objects):
    from rest_framework.authtoken.models import Token

    from kingdoms.models import Campaign
    from warfare import services

    hidden_army = services.army_create(
        user=gm, campaign_id=world.pk, faction_id=hidden_faction.pk, name="Crownless Host",
        army_type="cavalry", level_override=5, hex="F11",
    )  # fmt: skip
    other_campaign = Campaign.objects.get(memberships__user=other_gm)
    return {
        "ids": {
            "campaign_id": [world.pk, other_campaign.pk],
            "faction_id": [militia.faction_id, raiders.faction_id, hidden_faction.pk],
            "army_id": [militia.pk, raiders.pk, hidden_army.pk],
            "battle_id": [objects["battle_id"]],
        },
        "tokens": [Token.objects.create(user=user).key for user in (gm, player)],
    }


def _aim(case, ids: dict[str, list[int]]) -> None:
    """Point most generated ids at real objects; one choice in n+1 keeps the random id."""
    from warfare.models import Army

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


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_api_answers_by_its_schema_as_gm_and_player(case, fuzz_world):
    _aim(case, fuzz_world["ids"])
    for token in fuzz_world["tokens"]:
        case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
