"""GURPS Mass Combat 4e on the board: labels, strategy effects, the log's sentences and the
problem messages, in the page's language (the engine speaks in codes and numbers only).

Russian terms follow the glossary of the rules reference (gurps §A.8).
"""

import functools
from typing import Any

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from warfare.engine.systems.gurps4e.strategies import STRATEGIES, strategy_effects

STRATEGY_LABELS = {
    "all_out_attack": gettext_lazy("All-Out Attack"),
    "attack": gettext_lazy("Attack"),
    "deliberate_attack": gettext_lazy("Deliberate Attack"),
    "indirect_attack": gettext_lazy("Indirect Attack"),
    "all_out_defense": gettext_lazy("All-Out Defense"),
    "defense": gettext_lazy("Defense"),
    "deliberate_defense": gettext_lazy("Deliberate Defense"),
    "mobile_defense": gettext_lazy("Mobile Defense"),
    "parley": gettext_lazy("Parley"),
    "rally": gettext_lazy("Rally"),
    "fighting_retreat": gettext_lazy("Fighting Retreat"),
    "full_retreat": gettext_lazy("Full Retreat"),
    "raid": gettext_lazy("Raid"),
    "skirmish": gettext_lazy("Skirmish"),
}
GROUP_LABELS = {
    "attack": gettext_lazy("Attack strategies"),
    "defense": gettext_lazy("Defense strategies"),
    "retreat": gettext_lazy("Retreat strategies"),
    "raid_skirmish": gettext_lazy("Raid and Skirmish strategies"),
}
BATTLE_TYPE_LABELS = {
    "land": gettext_lazy("land"),
    "naval": gettext_lazy("naval"),
    "air": gettext_lazy("air"),
    "amphibious": gettext_lazy("amphibious"),
}
TERRAIN_LABELS = {
    "arctic": gettext_lazy("arctic"),
    "desert": gettext_lazy("desert"),
    "hills": gettext_lazy("hills"),
    "islands": gettext_lazy("islands, littoral"),
    "jungle": gettext_lazy("jungle"),
    "mountains": gettext_lazy("mountains"),
    "ocean": gettext_lazy("ocean"),
    "plains": gettext_lazy("plains"),
    "rural": gettext_lazy("rural (farmland)"),
    "swamp": gettext_lazy("swamp"),
    "urban": gettext_lazy("urban"),
    "woodlands": gettext_lazy("woodlands"),
}


def terrain_with_rating(key: str, rating: int) -> str:
    """ "plains (TR 2)": the terrain and its Terrain Rating (§A.3)."""
    return _("%(terrain)s (TR %(rating)s)") % {
        "terrain": TERRAIN_LABELS.get(key, key),
        "rating": rating,
    }


terrain_with_rating_lazy = lazy(terrain_with_rating, str)
"""For choices built when the module loads: translated when shown, in the page's language."""

KIND_LABELS = {
    "pitched": gettext_lazy("pitched battle"),
    "encounter": gettext_lazy("encounter battle"),
    "avoid": gettext_lazy("withdraw and avoid battle"),
}
RECON_RESULT_LABELS = {
    "surprise": gettext_lazy("surprise attack"),
    "ambush": gettext_lazy("ambush"),
    "initiative": gettext_lazy("initiative"),
    "tie": gettext_lazy("tie"),
    "double_critical_failure": gettext_lazy("both sides critically fail"),
}
DEGREE_LABELS = {
    "critical_success": gettext_lazy("critical success"),
    "success": gettext_lazy("success"),
    "failure": gettext_lazy("failure"),
    "critical_failure": gettext_lazy("critical failure"),
}
END_LABELS = {
    "destroyed": gettext_lazy("a force is destroyed (all its troops are casualties)"),
    "mutual_destruction": gettext_lazy("mutual destruction"),
    "retreat": gettext_lazy("a force left the field"),
    "avoided": gettext_lazy("the battle was avoided"),
    "gm": gettext_lazy("the GM ended the battle"),
}
PC_STATUS_LABELS = {
    "active": gettext_lazy("fighting"),
    "down": gettext_lazy("down"),
    "captured": gettext_lazy("captured"),
}
MISFORTUNE_LABELS = {
    "unharmed": gettext_lazy("unharmed"),
    "injured": gettext_lazy("injured"),
    "rescued": gettext_lazy("down, rescued by their side"),
    "captured": gettext_lazy("down and captured"),
    "surrendered": gettext_lazy("surrendered"),
}
CLASS_LABELS = {
    "Air": gettext_lazy("Air"),
    "Arm": gettext_lazy("Armor"),
    "Art": gettext_lazy("Artillery"),
    "C3I": gettext_lazy("C3I"),
    "Cav": gettext_lazy("Cavalry"),
    "F": gettext_lazy("Fire"),
    "Eng": gettext_lazy("Engineering"),
    "Nav": gettext_lazy("Naval"),
    "Rec": gettext_lazy("Recon"),
    "T": gettext_lazy("Transport"),
}
TERM_LABELS = {
    "skill.strategy": gettext_lazy("Strategy"),
    "skill.tactics": gettext_lazy("Tactics (1-4 elements)"),
    "bsm.relative_ts": gettext_lazy("relative TS"),
    "bsm.casualties": gettext_lazy("casualties"),
    "db": gettext_lazy("Defense Bonus"),
    "db.halved": gettext_lazy("Defense Bonus, halved by Deliberate Attack"),
    "risk": gettext_lazy("Risk"),
    "significant_actions": gettext_lazy("significant actions"),
    "desperate": gettext_lazy("Desperate"),
    "parley_refused": gettext_lazy("refused Parley"),
    "confused_retreat": gettext_lazy("confused"),
    "repeated": gettext_lazy("used last round too"),
    "pb": gettext_lazy("Position Bonus"),
    "gm_circumstance": gettext_lazy("special circumstances (GM)"),
    "leadership": gettext_lazy("Leadership"),
    "rally": gettext_lazy("Rally"),
    "significant.base": gettext_lazy("base"),
    "skill_15": gettext_lazy("skill 15+ or a useful ability"),
    "commands_element": gettext_lazy("commands an element"),
    "fanatic_or_impetuous": gettext_lazy("Fanatic or Impetuous element"),
    "support_or_logistics": gettext_lazy("support element or logistics"),
    "misfortune.chance": gettext_lazy("chance by this round's casualties"),
    "recon.base": gettext_lazy("average of Intelligence Analysis and Strategy"),
    "recon.flying": gettext_lazy("flying"),
    "recon.march": gettext_lazy("on the march"),
    "recon.lax_security": gettext_lazy("lax security"),
    "recon.no_rec": gettext_lazy("no Recon elements"),
    "recon.all_rec": gettext_lazy("all elements Recon"),
    "recon.recon_bonus": gettext_lazy("Recon bonus (GM)"),
    "recon.relations": gettext_lazy("relations with the locals"),
    "recon.road": gettext_lazy("road"),
    "recon.faster": gettext_lazy("faster"),
    "recon.terrain_feature": gettext_lazy("terrain feature"),
    "recon.entrenched": gettext_lazy("entrenched"),
    "recon.gm": gettext_lazy("GM modifier"),
}


def strategy_name(key: str, *, language: str | None = None) -> str:
    """A strategy's name in `language` (the page's when None)."""
    return _strategy_name(language if language is not None else get_language() or "", key)


@functools.lru_cache(maxsize=512)
def _strategy_name(_language: str, key: str) -> str:
    return str(STRATEGY_LABELS.get(key, key))


def class_name(code: str) -> str:
    return str(CLASS_LABELS.get(code, code))


def term_label(code: str, *, language: str | None = None) -> str:
    """The label of one addend of a roll's breakdown, in `language` (the page's when None;
    built once per language and code)."""
    return _term_label(language if language is not None else get_language() or "", code)


@functools.lru_cache(maxsize=2048)
def _term_label(_language: str, code: str) -> str:
    if code in TERM_LABELS:
        return str(TERM_LABELS[code])
    if code.startswith("bsm.superiority."):
        return _("%(cls)s superiority") % {"cls": class_name(code.rsplit(".", 1)[1])}
    if code.startswith("strategy_superiority."):
        return _("%(cls)s superiority (strategy)") % {"cls": class_name(code.rsplit(".", 1)[1])}
    if code.startswith("strategy."):
        return strategy_name(code.removeprefix("strategy."))
    if code.startswith("db.terrain."):
        return _("terrain: %(terrain)s") % {
            "terrain": TERRAIN_LABELS.get(code.rsplit(".", 1)[1], code)
        }
    return code


def signed(value: int) -> str:
    """+2, 0 as +0, −3 (a true minus sign)."""
    return f"{value:+d}".replace("-", "−")


def working(terms, *, language: str | None = None) -> str:
    """A breakdown as one line: "Strategy 14 +2 relative TS −1 casualties" (worded once per
    language and breakdown: a board shows each strategy's; `language`: the page's when
    None)."""
    try:
        key = tuple([(code, value.__class__, value) for code, value in terms])  # 1, 1.0: two
        return _working(language if language is not None else get_language() or "", key)
    except TypeError:  # a term that is no key (not hashable)
        return _worded(terms)


@functools.lru_cache(maxsize=4096)
def _working(_language: str, terms: tuple) -> str:
    return _worded([(code, value) for code, _type, value in terms])


def _worded(terms) -> str:
    parts = []
    for index, (code, value) in enumerate(terms):
        number = str(value) if index == 0 else signed(int(value))
        parts.append(f"{term_label(str(code))} {number}")
    return " ".join(parts)


def signed_working(terms) -> str:
    """Terms that are all modifiers: "+2 relative TS +1 Fire superiority"."""
    return " ".join(f"{signed(int(value))} {term_label(str(code))}" for code, value in terms)


def _when(value: str) -> str:
    return {
        "always": _("always"),
        "win_or_tie": _("if it wins or ties"),
        "on_loss": _("if it loses"),
    }.get(value, value)


def effect_text(code: str, params: dict[str, Any]) -> str:
    """One effect of a strategy (gurps §A.6.3, `strategies.strategy_effects`)."""
    p = dict(params)
    texts = {
        "strategy.group": lambda: str(GROUP_LABELS.get(p.get("group"), p.get("group"))),
        "strategy.modifier": lambda: (
            _("%(value)s to the Strategy roll") % {"value": signed(p["value"])}
        ),
        "strategy.own_casualties_multiplied": lambda: _("own casualties ×%(factor)s") % p,
        "strategy.enemy_casualties_on_win": lambda: _("if it wins: enemy +%(percent)s %%") % p,
        "strategy.enemy_casualties_on_win_or_tie": lambda: (
            _("if it wins or ties: enemy +%(percent)s %%") % p
        ),
        "strategy.own_casualties_reduced": lambda: _("own casualties −%(percent)s %%") % p,
        "strategy.own_casualties_reduced_on_loss_or_tie": lambda: (
            _("own casualties −%(percent)s %% if it loses or ties") % p
        ),
        "strategy.enemy_casualties_halved": lambda: _("enemy casualties halved"),
        "strategy.full_retreat_casualties": lambda: (
            _("own casualties −%(own_minus)s %%, the enemy takes none") % p
        ),
        "strategy.superiority_bonus": lambda: (
            _("+%(value)s with %(cls)s superiority")
            % {"value": p["value"], "cls": class_name(p["cls"])}
        ),
        "strategy.superiority_bonus_any": lambda: (
            _("+%(value)s with superiority in %(classes)s")
            % {"value": p["value"], "classes": ", ".join(class_name(c) for c in p["classes"])}
        ),
        "strategy.gains_pb_on_win": lambda: _("gains Position Bonus on a win"),
        "strategy.enemy_pb_gain_shift": lambda: (
            _("enemy's Position Bonus gain %(value)s") % {"value": signed(p["value"])}
        ),
        "strategy.enemy_pb_on_tie": lambda: _("on a tie the enemy gains %(value)s PB") % p,
        "strategy.reduces_enemy_pb": lambda: _("a win reduces the enemy's Position Bonus"),
        "strategy.casualties_to_enemy_logistics": lambda: _(
            "a win may hit the enemy's logistics instead"
        ),
        "strategy.uses_db": lambda: _("uses the Defense Bonus"),
        "strategy.slow": lambda: _("slow: the enemy may change its strategy once"),
        "strategy.not_desperate": lambda: _("not with Desperate"),
        "strategy.not_in_encounter_battle": lambda: _("not in an encounter battle"),
        "strategy.not_if_started_confused": lambda: _("not by a force that began confused"),
        "strategy.only_when_confused": lambda: _("only for a confused force"),
        "strategy.needs_db_first_round_or_siege": lambda: _(
            "needs a Defense Bonus, and round 1 or a siege"
        ),
        "strategy.leaves_field": lambda: (
            _("leaves the field: %(when)s") % {"when": _when(p["when"])}
        ),
        "strategy.logistics_share_casualties": lambda: (
            _("its casualties also hit its logistics: %(when)s") % {"when": _when(p["when"])}
        ),
        "strategy.margin_multiplied": lambda: (
            _("a winning margin ×%(first)s (first use), ×%(later)s later")
            % {"first": f"{p['first']:g}", "later": f"{p['later']:g}"}
        ),
        "strategy.repeat_modifier": lambda: (
            _("%(value)s if used the round before") % {"value": signed(p["value"])}
        ),
        "strategy.own_margin_halved": lambda: _("its winning margin is halved"),
        "strategy.confused_modifier": lambda: (
            _("%(value)s if confused") % {"value": signed(p["value"])}
        ),
    }
    text = texts.get(code)
    return text() if text else code


#: {(language, strategy): its effect lines}: static texts, built once per language (a board
#: shows every strategy's effects; rebuilding them took ~1,360 translation look-ups a render).
_EFFECT_LINES: dict[tuple[str, str], tuple[str, ...]] = {}


def strategy_effect_lines(key: str, *, language: str | None = None) -> list[str]:
    """Every effect of strategy `key` as a line (the group first), in `language` (the page's
    when None)."""
    cache_key = (language if language is not None else get_language() or "", key)
    lines = _EFFECT_LINES.get(cache_key)
    if lines is None:
        lines = tuple(effect_text(e["code"], e["params"]) for e in strategy_effects(key))
        _EFFECT_LINES[cache_key] = lines
    return list(lines)


STRATEGY_KEYS = tuple(STRATEGIES)

PROBLEM_TEXTS = {
    "gurps4e.strategy.unknown": gettext_lazy("There is no strategy “%(strategy)s”."),
    "gurps4e.strategy.confused": gettext_lazy(
        "A confused force must Rally or make a Full Retreat."
    ),
    "gurps4e.strategy.not_confused": gettext_lazy("Only a confused force rallies."),
    "gurps4e.strategy.encounter_battle": gettext_lazy(
        "Not in an encounter battle (no Deliberate Attack or Defense)."
    ),
    "gurps4e.strategy.mobile_first_round": gettext_lazy(
        "In round 1 of an encounter battle a mobile force may not retreat nor defend, except by "
        "Mobile Defense."
    ),
    "gurps4e.strategy.ambusher_first_round": gettext_lazy(
        "The ambusher may not use a Defense strategy in round 1."
    ),
    "gurps4e.strategy.started_confused": gettext_lazy(
        "A force that began the battle confused may not make a Deliberate Attack."
    ),
    "gurps4e.strategy.needs_db_first_round": gettext_lazy(
        "Deliberate Defense needs a Defense Bonus, and round 1 or a siege."
    ),
    "gurps4e.strategy.not_desperate": gettext_lazy("This strategy cannot be Desperate."),
    "gurps4e.strategy.desperate_not_allowed": gettext_lazy(
        "Desperate needs casualties at least 25 points above the enemy's (%(casualties)s %% "
        "against %(enemy_casualties)s %%)."
    ),
    "gurps4e.strategy.no_parley_after_reveal": gettext_lazy(
        "Parley cannot be chosen after the reveal."
    ),
    "gurps4e.risk.out_of_range": gettext_lazy("Risk is a whole number from %(min)s to %(max)s."),
    "gurps4e.command.not_your_choice": gettext_lazy("That choice is not yours to make now."),
    "gurps4e.command.bad_params": gettext_lazy("That choice was not understood."),
    "gurps4e.command.unknown": gettext_lazy("That action was not understood."),
    "gurps4e.command.unknown_actor": gettext_lazy("Nobody of that name fights here."),
    "gurps4e.command.battle_over": gettext_lazy("This battle is over."),
    "gurps4e.command.gm_only": gettext_lazy("Only the GM does that."),
    "gurps4e.command.wrong_phase": gettext_lazy("Not at this step of the round."),
    "gurps4e.significant.already_rolled": gettext_lazy(
        "This character's choice for the round is already made."
    ),
    "gurps4e.battle_kind.cannot_avoid": gettext_lazy("This force cannot avoid the battle."),
    "gurps4e.battle_kind.unknown": gettext_lazy("Choose a pitched or an encounter battle."),
    "gurps4e.setup.bad_battle_type": gettext_lazy("Unknown type of battle."),
    "gurps4e.setup.bad_terrain": gettext_lazy("Unknown terrain."),
    "gurps4e.setup.two_sides_needed": gettext_lazy("A battle needs two sides."),
    "gurps4e.setup.bad_pc_key": gettext_lazy("Every PC needs a name of its own."),
    "gurps4e.setup.bad_pc": gettext_lazy("A PC of side %(side)s cannot be read."),
    "gurps4e.setup.malformed": gettext_lazy("The battle's set-up cannot be read (%(field)s)."),
    "gurps4e.setup.bad_recon": gettext_lazy("The reconnaissance conditions cannot be read."),
    "gurps4e.setup.house_rule_fixed": gettext_lazy(
        "House rule %(key)s is a fixed reading and cannot be changed."
    ),
    "gurps4e.setup.bad_house_rule": gettext_lazy("House rule %(key)s: that value does not fit."),
    "gurps4e.setup.no_element_takes_part": gettext_lazy(
        "No element of side %(side)s can fight in this type of battle."
    ),
    "gurps4e.setup.unknown_element": gettext_lazy(
        "A PC of side %(side)s fights in an element its force does not have."
    ),
    "gurps4e.setup.unknown_successor_pc": gettext_lazy(
        "A successor of side %(side)s is not one of its PCs."
    ),
    "gurps4e.setup.two_commanders": gettext_lazy("A side has one commander."),
    "gurps4e.setup.bad_kind": gettext_lazy("Choose a pitched or an encounter battle."),
    "gurps4e.setup.bad_initiative": gettext_lazy("The initiative goes to side A, side B or none."),
    "gurps4e.setup.bad_db": gettext_lazy("A Defense Bonus is a whole number, 0 or more."),
    "gurps4e.setup.unknown_house_rule": gettext_lazy("Unknown house rule %(key)s."),
    "gurps4e.setup.bad_force": gettext_lazy("Force %(force)s cannot be read."),
    "gurps4e.setup.force_without_elements": gettext_lazy("Force %(force)s has no elements."),
    "gurps4e.setup.duplicate_element": gettext_lazy("Force %(force)s lists an element twice."),
    "gurps4e.setup.bad_element": gettext_lazy("Force %(force)s has a bad element row."),
    "gurps4e.setup.bad_troop_quality": gettext_lazy("Force %(force)s: unknown troop quality."),
    "gurps4e.setup.bad_equipment_quality": gettext_lazy(
        "Force %(force)s: unknown equipment quality."
    ),
    "gurps4e.setup.unknown_class": gettext_lazy("Unknown class %(cls)s."),
    "gurps4e.setup.bad_posture": gettext_lazy("Force %(force)s: unknown posture."),
    "gurps4e.setup.bad_relations": gettext_lazy("Force %(force)s: unknown relations."),
}
