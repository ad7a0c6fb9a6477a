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
    Whose eyes a player sees the battle through (a side, a bystander;
    `battles.visibility`; the GM is always `GM`).
``view(battle, viewpoint) -> BattleView``
    The battle as a viewpoint may see it (`battles.visibility.BattleView`): names, one event
    filter, the outcome and the JSON state; the board, the API's state and log, the report
    and every error body are built from it, so hidden numbers and secret choices are taken
    out in one place.
``api_create(user, campaign_id, data) -> Battle`` (optional)
    The API's set-up (`data` as posted); a ValidationError becomes a 400.
``api_create_input`` (optional)
    A DRF serializer class documenting the body `api_create` takes (the OpenAPI schema of
    POST …/battles/ lists every system's; `battles.schema.form_input` builds one from a
    form's fields).
``apply_results(user, campaign_id, battle_id, expected_seq, data) -> Battle`` (optional)
    Write a finished battle's outcome back to the persistent forces (one transaction);
    `data`: the board's apply form (a QueryDict) or the API's JSON body. None: no apply (404).
``api_apply_input`` (optional)
    A DRF serializer class documenting the API's apply body (the OpenAPI schema of POST
    …/apply/ lists every system's).
``results_applied_text``
    The board's message once the results are written.
``event_texts``
    {event code: translatable sentence with %(param)s} for the log, in the page language.
``event_line(code, params, names) -> str`` (optional)
    The sentence of an event `event_texts` has none for (a system that words its events in
    code); None: the code itself.
``silent_events``
    Bookkeeping event codes the log leaves out.
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
    The names of the board's actors and units for the log and the report.
``problem_texts``
    {problem code: translatable sentence} for the engine's refusals of a command (the board
    and the API show them).
``problem_message(problem) -> str`` (optional)
    The sentence of one refusal when the system words them in code (with shared texts as
    fallback); None: `problem_texts`, else "The rules do not allow that."
``refuse_unused_dice``
    Refuse dice typed in that a command did not roll (off for a system whose interrupted
    commands keep their typed dice for later rolls, Pathfinder's reactions).
``report_context(membership, battle) -> dict`` (optional)
    The battle report's context (the keys of `battles.report.battle_report`; None: that
    generic report).
``held_rows(setup) -> {model label: {ids}}``
    The persistent rows (forces, characters…) a battle's setup was built from: an unfinished
    battle holds them (`battles.holds`: one unfinished battle per force).

Every rule system (Pathfinder 2e too) registers its plugin from its own app's
`AppConfig.ready`; the battles app imports no rule system. A battle or campaign of a system
with no plugin registered is a 404 (`plugin_for` raises `UnknownSystem`), never another
system's board.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.http import Http404
from django.utils.translation import gettext_lazy

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
    api_apply_input: type | None = None
    results_applied_text: Any = gettext_lazy("The results are written to the forces.")
    event_texts: Mapping[str, Any] = field(default_factory=dict)
    event_params: Callable[..., dict] | None = None
    event_line: Callable[..., str] | None = None
    silent_events: frozenset[str] = frozenset()
    act_form: Callable[..., Any] | None = None
    may_command: Callable[..., bool] | None = None
    names: Callable[..., dict[str, str]] | None = None
    viewpoint: Callable[..., Any] | None = None
    view: Callable[..., Any] | None = None
    report_context: Callable[..., dict] | None = None
    held_rows: Callable[[dict], dict[str, set[int]]] | None = None
    problem_texts: Mapping[str, Any] = field(default_factory=dict)
    problem_message: Callable[..., str] | None = None
    refuse_unused_dice: bool = True


class UnknownSystem(Http404):
    """No board plugin is registered for this rule system (a 404 in a view)."""


def register(plugin: BoardPlugin) -> BoardPlugin:
    PLUGINS[plugin.key] = plugin
    return plugin


def create_inputs() -> list[type]:
    """The documented create bodies of the registered systems (`api_create_input`)."""
    return [p.api_create_input for p in PLUGINS.values() if p.api_create_input is not None]


def apply_inputs() -> list[type]:
    """The documented apply bodies of the registered systems (`api_apply_input`)."""
    return [p.api_apply_input for p in PLUGINS.values() if p.api_apply_input is not None]


def state_outputs() -> dict[str, type]:
    """{system: the documented battle state} of the registered systems (`api_state_output`)."""
    return {p.key: p.api_state_output for p in PLUGINS.values()}


def plugin_for(system: str) -> BoardPlugin:
    """The plugin of a rule system; `UnknownSystem` (a 404) when none is registered."""
    try:
        return PLUGINS[system]
    except KeyError:
        raise UnknownSystem(f"no board plugin for rule system {system!r}") from None


def has_battles(rule_system: str) -> bool:
    """Can a campaign of this rule system fight battles on the board?"""
    return rule_system in PLUGINS
