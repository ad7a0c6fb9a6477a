"""The GURPS 3e battle board (gurps §B.2): the sides with their TS and TS ratio, the day's
sequence as a checklist, each PC's Risk, the Survival and Glory rolls, the commanders' Quick
Contest of Strategy with its modifiers, the result, casualties; and writing the results back
to the forces and characters. Registered as the "gurps3e" `BoardPlugin`.

Visibility (`Gurps3eView`, the one viewpoint filter of a 3e battle): a 3e battle has no
secret choice (§B.2: every Risk and roll is made at the table), but a force's numbers are its
own side's, as on the force page: of the enemy force (a bystander: of both) a player sees the
units' names and fates, its casualties in per cent, its role, TL and defensive position, never
its men, TS, Troop Quality, Morale, armour or its commander's Strategy skill — in the board,
the JSON state, the log and the report alike. The TS ratio, the Quick Contest's dice, winner
and margin of victory, and the result are public (§B.7.1). GM-only notes never reach it.
"""

from collections import Counter
from functools import cached_property
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from battles import services
from battles.events import event_text
from battles.forms import parse_dice, shared_fields
from battles.models import Battle, BattleStatus
from battles.plugins import BoardPlugin, register
from battles.schema import form_input, state_output
from battles.visibility import BYSTANDER, BattleView, Viewpoint, live_rows, viewpoint_of
from kingdoms.models import Membership
from kingdoms.transactions import write_transaction
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.gurps3e.battle.engine import (
    CHOOSE_RISK,
    COMMIT,
    GM_CASUALTIES,
    GM_MODIFIERS,
)
from warfare.engine.systems.gurps3e.battle.state import CASUALTIES, CHOICES, DAYS
from warfare.engine.systems.gurps3e.characters import FIT, combat_skill, risk_range
from warfare.engine.systems.gurps3e.strategy import strategy_terms, ts_ratio_bonus
from warfare.messages import problem_message
from warfare.systems.gurps3e.models import Character, CharacterStatus, Force, Reputation, Unit
from warfare.words import per_language, worded

from .log import (
    CATEGORY_LABELS,
    EVENT_TEXTS,
    GLORY_LABELS,
    LIMIT_LABELS,
    PC_ROLE_LABELS,
    REACTION_LABELS,
    ROLE_LABELS,
    STATUS_LABELS,
    SURVIVAL_LABELS,
    decided_by_text,
    event_params,
    roll_text,
    signed,
    working,
)
from .setup import SetupForm, api_create, create_view, setup_names

SYSTEM_KEY = "gurps3e"
RESULT_CODES = {
    "pc.survival",
    "pc.glory",
    "battle.strategy_contest",
    "battle.result",
    "battle.casualties",
    "pc.reaction",
    "pc.called_coward",
    "battle.morale",
}


# --- who commands what -------------------------------------------------------------------------


def actor_factions(battle: Battle) -> dict[str, int | None]:
    """A side's commander: its faction when one faction fights on it (several: the GM's);
    a PC: its character's faction."""
    out: dict[str, int | None] = {}
    for side in battle.setup["sides"]:
        factions = side.get("factions") or []
        out[side["key"]] = factions[0] if len(factions) == 1 else None
    for pc in battle.setup.get("pcs") or ():
        out[pc["key"]] = pc.get("faction")
    return out


def may_command(membership: Membership, battle: Battle, actor: str) -> bool:
    """A PC with a player: only that member (and the GM) chooses his Risk; any other actor
    (a side, a PC of a whole faction) is commanded by its faction's players."""
    players = {pc["key"]: pc["owner"] for pc in battle.setup.get("pcs") or () if pc.get("owner")}
    if players.get(actor) is not None:
        return players[actor] == membership.user_id
    return membership.faction_id is not None and actor_factions(battle).get(actor) == (
        membership.faction_id
    )


def names(battle: Battle) -> dict[str, str]:
    return setup_names(battle.setup)


# --- the viewpoint filter ------------------------------------------------------------------------


def viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
    """A player (the GM's is `battles.visibility.GM`) sees the sides their faction fights
    on, and the side of a PC they play."""
    faction = membership.faction_id
    sides = {
        side["key"]
        for side in battle.setup["sides"]
        if faction is not None and faction in (side.get("factions") or ())
    }
    for pc in battle.setup.get("pcs") or ():
        if pc.get("owner") is not None and pc["owner"] == membership.user_id:
            sides.add(pc["side"])
    return Viewpoint(sides=frozenset(sides)) if sides else BYSTANDER


#: Of a force its viewer does not see: what the JSON state keeps (the rest is its own side's).
PUBLIC_FORCE = ("key", "name", "role", "tl", "defensive", "catastrophe", "other", "retreated",
                "commander_captured", "commander_lost")  # fmt: skip
PUBLIC_UNIT = ("key", "routed", "retreated")
#: The numbers of a roll that are the roller's (its effective skill and the working).
ROLL_NUMBERS = ("skill", "margin", "breakdown")


def _roll(roll, full: bool) -> dict:
    roll = dict(roll or {})
    return roll if full else {k: v for k, v in roll.items() if k not in ROLL_NUMBERS}


class Gurps3eView(BattleView):
    """A GURPS 3e battle as a viewpoint may see it (see the module docstring)."""

    lines_kept = True  # its sentences: the event, viewpoint, names and setup alone

    def side_factions(self):
        return {side["key"]: side.get("factions") or () for side in self.battle.setup["sides"]}

    def _names(self) -> dict[str, str]:
        return setup_names(self.battle.setup, self.side_names)

    @cached_property
    def _sides_of(self) -> dict[str, str]:
        """{side, unit or PC key: its side}."""
        out = {}
        for side in self.battle.setup["sides"]:
            out[side["key"]] = side["key"]
            for unit in side.get("units") or ():
                out[unit["key"]] = side["key"]
        for pc in self.battle.setup.get("pcs") or ():
            out[pc["key"]] = pc["side"]
        return out

    def sees(self, key) -> bool:
        return self.gm or self._sides_of.get(key) in self.viewpoint.sides

    def force(self, force: dict) -> dict:
        """A force's JSON as the viewpoint may see it."""
        if self.sees(force["key"]):
            return force
        shown = {k: force[k] for k in PUBLIC_FORCE if k in force}
        shown["name"] = self.side_names.get(force["key"], force.get("name", ""))
        shown["units"] = [{k: u[k] for k in PUBLIC_UNIT if k in u} for u in force["units"]]
        return shown

    def params(self, code: str, params: dict) -> dict:
        """An event's params without the numbers of a force the viewpoint does not see."""
        if self.gm:
            return dict(params)
        p = dict(params)
        if code == "battle.started":
            p["forces"] = [
                f
                if self.sees(f.get("side"))
                else {k: f[k] for k in ("side", "role", "tl") if k in f}
                for f in p.get("forces") or ()
            ]
        elif code == "battle.strategy_contest":
            for side, key in zip(p.get("sides") or (), ("first", "second"), strict=False):
                p[key] = _roll(p.get(key), self.sees(side))
        elif code == "battle.morale":
            p["rolls"] = [
                {**r, "roll": _roll(r.get("roll"), self.sees(r.get("unit")))}
                for r in p.get("rolls") or ()
            ]
        elif code == "battle.casualties" and not self.sees(p.get("side")):
            p["units"] = [
                {k: v for k, v in r.items() if k in ("unit", "percent")}
                for r in p.get("units") or ()
            ]
        return p

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        shown = self.params(code, params)
        return shown, event_text(code, shown, self.names, SYSTEM_KEY)

    def _history(self, history) -> list[dict]:
        return [
            {**day, "ts": {k: v for k, v in (day.get("ts") or {}).items() if self.sees(k)}}
            for day in history
        ]

    def state(self) -> dict[str, Any]:
        data = get_battle_system(SYSTEM_KEY).state_from_dict(self.battle.snapshot).to_dict()
        data.pop("opening", None)
        if not self.gm:
            data["forces"] = [self.force(force) for force in data["forces"]]
            data["history"] = self._history(data["history"])
        return data

    def outcome(self) -> dict[str, Any] | None:
        outcome = self.battle.outcome
        if not outcome or self.gm:
            return outcome
        details = outcome.get("details") or {}
        return {
            "winner": outcome.get("winner"),
            "losers": outcome.get("losers", []),
            "details": {
                "days": details.get("days"),
                "forces": [self.force(force) for force in details.get("forces") or ()],
                "characters": details.get("characters") or [],
                "history": self._history(details.get("history") or ()),
            },
        }


# --- the board ---------------------------------------------------------------------------------


def _ratio(forces) -> dict[str, Any] | None:
    """§B.7.1: larger TS : smaller TS and the larger force's bonus."""
    a, b = forces
    a_ts, b_ts = a.ts, b.ts  # (each a sum over the units)
    if a_ts <= 0 or b_ts <= 0:
        return None
    big, small = (a, b) if a_ts >= b_ts else (b, a)
    big_ts, small_ts = (a_ts, b_ts) if a_ts >= b_ts else (b_ts, a_ts)
    return {
        "text": f"{big_ts / small_ts:.2f} : 1",
        "side": big.key,
        "bonus": ts_ratio_bonus(big_ts, small_ts, big.tl - small.tl),
    }


def _side(state, force, view: Gurps3eView, membership, battle, language: str) -> dict[str, Any]:
    """A side's card: its numbers only for a viewpoint that sees it (`full`); of the enemy
    its role, TL, casualties in per cent and its units' names and fates."""
    names_ = view.names
    full = view.sees(force.key)
    start = sum(unit.men_start for unit in force.units)
    enemy = state.enemy(force.key)
    _skill, terms = strategy_terms(force, enemy)
    return {
        "key": force.key,
        "name": names_.get(force.key, force.key),
        "full": full,
        "role": worded(ROLE_LABELS, force.role, language=language),
        "tl": force.tl,
        "ts": force.ts if full else None,
        "men": force.men if full else None,
        "men_start": start if full else None,
        "lost_percent": round(100 * (start - force.men) / start) if start else 0,
        "strategy_working": working(terms, names_) if full else "",
        "strategy_total": sum(value for _code, value in terms) if full else None,
        "committed": force.key in state.committed,
        "may_commit": state.phase == CHOICES
        and force.key not in state.committed
        and services.may_command(membership, battle, force.key),
        "retreated": force.retreated,
        "units": [
            {
                "key": unit.key,
                "name": names_.get(unit.key, unit.key),
                "men": unit.men if full else None,
                "men_start": unit.men_start if full else None,
                "ts": unit.ts if full else None,
                "left_percent": round(100 * unit.men / unit.men_start) if unit.men_start else 0,
                "morale": unit.morale if full else None,
                "routed": unit.routed,
                "retreated": unit.retreated,
            }
            for unit in force.units
        ],
    }


def _pc(state, character, names_, membership, battle, language: str) -> dict[str, Any]:
    skill, _terms = combat_skill(character)
    low, high = risk_range(character)
    chosen = state.risks.get(character.key)
    options = []
    may = (
        state.phase == CHOICES
        and character.status == FIT
        and chosen is None
        and services.may_command(membership, battle, character.key)
    )
    if may:
        for spec in get_battle_system(SYSTEM_KEY).legal_actions(state, character.key):
            for option in spec.options:
                survival, glory = option.checks
                options.append(
                    {"risk": option.params["risk"], "label": signed(option.params["risk"]),
                     "survival": survival.modifier, "glory": glory.modifier}
                )  # fmt: skip
    return {
        "key": character.key,
        "name": names_.get(character.key, character.key),
        "side": character.side,
        "role": worded(PC_ROLE_LABELS, character.role, language=language),
        "status": character.status,
        "status_label": worded(STATUS_LABELS, character.status, language=language),
        "ht": character.ht,
        "ht_max": character.ht_max,
        "combat_skill": skill,
        "risk_range": f"{signed(low)}…{signed(high)}",
        "limits": [worded(LIMIT_LABELS, limit, language=language) for limit in character.limits],
        "luck": character.luck,
        "rank": character.rank,
        "chosen": signed(chosen["risk"]) if chosen else None,
        "used_luck": bool(chosen and chosen.get("use_luck")),
        "options": options,
        "default_risk": 0 if low <= 0 <= high else low,
    }


def _day_results(lines, names_) -> list[dict[str, Any]]:
    """The rolls and results of each resolved day, newest first (§B.2 steps 4-7), from the
    (event, params, sentence) lines of the viewpoint's view (an enemy's numbers left out)."""
    language = get_language() or ""  # its labels and rolls worded once per language
    days: dict[int, dict[str, Any]] = {}
    for event, p, _text in lines:
        if event.code not in RESULT_CODES:
            continue
        day = days.setdefault(
            event.round,
            {"day": event.round, "survival": [], "glory": [], "contest": None, "result": None,
             "morale": [], "casualties": [], "reactions": []},
        )  # fmt: skip
        pc = names_.get(p.get("pc"), p.get("pc"))
        if event.code == "pc.survival":
            rolls = p.get("rolls") or [{}]
            used = rolls[min(p.get("used", 0), len(rolls) - 1)]
            day["survival"].append(
                {"pc": pc, "roll": roll_text(used, language=language), "margin": used.get("margin"),
                 "luck": len(rolls) > 1,
                 "result": worded(SURVIVAL_LABELS, p["result"], language=language),
                 "damage": p.get("damage"), "ht_before": p.get("ht_before"), "ht": p.get("ht"),
                 "status": worded(STATUS_LABELS, p.get("status"), language=language)}
            )  # fmt: skip
        elif event.code == "pc.glory":
            roll = p.get("roll") or {}
            day["glory"].append(
                {"pc": pc, "roll": roll_text(roll, language=language), "margin": roll.get("margin"),
                 "row": worded(GLORY_LABELS, p["row"], language=language),
                 "reputation": ", ".join(signed(int(e["value"])) for e in p.get("reputation") or ())
                 or "0",
                 "strategy": signed(int(p.get("strategy_modifier", 0)))}
            )  # fmt: skip
        elif event.code == "battle.strategy_contest":
            rows = []
            for side, key in zip(p.get("sides") or (), ("first", "second"), strict=False):
                roll = p.get(key) or {}
                rows.append(
                    {"side": names_.get(side, side), "working": working(roll.get("breakdown")
                     or (), names_, language=language), "skill": roll.get("skill"),
                     "roll": roll_text(roll, language=language),
                     "margin": roll.get("margin")}
                )  # fmt: skip
            winner = p.get("winner_side")
            day["contest"] = {
                "rows": rows,
                "winner": names_.get(winner, winner) if winner else None,
                "margin": p.get("margin_of_victory"),
            }
        elif event.code == "battle.result":
            day["result"] = worded(CATEGORY_LABELS, p.get("category"), language=language)
        elif event.code in ("battle.morale", "pc.called_coward"):
            day["morale"].append(event)
        elif event.code == "battle.casualties":
            for record in p.get("units") or ():
                day["casualties"].append(
                    {"side": names_.get(p["side"], p["side"]),
                     "unit": names_.get(record["unit"], record["unit"]),
                     "house": p.get("mode") != "gm", "percent": record["percent"],
                     "working": working(record.get("breakdown") or (), language=language),
                     "lost": record.get("men_lost"), "left": record.get("men_after")}
                )  # fmt: skip
        elif event.code == "pc.reaction":
            day["reactions"].append(
                {"pc": pc, "total": p.get("total"),
                 "band": worded(REACTION_LABELS, p.get("band"), language=language)}
            )  # fmt: skip
    return [days[key] for key in sorted(days, reverse=True)]


def _ending(events) -> dict[str, Any] | None:
    """Why the battle ended with its winner: the sentence of battle.ended's "decided_by",
    and whether a house default decided it (the days of an extended battle)."""
    ended = next((e for e in reversed(events) if e.code == "battle.ended"), None)
    if ended is None:
        return None
    p = ended.params
    return {
        "text": decided_by_text(p.get("decided_by"), p.get("days_won")),
        "house": p.get("decided_by") == DAYS,
    }


@per_language
def _checklist_steps() -> tuple[str, ...]:
    """The steps of a day (§B.2) as the board's checklist names them, and who the last one
    waits for: translated once per language."""
    return (
        gettext("Forces and Troop Strength"),
        gettext("Strategy modifiers (the GM may change them until the contest)"),
        gettext("Each fit PC chooses Risk"),
        gettext("Commanders ready for the Quick Contest"),
        gettext("Survival, Glory and the Quick Contest of Strategy"),
        gettext("Casualties (GM)"),
        gettext("the GM"),
    )


def board_context(membership: Membership, battle: Battle) -> dict[str, Any]:
    state = battle.engine_state()
    view = Gurps3eView(battle, viewpoint_of(membership, battle))
    names_ = view.names
    # The day results and the ending need their own events only (read once per version);
    # the log shows one page.
    events = live_rows(battle, {*RESULT_CODES, "battle.ended"})
    # (event, params, sentence) as `view.lines`, each sentence worded once (`view.sentence`)
    prefix = view.lines_prefix()
    lines = [(e, view.params(e.code, e.params), text) for e in events
             if (text := view.sentence(e, prefix))]  # fmt: skip
    language = get_language() or ""  # the cards' labels worded once per language
    sides = [_side(state, force, view, membership, battle, language) for force in state.forces]
    pcs = [_pc(state, c, names_, membership, battle, language) for c in state.characters]
    fit = [pc for pc in pcs if pc["status"] == FIT]
    waiting_pcs = [pc["name"] for pc in fit if pc["chosen"] is None]
    waiting_sides = [side["name"] for side in sides if not side["committed"]]
    choices = state.phase == CHOICES
    steps = _checklist_steps(language)
    checklist = [
        {"step": steps[0], "done": True, "waiting": []},
        {"step": steps[1], "done": True, "waiting": []},
        {"step": steps[2], "done": choices and not waiting_pcs,
         "waiting": waiting_pcs if choices else []},
        {"step": steps[3], "done": choices and not waiting_sides,
         "waiting": waiting_sides if choices else []},
        {"step": steps[4], "done": False, "waiting": []},
        {"step": steps[5], "done": False,
         "waiting": [steps[6]] if state.phase == CASUALTIES else []},
    ]  # fmt: skip
    outstanding = len(waiting_pcs) + len(waiting_sides)
    pending = state.pending or {}
    casualty_units = [
        {"key": key, "name": names_.get(key, key)} for key in pending.get("fought", ())
    ]
    outcome = view.outcome()
    ratio = _ratio(state.forces)
    return {
        "battle": battle,
        "membership": membership,
        "state": state,
        "phase": state.phase,
        "day": state.day,
        "days": state.days,
        "sides": sides,
        "ratio": ratio,
        "ratio_side": names_.get(ratio["side"]) if ratio else "",
        "pcs": pcs,
        "checklist": checklist,
        "last_choice": outstanding == 1,
        "results": _day_results(lines, names_),
        "casualty_mode_house": state.casualty_mode == "house",
        "intensity": state.intensity,
        "casualty_units": casualty_units,
        **view.log_context(),
        "outcome": outcome,
        "winner": names_.get(outcome["winner"]) if outcome and outcome.get("winner") else None,
        "ending": _ending([event for event, _params, _text in lines]) if outcome else None,
        "may_apply": membership.is_gm and battle.status == BattleStatus.FINISHED,
    }


# --- commands ----------------------------------------------------------------------------------


@shared_fields
class ActForm(forms.Form):
    """One command on the 3e board: a PC's Risk, a commander's readiness, the GM's
    modifiers or casualties. `dice`: 3d6 and d6 results rolled at the table (the resolving
    choice only)."""

    seq = forms.IntegerField(min_value=0)
    kind = forms.ChoiceField(
        choices=[(k, k) for k in (CHOOSE_RISK, COMMIT, GM_MODIFIERS, GM_CASUALTIES)]
    )
    actor = forms.CharField(max_length=40, required=False)
    risk = forms.IntegerField(min_value=-6, max_value=6, required=False)
    use_luck = forms.BooleanField(required=False)
    side = forms.ChoiceField(choices=[("", "—"), ("a", "A"), ("b", "B")], required=False)
    catastrophe = forms.IntegerField(min_value=-20, max_value=20, required=False)
    other = forms.IntegerField(min_value=-20, max_value=20, required=False)
    intensity = forms.IntegerField(min_value=0, max_value=10, required=False)
    dice = forms.CharField(max_length=200, required=False)

    def __init__(self, data, battle: Battle):
        super().__init__(data)
        self.units = list((battle.snapshot.get("pending") or {}).get("fought") or ())
        for key in self.units:
            self.fields[f"pct_{key}"] = forms.IntegerField(
                min_value=0, max_value=100, required=False
            )

    def clean_dice(self) -> list[int] | None:
        return parse_dice(self.cleaned_data["dice"], 6)

    def clean(self):
        cleaned = super().clean()
        kind = cleaned.get("kind")
        if kind in (CHOOSE_RISK, COMMIT) and not cleaned.get("actor"):
            raise forms.ValidationError(_("Who acts?"))
        if kind == CHOOSE_RISK and cleaned.get("risk") is None:
            self.add_error("risk", _("Choose a Risk."))
        if kind == GM_CASUALTIES and any(cleaned.get(f"pct_{k}") is None for k in self.units):
            raise forms.ValidationError(_("Enter the casualties of every unit."))
        return cleaned

    def command(self) -> dict[str, Any]:
        data = self.cleaned_data
        kind = data["kind"]
        params: dict[str, Any] = {}
        actor = data.get("actor") or None
        if kind == CHOOSE_RISK:
            params = {"risk": data["risk"]}
            if data.get("use_luck"):
                params["use_luck"] = True
        elif kind == GM_MODIFIERS:
            actor = None
            if data.get("side"):
                params["side"] = data["side"]
                for name in ("catastrophe", "other"):
                    if data.get(name) is not None:
                        params[name] = data[name]
            if data.get("intensity") is not None:
                params["intensity"] = data["intensity"]
        elif kind == GM_CASUALTIES:
            actor = None
            params = {"units": {key: data[f"pct_{key}"] for key in self.units}}
        return {"actor": actor, "kind": kind, "params": params, "typed_dice": data.get("dice")}


# --- results -----------------------------------------------------------------------------------


def held_rows(setup: dict) -> dict[str, set[int]]:
    """The forces and characters a battle's setup was built from (battles.holds)."""
    sides, pcs = setup.get("sides") or (), setup.get("pcs") or ()
    return {
        "gurps3e.force": {pk for side in sides for pk in side.get("forces") or ()},
        "gurps3e.character": {pc["character"] for pc in pcs if pc.get("character")},
    }


def _unit_pk(key: Any) -> int | None:
    key = str(key)
    return int(key[1:]) if key.startswith("u") and key[1:].isdigit() else None


def _entry(entry: dict) -> tuple:
    return (entry["value"], entry.get("expires"), entry.get("source") or "gm")


@write_transaction
def apply_results(*, user, campaign_id: int, battle_id: int, expected_seq: int, data) -> Battle:
    """The GM writes a finished battle back, in one transaction: what the battle changed,
    added to the rows as they are now (a force that fought two battles loses the men of
    both): each unit's men lost and battles fought (§B.8.2, §B.8.5); each character's HT
    lost, status, rank gained and the reputation entries won or expired (§B.5, §B.6). Luck
    is not spent for good (uses per battle). Locks: the campaign, the forces, their units,
    the characters (primary-key order), the battle."""
    battle = services.apply_begin(user, campaign_id, battle_id)
    forces = list(
        Force.objects.select_for_update(no_key=True)
        .filter(pk__in=held_rows(battle.setup)["gurps3e.force"], campaign_id=campaign_id)
        .order_by("pk")
    )
    before = {
        _unit_pk(unit["key"]): unit
        for side in battle.setup["sides"]
        for unit in side.get("units") or ()
        if _unit_pk(unit["key"]) is not None
    }
    units = list(
        Unit.objects.select_for_update(no_key=True)
        .filter(pk__in=before, force__campaign_id=campaign_id)
        .order_by("pk")
    )
    by_key = {pc["key"]: pc for pc in battle.setup.get("pcs") or () if pc.get("character")}
    characters = list(
        Character.objects.select_for_update(no_key=True)
        .filter(pk__in=[pc["character"] for pc in by_key.values()], campaign_id=campaign_id)
        .order_by("pk")
    )
    battle = services.apply_lock(battle, expected_seq)
    details = battle.outcome["details"]
    after = {_unit_pk(unit["key"]): unit for force in details["forces"] for unit in force["units"]}
    for unit in units:
        went_in, came_out = before[unit.pk], after.get(unit.pk)
        if came_out is None:
            continue
        unit.men = max(0, unit.men - (int(went_in["men"]) - int(came_out["men"])))
        unit.battles += int(came_out["battles"]) - int(went_in.get("battles", 0))
        unit.save(update_fields=["men", "battles"])
    for force in forces:
        force.save(update_fields=["version"])
    pcs = {by_key[c["key"]]["character"]: (by_key[c["key"]], c)
           for c in details["characters"] if c["key"] in by_key}  # fmt: skip
    for character in characters:
        if character.pk not in pcs:
            continue
        went_in, came_out = pcs[character.pk]
        character.ht = min(character.ht_max, character.ht + came_out["ht"] - went_in["ht"])
        if came_out["status"] != went_in["status"] and character.status != CharacterStatus.DEAD:
            character.status = came_out["status"]
        character.rank = max(0, character.rank + came_out["rank"] - went_in["rank"])
        character.save(update_fields=["ht", "status", "rank", "version"])
        _apply_reputation(character, went_in["reputation"], came_out["reputation"])
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "updated_at"])
    return battle


def _apply_reputation(character: Character, went_in: list, came_out: list) -> None:
    """The entries the battle added (glory, §B.6) are added; those it dropped (expired by
    the battle's month) are removed; the entries the GM wrote meanwhile stay."""
    old, new = Counter(map(_entry, went_in)), Counter(map(_entry, came_out))
    added, dropped = new - old, old - new
    for entry in character.reputation.order_by("pk"):
        key = (entry.value, entry.expires, entry.source or "gm")
        if dropped[key] > 0:
            dropped[key] -= 1
            entry.delete()
    Reputation.objects.bulk_create(
        Reputation(character=character, value=value, expires=expires, source=source)
        for (value, expires, source), count in added.items()
        for _n in range(count)
    )


# --- the JSON API ------------------------------------------------------------------------------


def api_state(membership: Membership, battle: Battle) -> dict[str, Any]:
    """The board as JSON: sides, units, PCs with their chosen Risk, the phase, the actions
    this member may take, the outcome; the enemy force's numbers left out (`Gurps3eView`)."""
    system = get_battle_system(SYSTEM_KEY)
    state = system.state_from_dict(battle.snapshot)
    view = Gurps3eView(battle, viewpoint_of(membership, battle))
    actions = []
    for actor in [*state.sides, *(c.key for c in state.characters)]:
        if not services.may_command(membership, battle, actor):
            continue
        for spec in system.legal_actions(state, actor):
            actions.append(
                {"actor": actor, "kind": spec.key,
                 "options": [dict(option.params) for option in spec.options],
                 "optional_params": list(spec.optional_params)}
            )  # fmt: skip
    return {
        "names": view.names,
        "state": view.state(),
        "actions": actions,
        "outcome": view.outcome(),
    }


def _create_input():
    """The API's create body for the schema: the set-up form's fields; besides them one
    `force_<force id>` and `pc_<character id>` ("a", "b" or "") per force and character."""
    fields = SetupForm(forces=(), characters=()).fields
    return form_input(
        "Gurps3eBattleCreateInput", dict(fields),
        "A GURPS 3e (Compendium II) battle: the set-up form's fields as JSON; besides them "
        "`force_<force id>` and `pc_<character id>`: the side (\"a\", \"b\" or \"\") of each "
        "force and character of the campaign.",
    )  # fmt: skip


class Gurps3eActionOutput(serializers.Serializer):
    actor = serializers.CharField(help_text="Send it as `actor`.")
    kind = serializers.CharField(help_text="Send it as `kind`.")
    options = serializers.ListField(
        child=serializers.DictField(), help_text="Each: the `params` that take it."
    )
    optional_params = serializers.ListField(child=serializers.CharField())


class Gurps3eBoardOutput(serializers.Serializer):
    """The engine's state (`warfare.engine.systems.gurps3e.battle.state`)."""

    forces = serializers.ListField(child=serializers.DictField(), help_text="Side a, side b.")
    characters = serializers.ListField(child=serializers.DictField())
    days = serializers.IntegerField()
    day = serializers.IntegerField()
    month = serializers.IntegerField()
    phase = serializers.CharField()
    winner = serializers.CharField(allow_null=True)


#: The API's battle state in the OpenAPI schema.
STATE_OUTPUT = state_output(
    "Gurps3eBattleStateOutput", SYSTEM_KEY,
    "A GURPS 3e (Compendium II) battle's board as the reader sees it.",
    names=serializers.DictField(child=serializers.CharField(), help_text="{key: name}."),
    state=Gurps3eBoardOutput(),
    actions=Gurps3eActionOutput(many=True, help_text="What the reader may do now."),
    outcome=serializers.DictField(allow_null=True, help_text="The result; null before."),
)  # fmt: skip


PLUGIN = register(
    BoardPlugin(
        key=SYSTEM_KEY,
        board_template="battles/gurps3e/board.html",
        board_context=board_context,
        create_view=create_view,
        actor_factions=actor_factions,
        api_state=api_state,
        api_state_output=STATE_OUTPUT,
        api_create=api_create,
        api_create_input=_create_input(),
        apply_results=apply_results,
        event_texts=EVENT_TEXTS,
        event_params=event_params,
        act_form=ActForm,
        may_command=may_command,
        names=names,
        held_rows=held_rows,
        viewpoint=viewpoint,
        view=Gurps3eView,
        problem_message=problem_message,
    )
)
