"""What the GURPS Mass Combat 4e board shows a viewer (page, JSON API, log, report).

Who is who: the actors of the engine are the sides "a" and "b" (their commanders' choices)
and the PCs (by key). A side is commanded by the faction of its force; a PC by the player who
plays it (`owner`), or any player of its `faction`, or only the GM (an NPC). The GM may do
everything.

Secrecy (gurps §A.6.3): every view of the state goes through `Gurps4eView`, the battle's one
viewpoint filter (built on `engine.public_state`), so a side's pending strategy reaches only
that side until both are in; a bystander (a player whose faction fights on neither side, and
plays no PC) sees neither side's numbers. Of the enemy a side sees its casualties, Position
Bonus, confusion, its PCs' names and status, and the initial intelligence of §A.5.1; after
the battle, its final casualties but not its new TS or loot. The GM, who usually commands
the other side, does not see a players' side's pending strategy either until the GM's own
side (a side of no players' faction) has chosen, unless the set-up's `gm_sees_choices`.
"""

from functools import cached_property
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from battles.models import Battle, BattleStatus
from battles.visibility import BYSTANDER as NOBODY
from battles.visibility import GM, UNKNOWN_FORCE, BattleView, Viewpoint, viewpoint_of
from kingdoms.models import Membership
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.gurps4e.battle.engine import public_state
from warfare.engine.systems.gurps4e.battle.state import (
    ACTIVE,
    BATTLE_KIND,
    CHANGE,
    CHOOSING,
    PARLEY,
    PURSUIT,
    SIDE_KEYS,
    BattleState,
)
from warfare.engine.systems.gurps4e.strategies import STRATEGIES
from warfare.systems.gurps4e.mapping import ts_text
from warfare.words import per_language, worded

from . import labels, log
from .board_forms import ON_CRITICAL_CHOICES, RISK_CHOICES, option_value
from .log import choice_text
from .results import kept_strength

BYSTANDER = ""


#: The button choices that may roll (keeping the strategy resolves the round, §A.6.3; a
#: pursuit rolls 1d of logistics losses, §A.7.1): their buttons share one "dice rolled at the
#: table" field.
ROLLING_BUTTONS = ("keep_strategy", "choose_pursuit")


def _setup_side(battle: Battle, key: str) -> dict:
    return battle.setup["sides"][key]


def _pcs(battle: Battle) -> list[dict]:
    return [pc for key in SIDE_KEYS for pc in _setup_side(battle, key).get("pcs") or ()]


def names(battle: Battle) -> dict[str, str]:
    """{actor: name}: the sides by their force's name, the PCs by theirs."""
    result = {key: _setup_side(battle, key).get("name") or key for key in SIDE_KEYS}
    result.update({pc["key"]: pc.get("name") or pc["key"] for pc in _pcs(battle)})
    return result


def actor_factions(battle: Battle) -> dict[str, int | None]:
    """{actor: the faction that commands it}: a side's force's faction; a PC its player's."""
    result = {key: _setup_side(battle, key).get("faction") for key in SIDE_KEYS}
    result.update({pc["key"]: pc.get("faction") for pc in _pcs(battle)})
    return result


def may_command(membership: Membership, battle: Battle, actor: str) -> bool:
    """A player (the caller checked `players_may_act`) commands the side of their faction and
    the PCs they play; nobody but the GM commands an NPC."""
    if actor in SIDE_KEYS:
        faction = _setup_side(battle, actor).get("faction")
        return faction is not None and faction == membership.faction_id
    pc = next((pc for pc in _pcs(battle) if pc["key"] == actor), None)
    if pc is None:
        return False
    if pc.get("owner") is not None:
        return pc["owner"] == membership.user_id
    return pc.get("faction") is not None and pc["faction"] == membership.faction_id


def viewer_of(membership: Membership, battle: Battle) -> str | None:
    """Whose eyes: None (the GM), a side key, a PC key (its side's), or BYSTANDER."""
    if membership.is_gm:
        return None
    for key in SIDE_KEYS:
        faction = _setup_side(battle, key).get("faction")
        if faction is not None and faction == membership.faction_id:
            return key
    for pc in _pcs(battle):
        if pc.get("owner") is not None and pc.get("owner") == membership.user_id:
            return pc["key"]
    return BYSTANDER


def viewer_index(battle: Battle, viewer: str | None) -> int | None:
    """None for the GM, 0/1 for a side (or a PC's side), -1 for a bystander."""
    if viewer is None:
        return None
    if viewer in SIDE_KEYS:
        return SIDE_KEYS.index(viewer)
    for pc in _pcs(battle):
        if pc["key"] == viewer:
            return 0 if pc in (_setup_side(battle, "a").get("pcs") or ()) else 1
    return -1


def viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
    """A player sees the side of their faction, or of the PC they play; others nothing."""
    index = viewer_index(battle, viewer_of(membership, battle))
    if index is None:
        return GM
    return Viewpoint(sides=frozenset({SIDE_KEYS[index]})) if index in (0, 1) else NOBODY


class Gurps4eView(BattleView):
    """A GURPS Mass Combat 4e battle as a viewpoint may see it (see the module docstring)."""

    lines_kept = True  # its sentences: the event, viewpoint, names and setup alone

    def side_factions(self):
        return {key: [_setup_side(self.battle, key).get("faction")] for key in SIDE_KEYS}

    @cached_property
    def side_names(self) -> dict[str, str]:
        return {
            key: self.side_label(key, _setup_side(self.battle, key).get("name") or key)
            for key in SIDE_KEYS
        }

    def _names(self) -> dict[str, str]:
        return {**names(self.battle), **self.side_names}

    def faction_name(self, key: str) -> str:
        """The name of a side's faction, as the viewpoint may read it."""
        name = _setup_side(self.battle, key).get("faction_name", "")
        return self.side_label(key, name)

    @property
    def viewer(self) -> str | None:
        """Whose eyes, as the engine's `public_state` takes it: None (the GM), a side key, or
        BYSTANDER."""
        if self.gm:
            return None
        return next(iter(self.viewpoint.sides), BYSTANDER)

    @property
    def index(self) -> int | None:
        """None for the GM, 0/1 for a side, -1 for a bystander."""
        return viewer_index(self.battle, self.viewer)

    def sees(self, key) -> bool:
        """A side key, or a PC's key: does the viewpoint see its numbers?"""
        if self.gm:
            return True
        side = key if key in SIDE_KEYS else None
        for pc in _pcs(self.battle):
            if pc["key"] == key:
                side = "a" if pc in (_setup_side(self.battle, "a").get("pcs") or ()) else "b"
        return side in self.viewpoint.sides

    @cached_property
    def engine_state(self) -> BattleState:
        return engine_state(self.battle)

    def secret_from_gm(self) -> set[int]:
        """The sides whose pending strategy the GM may not see yet: a players' side's, while
        the GM's own side (of no players' faction) still has to choose (§A.6.3)."""
        state = self.engine_state
        if not self.gm or self.battle.setup.get("gm_sees_choices") or state.phase != CHOOSING:
            return set()
        players = self.factions.players
        own = [i for i, key in enumerate(SIDE_KEYS)
               if _setup_side(self.battle, key).get("faction") not in players]  # fmt: skip
        waiting = any(state.choices[i] is None and not state.sides[i].left for i in own)
        return {i for i in range(2) if i not in own} if waiting else set()

    @cached_property
    def public(self) -> dict[str, Any]:
        """The state as plain JSON, as the viewpoint may see it."""
        state = self.engine_state
        if self.gm:
            data = state.to_dict()
            for i in self.secret_from_gm():
                data["choices"][i] = {"chosen": True} if data["choices"][i] else None
            return data
        data = public_state(state, self.viewer)
        if data.get("aftermath"):
            data["aftermath"] = log.visible_params("gurps4e.aftermath", data["aftermath"],
                                                   self.index)  # fmt: skip
        if data.get("intelligence") and "name" in data["intelligence"]:
            enemy = SIDE_KEYS[1 - self.index] if self.index in (0, 1) else None
            data["intelligence"] = {**data["intelligence"], "name": self.names.get(enemy, "")}
        return data

    def state(self) -> dict[str, Any]:
        return self.public

    def choice(self, i: int) -> dict | None:
        """Side `i`'s choice this round as the viewpoint may see it ({"chosen": True}: made,
        secret): the GM's read from the state itself, without the whole of `public`."""
        if self.gm:
            secret = self._secret_from_gm  # read on every GM board, as `public` did
            choice = self.engine_state.choices[i]
            if choice is None:
                return None
            return {"chosen": True} if i in secret else choice.to_dict()
        return self.public["choices"][i]

    @cached_property
    def _secret_from_gm(self) -> set[int]:
        return self.secret_from_gm()

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        shown = log.visible_params(code, params, self.index)
        hidden = self.hidden_names()
        if hidden:  # an officer named after its hidden faction (no command staff, §A.2.5)
            shown = {k: str(UNKNOWN_FORCE) if isinstance(v, str) and v in hidden else v
                     for k, v in shown.items()}  # fmt: skip
        if code == "gurps4e.aftermath":  # each new TS as its force keeps it
            sides = {key: {**data, "new_ts": _new_ts(self.battle, key, data)}
                     if "new_ts" in data else data
                     for key, data in (shown.get("sides") or {}).items()}  # fmt: skip
            return shown, log.event_line(code, {**shown, "sides": sides}, self.names)
        return shown, log.event_line(code, shown, self.names)

    def outcome(self) -> dict[str, Any] | None:
        return outcome_view(self)


def engine_state(battle: Battle) -> BattleState:
    """The battle's engine state (its snapshot, in full: filter it before showing it)."""
    return battle.engine_state()


def _ts(value) -> str:
    return ts_text(value)


def _terms(terms, language: str) -> list[dict[str, Any]]:
    return [
        {"code": code, "label": labels.term_label(code, language=language), "value": int(value)}
        for code, value in terms
    ]


def _intelligence(battle: Battle, enemy_key: str, data: dict | None) -> list[str]:
    """§A.5.1 initial intelligence as lines (element names from the setup)."""
    if not data:
        return []
    rows = {
        row["type"]["key"]: row["type"].get("name") or row["type"]["key"]
        for row in _setup_side(battle, enemy_key)["force"]["rows"]
    }
    lines = []
    if data.get("precision") == "none":
        return [_("Confused: nothing is known of the enemy.")]
    if data.get("precision") == "exact":
        lines.append(_("Exact (pitched battle): %(name)s") % {"name": data.get("name", "")})
        lines += [f"{rows.get(k, k)}: {n}" for k, n in (data.get("elements") or {}).items()]
    else:
        lines.append(_("Approximate (±20 %) by mobility:"))
        lines += [f"{m}: {lo}–{hi}" for m, (lo, hi) in (data.get("by_mobility") or {}).items()]
    estimate = data.get("initiative_estimate")
    if estimate:
        lines.append(_("Your intelligence chief's estimate (±25 %):"))
        lines += [f"{rows.get(k, k)}: {lo}–{hi}" for k, (lo, hi) in estimate["elements"].items()]
    return lines


def _choice_line(choice: dict | None) -> str | None:
    if not choice or "strategy" not in choice:
        return None
    return choice_text(choice)


def sides_view(view: Gurps4eView) -> list[dict[str, Any]]:
    """Each side as the viewpoint may see it: TS, casualties bar, PB, DB, BSM with every
    addend, the commander, the pending choice (own side and GM only, `Gurps4eView.choice`),
    intelligence of the enemy."""
    battle, state, index = view.battle, view.engine_state, view.index
    language = get_language() or ""  # the BSM terms' labels, worded once per language
    result = []
    for i, key in enumerate(SIDE_KEYS):
        side = state.sides[i]
        full = index is None or index == i
        choice = view.choice(i)
        bsm = list(side.bsm)
        penalty = -(side.casualties // 5)
        if penalty:
            bsm.append(("bsm.casualties", penalty))
        officer = side.officer
        result.append({
            "key": key,
            "name": view.side_names[key],
            "faction": view.faction_name(key),
            "full": full,
            "casualties": side.casualties,
            "bar": min(100, side.casualties),
            "pb": side.pb,
            "confused": side.confused,
            "left": side.left,
            "chosen": choice is not None,
            "choice": _choice_line(choice) if full else None,
            "ts": _ts(side.ts) if full else None,
            "elements": side.force.elements if full else None,
            "db": side.db if full else None,
            "bsm": _terms(bsm, language) if full else [],
            "bsm_total": sum(v for _c, v in bsm) if full else None,
            "commander": (officer.name if officer else "—") if full else None,
            "logistics": side.logistics if full else None,
            "intelligence": (
                _intelligence(battle, key, view.public.get("intelligence"))
                if index is not None and index == 1 - i
                else []
            ),
        })  # fmt: skip
    return result


def pb_holder(state: BattleState) -> int | None:
    """§A.6.4: only one side holds Position Bonus at a time."""
    return next((i for i in (0, 1) if state.sides[i].pb > 0), None)


def checklist(view: Gurps4eView) -> list[dict[str, Any]]:
    """The round's steps: who has chosen and who still has to (no choice is shown)."""
    state, who = view.engine_state, view.names
    if state.finished:
        return []
    steps = _checklist_steps(get_language() or "")
    items = []
    if state.phase == BATTLE_KIND and state.initiative is not None:
        items.append({"text": steps["kind"] % {"side": who[SIDE_KEYS[state.initiative]]},
                      "done": False})  # fmt: skip
    elif state.phase == CHOOSING:
        for i, key in enumerate(SIDE_KEYS):
            if state.sides[i].left:
                continue
            items.append({"text": steps["strategy"] % {"side": who[key]},
                          "done": state.choices[i] is not None})  # fmt: skip
        for pc in state.pcs:
            if pc.status != ACTIVE or pc.commander or state.sides[pc.side].left:
                continue
            items.append({"text": steps["pc"] % {"pc": who.get(pc.key, pc.key)},
                          "done": pc.key in state.pc_choices})  # fmt: skip
    elif state.phase == PARLEY:
        items.append({"text": steps["parley"], "done": False})
    elif state.phase == CHANGE:
        items.append({"text": steps["change"], "done": False})
    elif state.phase == PURSUIT and state.victor is not None:
        items.append({"text": steps["pursuit"] % {"side": who[SIDE_KEYS[state.victor]]},
                      "done": False})  # fmt: skip
    return items


@per_language
def _checklist_steps() -> dict[str, str]:
    """The round's steps as the checklist words them, translated once per language."""
    return {
        "kind": _("%(side)s chooses the kind of battle"),
        "strategy": _("%(side)s: the commander's strategy (secret) and Risk"),
        "pc": _("%(pc)s: Risk, and a significant action if wanted"),
        "parley": _("The other side answers the Parley"),
        "change": _("The side facing a slow strategy may change its own once"),
        "pursuit": _("%(side)s chooses: pursue or hold the field"),
    }


def _strategy_option(option, language: str) -> dict[str, Any]:
    params = dict(option.params)
    check = option.checks[0] if option.checks else None
    strategy = params["strategy"]
    return {
        "value": option_value(params),
        "strategy": strategy,
        "label": labels.strategy_name(strategy, language=language),
        "desperate": params.get("desperate", False),
        "group": STRATEGIES[strategy].group,
        "skill": check.modifier if check else None,
        "working": labels.working(check.modifier_breakdown, language=language) if check else "",
        "effects": labels.strategy_effect_lines(strategy, language=language),
    }


def panels(view: Gurps4eView, actors: list[str]) -> list[dict[str, Any]]:
    """One panel per actor with choices now: its forms, with each option's roll preview and
    each strategy's effects (gurps §A.6.3) shown before choosing."""
    battle, state = view.battle, view.engine_state
    if battle.status != BattleStatus.ACTIVE:
        return []
    system = get_battle_system(battle.system)
    who = view.names
    language = get_language() or ""  # the options' texts, each worded once per language
    result = []
    for actor in actors:
        specs = system.legal_actions(state, actor)
        if not specs:
            continue
        panel: dict[str, Any] = {
            "actor": actor,
            "name": who.get(actor, actor),
            "forms": [],
            "heroism": [],
            "current": _current_choice(view, actor),
        }
        for spec in specs:
            entry: dict[str, Any] = {"kind": spec.key}
            if spec.key in ("choose_strategy", "change_strategy"):
                entry["options"] = [_strategy_option(o, language) for o in spec.options]
                entry["risks"] = RISK_CHOICES
            elif spec.key == "choose_risk":
                entry["risks"] = RISK_CHOICES
                entry["on_critical"] = _on_critical_choices(language)
            elif spec.key == "significant_action":
                panel["heroism"] = [
                    {
                        "risk": f"{o.params['risk']:+d}",
                        "skill": o.checks[0].modifier,
                        "working": labels.working(
                            o.checks[0].modifier_breakdown, language=language
                        ),
                    }
                    for o in spec.options
                ]
                continue
            else:
                entry["buttons"] = [
                    {"params": option_value(o.params), "label": _button_label(spec.key, o.params)}
                    for o in spec.options
                ]
                entry["rolls"] = spec.key in ROLLING_BUTTONS
            panel["forms"].append(entry)
        result.append(panel)
    return result


@per_language
def _on_critical_choices() -> tuple[tuple[str, str], ...]:
    """`ON_CRITICAL_CHOICES` in the page language, worded once per language."""
    return tuple((value, str(text)) for value, text in ON_CRITICAL_CHOICES)


def _current_choice(view: Gurps4eView, actor: str) -> str | None:
    """What `actor` (whose panel this is) has chosen so far this round, as the viewpoint may
    see it (the GM commands every side, but may not yet see a players' side's choice)."""
    state = view.engine_state
    if state.phase != CHOOSING:
        return None
    if actor in SIDE_KEYS:
        return _choice_line(view.choice(SIDE_KEYS.index(actor)))
    pc_choice = state.pc_choices.get(actor)
    if pc_choice is None:
        return None
    return _("Risk %(risk)s") % {"risk": labels.signed(pc_choice.risk)}


def _button_label(kind: str, params: dict) -> str:
    if kind == "choose_battle_kind":
        return str(labels.KIND_LABELS.get(params.get("kind"), params.get("kind")))
    if kind == "answer_parley":
        return _("Accept the Parley") if params.get("accept") else _("Refuse the Parley")
    if kind == "choose_pursuit":
        return _("Pursue") if params.get("pursue") else _("Hold the field")
    if kind == "keep_strategy":
        return _("Keep our strategy")
    return kind


def commandable(membership: Membership, battle: Battle, state: BattleState) -> list[str]:
    """The actors `membership` may choose for now."""
    actors = [*SIDE_KEYS, *(pc.key for pc in state.pcs)]
    if membership.is_gm:
        return actors
    if not battle.players_may_act:
        return []
    return [actor for actor in actors if may_command(membership, battle, actor)]


def _new_ts(battle: Battle, key: str, result: dict[str, Any]) -> str | None:
    """A side's TS after the battle as its force keeps it: the whole percent of its full TS
    that apply writes back (`kept_strength`; apply scales the share the force has then, the
    same unless another battle changed it meanwhile); the engine's new TS for battles set up
    before the setup held the percent."""
    if "new_ts" not in result:
        return None
    fought_at = battle.setup["sides"][key].get("strength_percent")
    if fought_at is None:
        return str(result["new_ts"])
    percent, kept = kept_strength(int(fought_at), result)
    return _("%(ts)s (%(percent)s %% of its full TS)") % {"ts": _ts(kept), "percent": percent}


def _with_kept_ts(battle: Battle, outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """The outcome for the page: each new TS the viewer sees as its force keeps it."""
    if outcome is None:
        return None
    details = (battle.outcome.get("details") or {}).get("sides") or {}
    for row in outcome["sides"]:
        if row.get("new_ts") is not None:
            row["new_ts_text"] = _new_ts(battle, row["key"], details[row["key"]])
    return outcome


def outcome_view(view: Gurps4eView) -> dict[str, Any] | None:
    """The end (gurps §A.7): victor, reason, per side the final casualties; new TS, loot and
    logistics for the GM and the side itself."""
    outcome = view.battle.outcome
    if not outcome:
        return None
    details = outcome.get("details") or {}
    index = view.index
    who = view.names
    sides = []
    for i, key in enumerate(SIDE_KEYS):
        data = (details.get("sides") or {}).get(key) or {}
        full = index is None or index == i
        row = {
            "key": key,
            "name": who[key],
            "role": data.get("role"),
            "casualties": data.get("casualties"),
            "final": data.get("final_casualties"),
        }
        if full:
            row.update(
                old_ts=_ts(data.get("old_ts", 0)),
                new_ts=data.get("new_ts"),
                remaining=data.get("remaining_share"),
                logistics=data.get("logistics_losses"),
                loot_value=data.get("loot_value"),
            )
        sides.append(row)
    winner = outcome.get("winner")
    loot = details.get("loot") or {}
    return {
        "winner": winner,
        "winner_name": who.get(winner) if winner else None,
        "reason": worded(labels.END_LABELS, details.get("end_reason")),
        "sides": sides,
        "loot_minutes": loot.get("minutes"),
        "loot_holder": who.get(loot.get("holder")) if loot.get("holder") else None,
        "applied": outcome.get("applied") if index is None else None,
    }


def board_context(membership: Membership, battle: Battle) -> dict[str, Any]:
    view = Gurps4eView(battle, viewpoint_of(membership, battle))
    state = view.engine_state
    sides = sides_view(view)
    holder = pb_holder(state)
    finished = battle.status == BattleStatus.FINISHED
    who = view.names
    language = get_language() or ""  # its labels worded once per language

    def label(table, code) -> str:
        return worded(table, code, language=language)

    pcs = []
    for pc in state.pcs:
        full = view.sees(pc.key)
        pcs.append(
            {
                "key": pc.key,
                "name": who.get(pc.key, pc.key),
                "side": who[SIDE_KEYS[pc.side]],
                "hp": pc.hp if full else None,
                "max_hp": pc.max_hp if full else None,
                "status": label(labels.PC_STATUS_LABELS, pc.status),
                "commander": pc.commander,
                "chosen": pc.key in state.pc_choices,
            }
        )
    return {
        "battle": battle,
        "campaign": battle.campaign,
        "membership": membership,
        "state": state,
        "round": state.round,
        "choosing": state.phase == CHOOSING and not state.finished,
        "round_length": state.round_length,
        "battle_type": label(labels.BATTLE_TYPE_LABELS, state.battle_type),
        "terrain": label(labels.TERRAIN_LABELS, state.terrain),
        "terrain_rating": state.terrain_rating,
        "kind": label(labels.KIND_LABELS, state.kind) if state.kind else None,
        "sides": sides,
        "pb_holder": sides[holder]["name"] if holder is not None else None,
        "pcs": pcs,
        "checklist": checklist(view),
        "panels": panels(view, commandable(membership, battle, state)),
        "gm_tools": membership.is_gm and battle.status == BattleStatus.ACTIVE,
        "gm_pcs": [(pc.key, who[pc.key]) for pc in state.pcs],
        "outcome": _with_kept_ts(battle, outcome_view(view)),
        "may_apply": membership.is_gm and finished,
        **view.log_context(),
    }


def api_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    """The board as JSON for `membership`: the visible state, the sides, the checklist and
    the legal actions of the actors they may choose for (with previews and effects)."""
    view = Gurps4eView(battle, viewpoint_of(membership, battle))
    state = view.engine_state
    actions = []
    system = get_battle_system(battle.system)
    if battle.status == BattleStatus.ACTIVE:
        for actor in commandable(membership, battle, state):
            for spec in system.legal_actions(state, actor):
                actions.append(
                    {
                        "key": spec.key,
                        "actor": actor,
                        "optional_params": list(spec.optional_params),
                        "options": [
                            {
                                "params": dict(o.params),
                                "checks": [c.to_dict() for c in o.checks],
                                "effects": labels.strategy_effect_lines(o.params["strategy"])
                                if "strategy" in o.params
                                else [],
                            }
                            for o in spec.options
                        ],
                    }
                )
    return {
        "round": state.round,
        "phase": state.phase,
        "names": view.names,
        "sides": sides_view(view),
        "checklist": checklist(view),
        "state": view.state(),
        "outcome": outcome_view(view),
        "may_act": bool(actions),
        "actions": actions,
    }
