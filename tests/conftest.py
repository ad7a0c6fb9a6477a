"""Shared fixtures: one campaign with a GM, a player of the players' kingdom, a player of
another faction, an outsider, and a GM of another campaign.

Django is imported lazily: the engine tests (tests/engine) run without it.
"""

import logging
import random

import pytest
from hypothesis import HealthCheck, settings

# Property tests generate states with the real engines; on a busy machine that is slower
# than Hypothesis' default health check allows. Time is not what they check.
settings.register_profile("warfare", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("warfare")


@pytest.fixture(autouse=True)
def _test_seeds(request, monkeypatch):
    """Battles and activities draw their dice seeds from a generator seeded with the test's
    name (`warfare.seeds`): every run of a test rolls the same dice, and a test that fails on
    one seed fails every time, not once in a hundred runs."""
    from django.conf import settings

    if not settings.configured:  # the engine tests may run without Django
        return
    from warfare import seeds

    monkeypatch.setattr(seeds, "draw", random.Random(request.node.nodeid).getrandbits)


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def answer_draw_errors():
    """A board action's answer drawn beside its write that fails is drawn again after the
    write (`battles.rendering.Answer.draw`, the failure logged): in production a fallback,
    in a test a bug the fallback would hide. The test fails with it (a test of the fallback
    takes the records it expects from the list given)."""
    errors = _Errors()
    logger = logging.getLogger("battles.rendering")
    logger.addHandler(errors)
    yield errors.records
    logger.removeHandler(errors)
    assert not errors.records, [record.getMessage() for record in errors.records]


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The throttles count in the cache: every test starts from zero."""
    from django.conf import settings

    if not settings.configured:  # the engine tests may run without Django
        yield
        return
    from tests.caches import clear_cache

    clear_cache()
    yield
    clear_cache()


@pytest.fixture
def redis_cache():
    """The suite's cache when it is the real Redis (`make test` sets REDIS_URL; `.ci/run`
    starts redis-server). Without it the test is skipped, except under CI."""
    import os

    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        if os.environ.get("CI"):
            pytest.fail("CI runs the tests on Redis: set REDIS_URL")
        pytest.skip("REDIS_URL is not set: no Redis to test against")
    return cache


@pytest.fixture
def gm(db):
    from tests.factories import UserFactory

    return UserFactory(username="gm")


@pytest.fixture
def campaign(gm):
    from kingdoms.models import Role
    from tests.factories import CampaignFactory, MembershipFactory

    campaign = CampaignFactory(name="The Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    return campaign


@pytest.fixture
def kingdom_faction(campaign):
    from kingdoms.models import Controller
    from tests.factories import FactionFactory, SettlementFactory

    faction = FactionFactory(campaign=campaign, name="Silverrun", controlled_by=Controller.PLAYERS)
    SettlementFactory(faction=faction, name="Silverrun Keep", is_capital=True)
    return faction


@pytest.fixture
def enemy_faction(campaign):
    from tests.factories import FactionFactory, SettlementFactory

    faction = FactionFactory(campaign=campaign, name="Thornback Horde")
    SettlementFactory(faction=faction, name="Thornhold")
    return faction


@pytest.fixture
def hidden_faction(campaign):
    from tests.factories import FactionFactory, SettlementFactory

    faction = FactionFactory(campaign=campaign, name="Hollow Crown", known_to_players=False)
    SettlementFactory(faction=faction, name="Ashfen", hex="F11")
    return faction


@pytest.fixture
def player(campaign, kingdom_faction):
    from kingdoms.models import Role
    from tests.factories import MembershipFactory, UserFactory

    user = UserFactory(username="player")
    MembershipFactory(campaign=campaign, user=user, role=Role.PLAYER, faction=kingdom_faction)
    return user


@pytest.fixture
def other_player(campaign, enemy_faction):
    """A player who plays the other side."""
    from kingdoms.models import Role
    from tests.factories import MembershipFactory, UserFactory

    user = UserFactory(username="rival")
    MembershipFactory(campaign=campaign, user=user, role=Role.PLAYER, faction=enemy_faction)
    return user


@pytest.fixture
def outsider(db):
    from tests.factories import UserFactory

    return UserFactory(username="outsider")


@pytest.fixture
def other_gm(db):
    """GM of another campaign."""
    from kingdoms.models import Role
    from tests.factories import CampaignFactory, MembershipFactory, UserFactory

    user = UserFactory(username="othergm")
    other = CampaignFactory(name="Other campaign", created_by=user)
    MembershipFactory(campaign=other, user=user, role=Role.GM)
    return user


@pytest.fixture
def world(campaign, kingdom_faction, enemy_faction, hidden_faction, player, other_player):
    """The whole cast at once."""
    return campaign


# Kingdom skill modifiers of the players' kingdom in army tests (all trained).
KINGDOM_SKILLS = {
    "warfare": 7, "statecraft": 6, "intrigue": 3, "exploration": 6, "boating": 2, "magic": 3,
    "defense": 7, "politics": 5, "engineering": 5, "trade": 5, "scholarship": 4, "folklore": 2,
    "wilderness": 2, "arts": 3,
}  # fmt: skip


@pytest.fixture
def kingdom(kingdom_faction):
    """The players' kingdom at level 3 with 12 hexes: Control DC 16 + 1 = 17 (§10.4)."""
    from warfare.systems.pf2e.models import Kingdom

    kingdom = Kingdom.objects.get(faction=kingdom_faction)
    kingdom.level = 3
    kingdom.size_hexes = 12
    kingdom.resource_points = 30
    kingdom.food = 5
    kingdom.skills = {k: {"modifier": v, "rank": "trained"} for k, v in KINGDOM_SKILLS.items()}
    kingdom.save()
    return kingdom


def make_army(world, faction_id: int, name: str, **fields):
    """A Pathfinder army of `faction_id` made by the campaign's GM (`army_create`): infantry
    with Keen-Eyed unless `fields` say otherwise."""
    from warfare.systems.pf2e import services  # Django lazily (the engine tests run without it)

    fields = {"army_type": "infantry", "tactics": ("keen_eyed",), **fields}
    return services.army_create(
        user=world.created_by, campaign_id=world.pk, faction_id=faction_id, name=name, **fields
    )


@pytest.fixture
def militia(world, gm, kingdom):
    """Level 3 infantry with Toughened Soldiers, in hex C7."""
    return make_army(
        world, kingdom.faction_id, "Silverrun Militia", tactics=("toughened_soldiers",), hex="C7"
    )


def board_queries(client, battle, django_assert_max_num_queries, most: int = 10) -> int:
    """How many queries the board of `battle` takes `client` (it answers 200; at most `most`)."""
    from django.urls import reverse  # Django lazily (the engine tests run without it)

    url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
    with django_assert_max_num_queries(most) as captured:
        assert client.get(url).status_code == 200
    return len(captured.captured_queries)


#: The cast, in the order of every permission matrix: anonymous, outsider (no campaign), GM of
#: another campaign, player of another faction, player (of the faction a URL points at), GM.
ROLES = ("anonymous", "outsider", "other_gm", "other_player", "player", "gm")


@pytest.fixture
def users(world, gm, player, other_player, outsider, other_gm):
    """The cast by role (anonymous: None)."""
    return dict(zip(ROLES, [None, outsider, other_gm, other_player, player, gm], strict=True))


@pytest.fixture
def as_role(request, world, outsider, other_gm, gm, player, other_player):
    """as_role("player") -> a DRF APIClient logged in as that cast member (or anonymous)."""
    from rest_framework.test import APIClient

    def make(role: str) -> APIClient:
        client = APIClient()
        if role != "anonymous":
            client.force_login(request.getfixturevalue(role))
        return client

    return make
