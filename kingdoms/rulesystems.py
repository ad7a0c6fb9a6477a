"""The rule-system registry: what the core (campaigns, campaign files, the demo) needs to
know about each rule system, without importing any of them.

Each rule system registers one `RuleSystemPlugin` from its own `AppConfig.ready`::

    from kingdoms import rulesystems

    class Gurps4eConfig(AppConfig):
        def ready(self):
            from . import demo, portability  # once the apps are loaded: they use the models

            rulesystems.register(rulesystems.RuleSystemPlugin(
                key="gurps4e", label=_("GURPS Mass Combat (4e)"), position=20,
                has_battles=True, campaign_file=portability.SECTION, demo=demo.load_demo,
            ))

The core then asks `get(key)` / `all()`: `kingdoms.portability` writes and reads each
system's section of the campaign file (`campaign_file`, a `kingdoms.portability.Section`),
`kingdoms.demo.load_demo` builds each system's demo campaign (`demo`). The board side of a
system (its battles' pages, commands, texts) is `battles.plugins.BoardPlugin`, and the pure
engine `warfare.engine.battle.registry`: both are registered by the same `ready`.

Keep this small: a field is added when a core page needs to ask something of every system.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: both modules import this one
    from .demo import DemoResult
    from .portability import SystemSection


@dataclass(frozen=True)
class RuleSystemPlugin:
    """One rule system as the core sees it.

    key           the `Campaign.rule_system` value and the app label ("pf2e", "dnd5e"...).
    label         its name for people (a lazy translation).
    position      its place among the systems: the order of their sections in the campaign
                  file (format version 4 writes Pathfinder, GURPS 4e, GURPS 3e, D&D 5e) and of
                  the demo campaigns. Smaller first.
    has_battles   its campaigns fight battles on the board (it registers a BoardPlugin).
    campaign_file its section of the campaign file (`kingdoms.portability.SystemSection`):
                  the top-level keys it owns, their validation, export, import, and how its
                  battles' JSON names its rows. None: nothing of its own is exported, and its
                  battles' JSON is copied as it is.
    demo          builds its demo campaign: `demo() -> kingdoms.demo.DemoResult` (the demo
                  accounts from `kingdoms.demo.demo_accounts()`), safe to call again (an
                  existing demo is left as it is). None: no demo.
    uses_command_staff  its factions have a command staff (`kingdoms.models.CommandStaff`).
    """

    key: str
    label: Any
    position: int = 100
    has_battles: bool = False
    campaign_file: "SystemSection | None" = None
    demo: "Callable[[], DemoResult] | None" = None
    uses_command_staff: bool = False


_PLUGINS: dict[str, RuleSystemPlugin] = {}


def register(plugin: RuleSystemPlugin) -> RuleSystemPlugin:
    """Add (or, registered again under its key, replace) a rule system."""
    _PLUGINS[plugin.key] = plugin
    return plugin


def unregister(key: str) -> None:
    """Remove a rule system (tests that register one of their own)."""
    _PLUGINS.pop(key, None)


def get(key: str) -> RuleSystemPlugin | None:
    """The rule system `key`, or None when no app registered it."""
    return _PLUGINS.get(key)


def all() -> list[RuleSystemPlugin]:  # noqa: A001 - the registry's vocabulary: rulesystems.all()
    """Every registered rule system, by `position` (then key)."""
    return sorted(_PLUGINS.values(), key=lambda p: (p.position, p.key))
