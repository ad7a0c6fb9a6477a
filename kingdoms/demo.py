"""The demo campaigns that `make run` loads: one per rule system that registered a demo
(`RuleSystemPlugin.demo`, `kingdoms.rulesystems`), and their two accounts. Safe to load any
number of times: an existing demo campaign is left as it is."""

from collections.abc import Callable
from dataclasses import dataclass
from functools import wraps

from django.contrib.auth import get_user_model
from django.db import transaction

from . import rulesystems
from .models import Campaign, Membership, Role

DEMO_GM = ("gm", "warfare-gm")
DEMO_PLAYER = ("player", "warfare-player")


@dataclass(frozen=True)
class DemoResult:
    campaign: Campaign
    created: bool


def _user(username: str, password: str):
    user, created = get_user_model().objects.get_or_create(username=username)
    if created:
        user.set_password(password)
        user.save(update_fields=["password"])
    return user


def demo_accounts():
    """(the demo GM, the demo player), created with their passwords on first use."""
    return _user(*DEMO_GM), _user(*DEMO_PLAYER)


def demo_campaign(name: str, *, rule_system: str, description: str):
    """Make `build(campaign, gm, player)` a rule system's `load_demo()`: in one transaction,
    the demo campaign `name` is created once, with the demo GM as its GM, and `build` fills
    it (its factions, the player's membership, forces, a battle); an existing campaign of that
    name is left as it is."""

    def decorate(build: Callable[[Campaign, object, object], None]) -> Callable[[], DemoResult]:
        @wraps(build)
        @transaction.atomic
        def load_demo() -> DemoResult:
            gm, player = demo_accounts()
            campaign, created = Campaign.objects.get_or_create(
                name=name,
                created_by=gm,
                defaults={"rule_system": rule_system, "description": description},
            )
            if created:
                Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
                build(campaign, gm, player)
            return DemoResult(campaign=campaign, created=created)

        return load_demo

    return decorate


def load_demo() -> list[DemoResult]:
    """Every registered rule system's demo campaign, in the systems' order. Each demo is
    its own transaction."""
    return [plugin.demo() for plugin in rulesystems.all() if plugin.demo is not None]
