"""The rule-system registry: what the core (campaigns, factions, campaign files, the demo)
needs to know about each rule system, without importing any of them.

Each rule system registers one `RuleSystemPlugin` from its own `AppConfig.ready`; a
`RuleSystemConfig` does it with the app's board plugin, campaign-file section and demo::

    from kingdoms import rulesystems

    class Gurps4eConfig(rulesystems.RuleSystemConfig):
        name = "warfare.systems.gurps4e"
        label = "gurps4e"            # the Campaign.rule_system key
        position = 20
        uses_command_staff = True

The core then asks `get(key)` / `all()`: the faction pages and services (`faction_records`,
`templates`), `kingdoms.portability` writes and reads each system's section of the campaign
file (`campaign_file`), `kingdoms.demo.load_demo` builds each system's demo campaign
(`demo`). The board side of a system (its battles' pages, commands, texts) is
`battles.plugins.BoardPlugin`, and the pure engine `warfare.engine.battle.registry`: both are
registered by the same `ready`.

Keep this small: a field is added when a core page needs to ask something of every system.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig

if TYPE_CHECKING:  # annotations only: both modules import this one
    from .demo import DemoResult
    from .portability import SystemSection


@dataclass(frozen=True)
class FactionRecord:
    """A record of the rule system's that each faction of its campaigns has (a Pathfinder
    kingdom), edited on the faction's page and in the API's faction body with the faction,
    in the same transaction.

    key     the faction's one-to-one accessor ("kingdom"): also the prefix of its form, the
            form's name in the page's context (`<key>_form`), the key of the faction
            services' `records` and of the API's faction body.
    form    `form(data, instance, campaign=...)`: the page's form over the record (`instance`
            None: a new faction's); its `service_data()` is what `save` takes.
    save    `save(faction, fields)`: create the record if the faction has none, then save
            `fields` (None: nothing sent), refusing a stale `version` (`services.StaleEdit`).
    sheet   `sheet(record) -> dict`: more context for the faction's page when the member sees
            the faction in full. None: nothing more.
    """

    key: str
    form: Callable[..., Any]
    save: Callable[[Any, Mapping[str, Any] | None], None]
    sheet: Callable[[Any], dict] | None = None


@dataclass(frozen=True)
class RuleSystemPlugin:
    """One rule system as the core sees it.

    key           the `Campaign.rule_system` value and the app label ("pf2e", "dnd5e"...).
    label         its name for people (a lazy translation).
    position      its place among the systems (smaller first): the order of their sections
                  in the campaign file (format version 4 writes Pathfinder, GURPS 4e, GURPS
                  3e, D&D 5e) and of the demo campaigns.
    has_battles   its campaigns fight battles on the board (it registers a BoardPlugin).
    uses_command_staff  its factions have a command staff (`kingdoms.models.CommandStaff`).
    faction_records     the records each of its factions has (`FactionRecord`).
    templates     {slot: template} the core pages include for a campaign of this system:
                  "faction_card" (the campaign page's faction card), "faction_detail" (the
                  faction page, seen in full), "faction_form" (the faction form's records),
                  "faction_links" (the faction page's and card's buttons). A missing slot:
                  nothing is included.
    before_campaign_delete  `hook(campaign)`: remove the system's rows that protect the
                  campaign's factions from deletion (Pathfinder's armies), in the delete's
                  transaction. None: nothing to remove.
    campaign_file its section of the campaign file (`kingdoms.portability.SystemSection`):
                  the top-level keys and row types it owns, their shape, export, check and
                  import, and how its battles' JSON names its rows. None: nothing of its own
                  is exported, and its battles' JSON is copied as it is.
    demo          builds its demo campaign: `demo() -> kingdoms.demo.DemoResult` (the demo
                  accounts from `kingdoms.demo.demo_accounts()`), safe to call again (an
                  existing demo is left as it is). None: no demo.
    """

    key: str
    label: Any
    position: int = 100
    has_battles: bool = False
    uses_command_staff: bool = False
    faction_records: tuple[FactionRecord, ...] = ()
    templates: Mapping[str, str] = field(default_factory=dict)
    before_campaign_delete: Callable[[Any], None] | None = None
    campaign_file: "SystemSection | None" = None
    demo: "Callable[[], DemoResult] | None" = None


_PLUGINS: dict[str, RuleSystemPlugin] = {}


def register(plugin: RuleSystemPlugin) -> RuleSystemPlugin:
    """Add (or, registered again under its key, replace) a rule system."""
    _PLUGINS[plugin.key] = plugin
    return plugin


class RuleSystemConfig(AppConfig):
    """The `AppConfig` of a rule-system app whose label is its `Campaign.rule_system` key.

    `ready` imports the app's `board_module` (importing it registers the system's
    `battles.plugins.BoardPlugin` and engine), then registers the system here with its
    campaign-file section (`<app>.portability.SECTION`) and demo (`<app>.demo.load_demo`). A
    subclass sets `position` and `uses_command_staff`, and a `ready` of its own that calls
    `register_system(**more)` for more of `RuleSystemPlugin`'s fields. Subclass it by the
    module's name (`rulesystems.RuleSystemConfig`): Django picks the one `AppConfig` class an
    `apps.py` holds, and an imported base would be a second.
    """

    position = 100
    uses_command_staff = False
    board_module = "plugin"

    def ready(self) -> None:
        self.register_system()

    def register_system(self, **more: Any) -> RuleSystemPlugin:
        # Imported here: kingdoms.models imports this module, and the app's modules use its
        # models, which exist only once the apps are loaded.
        from .models import RuleSystem

        import_module(f"{self.name}.{self.board_module}")
        portability = import_module(f"{self.name}.portability")
        demo = import_module(f"{self.name}.demo")
        return register(
            RuleSystemPlugin(
                key=self.label,
                label=RuleSystem(self.label).label,
                position=self.position,
                has_battles=True,
                uses_command_staff=self.uses_command_staff,
                campaign_file=portability.SECTION,
                demo=demo.load_demo,
                **more,
            )
        )


def unregister(key: str) -> None:
    """Remove a rule system (tests that register one of their own)."""
    _PLUGINS.pop(key, None)


def get(key: str) -> RuleSystemPlugin | None:
    """The rule system `key`, or None when no app registered it."""
    return _PLUGINS.get(key)


def all() -> list[RuleSystemPlugin]:  # noqa: A001 - the registry's vocabulary: rulesystems.all()
    """Every registered rule system, by `position` (then key)."""
    return sorted(_PLUGINS.values(), key=lambda p: (p.position, p.key))


def faction_records(key: str) -> tuple[FactionRecord, ...]:
    """The records each faction of a campaign of rule system `key` has."""
    plugin = get(key)
    return plugin.faction_records if plugin is not None else ()


def template(key: str, slot: str) -> str:
    """The template a core page includes in `slot` for rule system `key` ("": none)."""
    plugin = get(key)
    return plugin.templates.get(slot, "") if plugin is not None else ""
