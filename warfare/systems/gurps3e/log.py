"""GURPS 3e battle codes as words and sentences in the page's language (gurps Part B; the
Russian terms follow the glossary §B.9)."""

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from warfare.words import per_language, worded

ROLE_LABELS = {"attacker": _("attacker"), "defender": _("defender")}
PC_ROLE_LABELS = {
    "trooper": _("trooper"),
    "unit_commander": _("unit commander"),
    "army_commander": _("army commander"),
}
STATUS_LABELS = {"fit": _("fit"), "unconscious": _("unconscious"), "dead": _("dead")}
SURVIVAL_LABELS = {
    "unhurt": _("unhurt"),
    "one_hit": _("1 hit"),
    "two_hits": _("2 hits"),
    "A": _("damage column A"),
    "B": _("damage column B"),
    "C": _("damage column C"),
    "D": _("damage column D"),
}
GLORY_LABELS = {
    "critical_success": _("critical success"),
    "made_7": _("made by 7+"),
    "made_4_6": _("made by 4-6"),
    "made_0_3": _("made by 0-3"),
    "missed_1_3": _("missed by 1-3"),
    "missed_4_6": _("missed by 4-6"),
    "missed_7": _("missed by 7+"),
}
CATEGORY_LABELS = {
    "tie": _("a tie"),
    "no_clear_winner": _("no clear winner"),
    "minor_victory": _("minor victory"),
    "significant_victory": _("significant victory"),
    "great_victory": _("great victory"),
    "overwhelming_victory": _("overwhelming victory"),
}
MORALE_TEST_LABELS = {
    "half_hold": _("it holds if at least half of its troops make Morale"),
    "per_unit_rout": _("each unit that fails Morale routs"),
}
REACTION_LABELS = {
    "disastrous": _("disastrous"),
    "very_bad": _("very bad"),
    "bad": _("bad"),
    "poor": _("poor"),
    "neutral": _("neutral"),
    "good": _("good"),
    "very_good": _("very good"),
    "excellent": _("excellent"),
}
EFFECT_LABELS = {
    "favour": _("high command looks favourably on him"),
    "promotion": _("promoted one rank"),
    "elite_offer": _("offered an elite unit"),
    "possible_demotion": _("possible demotion"),
}
LIMIT_LABELS = {
    "coward": _("coward"),
    "in_reserve": _("in reserve"),
    "overconfident": _("overconfident"),
    "berserk": _("berserk"),
}
DEGREE_LABELS = {
    "critical_success": _("critical success"),
    "success": _("success"),
    "failure": _("failure"),
    "critical_failure": _("critical failure"),
}
DEFENSIVE_LABELS = {
    "higher_ground": _("the attacker attacks from higher ground"),
    "emerges_from_cover": _("the attacker emerges from cover"),
    "gentle_slope": _("gentle slope"),
    "steep_slope": _("steep slope"),
    "steep_slope_difficult_footing": _("steep slope, difficult footing"),
    "narrow_passage": _("narrow passage (gorge, pass, ford, bridge)"),
    "fieldworks": _("palisade, breastwork, trenches, rampart or unfordable river"),
    "manor_town_fort": _("manor, unwalled town or fort"),
    "walled_town": _("walled town"),
    "castle": _("castle"),
}
MORALE_LABELS = {
    "hereditary_enemy": _("war against a hereditary enemy"),
    "homeland": _("defending the homeland"),
    "beat_enemy_this_year": _("beat the same enemy this year"),
    "lost_to_enemy_this_year": _("lost to the same enemy this year"),
    "enemy_spy_network": _("an enemy spy network works inside the army"),
    "treachery_failed": _("failed the Morale roll forced by a treachery"),
    "treachery_anger": _("made the Morale roll forced by a treachery"),
    "extra_pay_50": _("extra pay last month: +50%"),
    "extra_pay_100": _("extra pay last month: at least +100%"),
}
TERM_LABELS = {
    "strategy": _("Strategy"),
    "ts_ratio": _("TS ratio"),
    "tl_difference": _("TL difference"),
    "leader_down": _("leader knocked out (house default)"),
    "catastrophe": _("catastrophe"),
    "other": _("other (GM)"),
    "combat_skill": _("Combat Skill"),
    "risk": _("Risk"),
    "morale": _("Base Morale"),
    "result": _("battle result"),
    "previous_day": _("previous day"),
    "crt_base": _("base % (house default)"),
    "armour.heavy": _("heavy armour"),
    "armour.medium": _("medium armour"),
    "armour.light": _("light armour"),
    "rout": _("rout"),
    "intensity": _("intensity"),
    "gm": _("GM-entered"),
}


def term_label(code: str, names: Mapping[str, str] | None = None) -> str:
    """A breakdown term's label: Strategy, TS ratio, a defensive item, a PC's Glory…"""
    if code.startswith("glory."):
        pc = code.removeprefix("glory.")
        return gettext("Glory of %(pc)s") % {"pc": (names or {}).get(pc, pc)}
    return _term_label(get_language() or "", code)


@functools.lru_cache(maxsize=1024)
def _term_label(_language: str, code: str) -> str:
    """A label that names no PC, worded once per language and code (a board shows dozens)."""
    if code in TERM_LABELS:
        return str(TERM_LABELS[code])
    if code.startswith("defensive."):
        item = code.removeprefix("defensive.")
        return str(DEFENSIVE_LABELS.get(item, item))
    if code.removeprefix("morale.") in MORALE_LABELS:
        return str(MORALE_LABELS[code.removeprefix("morale.")])
    return code


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"{value}".replace("-", "−")


def working(
    terms: Sequence[Sequence[Any]], names: Mapping[str, str] | None = None, *, language=None
) -> str:
    """ "Strategy 14, TS ratio +3, castle +8" from (code, value) terms (`language`: the
    page's when None)."""
    language = language if language is not None else get_language() or ""
    parts = []
    for index, (code, value) in enumerate(terms):
        shown = str(value) if index == 0 else signed(int(value))
        code = str(code)
        if code.startswith("glory."):
            worded = term_label(code, names)
        else:
            worded = _term_label(language, code)
        parts.append(f"{worded} {shown}")
    return ", ".join(parts)


@per_language
def _roll_words() -> dict[str, str]:
    """The words of `roll_text`, translated once per language."""
    return {
        "typed": gettext("(typed at the table)"),
        "critical_success": gettext("critical success"),
        "critical_failure": gettext("critical failure"),
        "made": gettext("made by %(margin)s"),
        "missed": gettext("missed by %(margin)s"),
        "unseen": gettext("3d6 %(roll)s (%(dice)s), %(how)s"),
        "seen": gettext("3d6 %(roll)s (%(dice)s) vs %(skill)s, %(how)s"),
    }


def roll_text(roll: Mapping[str, Any], *, language=None) -> str:
    """ "3d6 10 (3+4+3) vs 13, made by 3" for a 3d6 success roll's dict (dice rolled at the
    table marked as typed); a roll whose skill the viewer may not see (an enemy's, its skill
    and margin left out) reads "3d6 10 (3+4+3), success" (`language`: the page's when
    None)."""
    language = language if language is not None else get_language() or ""
    words = _roll_words(language)
    dice = "+".join(map(str, roll.get("dice", ())))
    if roll.get("typed"):
        dice += " " + words["typed"]
    margin = roll.get("margin", 0)
    degree = roll.get("degree")
    if degree == "critical_success":
        how = words["critical_success"]
    elif degree == "critical_failure":
        how = words["critical_failure"]
    elif "skill" not in roll:
        how = worded(DEGREE_LABELS, degree or "", language=language)
    elif degree == "success":
        how = words["made"] % {"margin": margin}
    else:
        how = words["missed"] % {"margin": -margin if margin < 0 else margin}
    if "skill" not in roll:
        return words["unseen"] % {
            "roll": roll.get("roll"),
            "dice": dice,
            "how": how,
        }
    return words["seen"] % {
        "roll": roll.get("roll"),
        "dice": dice,
        "skill": roll.get("skill"),
        "how": how,
    }


EVENT_TEXTS = {
    "battle.started": _("The battle begins: %(forces)s."),
    "battle.day_started": _("Day %(day)s begins: every fit PC chooses Risk."),
    "battle.risk_chosen": _("%(pc)s chooses Risk %(risk)s%(luck)s."),
    "battle.committed": _("The commander of %(side)s is ready for the Strategy contest."),
    "battle.gm_modifiers": _("The GM sets modifiers: %(changes)s."),
    "pc.survival": _(
        "%(pc)s: Survival roll %(roll)s: %(result)s; %(damage)s damage, HT %(ht_before)s → "
        "%(ht)s (%(status)s)."
    ),
    "pc.glory": _(
        "%(pc)s: Glory roll %(roll)s: %(row)s; reputation %(reputation)s; Strategy of his "
        "side %(modifier)s."
    ),
    "battle.strategy_contest": _(
        "Quick Contest of Strategy: %(first_side)s %(first)s; %(second_side)s %(second)s; "
        "%(winner)s by %(margin)s."
    ),
    "battle.result": _("Result: %(category)s%(winner)s."),
    "battle.morale": _("%(side)s rolls Morale (%(test)s): %(rolls)s; %(outcome)s."),
    "battle.retreat": _("%(side)s retreats."),
    "battle.commander_captured": _("The commander of %(side)s is captured."),
    "battle.commander_lost": _(
        "%(side)s has lost its army commander %(pc)s: its Morale suffers until it wins a clear "
        "victory."
    ),
    "battle.casualties_needed": _("The GM enters the casualties of %(count)s units."),
    "battle.casualties": _("Casualties of %(side)s (%(mode)s): %(units)s."),
    "pc.called_coward": _("%(pc)s is publicly called a coward."),
    "pc.reaction": _(
        "High command reacts to %(pc)s: 3d6 %(roll)s + reputation %(reputation)s = %(total)s, "
        "%(band)s%(effects)s."
    ),
    "battle.ended": _("The battle is over after %(day)s days: %(winner)s%(how)s."),
}
#: How the winner of a battle was found (battle.ended "decided_by"): a sentence after it.
DECIDED_BY_TEXTS = {
    "left_field": _("the other side left the field (§B.8.1)"),
    "days": _("won on its days: clear victories %(clear)s, days won %(won)s"),
}


def _name(names: Mapping[str, str], key: Any) -> str:
    return names.get(key, key) if isinstance(key, str) else ""


def event_params(code: str, params: Mapping[str, Any], names: Mapping[str, str]) -> dict:
    """The params of a 3e event's sentence: names put in, rolls and lists written out."""
    p = dict(params)
    shown: dict[str, Any] = {**p}
    for key in ("pc", "side"):
        if key in p:
            shown[key] = _name(names, p[key])
    if code == "battle.started":
        shown["forces"] = "; ".join(
            (
                gettext("%(side)s (%(role)s, TL %(tl)s, TS %(ts)s)")
                if "ts" in f
                else gettext("%(side)s (%(role)s, TL %(tl)s)")
            )
            % {
                "side": _name(names, f["side"]),
                "role": ROLE_LABELS.get(f["role"], f["role"]),
                "tl": f["tl"],
                "ts": f.get("ts"),
            }
            for f in p.get("forces", ())
        )
    elif code == "battle.risk_chosen":
        shown["risk"] = signed(int(p["risk"]))
        shown["luck"] = gettext(", using Luck") if p.get("use_luck") else ""
    elif code == "battle.gm_modifiers":
        parts = []
        if "side" in p:
            parts.append(_name(names, p["side"]))
        for field, label in (("catastrophe", TERM_LABELS["catastrophe"]),
                             ("other", TERM_LABELS["other"]),
                             ("intensity", TERM_LABELS["intensity"])):  # fmt: skip
            if field in p:
                parts.append(f"{label} {signed(int(p[field]))}")
        shown["changes"] = ", ".join(parts)
    elif code == "pc.survival":
        rolls = p.get("rolls") or [{}]
        used = rolls[p.get("used", 0)] if p.get("used", 0) < len(rolls) else rolls[0]
        shown["roll"] = roll_text(used)
        if len(rolls) > 1:
            shown["roll"] += " " + gettext("(Luck: best of %(count)s)") % {"count": len(rolls)}
        shown["result"] = str(SURVIVAL_LABELS.get(p.get("result"), p.get("result")))
        shown["status"] = str(STATUS_LABELS.get(p.get("status"), p.get("status")))
    elif code == "pc.glory":
        shown["roll"] = roll_text(p.get("roll") or {})
        shown["row"] = str(GLORY_LABELS.get(p.get("row"), p.get("row")))
        gained = [
            signed(int(e["value"]))
            + (
                " " + gettext("for %(months)s months") % {"months": e["duration"]["months"]}
                if e.get("duration") and e["duration"].get("months")
                else " " + gettext("permanent")
            )
            for e in p.get("reputation") or ()
        ]
        shown["reputation"] = ", ".join(gained) or "0"
        shown["modifier"] = signed(int(p.get("strategy_modifier", 0)))
    elif code == "battle.strategy_contest":
        sides = p.get("sides") or ["", ""]
        shown["first_side"] = _name(names, sides[0])
        shown["second_side"] = _name(names, sides[1])
        shown["first"] = roll_text(p.get("first") or {})
        shown["second"] = roll_text(p.get("second") or {})
        winner = p.get("winner_side")
        won = gettext("%(side)s wins") % {"side": _name(names, winner)}
        shown["winner"] = won if winner else gettext("a tie")
        shown["margin"] = p.get("margin_of_victory", 0)
    elif code == "battle.result":
        shown["category"] = str(CATEGORY_LABELS.get(p.get("category"), p.get("category")))
        winner = p.get("winner")
        won = gettext(" for %(side)s") % {"side": _name(names, winner)}
        shown["winner"] = won if winner else ""
    elif code == "battle.morale":
        shown["test"] = str(MORALE_TEST_LABELS.get(p.get("test"), p.get("test")))
        shown["rolls"] = ", ".join(
            f"{_name(names, r['unit'])} {roll_text(r['roll'])}" for r in p.get("rolls") or ()
        )
        if "holds" in p:
            shown["outcome"] = gettext("it holds") if p["holds"] else gettext("it retreats")
        else:
            routed = [_name(names, key) for key in p.get("routed") or ()]
            shown["outcome"] = (
                gettext("routed: %(units)s") % {"units": ", ".join(routed)}
                if routed
                else gettext("no unit routs")
            )
    elif code == "battle.casualties_needed":
        shown["count"] = len(p.get("units") or ())
    elif code == "battle.casualties":
        shown["mode"] = gettext("GM-entered") if p.get("mode") == "gm" else gettext("house default")
        shown["units"] = (
            ", ".join(
                (
                    gettext("%(unit)s %(percent)s%% (%(lost)s men, %(left)s left)")
                    if "men_lost" in r
                    else gettext("%(unit)s %(percent)s%%")
                )
                % {
                    "unit": _name(names, r["unit"]),
                    "percent": r["percent"],
                    "lost": r.get("men_lost"),
                    "left": r.get("men_after"),
                }
                for r in p.get("units") or ()
            )
            or "—"
        )
    elif code == "pc.reaction":
        shown["roll"] = (p.get("roll") or {}).get("total")
        shown["band"] = str(REACTION_LABELS.get(p.get("band"), p.get("band")))
        effects = [str(EFFECT_LABELS.get(e, e)) for e in p.get("effects") or ()]
        shown["effects"] = ": " + ", ".join(effects) if effects else ""
    elif code == "battle.ended":
        winner = p.get("winner")
        shown["winner"] = (
            gettext("victory for %(side)s") % {"side": _name(names, winner)}
            if winner
            else gettext("nobody holds the field")
        )
        how = decided_by_text(p.get("decided_by"), p.get("days_won"))
        if p.get("decided_by") == "days":
            how += " " + gettext("(house default)")
        shown["how"] = f", {how}" if how else ""
    return shown


def decided_by_text(decided_by: str | None, days_won: Mapping[str, Any] | None = None) -> str:
    """Why the battle has its winner ("" for a one-day battle: its day decides)."""
    template = DECIDED_BY_TEXTS.get(decided_by or "")
    if template is None:
        return ""
    tally = list((days_won or {}).values())
    return str(template) % {
        "clear": " : ".join(str(t.get("clear", 0)) for t in tally),
        "won": " : ".join(str(t.get("won", 0)) for t in tally),
    }
