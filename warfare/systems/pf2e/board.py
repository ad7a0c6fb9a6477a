"""The Pathfinder 2e board: what it shows a viewer (cards, the initiative strip, buttons, the
banners of an offered reaction or starting position, the log, the apply form).

Visibility: the GM and an army's own side see its numbers; everyone else sees its name,
position and visible conditions, never its HP or modifiers (DESIGN.md "Visibility").
"""

import json
from dataclasses import dataclass
from functools import lru_cache

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from battles.models import Battle, BattleStatus
from battles.services import may_command
from battles.visibility import viewpoint_of
from kingdoms.models import Membership
from warfare.engine.battle.protocol import Command, CommandDice
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.activities.state import ArmyState
from warfare.engine.systems.pf2e.battle.aftermath import SKILL
from warfare.engine.systems.pf2e.battle.engine import GM_CONDITIONS
from warfare.engine.systems.pf2e.battle.rules import ACTIONS_PER_TURN
from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.systems.pf2e import labels
from warfare.systems.pf2e.events import log_text
from warfare.systems.pf2e.labels import SKILL_LABELS
from warfare.systems.pf2e.models import Kingdom
from warfare.systems.pf2e.selectors import check_view
from warfare.words import per_language

from .board_forms import ApplyResultsForm
from .board_problems import FORTIFICATION_LABELS
from .log import CHOICE_LABELS
from .results import side_factions
from .visibility import Pf2eView, Viewer


@dataclass(frozen=True)
class Card:
    key: str
    name: str
    side: str
    full: bool
    hp: int | None
    max_hp: int | None
    rout_threshold: int | None
    position: str
    conditions: list[tuple[str, int]]
    effects: list[tuple[str, int]]
    engaged_with: list[str]
    shots: int | None
    potions: int | None
    fortification: str | None
    acting: bool
    out: bool
    fortification_hp: int | None = None
    fortification_max_hp: int | None = None
    out_label: str = ""
    """"destroyed" / "defeated" (§9), else empty."""
    segments: tuple[str, ...] = ()
    """One CSS class per HP point of the bar: "on"/"off", plus "rt" at or below the rout
    threshold (§7.3) and "rt-edge" on the threshold itself."""


GM_CONDITION_CHOICES = [
    (key, lazy(labels.condition_name, str)(key)) for key in GM_CONDITIONS if key in CONDITIONS
]
"""Named in the page's language when shown (built once, when the module loads)."""

POSITION_LABELS = {"near": _("near"), "distant": _("distant"), "fled": _("fled")}
ENGAGED_LABEL = _("engaged")
OUT_LABELS = {"destroyed": _("destroyed"), "defeated": _("defeated")}


@per_language
def _words() -> dict:
    """The board's fixed words in the page language, translated once per language and
    process (a lazy text costs a catalogue look-up each time it is read; a board reads them
    for every card and button): the badges, the labels of fortifications, stats, triggers,
    starts and choices, the GM's conditions, and the names of `labels.names`."""
    return {
        **{
            name: {key: str(text) for key, text in table.items()} for name, table in _TABLES.items()
        },
        "engaged": str(ENGAGED_LABEL),
        "engaged_start": str(ENGAGED_START_LABEL),
        "gm_conditions": [(key, str(name)) for key, name in GM_CONDITION_CHOICES],
        **labels.names(),
    }


def _position(army: dict, engaged: bool, words: dict) -> str:
    """The card's position badge: engaged armies are in melee, not merely near (§7.2)."""
    position = army.get("position", "near")
    if engaged and position == "near":
        return words["engaged"]
    return words["position"].get(position, position)


def _out_label(entry, words: dict) -> str:
    """Destroyed or defeated (§9): the army fights no more (routed and fled show already)."""
    if entry.destroyed:
        return words["out"]["destroyed"]
    return words["out"]["defeated"] if entry.defeated else ""


@lru_cache(maxsize=1024)
def _segments(hp: int, max_hp: int, rt: int | None) -> tuple[str, ...]:
    """The HP bar: one segment per HP point, marked at or below the rout threshold (worked
    out once per process for the same HP, maximum and threshold)."""
    segments = []
    for point in range(1, max_hp + 1):
        classes = ["on" if point <= hp else "off"]
        if rt is not None and point <= rt:
            classes.append("rt")
            if point == rt:
                classes.append("rt-edge")
        segments.append(" ".join(classes))
    return tuple(segments)


def _card(army: dict, state, names: dict, full: bool, viewer: Viewer, words: dict) -> Card:
    spec_conditions = army["army"]["spec"].get("conditions", {})
    entry = state.army(army["key"])
    engaged = state.engaged_with(army["key"])
    block = entry.army.block()
    max_hp = block.max_hp.value
    hp = army["army"]["hp"]
    rt = block.rout_threshold.value if block.rout_threshold else None
    fort_key = army.get("fortification")
    fort = None
    if fort_key and any(f.key == fort_key for f in state.fortifications):
        fort = state.fortification(fort_key)
    sees_fort = (
        fort is not None
        and viewer is not None
        and (viewer.is_gm or fort.key in viewer.fortifications)
    )
    return Card(
        key=army["key"],
        name=names.get(army["key"], army["key"]),
        side=army["side"],
        full=full,
        hp=hp if full else None,
        max_hp=max_hp if full else None,
        rout_threshold=rt if full else None,
        position=_position(army, bool(engaged), words),
        conditions=[
            (words["condition"][key], value)
            for key, value in sorted(dict(spec_conditions).items())
            if key in CONDITIONS
        ],
        effects=[
            (words["condition"][effect.condition], effect.value)
            for effect in state.effects
            if effect.army == army["key"] and effect.condition in CONDITIONS
        ],
        engaged_with=[names.get(k, k) for k in engaged],
        shots=army.get("shots") if full and block.ranged is not None else None,
        potions=army["army"].get("potion_doses") if full else None,
        fortification=words["fortification"].get(fort.kind, fort.kind) if fort else None,
        acting=state.current == army["key"],
        out=entry.out_of_fight,
        out_label=_out_label(entry, words),
        fortification_hp=fort.hp if sees_fort else None,
        fortification_max_hp=fort.max_hp if sees_fort else None,
        segments=_segments(hp, max_hp, rt) if full and max_hp else (),
    )


def army_names(battle: Battle) -> dict[str, str]:
    """{army key: name} for the log and the apply form."""
    return {
        str(entry["army"]["key"]): entry.get("name") or entry["army"].get("name") or ""
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
    }


TRIGGER_LABELS = {
    "rout_check": _("the rout check"),
    "fortification": _("the fall of its fortification"),
}


def board_context(*, membership: Membership, battle: Battle) -> dict:
    """The board as `membership` sees it: the content from its viewpoint's view
    (`battles.visibility.Pf2eView`), the buttons from what the member may command."""
    system = get_battle_system(battle.system)
    state = battle.engine_state()
    view = Pf2eView(battle, viewpoint_of(membership, battle))
    names = view.names
    snapshot_armies = battle.snapshot["armies"]
    viewer = view.viewer
    sides = view.side_names
    words = _words()
    cards = {key: [] for key in sides}
    for army in snapshot_armies:
        cards[army["side"]].append(_card(army, state, names, view.sees(army["key"]), viewer, words))
    forts = {key: [] for key in sides}
    for fort in state.fortifications:
        sees = viewer.is_gm or fort.key in viewer.fortifications
        forts.setdefault(fort.side, []).append(
            {
                "label": words["fortification"].get(fort.kind, fort.kind),
                "hp": fort.hp if sees else None,
                "max_hp": fort.max_hp if sees else None,
                "ac": fort.ac,
                "destroyed": fort.destroyed,
            }
        )
    current = state.current
    to_act = state.to_act  # the reacting or start-choosing army, else the one whose turn it is
    actions = []
    if to_act and may_command(membership, battle, to_act):
        for spec in system.legal_actions(state, to_act):
            for option in spec.options:
                rolls = bool(option.checks)
                if spec.key == "end_turn":
                    rolls = end_turn_rolls(system, state, to_act)
                actions.append(
                    {
                        "key": spec.key,
                        "actor": to_act,
                        "rolls": rolls,
                        "label": words["war_action"].get(spec.key, spec.key)
                        if spec.key != "end_turn"
                        else None,
                        "cost": spec.cost,
                        "target": names.get(option.params.get("target"), ""),
                        **_option_choice(option.params, names, words),
                        "params": json.dumps(dict(option.params), sort_keys=True),
                        "checks": [
                            {
                                "stat": words["stat"].get(check["stat"], check["stat"]),
                                "modifier": check["modifier"],
                                "dc": check["dc"],
                            }
                            for check in map(view.check_preview, option.checks)
                        ],
                    }
                )
    # End turn first: the one button of every turn, on screen beside the board (issue 14).
    actions.sort(key=lambda action: action["key"] != "end_turn")
    reaction = _reaction(state, names, actions, words)
    start_choice = _start_choice(state, names, actions, words)
    if reaction is not None or start_choice is not None:
        actions = []  # answered from the banner
    finished = membership.is_gm and battle.status == BattleStatus.FINISHED
    apply_form = None
    if finished:
        apply_form = ApplyResultsForm(sides=aftermath_sides(battle))
    return {
        "battle": battle,
        "membership": membership,
        "sides": [(key, sides[key], cards[key]) for key in sides],
        "fortifications": forts,
        "side_forts": [(key, forts.get(key, [])) for key in sides],
        "apply_form": apply_form,
        "aftermath": applied_aftermath(battle, viewer, sides),
        "round": state.round,
        "actions_left": state.actions_left,
        "pips": [index < state.actions_left for index in range(ACTIONS_PER_TURN)]
        if current
        else [],
        "current": names.get(current, current) if current else None,
        "order": [(names.get(key, key), key == current) for key in state.order],
        "actions": actions,
        "reaction": reaction,
        "start_choice": start_choice,
        **view.log_context(),
        "outcome": view.outcome(),
        "correction_armies": [(army["key"], names.get(army["key"])) for army in snapshot_armies]
        if membership.is_gm
        else [],
        "correction_conditions": words["gm_conditions"],
    }


def _reaction(state, names: dict[str, str], actions: list[dict], words: dict) -> dict | None:
    """The offered reaction as the board's banner shows it (None: none is offered): who may
    react to what, and the use / decline buttons (`answers`; none, and `use` None, for a
    viewer who may not answer: they see that the board waits)."""
    pending = state.pending
    if pending is None:
        return None
    answers = {action["key"]: action for action in actions}
    trigger = pending.trigger
    return {
        "army": names.get(pending.army, pending.army),
        "reaction": words["war_action"].get(pending.reaction, pending.reaction),
        "by": names.get(pending.by, pending.by) if pending.by not in (None, pending.army) else "",
        "trigger": words["trigger"][trigger]
        if trigger in TRIGGER_LABELS
        else words["war_action"].get(trigger, trigger),
        "target": names.get(pending.target, pending.target)
        if pending.target not in (None, pending.by)
        else "",
        "use": answers.get("use_reaction"),
        "answers": [answers[key] for key in ("use_reaction", "decline_reaction") if key in answers],
    }


START_LABELS = {"near": _("Near"), "distant": _("Distant (Opening Salvo)")}
ENGAGED_START_LABEL = _("Engaged with %(army)s")
_TABLES = {"position": POSITION_LABELS, "out": OUT_LABELS, "fortification": FORTIFICATION_LABELS,
           "stat": labels.STAT_LABELS, "trigger": TRIGGER_LABELS, "start": START_LABELS,
           "choice": CHOICE_LABELS}  # fmt: skip


def _start_choice(state, names: dict[str, str], actions: list[dict], words: dict) -> dict | None:
    """The army choosing its starting position before round 1 as the board's banner shows
    it (§7.3; None: none): its options as buttons (`answers`; none for a viewer who may not
    choose for it: they see that the board waits)."""
    if not state.positions:
        return None
    key = state.to_act
    answers = []
    for action in actions:
        start = json.loads(action["params"]).get("start")
        if start in START_LABELS:
            label = words["start"][start]
        else:
            label = words["engaged_start"] % {"army": action["target"]}
        answers.append({**action, "choice_label": label})
    return {"army": names.get(key, key), "answers": answers}


def _option_choice(params, names: dict[str, str], words: dict) -> dict:
    """What an army-specific action's button says beyond its target (§6.2): the choice of
    Swift Recovery / Battlefield Adaptability, or the nets a Battle sheds (whose)."""
    if "shed_nets" in params:
        return {
            "target": names.get(params["shed_nets"], ""),
            "choice": words["choice"]["shed_nets"],
        }
    return {"choice": words["choice"].get(params.get("choice"), "")}


def end_turn_rolls(system, state, actor: str) -> bool:
    """Does ending this turn roll a die (the end of the round's rout checks, §7.3)? Tried on
    the pure engine with throw-away dice, up to the first die it rolls: the board offers a
    typed die only then."""
    try:
        system.apply(state, Command(actor, "end_turn"), _TrialDice(0))
    except _FirstRoll:
        return True
    return False  # (refused, or over without a die)


class _FirstRoll(BaseException):
    """`_TrialDice`'s first die: the trial has its answer (a BaseException, so that no
    handler on the way takes it for an error of the rules)."""


class _TrialDice(CommandDice):
    """Throw-away dice that stop a trial at the first die rolled as the command's own (the
    rolls that would land in `log`; a reaction's on the server's dice are not the
    command's, as before)."""

    def roll(self, sides: int, *, purpose: str = "") -> int:
        raise _FirstRoll

    def roll_expr(self, expression, *, purpose: str = ""):
        raise _FirstRoll


def aftermath_sides(battle: Battle) -> list[dict]:
    """The sides of a finished battle that roll the §7.6 kingdom check (their armies all
    belong to one kingdom), with what the apply form asks about them: the armies that may get
    weary or shaken, and the damaged armies one of which regains 1 HP on a defeat."""
    if battle.status != BattleStatus.FINISHED or not battle.outcome:
        return []
    details = battle.outcome.get("details") or {}
    checks = details.get("kingdom_checks") or {}
    destroyed = set(details.get("destroyed") or ())
    names = army_names(battle)
    by_faction = side_factions(battle)
    wanted = {next(iter(ids)) for ids in by_faction.values() if len(ids) == 1}
    kingdoms = {
        k.faction_id: k
        for k in Kingdom.objects.filter(faction_id__in=wanted).select_related("faction")
    }
    sides = []
    for side in battle.setup["sides"]:
        key, ids = side["key"], by_faction[side["key"]]
        check = checks.get(key)
        if len(ids) != 1 or next(iter(ids)) not in kingdoms or not check:
            continue
        kingdom = kingdoms[next(iter(ids))]
        armies = [k for k in check.get("armies", ()) if k not in destroyed]
        if check["result"] == "victory":
            choosers = [k for k in armies if k in set(check.get("took_damage", ()))]
        else:
            choosers = armies
        regain = []
        for k in armies:
            data = (details.get("armies") or {}).get(k)
            if data is not None and data["hp"] < ArmyState.from_dict(data).max_hp:
                regain.append((k, names.get(k, k)))
        skill = SKILL[check["result"]]
        sides.append(
            {
                "key": key,
                "name": side.get("name") or key,
                "result": check["result"],
                "kingdom": kingdom.faction.name,
                "skill": str(SKILL_LABELS.get(skill, skill)),
                "modifier": int((kingdom.skills.get(skill) or {}).get("modifier", 0)),
                "dc": kingdom.control_dc.total,
                "choosers": [(k, names.get(k, k)) for k in choosers],
                "regain": regain,
            }
        )
    return sides


AFTERMATH_SKIPPED = {"battle.kingdom_check", "battle.aftermath_choice", "battle.next_turn_effects"}
"""Aftermath events shown otherwise: the check itself, the players' choice, the next turn."""


def applied_aftermath(battle: Battle, viewer: Viewer, sides: dict[str, str]) -> list[dict]:
    """The §7.6 checks rolled when the results were applied, for the sides `viewer` sees, with
    what each did (HP regained, weary or shaken, Unrest) as sentences."""
    applied = (battle.outcome or {}).get("aftermath") or {}
    names = army_names(battle) if applied else {}
    rows = []
    for key, data in applied.items():
        if not (viewer.is_gm or key in viewer.sides):
            continue
        effects = []
        for event in data.get("events") or ():
            if event["code"] in AFTERMATH_SKIPPED:
                continue
            params = dict(event["params"])
            if "army" in params:
                params["army_name"] = names.get(str(params["army"]), "")
            effects.append(log_text(event["code"], params))
        rows.append({"side": sides.get(key, key), "check": check_view(data["check"]),
                     "next_turn": data.get("next_turn") or {}, "effects": effects})  # fmt: skip
    return rows
