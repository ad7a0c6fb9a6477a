"""What differs per rule system on the battle board, behind one small interface.

The battles app is shared by every rule system: the `Battle` row (setup, seed, snapshot,
seq), its append-only commands and events, undo by replay, the 409 on a stale `seq`, the live
poll (an unchanged board costs a 304), who may act (the GM always; a player for the actors of
their faction when the GM allows it), the log and the JSON API's URLs. A rule system's engine
(warfare.engine.battle.protocol) decides what happens; its `BoardPlugin` here decides how the
battle is set up from the campaign's persistent forces, how the board looks, and what the
results write back:

``create_view(request, membership) -> HttpResponse``
    The set-up page (GET: the form; POST: build the engine setup from the campaign's forces
    and call `services.battle_start`, then redirect to the board; bad input: 400 + the form).
``board_template`` and ``board_context(membership, battle) -> dict``
    The board page; its ``board`` partial is what the live poll and the actions swap in.
``actor_factions(battle) -> {actor: faction id | None}``
    Who commands each actor of the engine (an army, a side, a PC…); None: the GM only.
``api_state(membership, battle) -> dict``
    The board as the JSON API shows it to `membership`: the state content of its `view`,
    with the legal actions the member may take, without the envelope every system's answer
    shares (`id`, `name`, `system`, `status`, `status_label`, `seq`, `players_may_act`:
    `battles.api` puts it around).
``api_state_output``
    A DRF serializer class documenting that answer, envelope included
    (`battles.schema.state_output` builds one): the OpenAPI schema's battle state is one of
    every system's, told apart by `system`.
``viewpoint(membership, battle) -> Viewpoint``
    Whose eyes a member sees the battle through (the GM, a side, a bystander;
    `battles.visibility`); every plugin brings one (None: Pathfinder's).
``view(battle, viewpoint) -> BattleView``
    The battle as a viewpoint may see it (`battles.visibility.BattleView`): names, one event
    filter, the outcome and the JSON state; the board, the API's state and log, the report
    and every error body are built from it, so hidden numbers and secret choices are taken
    out in one place (None: Pathfinder's, `battles.visibility.Pf2eView`).
``api_create(user, campaign_id, data) -> Battle`` (optional)
    The API's set-up (`data` as posted); a ValidationError becomes a 400.
``api_create_input`` (optional)
    A DRF serializer class documenting the body `api_create` takes (the OpenAPI schema of
    POST …/battles/ lists every system's; `battles.schema.form_input` builds one from a
    form's fields).
``apply_results(user, campaign_id, battle_id, expected_seq, data) -> Battle`` (optional)
    Write a finished battle's outcome back to the persistent forces (one transaction).
``event_texts``
    {event code: translatable sentence with %(param)s} for the log, in the page language;
    for the system's own battles they come before the built-in sentences of the same code.
``event_params(code, params, names) -> dict`` (optional)
    The params a sentence of `event_texts` is formatted with (nested dice flattened, keys
    named); None: the event's params with `names` put in.
``act_form(data, battle) -> form`` (optional)
    The form of the board's act view when the generic one cannot carry the system's
    commands (GM commands without an actor, several fields); its `command()` is what
    `services.battle_act` applies. None: the generic `ActForm`.
``may_command(membership, battle, actor) -> bool`` (optional)
    Whether a player (not the GM; `players_may_act` is checked before) commands `actor`, when
    the faction of `actor_factions` is not enough (e.g. a PC played by one member).
``names(battle) -> {key: name}`` (optional)
    The names of the board's actors and units for the log and the report (None: the
    Pathfinder armies' names).
``problem_texts``
    {problem code: translatable sentence} for the engine's refusals of a command (the board
    and the API show them); the shared `warfare.messages.MESSAGES` are the fallback.
``report_context(membership, battle) -> dict`` (optional)
    The battle report's context (the keys of `battles.report.battle_report`).
``held_rows(setup) -> {model label: {ids}}``
    The persistent rows (forces, characters…) a battle's setup was built from: an unfinished
    battle holds them (`battles.holds`: one unfinished battle per force).

Pathfinder 2e, the first system, is built straight into the app's modules; it is the
fallback when no plugin is registered for a battle's system. A system registers its plugin by
importing its module in `battles.apps.BattlesConfig.ready`.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

PLUGINS: dict[str, "BoardPlugin"] = {}


@dataclass(frozen=True)
class BoardPlugin:
    key: str
    board_template: str
    board_context: Callable[..., dict]
    create_view: Callable[..., Any]
    actor_factions: Callable[..., dict[str, int | None]]
    api_state: Callable[..., dict]
    api_state_output: type
    api_create: Callable[..., Any] | None = None
    api_create_input: type | None = None
    apply_results: Callable[..., Any] | None = None
    event_texts: Mapping[str, Any] = field(default_factory=dict)
    event_params: Callable[..., dict] | None = None
    act_form: Callable[..., Any] | None = None
    may_command: Callable[..., bool] | None = None
    names: Callable[..., dict[str, str]] | None = None
    viewpoint: Callable[..., Any] | None = None
    view: Callable[..., Any] | None = None
    report_context: Callable[..., dict] | None = None
    held_rows: Callable[[dict], dict[str, set[int]]] | None = None
    problem_texts: Mapping[str, Any] = field(default_factory=dict)


def register(plugin: BoardPlugin) -> BoardPlugin:
    PLUGINS[plugin.key] = plugin
    return plugin


def create_inputs() -> list[type]:
    """The documented create bodies of the registered systems (`api_create_input`)."""
    return [p.api_create_input for p in PLUGINS.values() if p.api_create_input is not None]


def state_outputs() -> dict[str, type]:
    """{system: the documented battle state} of the registered systems (`api_state_output`)."""
    return {p.key: p.api_state_output for p in PLUGINS.values()}


def plugin_for(system: str) -> BoardPlugin | None:
    """The plugin of a rule system (None: Pathfinder 2e, built into the app)."""
    return PLUGINS.get(system)


def has_battles(rule_system: str) -> bool:
    """Can a campaign of this rule system fight battles on the board?"""
    return rule_system == "pf2e" or rule_system in PLUGINS
