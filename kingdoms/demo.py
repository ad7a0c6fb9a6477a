"""The demo campaigns that `make run` loads: one per rule system that registered a demo
(`RuleSystemPlugin.demo`, `kingdoms.rulesystems`), and their two accounts. Safe to load any
number of times: an existing demo campaign is left as it is."""

from dataclasses import dataclass

from django.contrib.auth import get_user_model

from . import rulesystems
from .models import Campaign

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


def load_demo() -> list[DemoResult]:
    """Every registered rule system's demo campaign, in the systems' order. Each demo is
    its own transaction."""
    return [plugin.demo() for plugin in rulesystems.all() if plugin.demo is not None]
