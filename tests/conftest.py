"""Shared fixtures: one campaign with a GM, a player of the players' kingdom, a player of
another faction, an outsider, and a GM of another campaign.

Django is imported lazily: the engine tests (tests/engine) run without it.
"""

import pytest


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
