"""The log of a GURPS Mass Combat 4e battle: one sentence per engine event, with every roll's
dice, effective skill, breakdown, margin and effect, as a viewer may see it.

Visibility (gurps §A.5.1, §A.6.3): the GM sees everything. A side sees its own numbers; of the
enemy, the rolls made at the table (the contests, after the reveal) but not its exact Troop
Strength, Basic Strategy Modifier terms or class superiority working (initial intelligence
is shown on the board at the precision the rules give). A pending strategy never reaches the
log: the engine's `strategy_chosen` event names only the side, and the choices are logged by
`strategies_revealed` once both are in.
"""

import functools
from typing import Any

from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from warfare.engine.systems.gurps4e.battle.state import SIDE_KEYS
from warfare.systems.gurps4e.mapping import ts_text
from warfare.words import per_language

from . import labels

EVENT_TEXTS = {
    "gurps4e.battle_started": gettext_lazy(
        "The battle begins: Terrain Rating %(terrain_rating)s, rounds of %(round_length)s "
        "minutes.%(ts)s"
    ),
    "gurps4e.recon": gettext_lazy("Reconnaissance contest: %(rolls)s. %(result)s"),
    "gurps4e.battle_kind_chosen": gettext_lazy("%(side)s chooses a %(kind)s."),
    "gurps4e.battle_avoided": gettext_lazy("%(side)s withdraws and avoids battle."),
    "gurps4e.battle_set": gettext_lazy("A %(kind)s.%(confused)s%(db)s%(bsm)s"),
    "gurps4e.round_started": gettext_lazy("Round %(round)s begins."),
    "gurps4e.strategy_chosen": gettext_lazy("%(side)s has chosen its strategy (secret)."),
    "gurps4e.risk_chosen": gettext_lazy("%(pc)s takes Risk %(risk)s."),
    "gurps4e.significant_action": gettext_lazy(
        "%(pc)s attempts a significant action: %(roll)s → %(effect)s to the commander's roll."
    ),
    "gurps4e.detailed_action": gettext_lazy(
        "%(pc)s's detailed action (GM): %(effect)s to the commander's roll."
    ),
    "gurps4e.strategies_revealed": gettext_lazy("Strategies revealed: %(choices)s."),
    "gurps4e.parley_both": gettext_lazy("Both sides parley: no fighting this round."),
    "gurps4e.parley_answered": gettext_lazy("%(side)s %(answer)s the Parley."),
    "gurps4e.strategy_kept": gettext_lazy("%(side)s keeps its strategy."),
    "gurps4e.strategy_changed": gettext_lazy("%(side)s changes its strategy to %(strategy)s."),
    "gurps4e.no_battle": gettext_lazy("%(strategies)s: no battle this round."),
    "gurps4e.strategy_contest": gettext_lazy(
        "Strategy contest (%(strategies)s): %(rolls)s. %(winner)s CRT: casualties %(casualties)s "
        "(total %(cumulative)s); Position Bonus %(pb)s."
    ),
    "gurps4e.misfortune": gettext_lazy("Misfortunes of War for %(pc)s: %(roll)s — %(result)s."),
    "gurps4e.commander_replaced": gettext_lazy(
        "%(side)s loses its commander; %(successor)s takes over%(roll)s.%(confused)s"
    ),
    "gurps4e.rally": gettext_lazy("%(side)s rallies: %(roll)s — %(result)s."),
    "gurps4e.left_field": gettext_lazy("%(side)s leaves the field."),
    "gurps4e.round_ended": gettext_lazy("Round %(round)s ends."),
    "gurps4e.battle_ended": gettext_lazy("The battle is over: %(reason)s. %(victor)s"),
    "gurps4e.pursuit_roll": gettext_lazy("Pursuit: %(side)s's %(roll)s%(die)s"),
    "gurps4e.pursuit": gettext_lazy(
        "%(choice)s: the retreating force +%(retreating)s %%, its logistics +%(logistics)s %%; "
        "the victor +%(victor)s %%."
    ),
    "gurps4e.aftermath": gettext_lazy("After the battle: %(sides)s%(loot)s"),
    "gurps4e.gm_ended": gettext_lazy("The GM ends the battle. %(victor)s"),
    "gurps4e.gm_circumstance": gettext_lazy(
        "The GM gives %(side)s %(value)s for special circumstances this round."
    ),
}

ROLL_TEXT = gettext_lazy(
    "3d6 %(dice)s = %(roll)s vs %(skill)s [%(working)s], margin %(margin)s, %(degree)s"
)


def roll_text(roll: dict[str, Any] | None) -> str:
    """A 3d6 success roll with its breakdown, margin and degree (gurps §0.2); dice rolled at
    the table are marked as typed."""
    if not isinstance(roll, dict):
        return ""
    language = get_language() or ""
    typed = " " + _("(typed at the table)") if roll.get("typed") else ""
    return _roll_template(language) % {
        "dice": "+".join(map(str, roll.get("dice", ()))) + typed,
        "roll": roll.get("roll"),
        "skill": roll.get("skill"),
        "working": labels.working(roll.get("breakdown") or (), language=language),
        "margin": labels.signed(int(roll.get("margin", 0))),
        "degree": _degree(language, roll.get("degree")),
    }


@per_language
def _roll_template() -> str:
    """`ROLL_TEXT` in the page language, worded once per language."""
    return str(ROLL_TEXT)


@functools.lru_cache(maxsize=64)
def _degree(_language: str, degree) -> str:
    """A roll's degree in the page language, worded once per language."""
    return str(labels.DEGREE_LABELS.get(degree, degree))


def choice_text(choice: dict[str, Any]) -> str:
    """A commander's choice: "All-Out Attack (Desperate, Risk +2)"."""
    text = labels.strategy_name(choice.get("strategy", ""))
    extras = []
    if choice.get("desperate"):
        extras.append(str(labels.TERM_LABELS["desperate"]))
    if choice.get("risk"):
        extras.append(_("Risk %(risk)s") % {"risk": labels.signed(int(choice["risk"]))})
    return text + (f" ({', '.join(extras)})" if extras else "")


def visible_params(code: str, params: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """`params` without what side `viewer` (None: the GM; -1: a bystander) may not see."""
    if viewer is None:
        return dict(params)
    shown = dict(params)
    own = [viewer] if viewer in (0, 1) else []
    if code == "gurps4e.battle_started":
        shown["ts"] = [ts if i in own else None for i, ts in enumerate(params.get("ts") or ())]
    elif code == "gurps4e.battle_set":
        shown.pop("superiority", None)
        shown["bsm"] = [b if i in own else None for i, b in enumerate(params.get("bsm") or ())]
    elif code == "gurps4e.aftermath":
        sides = {}
        for key, data in (params.get("sides") or {}).items():
            if SIDE_KEYS.index(key) in own:
                sides[key] = data
            else:
                sides[key] = {k: data[k] for k in ("role", "casualties", "final_casualties")}
        shown["sides"] = sides
    return shown


def event_line(code: str, params: dict[str, Any], names: dict[str, str]) -> str:
    """The sentence of one gurps4e event (its params already filtered for the viewer)."""
    template = _event_template(get_language() or "", code)
    if template is None:
        return ""

    def name(key) -> str:
        return names.get(key, key) if isinstance(key, str) else ""

    flat: dict[str, Any] = {k: v for k, v in params.items() if isinstance(v, str | int)}
    if "side" in params:
        flat["side"] = name(params["side"])
    if "pc" in params:
        flat["pc"] = name(params["pc"])
    fill = _FILLS.get(code)
    if fill is not None:
        fill(params, flat, name)
    try:
        return template % flat
    except (KeyError, TypeError, ValueError):
        return code


@functools.lru_cache(maxsize=256)
def _event_template(_language: str, code: str) -> str | None:
    """The sentence template of an event code in the page language (None: no sentence),
    worded once per language."""
    template = EVENT_TEXTS.get(code)
    return None if template is None else str(template)


def _battle_started(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    ts = [
        _("%(side)s TS %(ts)s") % {"side": name(SIDE_KEYS[i]), "ts": _ts(value)}
        for i, value in enumerate(p.get("ts") or ())
        if value is not None
    ]
    flat["ts"] = (" " + "; ".join(ts) + ".") if ts else ""


def _recon(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["rolls"] = "; ".join(
        f"{name(SIDE_KEYS[i])} {roll_text(roll)}" for i, roll in enumerate(p.get("rolls", ()))
    )
    result = labels.RECON_RESULT_LABELS.get(p.get("result"), p.get("result") or "")
    winner = p.get("winner")
    flat["result"] = (
        _("%(side)s wins: %(result)s.") % {"side": name(SIDE_KEYS[winner]), "result": result}
        if winner is not None
        else _("No winner: %(kind)s.")
        % {"kind": labels.KIND_LABELS.get(p.get("kind"), p.get("kind") or "")}
    )


def _battle_kind_chosen(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["kind"] = labels.KIND_LABELS.get(p.get("kind"), p.get("kind"))


def _battle_set(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    _battle_kind_chosen(p, flat, name)
    confused = [name(k) for k in p.get("confused") or ()]
    flat["confused"] = (
        " " + _("Confused: %(sides)s.") % {"sides": ", ".join(confused)} if confused else ""
    )
    db = [
        _("%(side)s DB %(db)s") % {"side": name(SIDE_KEYS[i]), "db": value}
        for i, value in enumerate(p.get("db") or ())
        if value
    ]
    flat["db"] = (" " + "; ".join(db) + ".") if db else ""
    bsm = [
        _("%(side)s BSM %(total)s [%(working)s]")
        % {
            "side": name(SIDE_KEYS[i]),
            "total": labels.signed(sum(int(v) for _c, v in terms)),
            "working": labels.signed_working(terms) or "0",
        }
        for i, terms in enumerate(p.get("bsm") or ())
        if terms is not None
    ]
    flat["bsm"] = (" " + "; ".join(bsm) + ".") if bsm else ""


def _risk_chosen(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["risk"] = labels.signed(int(p.get("risk", 0)))


def _action(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["roll"] = roll_text(p.get("roll"))
    flat["effect"] = labels.signed(int(p.get("effect", 0)))


def _strategies_revealed(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["choices"] = "; ".join(
        f"{name(key)}: {choice_text(choice)}" for key, choice in p.items() if choice
    )


def _parley_answered(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["answer"] = _("accepts") if p.get("accepted") else _("refuses")


def _strategy_changed(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["strategy"] = labels.strategy_name(p.get("strategy", ""))


def _no_battle(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["strategies"] = " / ".join(labels.strategy_name(s) for s in p.get("strategies", ()))


def _misfortune(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["roll"] = roll_text(p.get("roll"))
    result = str(labels.MISFORTUNE_LABELS.get(p.get("result"), p.get("result")))
    if p.get("damage"):
        result += " " + _("(%(damage)s damage, HP %(hp)s)") % p
    flat["result"] = result


def _commander_replaced(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["successor"] = p.get("successor") or _("nobody")
    roll = roll_text(p.get("roll"))
    flat["roll"] = " " + _("(Leadership %(roll)s)") % {"roll": roll} if roll else ""
    flat["confused"] = " " + _("The force is confused.") if p.get("confused") else ""


def _rally(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["roll"] = roll_text(p.get("roll"))
    flat["result"] = _("rallied") if p.get("rallied") else _("still confused")


def _battle_ended(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["reason"] = labels.END_LABELS.get(p.get("reason"), p.get("reason") or "")
    victor = p.get("victor")
    flat["victor"] = (
        _("Victory for %(side)s.") % {"side": name(victor)} if victor else _("No victor.")
    )


def _pursuit_roll(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["side"] = name(p.get("side"))
    flat["roll"] = _("Leadership %(roll)s") % {"roll": roll_text(p.get("roll"))}
    if p.get("chooses"):
        flat["die"] = " — " + _("the victor chooses.")
    else:
        flat["die"] = " — " + _("1d %(die)s: %(choice)s.") % {
            "die": p.get("die"),
            "choice": _pursuit_choice(p.get("choice")),
        }


def _pursuit(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["choice"] = _pursuit_choice(p.get("choice"))
    if p.get("logistics_typed"):
        typed = _("logistics die %(die)s, typed at the table") % {"die": p.get("logistics_die")}
        flat["choice"] += f" ({typed})"
    for key in ("retreating", "logistics", "victor"):
        flat[key] = p.get(key, 0)


def _gm_circumstance(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    flat["value"] = labels.signed(int(p.get("value", 0)))


def _ts(value) -> str:
    return ts_text(value)


def _pursuit_choice(choice) -> str:
    return _("Pursue") if choice == "pursue" else _("Hold the field")


def _contest(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    strategies = p.get("strategies") or ("", "")
    flat["strategies"] = " / ".join(labels.strategy_name(s) for s in strategies)
    flat["rolls"] = "; ".join(
        f"{name(SIDE_KEYS[i])} {roll_text(roll)}" for i, roll in enumerate(p.get("rolls", ()))
    )
    winner = p.get("winner")
    if winner:
        margin = p.get("adjusted_margin", p.get("margin"))
        flat["winner"] = _("%(side)s wins by %(margin)s.") % {
            "side": name(winner),
            "margin": margin,
        }
    else:
        flat["winner"] = _("A tie.")
    casualties = p.get("casualties") or (0, 0)
    cumulative = p.get("cumulative") or (0, 0)
    flat["casualties"] = ", ".join(
        f"{name(SIDE_KEYS[i])} {value} %" for i, value in enumerate(casualties)
    )
    flat["cumulative"] = ", ".join(
        f"{name(SIDE_KEYS[i])} {value} %" for i, value in enumerate(cumulative)
    )
    after = p.get("pb_after") or (0, 0)
    flat["pb"] = ", ".join(f"{name(SIDE_KEYS[i])} {value}" for i, value in enumerate(after))


def _aftermath(p: dict[str, Any], flat: dict[str, Any], name) -> None:
    parts = []
    for key, data in (p.get("sides") or {}).items():
        line = _("%(side)s %(final)s %% final casualties") % {
            "side": name(key),
            "final": data.get("final_casualties"),
        }
        if "new_ts" in data:
            line += ", " + _("new TS %(ts)s") % {"ts": data["new_ts"]}
        if data.get("loot_value"):
            line += ", " + _("loot worth $%(value)s") % {"value": data["loot_value"]}
        parts.append(line)
    flat["sides"] = "; ".join(parts) + "."
    loot = p.get("loot") or {}
    flat["loot"] = (
        " "
        + _("%(side)s holds the field and may loot it for %(minutes)s minutes.")
        % {"side": name(loot["holder"]), "minutes": loot.get("minutes")}
        if loot.get("holder")
        else ""
    )


#: The pieces of each event's sentence beyond its plain params: code -> fill(p, flat, name),
#: which sets `flat`'s keys for EVENT_TEXTS[code] (`name` turns a side or PC key into its name).
_FILLS = {
    "gurps4e.battle_started": _battle_started,
    "gurps4e.recon": _recon,
    "gurps4e.battle_kind_chosen": _battle_kind_chosen,
    "gurps4e.battle_set": _battle_set,
    "gurps4e.risk_chosen": _risk_chosen,
    "gurps4e.significant_action": _action,
    "gurps4e.detailed_action": _action,
    "gurps4e.strategies_revealed": _strategies_revealed,
    "gurps4e.parley_answered": _parley_answered,
    "gurps4e.strategy_changed": _strategy_changed,
    "gurps4e.no_battle": _no_battle,
    "gurps4e.strategy_contest": _contest,
    "gurps4e.misfortune": _misfortune,
    "gurps4e.commander_replaced": _commander_replaced,
    "gurps4e.rally": _rally,
    "gurps4e.battle_ended": _battle_ended,
    "gurps4e.gm_ended": _battle_ended,
    "gurps4e.pursuit_roll": _pursuit_roll,
    "gurps4e.pursuit": _pursuit,
    "gurps4e.aftermath": _aftermath,
    "gurps4e.gm_circumstance": _gm_circumstance,
}
