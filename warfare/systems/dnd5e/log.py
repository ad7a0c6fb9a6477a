"""D&D 5e battle events and problems as sentences in the page's language.

`EVENT_TEXTS` is the plugin's {code: sentence}; `event_line` fills one for a viewer: piece keys
become names, squares "(x, y)", and the numbers the viewer may not see (another side's HP,
Stealth rolls) are left out (`HIDDEN_PARAMS`).
"""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from warfare.engine.problems import Problem
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.messages import NOT_ALLOWED
from warfare.systems.dnd5e.labels import attack_name
from warfare.words import per_language

EVENT_TEXTS = {
    "dnd5e.initiative": _("%(actor)s: initiative d20 %(die)s%(typed)s %(modifier)s = %(total)s."),
    "dnd5e.typed_dice": _("%(actor)s: the dice of this action were rolled at the table%(dice)s."),
    "dnd5e.round": _("Round %(round)s begins."),
    "dnd5e.turn": _("%(actor)s takes its turn."),
    "dnd5e.turn_end": _("%(actor)s ends its turn."),
    "dnd5e.surprised": _("%(actor)s is surprised."),
    "dnd5e.placed": _("%(piece)s deploys at %(square)s."),
    "dnd5e.moved": _("%(piece)s moves to %(square)s."),
    "dnd5e.fled": _("%(piece)s leaves the battlefield."),
    "dnd5e.action": _("%(actor)s: %(kind)s."),
    "dnd5e.dash": _("%(actor)s dashes: twice its speed this turn."),
    "dnd5e.retreat": _("%(actor)s retreats: its stands may move away from adjacent enemies."),
    "dnd5e.attack": _("%(piece)s attacks %(target)s (%(attack)s): %(roll)s, %(result)s."),
    "dnd5e.damage": _("%(target)s takes %(amount)s damage%(hp)s."),
    "dnd5e.casualty": _("%(stand)s drops to 0 HP: a casualty."),
    "dnd5e.overflow": _("%(amount)s damage overflows from %(from)s to %(to)s."),
    "dnd5e.solo_down": _("%(solo)s drops to 0 HP."),
    "dnd5e.solo_dead": _("%(solo)s dies."),
    "dnd5e.aid": _("%(stand)s aids %(helps)s."),
    "dnd5e.configured": _("%(unit)s changes configuration: %(from)s → %(to)s."),
    "dnd5e.hide": _("%(piece)s tries to hide%(roll)s: %(result)s."),
    "dnd5e.cast": _("%(piece)s casts %(spell)s."),
    "dnd5e.spell_attack": _("Spell attack on %(target)s: %(roll)s, %(result)s."),
    "dnd5e.spell_save": _("%(target)s saves%(roll)s: %(result)s, %(damage)s damage."),
    "dnd5e.joined": _("%(solo)s joins %(stand)s."),
    "dnd5e.left": _("%(solo)s leaves its stand for %(square)s."),
    "dnd5e.switched": _("%(solo)s switches to %(stand)s."),
    "dnd5e.command_taken": _("%(solo)s takes command of %(unit)s."),
    "dnd5e.command_lost": _("%(unit)s loses its commander %(solo)s."),
    "dnd5e.prepare": _("%(solo)s prepares %(unit)s: d20 %(die)s %(cha)s vs DC %(dc)s, %(result)s."),
    "dnd5e.incite": _("%(solo)s incites %(unit)s: d20 %(die)s %(cha)s vs DC %(dc)s, %(result)s."),
    "dnd5e.rally": _("%(unit)s tries to rally (“Close ranks!”): %(roll)s, %(result)s."),
    "dnd5e.morale": _("%(unit)s checks morale: %(roll)s, %(result)s."),
    "dnd5e.end_of_round": _("Round %(round)s ends: casualties are removed."),
    "dnd5e.eliminated": _("%(stand)s is eliminated."),
    "dnd5e.freed": _("%(solo)s stands alone where %(stand)s fell."),
    "dnd5e.offers": _("Gaps to close: %(units)s."),
    "dnd5e.slid_in": _("%(stand)s closes the gap at %(square)s."),
    "dnd5e.death_saves": _("%(solo)s makes death saves: %(rolls)s."),
    "dnd5e.vp": _("%(side)s scores %(vp)s VP for %(objective)s (%(total)s in all)."),
    "dnd5e.objective_destroyed": _("Objective square %(square)s is destroyed."),
    "dnd5e.objective_met": _("The GM marks “%(objective)s” as achieved."),
    "dnd5e.tie": _("Tied at %(vp)s VP: the GM declares a draw or orders one more round."),
    "dnd5e.draw_fight_on": _("Tied at %(vp)s VP: the battle goes on."),
    "dnd5e.desertion": _("%(unit)s: desertion d20 %(die)s (%(needs)s+ deserts), %(result)s."),
    "dnd5e.battle_end": _("The battle is over at %(vp)s VP: %(ending)s."),
    "dnd5e.gm_correction": _("The GM corrects %(piece)s."),
    "dnd5e.siege_step": _("%(engine)s: %(step)s."),
    "dnd5e.siege_fire": _("%(engine)s fires at %(target)s: %(roll)s, %(result)s."),
}

ACTION_LABELS = {
    "place": _("Deploy"),
    "move": _("Move"),
    "attack": _("Attack"),
    "aid": _("Aid"),
    "configure": _("Configure"),
    "dash": _("Dash"),
    "retreat": _("Retreat"),
    "hide": _("Hide"),
    "cast": _("Cast a spell"),
    "join": _("Join"),
    "leave": _("Leave the stand"),
    "switch": _("Switch stands"),
    "take_command": _("Take command"),
    "step_down": _("Step down"),
    "prepare": _("Prepare"),
    "incite": _("Incite"),
    "siege": _("Siege engine"),
    "slide_in": _("Close the gap"),
    "rejoin": _("Rejoin"),
    "done": _("Done closing gaps"),
    "end_turn": _("End turn"),
}
CONFIGURATION_LABELS = {"march": _("March"), "aid": _("Aid"), "defend": _("Defend")}
#: How a battle ended (§7.3; "last_standing" and a draw below the VP that end a battle: the
#: house default end.army_gone), as a sentence.
ENDING_TEXTS = {
    "total": _("total victory for %(side)s"),
    "tactical": _("tactical victory for %(side)s"),
    "draw": _("a draw"),
    "last_standing": _("%(side)s wins: the other army has nothing left on the field"),
    "army_gone": _("a draw: neither army has anything left on the field"),
}
HOUSE_DEFAULT = _("house default")
SIEGE_STEPS = {"load": _("loaded"), "aim": _("aimed"), "fire": _("fired")}
SIEGE_ACTIONS = {"load": _("load"), "aim": _("aim"), "fire": _("fire")}

#: The initiative of a piece whose modifier the viewer does not see (`ROLLS`).
INITIATIVE_DIE_TEXT = _("%(actor)s: initiative d20 %(die)s%(typed)s.")

#: {code: (the param naming whose numbers these are, params only that side sees)}.
HIDDEN_PARAMS = {
    "dnd5e.damage": ("target", ("hp",)),
    "dnd5e.hide": ("piece", ("die", "bonus", "dc")),
    "dnd5e.gm_correction": ("piece", ("hp", "conditions")),
    "dnd5e.death_saves": ("solo", ("hp",)),
    "dnd5e.typed_dice": ("actor", ("dice",)),
}

#: The rolls of the log: {code: (the roller's param, the roller's numbers, the param naming
#: whoever sets the AC or DC; None: a fixed DC)}. A viewer who sees neither the roller's
#: numbers nor the owner's reads the die and the result only; a viewer who sees the roller
#: (its own roll) reads everything.
ROLLS = {
    "dnd5e.initiative": ("actor", ("modifier", "terms", "total"), None),
    "dnd5e.attack": ("piece", ("to_hit", "total"), "target"),
    "dnd5e.spell_attack": ("piece", ("bonus", "total"), "target"),
    "dnd5e.siege_fire": ("engine", ("bonus", "total"), "target"),
    "dnd5e.spell_save": ("target", ("bonus", "total"), None),
    "dnd5e.rally": ("unit", ("terms", "total"), None),
    "dnd5e.morale": ("unit", ("terms", "total"), None),
    "dnd5e.prepare": ("solo", ("cha",), None),
    "dnd5e.incite": ("solo", ("cha",), None),
}
#: The AC or DC params of a roll (`ROLLS`).
TARGET_NUMBERS = ("ac", "dc")

PROBLEM_TEXTS = {
    "dnd5e.setup.overlap": _("%(piece)s and %(other)s would stand on the same square."),
    "dnd5e.setup.off_grid": _("%(piece)s does not fit on the grid."),
    "dnd5e.setup.gargantuan_stand": _("%(unit)s: Gargantuan creatures fight as solos."),
    "dnd5e.setup.unknown_creature": _("There is no creature “%(creature)s”."),
    "dnd5e.setup.side_without_units": _("Each side needs at least one unit."),
    "dnd5e.setup.bad_grid": _("The grid must be 1 to 100 squares each way."),
    "dnd5e.setup.bad_crew": _("%(engine)s: its crew must be a unit of its side."),
    "dnd5e.setup.unknown_engine": _("There is no siege engine “%(kind)s”."),
    "dnd5e.setup.unknown_actor": _("%(actor)s does not fight in this battle."),
    "dnd5e.setup.bad_stand_damage": _(
        "%(unit)s: the HP its stands have lost must be whole numbers, at most one per stand."
    ),
    "dnd5e.unplaced": _("Every stand and solo must be deployed first."),
    "dnd5e.not_allowed": _("That piece cannot do that now."),
    "dnd5e.illegal_params": _("That move is not allowed now."),
    "dnd5e.finished": _("This battle is over."),
    "dnd5e.not_deploying": _("The armies are already deployed."),
    "dnd5e.no_tie": _("The battle is not tied."),
    "dnd5e.bad_objective": _("That objective cannot be marked achieved."),
    "dnd5e.gm.unknown_piece": _("There is no such stand or solo."),
    "dnd5e.gm.bad_hp": _("HP must be between 0 and the piece's maximum."),
}
#: The refusals of a command, which the shared battle service words (warfare.messages):
#: sentences that name no piece (a piece's board key would show).
COMMAND_PROBLEMS = {
    code: PROBLEM_TEXTS[code]
    for code in ("dnd5e.unplaced", "dnd5e.not_allowed", "dnd5e.illegal_params",
                 "dnd5e.finished", "dnd5e.not_deploying", "dnd5e.no_tie", "dnd5e.bad_objective",
                 "dnd5e.gm.unknown_piece", "dnd5e.gm.bad_hp")
}  # fmt: skip


def _square(value) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"({value[0]}, {value[1]})"
    if isinstance(value, str) and value.startswith("sq:"):
        _sq, x, y = value.split(":")
        return f"({x}, {y})"
    return str(value)


def _signed(value) -> str:
    try:
        return f"{int(value):+d}"
    except (TypeError, ValueError):
        return str(value)


def _name(value, names: dict[str, str]) -> str:
    if isinstance(value, str) and value.startswith("sq:"):
        return gettext("objective %(square)s") % {"square": _square(value)}
    return names.get(value, value) if isinstance(value, str) else str(value)


def _roll(params: dict, bonus_key: str = "to_hit") -> str:
    """ "d20 14 +5 vs AC 13" with the dice kept when advantage or disadvantage rolled two."""
    if params.get("die") is None:
        return gettext("automatic hit")
    dice = params.get("dice") or []
    die = f"{params['die']}" + (f" [{', '.join(map(str, dice))}]" if len(dice) > 1 else "")
    text = gettext("d20 %(die)s") % {"die": die}
    if bonus_key in params:
        text += f" {_signed(params[bonus_key])}"
    if "total" in params:
        text += f" = {params['total']}"
    if "ac" in params:
        text += " " + gettext("vs AC %(ac)s") % {"ac": params["ac"]}
    elif "dc" in params:
        text += " " + gettext("vs DC %(dc)s") % {"dc": params["dc"]}
    return text


def _hit(params: dict) -> str:
    if not params.get("hit"):
        return gettext("miss")
    if params.get("critical"):
        return gettext("critical hit, %(damage)s damage") % {"damage": params.get("damage", 0)}
    return gettext("hit, %(damage)s damage") % {"damage": params.get("damage", 0)}


def _success(params: dict) -> str:
    return gettext("success") if params.get("success") else gettext("failure")


def shown_params(code: str, params: dict, names: dict[str, str], sees) -> dict:
    """The params of one event as `sees(key) -> bool` (the viewer sees that piece's numbers)
    may read them, ready for EVENT_TEXTS[code]."""
    params = dict(params)
    rule = HIDDEN_PARAMS.get(code)
    hidden = rule is not None and not sees(params.get(rule[0]))
    if hidden:
        for key in rule[1]:
            params.pop(key, None)
    shown = {key: _name(value, names) for key, value in params.items()}
    for key in ("to", "square"):
        if isinstance(params.get(key), list | tuple) or str(params.get(key, "")).startswith("sq:"):
            shown["square" if key == "to" else key] = _square(params[key])
    if isinstance(params.get("x"), int) and isinstance(params.get("y"), int):
        shown["square"] = f"({params['x']}, {params['y']})"
    fill = _FILLS.get(code)
    if fill is not None:
        fill(code, params, shown, names)
    return shown


def _overflow(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["from"], shown["to"] = _name(params["from"], names), _name(params["to"], names)


def _initiative(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["modifier"] = _signed(params["modifier"]) if "modifier" in params else ""
    shown["typed"] = " " + gettext("(typed at the table)") if params.get("typed") else ""


def _typed_dice(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    dice = params.get("dice")
    shown["dice"] = " (" + ", ".join(str(die) for die in dice) + ")" if dice else ""


def _action(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["kind"] = ACTION_LABELS.get(params.get("kind"), params.get("kind"))


def _attack(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["roll"] = _roll(params)
    shown["attack"] = attack_name(str(params.get("attack", "")))
    shown["result"] = _hit(params)


def _bonus_attack(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["roll"], shown["result"] = _roll(params, "bonus"), _hit(params)


def _damage(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["hp"] = (
        (" (" + gettext("HP %(hp)s") % {"hp": params["hp"]} + ")") if "hp" in params else ""
    )


def _hide(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["roll"] = f" ({_roll(params, 'bonus')})" if "die" in params else ""
    shown["result"] = gettext("hidden") if params.get("hidden") else gettext("seen")


def _spell_save(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["roll"] = "" if params.get("auto_fail") or "die" not in params else (
        f" ({_roll(params, 'bonus')})")  # fmt: skip
    shown["result"] = _success(params)
    shown.setdefault("damage", 0)


def _charisma_check(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["cha"] = _signed(params["cha"]) if "cha" in params else ""
    shown["result"] = _success(params)


def _morale(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    # §6.2, §6.3: the die, the Wisdom (and commander's Charisma) modifier, total and DC
    bonus = sum(int(value) for _term, value in params.get("terms") or ())
    shown["roll"] = _roll({**params, "bonus": bonus}, "bonus")
    if code == "dnd5e.morale":
        shown["result"] = gettext("holds") if params.get("success") else gettext("breaks")
    else:
        shown["result"] = gettext("rallies") if params.get("success") else gettext("stays broken")


def _configured(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["from"] = CONFIGURATION_LABELS.get(params.get("from"), params.get("from"))
    shown["to"] = CONFIGURATION_LABELS.get(params.get("to"), params.get("to"))


def _offers(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["units"] = ", ".join(_name(u, names) for u in params.get("units", ()))


def _death_saves(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["rolls"] = ", ".join(str(r.get("die")) for r in params.get("rolls", ()))


def _objective_met(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    objective = params.get("objective")
    shown["objective"] = names.get(f"objective:{objective}", objective)


def _vp(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["side"] = names.get(f"side:{params.get('side')}", params.get("side"))
    _objective_met(code, params, shown, names)


def _vp_totals(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["vp"] = " : ".join(str(v) for v in (params.get("vp") or {}).values())
    if code == "dnd5e.battle_end":
        ending, house = ending_text(params, names)
        shown["ending"] = f"{ending} ({HOUSE_DEFAULT})" if house else ending


def _desertion(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["needs"] = params.get("needs", house_value("victory.desertion_roll"))
    shown["result"] = (
        gettext("the unit deserts") if params.get("eliminated") else gettext("it stays")
    )


def _siege_step(code: str, params: dict, shown: dict, names: dict[str, str]) -> None:
    shown["step"] = SIEGE_STEPS.get(params.get("step"), params.get("step"))


#: The pieces of each event's sentence beyond its plain params:
#: code -> fill(code, params, shown, names), which sets `shown`'s keys for EVENT_TEXTS[code].
_FILLS = {
    "dnd5e.overflow": _overflow,
    "dnd5e.initiative": _initiative,
    "dnd5e.typed_dice": _typed_dice,
    "dnd5e.action": _action,
    "dnd5e.attack": _attack,
    "dnd5e.spell_attack": _bonus_attack,
    "dnd5e.siege_fire": _bonus_attack,
    "dnd5e.damage": _damage,
    "dnd5e.hide": _hide,
    "dnd5e.spell_save": _spell_save,
    "dnd5e.prepare": _charisma_check,
    "dnd5e.incite": _charisma_check,
    "dnd5e.rally": _morale,
    "dnd5e.morale": _morale,
    "dnd5e.configured": _configured,
    "dnd5e.offers": _offers,
    "dnd5e.death_saves": _death_saves,
    "dnd5e.vp": _vp,
    "dnd5e.objective_met": _objective_met,
    "dnd5e.tie": _vp_totals,
    "dnd5e.draw_fight_on": _vp_totals,
    "dnd5e.battle_end": _vp_totals,
    "dnd5e.desertion": _desertion,
    "dnd5e.siege_step": _siege_step,
}


def ending_text(result: dict, names: dict[str, str]) -> tuple[str, bool]:
    """(the sentence of how a battle ended, whether a house default ended it): §7.3's total
    or tactical victory and draw at 10 VP; an army with nothing left on the field
    (end.army_gone, a house default: the last one standing wins, or a draw when neither
    has anything left)."""
    band = result.get("result")
    side = names.get(f"side:{result.get('winner')}", result.get("winner") or "")
    vp = [int(v) for v in (result.get("vp") or {}).values()]
    army_gone = band == "last_standing" or (
        band == "draw" and max(vp, default=0) < house_value("victory.vp")
    )
    key = "army_gone" if band == "draw" and army_gone else band
    template = ENDING_TEXTS.get(str(key))
    return (str(template) % {"side": side} if template else str(band)), army_gone


@per_language
def templates() -> tuple[dict[str, str], str]:
    """`EVENT_TEXTS` and `INITIATIVE_DIE_TEXT` in the page language, translated once per
    language and process: a lazy text costs a catalogue look-up each time it is read, and
    every new event reads one."""
    texts = {code: str(text) for code, text in EVENT_TEXTS.items()}
    return (texts, str(INITIATIVE_DIE_TEXT))


def event_line(code: str, params: dict, names: dict[str, str], sees, words=None) -> str:
    """One log line ("" for bookkeeping the log leaves out). `words`: `templates()`, where
    the caller has them."""
    if code == "dnd5e.action":
        return ""  # the action's own events tell what happened
    texts, initiative_die = words or templates()
    template = texts.get(code)
    if code == "dnd5e.initiative" and "total" not in params:
        template = initiative_die
    if template is None:
        return code
    try:
        text = template % shown_params(code, params, names, sees)
    except (KeyError, TypeError, ValueError):
        return code
    return text.replace("  ", " ")  # a number left out (`ROLLS`) leaves no gap


def problem_text(problem: Problem, names: dict[str, str]) -> str:
    params = {key: _name(value, names) for key, value in dict(problem.params).items()}
    template = PROBLEM_TEXTS.get(problem.code)
    try:
        if template is not None:
            return str(template) % params
    except (KeyError, TypeError, ValueError):
        pass
    return str(NOT_ALLOWED)
