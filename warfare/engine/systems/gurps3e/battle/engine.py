"""A GURPS 3e battle (gurps §B.2: one resolution per battle, or per day of an extended
battle) behind the shared protocol (`warfare.engine.battle.protocol`).

Setup (plain JSON)::

    {
      "sides": [
        {"key": "a", "name": "", "role": "attacker",    # one attacker, one defender
         "tl": 3, "strategy": 14,                        # the commander's Strategy skill
         "units": [{"key": "a1", "troop_type": "heavy_infantry", "men": 100,
                    "ts_per_man": 4,                     # GM-entered (§B.3a gap); may be
                                                         # left out for a troop type of the
                                                         # house table (`troop_ts.<type>`)
                    "racial": 0, "equipment": 0,         # §B.3a; or "race": a `race_ts.`
                                                         # code, or "race_stats": {"st",
                                                         # "ht", "hp", "super_strength"}
                    "armour": "heavy",                   # heavy/medium/light/none (§B.8.2)
                    "quality": "veteran", "morale": 15}],  # Base Morale (§B.8.3)
         "defensive": [{"code": "castle"}, {"code": "narrow_passage", "value": 5}],  # §B.7.2
         "catastrophe": 0, "other": 0,                   # GM Strategy modifiers (§B.7.3, §B.8.4)
         "morale_modifiers": ["homeland"]},              # §B.8.3 codes
        {"key": "b", "role": "defender", ...}],
      "pcs": [{"key": "p1", "side": "a", "ht": 12, "ht_max": 12, "iq": 11, "dr": 3,
               "toughness": 0, "luck": 1, "tactics": 13, "weapon_skill": 14,
               "limits": ["berserk"], "role": "unit_commander", "rank": 2,
               "reputation": [{"value": 1, "expires": 5}]}],
      "days": 1,            # days of an extended battle (at most; a retreat ends it sooner)
      "month": 0,           # campaign month, for reputation expiry
      "casualties": "house",  # "house" (labelled house default of §B.8) or "gm"
      "intensity": 0,       # GM: Casualty Table rows up for a very intense battle (§B.8.2)
      "winner_rule": "days" # extended battles: "days" (house default, `battle_winner`) or
                            # "last_day" (the default: how battles set up before it end)
    }

Actors and commands (nothing is secret in 3e: every choice may be shown at once):

* each fit PC (actor = PC key): ``choose_risk`` {"risk": -6..6 within his limits (§B.4),
  "use_luck": bool (optional, needs Luck left)};
* each commander (actor = side key "a"/"b"; the GM sends it for a GM-run force):
  ``commit`` {} (ready for the Quick Contest of Strategy);
* the GM (actor None): ``gm_modifiers`` {"side", "catastrophe", "other"} or {"intensity"}
  while choices are open; ``gm_casualties`` {"units": {unit key: percent 0..100}} for every
  unit that fought, when the battle uses GM-entered casualties.

The last Risk or commitment of the day resolves the day with ITS dice, in this order:
Survival (and damage) for each PC, Glory for each PC, the Strategy contest (side a, then
b), Morale rolls, casualties (house default: 1d rows per routed unit), high-command
reactions. Typed dice are therefore only accepted on the resolving command (and on
``gm_casualties``); elsewhere they are refused (`battle.typed_dice_unused`).

Events (code: params): battle.started, battle.day_started, battle.risk_chosen,
battle.committed, battle.gm_modifiers, pc.survival (every roll, the one used, the row, the
damage spec, each hit with its DR, HT, status, death checks), pc.glory (roll, row,
reputation entries with their duration rolls, Strategy modifier), battle.strategy_contest
(both rolls with their modifier breakdowns, margin of victory, winner side), battle.result
(§B.8.1 category and what it asks of the loser), battle.morale, battle.retreat,
battle.commander_captured, battle.commander_lost, battle.casualties_needed,
battle.casualties (per unit: percent with its breakdown, men before/lost/after; "mode" house
or gm), pc.called_coward, pc.reaction (roll, reputation, total, band, effects),
battle.ended.
"""

from collections.abc import Mapping
from typing import Any

from warfare.engine.battle.protocol import (
    ActionOption,
    ActionSpec,
    CheckPreview,
    Command,
    ForceStanding,
    Outcome,
    Rejected,
    SetupError,
    Standing,
    Waiting,
)
from warfare.engine.checks import quick_contest, success_roll
from warfare.engine.dice import DiceError
from warfare.engine.frozen import per_setup, replace
from warfare.engine.problems import Problem
from warfare.engine.systems.gurps3e.battle.state import (
    CASUALTIES,
    CHOICES,
    DAY,
    DAYS,
    ENDED,
    LAST_DAY,
    LEFT_FIELD,
    BattleState,
    Event,
)
from warfare.engine.systems.gurps3e.casualties import GM, HOUSE, casualty_record, house_percent
from warfare.engine.systems.gurps3e.characters import (
    ARMY_COMMANDER,
    DEAD,
    FIT,
    LIMITS,
    ROLES,
    STATUSES,
    TROOPER,
    Character,
    combat_skill,
    expire_reputation,
    reputation_total,
    risk_range,
)
from warfare.engine.systems.gurps3e.forces import (
    ARMOUR,
    ATTACKER,
    DEFENDER,
    QUALITIES,
    DefensiveItem,
    Force,
    known,
    man_ts,
)
from warfare.engine.systems.gurps3e.glory import (
    GLORY_TABLE,
    glory_row,
    reaction_band,
    reaction_effects,
    reputation_gained,
    strategy_modifier,
)
from warfare.engine.systems.gurps3e.house_rules import house_value
from warfare.engine.systems.gurps3e.results import (
    CLEAR_VICTORIES,
    HALF_HOLD,
    MORALE_MODIFIERS,
    PER_UNIT_ROUT,
    battle_winner,
    half_made,
    morale_rolls,
    result,
)
from warfare.engine.systems.gurps3e.strategy import defensive_item_problem, strategy_terms
from warfare.engine.systems.gurps3e.survival import (
    FLAT_HITS,
    MAX_TL,
    SEVERITY,
    damage_spec,
    effective_dr,
    roll_damage,
    survival_result,
    take_damage,
)

CHOOSE_RISK, COMMIT, GM_MODIFIERS, GM_CASUALTIES = (
    "choose_risk",
    "commit",
    "gm_modifiers",
    "gm_casualties",
)


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"battle.{code}", params)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# --- setup -------------------------------------------------------------------------------------


def _items(data: Mapping[str, Any], key: str, problems: list[Problem], **where: Any) -> tuple:
    """`data[key]` as a tuple of items: () when missing or null; a problem if not a list."""
    value = data.get(key)
    if value is None:
        return ()
    if not isinstance(value, list | tuple):
        problems.append(_p("setup.not_a_list", field=key, **where))
        return ()
    return tuple(value)


def _unit_problems(side: str, unit: Any, seen: set[str]) -> list[Problem]:
    if not isinstance(unit, Mapping):
        return [_p("setup.bad_unit", side=side)]
    key = str(unit.get("key", ""))
    problems = []
    if not key or key in seen:
        problems.append(_p("setup.duplicate_unit_key", unit=key))
    seen.add(key)
    if not _is_int(unit.get("men")) or unit["men"] < 1:
        problems.append(_p("setup.bad_unit_number", unit=key, field="men"))
    if unit.get("ts_per_man") is None:
        if not known("troop_ts", str(unit.get("troop_type"))):
            problems.append(_p("setup.unknown_troop_type", unit=key, type=unit.get("troop_type")))
    elif not _is_int(unit["ts_per_man"]) or unit["ts_per_man"] < 0:
        problems.append(_p("setup.bad_unit_number", unit=key, field="ts_per_man"))
    for name in ("racial", "equipment", "morale", "battles", "men_start"):
        if unit.get(name) is not None and not _is_int(unit[name]):
            problems.append(_p("setup.bad_unit_number", unit=key, field=name))
    if unit.get("race") is not None and not known("race_ts", str(unit["race"])):
        problems.append(_p("setup.unknown_race", unit=key, race=unit["race"]))
    stats = unit.get("race_stats")
    if stats is not None and (
        not isinstance(stats, Mapping)
        or set(stats) - {"st", "ht", "hp", "super_strength"}
        or not all(_is_int(value) for value in stats.values())
    ):
        problems.append(_p("setup.bad_race_stats", unit=key))
    if unit.get("armour", "none") not in ARMOUR:
        problems.append(_p("setup.unknown_armour", unit=key, armour=unit.get("armour")))
    if unit.get("quality", "average") not in QUALITIES:
        problems.append(_p("setup.unknown_quality", unit=key, quality=unit.get("quality")))
    return problems


def _side_problems(side: Any, seen_units: set[str]) -> list[Problem]:
    if not isinstance(side, Mapping):
        return [_p("setup.bad_side")]
    key = str(side.get("key", ""))
    problems = []
    if not _is_int(side.get("tl")) or not 0 <= side["tl"] <= MAX_TL:
        problems.append(_p("setup.bad_tl", side=key, tl=side.get("tl")))
    if not _is_int(side.get("strategy")):
        problems.append(_p("setup.bad_side_number", side=key, field="strategy"))
    for name in ("catastrophe", "other", "next_day_morale"):
        if not _is_int(side.get(name, 0)):
            problems.append(_p("setup.bad_side_number", side=key, field=name))
    units = side.get("units")
    if not isinstance(units, list | tuple) or not units:
        problems.append(_p("setup.side_without_units", side=key))
        units = ()
    for unit in units:
        problems += _unit_problems(key, unit, seen_units)
    defensive = _items(side, "defensive", problems, side=key)
    if defensive and side.get("role") != DEFENDER:
        problems.append(_p("setup.defensive_position_not_defender", side=key))
    for item in defensive:
        if not isinstance(item, Mapping):
            problems.append(_p("setup.unknown_defensive_item", side=key))
            continue
        problem = defensive_item_problem(DefensiveItem(str(item.get("code")), item.get("value")))
        if problem:
            problems.append(_p(f"setup.{problem}", side=key, item=item.get("code")))
    for code in _items(side, "morale_modifiers", problems, side=key):
        if code not in MORALE_MODIFIERS:
            problems.append(_p("setup.unknown_morale_modifier", side=key, modifier=code))
    return problems


def _pc_problems(pc: Any, sides: list[str], seen: set[str]) -> list[Problem]:
    if not isinstance(pc, Mapping):
        return [_p("setup.bad_pc")]
    key = str(pc.get("key", ""))
    problems = []
    if not key or key in seen or key in sides:
        problems.append(_p("setup.duplicate_pc_key", pc=key))
    seen.add(key)
    if pc.get("side") not in sides:
        problems.append(_p("setup.unknown_side", pc=key, side=pc.get("side")))
    top = pc.get("ht_max", pc.get("ht"))
    if not _is_int(top) or top < 1:
        problems.append(_p("setup.bad_pc_number", pc=key, field="ht_max"))
    for name in ("ht", "iq", "dr", "toughness", "luck", "weapon_skill", "rank", "tactics"):
        if pc.get(name) is not None and not _is_int(pc[name]):
            problems.append(_p("setup.bad_pc_number", pc=key, field=name))
    for name in ("dr", "toughness", "luck"):
        if _is_int(pc.get(name)) and pc[name] < 0:
            problems.append(_p("setup.bad_pc_number", pc=key, field=name))
    if _is_int(top) and _is_int(pc.get("ht")) and pc["ht"] > top:
        problems.append(_p("setup.bad_pc_number", pc=key, field="ht"))
    for limit in _items(pc, "limits", problems, pc=key):
        if limit not in LIMITS:
            problems.append(_p("setup.unknown_limit", pc=key, limit=limit))
    if pc.get("status") is not None and pc["status"] not in STATUSES:
        problems.append(_p("setup.unknown_status", pc=key, status=pc["status"]))
    if pc.get("role", TROOPER) not in ROLES:
        problems.append(_p("setup.unknown_role", pc=key, role=pc.get("role")))
    for entry in _items(pc, "reputation", problems, pc=key):
        ok = isinstance(entry, Mapping) and _is_int(entry.get("value"))
        if not ok or not (entry.get("expires") is None or _is_int(entry["expires"])):
            problems.append(_p("setup.bad_reputation", pc=key))
    return problems


def validate_setup(setup: Mapping[str, Any]) -> list[Problem]:
    """Problems with a setup (empty: `start` accepts it)."""
    sides = setup.get("sides") if isinstance(setup, Mapping) else None
    if not isinstance(sides, list | tuple) or len(sides) != 2:
        return [_p("setup.two_sides_needed")]
    keys = [str(side.get("key", "")) if isinstance(side, Mapping) else "" for side in sides]
    problems = []
    if len(set(keys)) != 2 or "" in keys:
        problems.append(_p("setup.bad_side_keys", sides=keys))
    roles = sorted(str(side.get("role")) for side in sides if isinstance(side, Mapping))
    if roles != [ATTACKER, DEFENDER]:
        problems.append(_p("setup.one_attacker_one_defender"))
    seen_units: set[str] = set()
    for side in sides:
        problems += _side_problems(side, seen_units)
    seen_pcs: set[str] = set()
    army_commanders: dict[str, int] = {}
    for pc in _items(setup, "pcs", problems):
        problems += _pc_problems(pc, keys, seen_pcs)
        if isinstance(pc, Mapping) and pc.get("role") == ARMY_COMMANDER:
            army_commanders[str(pc.get("side"))] = army_commanders.get(str(pc.get("side")), 0) + 1
    for side, count in army_commanders.items():
        if count > 1:
            problems.append(_p("setup.two_army_commanders", side=side))
    days, month = setup.get("days", 1), setup.get("month", 0)
    if not _is_int(days) or days < 1:
        problems.append(_p("setup.bad_days", days=days))
    if not _is_int(month):
        problems.append(_p("setup.bad_month", month=month))
    if setup.get("winner_rule", LAST_DAY) not in (DAYS, LAST_DAY):
        problems.append(_p("setup.bad_winner_rule", rule=setup.get("winner_rule")))
    if setup.get("casualties", HOUSE) not in (HOUSE, GM):
        problems.append(_p("setup.bad_casualty_mode", mode=setup.get("casualties")))
    intensity = setup.get("intensity", 0)
    if not _is_int(intensity) or intensity < 0:
        problems.append(_p("setup.bad_intensity", intensity=intensity))
    if not problems:
        for force in (Force.from_dict(side) for side in sides):
            if force.ts <= 0:
                problems.append(_p("setup.no_troop_strength", side=force.key))
    return problems


def _opening(state: BattleState) -> tuple[Event, ...]:
    forces = [
        {"side": f.key, "role": f.role, "tl": f.tl, "ts": f.ts, "strategy": f.strategy}
        for f in state.forces
    ]
    return (
        Event("battle.started", {"forces": forces, "days": state.days, "month": state.month}),
        Event("battle.day_started", {"day": 1}),
    )


def start(setup: Mapping[str, Any], seed: int) -> BattleState:
    """Validate `setup` and set up day 1 (no dice are rolled at the start of a 3e battle)."""
    problems, state = _started(setup)
    if problems:
        raise SetupError(problems)
    assert state is not None
    return state


@per_setup()
def _started(setup: Mapping[str, Any]) -> tuple[tuple[Problem, ...], BattleState | None]:
    """(the set-up's problems, the battle's first state): `start` without the seed, which it
    does not read, worked out once per set-up (a forecast starts hundreds of battles from
    one; the state is immutable)."""
    problems = validate_setup(setup)
    if problems:
        return tuple(problems), None
    state = BattleState(
        forces=tuple(Force.from_dict(side) for side in setup["sides"]),
        characters=tuple(
            expire_reputation(Character.from_dict(pc), int(setup.get("month", 0)))
            for pc in setup.get("pcs") or ()
        ),
        days=int(setup.get("days", 1)),
        month=int(setup.get("month", 0)),
        casualty_mode=str(setup.get("casualties", HOUSE)),
        intensity=int(setup.get("intensity", 0)),
        winner_rule=str(setup.get("winner_rule", LAST_DAY)),
    )
    return (), replace(state, opening=_opening(state))


# --- what each actor may do --------------------------------------------------------------------


def _fighting(state: BattleState) -> list[Character]:
    """The PCs who choose Risk this day: fit ones (§B.4)."""
    return [c for c in state.characters if c.status == FIT]


def _leaders_down(state: BattleState) -> set[str]:
    """The sides with a unit or army leader out of the fight (§B.2 step 4, §B.5)."""
    return {c.side for c in state.characters if c.role != TROOPER and c.status != FIT}


def _previews(skill: int, risk: int) -> tuple[CheckPreview, ...]:
    """The Survival and Glory rolls of Combat Skill `skill` at `risk`."""
    base = (("combat_skill", skill),)
    return (
        CheckPreview("survival", skill + risk, (*base, ("risk", risk)), None),
        CheckPreview("glory", skill - risk, (*base, ("risk", -risk)), None),
    )


def legal_actions(state: BattleState, actor: str) -> list[ActionSpec]:
    """The buttons of a PC (choose_risk: one option per allowed Risk, with the Survival and
    Glory skills it gives) or of a commander (commit, with his Strategy so far)."""
    if state.phase != CHOICES:
        return []
    if actor in state.sides:
        if actor in state.committed:
            return []
        down = actor in _leaders_down(state)
        skill, terms = strategy_terms(state.force(actor), state.enemy(actor), (), down)
        preview = CheckPreview("strategy", skill, terms, None, (), state.enemy(actor).key)
        return [ActionSpec(COMMIT, 0, (), (ActionOption({}, (preview,)),))]
    if not state.has_character(actor) or actor in state.risks:
        return []
    character = state.character(actor)
    if character.status != FIT:
        return []
    low, high = risk_range(character)
    skill, _ = combat_skill(character)
    options = tuple(
        ActionOption({"risk": risk}, _previews(skill, risk)) for risk in range(low, high + 1)
    )
    optional = ("use_luck",) if character.luck > 0 else ()
    return [ActionSpec(CHOOSE_RISK, 0, (), options, optional)]


# --- apply -------------------------------------------------------------------------------------


def _resolves(state: BattleState, command: Command) -> bool:
    """Whether this choice is the last one of the day (it then resolves the day)."""
    risks = set(state.risks) | ({command.actor} if command.kind == CHOOSE_RISK else set())
    committed = set(state.committed) | ({command.actor} if command.kind == COMMIT else set())
    return risks >= {c.key for c in _fighting(state)} and committed >= set(state.sides)


def _problems(state: BattleState, command: Command) -> list[Problem]:
    kind, actor, params = command.kind, command.actor, command.params
    if state.phase == ENDED:
        return [_p("ended")]
    if kind == GM_CASUALTIES:
        if actor is not None:
            return [_p("gm_only", kind=kind)]
        return _casualty_problems(state, params)
    if command.typed_dice and not _resolves(state, command):
        return [_p("typed_dice_unused")]
    if kind == GM_MODIFIERS:
        if actor is not None:
            return [_p("gm_only", kind=kind)]
        if state.phase != CHOICES:
            return [_p("wrong_phase", phase=state.phase)]
        return _modifier_problems(state, params)
    if kind not in (CHOOSE_RISK, COMMIT):
        return [_p("unknown_command", kind=kind)]
    if state.phase != CHOICES:
        return [_p("wrong_phase", phase=state.phase)]
    choice = _choice(state, actor) if isinstance(actor, str) else None
    if choice is None or choice[0] != kind:
        return [_p("not_your_choice", actor=actor, kind=kind)]
    if set(params) - {"risk", "use_luck"}:
        return [_p("unknown_params", params=sorted(set(params) - {"risk", "use_luck"}))]
    if kind == COMMIT:
        return [_p("unknown_params", params=sorted(params))] if params else []
    _, risks, luck = choice
    risk = params.get("risk")
    if not _is_int(risk) or risk not in risks:
        return [_p("risk_not_allowed", pc=actor, risk=params.get("risk"))]
    use_luck = params.get("use_luck", False)
    if not isinstance(use_luck, bool) or (use_luck and not luck):
        return [_p("no_luck", pc=actor)]
    return []


def _choice(state: BattleState, actor: str) -> tuple[str, range, bool] | None:
    """What `actor` may choose now, as `legal_actions` lists it without its previews: (the
    command, the Risks it allows, whether he may use Luck), or None (nothing)."""
    if state.phase != CHOICES:
        return None
    if actor in state.sides:
        return None if actor in state.committed else (COMMIT, range(0), False)
    if not state.has_character(actor) or actor in state.risks:
        return None
    character = state.character(actor)
    if character.status != FIT:
        return None
    low, high = risk_range(character)
    return CHOOSE_RISK, range(low, high + 1), character.luck > 0


def _modifier_problems(state: BattleState, params: Mapping[str, Any]) -> list[Problem]:
    allowed = {"side", "catastrophe", "other", "intensity"}
    if not params or set(params) - allowed:
        return [_p("unknown_params", params=sorted(set(params) - allowed))]
    side_needed = "side" in params or "catastrophe" in params or "other" in params
    if side_needed and params.get("side") not in state.sides:
        return [_p("unknown_side", side=params.get("side"))]
    for name in ("catastrophe", "other", "intensity"):
        if name in params and not _is_int(params[name]):
            return [_p("bad_number", field=name)]
    if "intensity" in params and params["intensity"] < 0:
        return [_p("bad_number", field="intensity")]
    return []


def _casualty_problems(state: BattleState, params: Mapping[str, Any]) -> list[Problem]:
    if state.phase != CASUALTIES:
        return [_p("wrong_phase", phase=state.phase)]
    units = params.get("units")
    expected = set(state.pending["fought"]) if state.pending else set()
    if not isinstance(units, Mapping) or set(units) != expected:
        return [_p("casualties_for_every_unit", units=sorted(expected))]
    bad = [key for key, pct in units.items() if not _is_int(pct) or not 0 <= pct <= 100]
    return [_p("bad_casualty_percent", units=sorted(bad))] if bad else []


def apply(
    state: BattleState, command: Command, dice: Any
) -> tuple[BattleState, list[Event]] | Rejected:
    """Apply one command; the last choice of a day resolves it (see the module docstring)."""
    problems = _problems(state, command)
    if problems:
        return Rejected(tuple(problems))
    events: list[Event] = []
    try:
        if command.kind == GM_MODIFIERS:
            state = _gm_modifiers(state, command.params, events)
        elif command.kind == GM_CASUALTIES:
            state = _finish_day(state, dict(command.params["units"]), dice, events)
        else:
            resolves = _resolves(state, command)
            state = _record_choice(state, command, events)
            if resolves:
                state = _resolve_day(state, dice, events)
    except DiceError as error:
        return Rejected((error.problem,))
    return state, events


def _record_choice(state: BattleState, command: Command, events: list[Event]) -> BattleState:
    if command.kind == COMMIT:
        events.append(Event("battle.committed", {"side": command.actor}))
        return replace(state, committed=(*state.committed, command.actor))
    choice = {"risk": command.params["risk"], "use_luck": command.params.get("use_luck", False)}
    events.append(Event("battle.risk_chosen", {"pc": command.actor, **choice}))
    return replace(state, risks={**state.risks, command.actor: choice})


def _gm_modifiers(
    state: BattleState, params: Mapping[str, Any], events: list[Event]
) -> BattleState:
    if "intensity" in params:
        state = replace(state, intensity=params["intensity"])
    if "side" in params:
        force = state.force(params["side"])
        force = replace(
            force,
            catastrophe=params.get("catastrophe", force.catastrophe),
            other=params.get("other", force.other),
        )
        state = state.with_force(force)
    events.append(Event("battle.gm_modifiers", dict(params)))
    return state


# --- resolution of a day -----------------------------------------------------------------------


def _survival(state: BattleState, pc: Character, dice: Any, events: list[Event]) -> Character:
    """§B.5: Survival roll on Combat Skill + Risk (Luck: best of three), then damage."""
    choice = state.risks[pc.key]
    risk = choice["risk"]
    skill, skill_terms = combat_skill(pc)
    terms = (("combat_skill", skill), ("risk", risk))
    rolls = [success_roll(dice, skill + risk, purpose=f"survival:{pc.key}", breakdown=terms)]
    luck = pc.luck
    if choice["use_luck"] and SEVERITY.index(survival_result(rolls[0])) > 0:
        luck -= 1
        for _ in range(house_value("luck.extra_rolls")):
            rolls.append(success_roll(dice, skill + risk, purpose=f"luck:{pc.key}"))
    best = min(rolls, key=lambda roll: SEVERITY.index(survival_result(roll)))
    outcome = survival_result(best)
    enemy = state.enemy(pc.side)
    tl = enemy.tl if house_value("damage.tl_of_enemy") else max(enemy.tl, state.force(pc.side).tl)
    params: dict[str, Any] = {
        "pc": pc.key,
        "combat_skill": [skill, [list(t) for t in skill_terms]],
        "rolls": [roll.to_dict() for roll in rolls],
        "used": rolls.index(best),
        "result": outcome,
        "tl": tl,
    }
    if outcome in FLAT_HITS:
        damage, hits = FLAT_HITS[outcome], []
        if not house_value("survival.flat_hits_ignore_dr"):
            damage = max(0, damage - effective_dr(pc, 1))
    else:
        spec = damage_spec(tl, outcome)
        dr = effective_dr(pc, spec.dr_divisor)
        damage, hits = roll_damage(dice, spec, dr)
        params["damage_spec"] = spec.to_dict()
    ht, status, death_rolls = take_damage(dice, pc, damage)
    params.update(
        hits=hits, damage=damage, ht_before=pc.ht, ht=ht, status=status, death_rolls=death_rolls
    )
    events.append(Event("pc.survival", params))
    return replace(pc, ht=ht, status=status, luck=luck)


def _glory(
    state: BattleState, pc: Character, dice: Any, events: list[Event]
) -> tuple[Character, str, int]:
    """§B.6.1: Glory roll on Combat Skill - Risk (even if dead): reputation, the Strategy
    modifier of a commander. Returns (character, row, Strategy modifier)."""
    risk = state.risks[pc.key]["risk"]
    skill, _ = combat_skill(pc)
    terms = (("combat_skill", skill), ("risk", -risk))
    roll = success_roll(dice, skill - risk, purpose=f"glory:{pc.key}", breakdown=terms)
    row = glory_row(roll)
    gained = reputation_gained(dice, row, state.month)
    modifier = strategy_modifier(row, pc.role)
    events.append(
        Event(
            "pc.glory",
            {
                "pc": pc.key,
                "roll": roll.to_dict(),
                "row": row,
                "reputation": [{**entry.to_dict(), "duration": detail} for entry, detail in gained],
                "strategy_modifier": modifier,
                "role": pc.role,
            },
        )
    )
    new = replace(pc, reputation=(*pc.reputation, *(entry for entry, _ in gained)))
    return new, row, modifier


def _resolve_day(state: BattleState, dice: Any, events: list[Event]) -> BattleState:
    """§B.2 steps 4-7 for every fit PC and both forces."""
    fighters = _fighting(state)
    for pc in fighters:
        state = state.with_character(_survival(state, pc, dice, events))
    glory: dict[str, list[tuple[str, int]]] = {side: [] for side in state.sides}
    rows: dict[str, str] = {}
    for pc in fighters:
        new, rows[pc.key], modifier = _glory(state, state.character(pc.key), dice, events)
        state = state.with_character(new)
        glory[new.side].append((f"glory.{new.key}", modifier))
    down = _leaders_down(state)
    state = _commanders_lost(state, events)
    contest_rolls = []
    for force in state.forces:
        skill, terms = strategy_terms(
            force, state.enemy(force.key), glory[force.key], force.key in down
        )
        contest_rolls.append(
            success_roll(dice, skill, purpose=f"strategy:{force.key}", breakdown=terms)
        )
    contest = quick_contest(*contest_rolls)
    winner = state.forces[contest.winner].key if contest.winner is not None else None
    spec = result(contest.margin_of_victory, state.force(winner).role if winner else None)
    events.append(
        Event(
            "battle.strategy_contest",
            {**contest.to_dict(), "sides": list(state.sides), "winner_side": winner},
        )
    )
    events.append(Event("battle.result", {"winner": winner, **spec.to_dict()}))
    fought = [u.key for f in state.forces for u in f.units if u.on_field]
    if winner is not None and spec.category in CLEAR_VICTORIES:
        state = state.with_force(replace(state.force(winner), commander_lost=False))
    state = _morale(state, winner, spec, dice, events, down)
    pending = {
        "winner": winner,
        "margin": contest.margin_of_victory,
        "fought": fought,
        "glory_rows": rows,
        "loser_next_day_morale": spec.loser_next_day_morale,
    }
    state = replace(state, pending=pending)
    if state.casualty_mode == GM:
        events.append(Event("battle.casualties_needed", {"units": fought}))
        return replace(state, phase=CASUALTIES)
    return _finish_day(state, None, dice, events)


def _commanders_lost(state: BattleState, events: list[Event]) -> BattleState:
    """§B.8.3: a side whose army commander died has lost its commander (a lasting Morale
    penalty until it wins a clear victory)."""
    for pc in state.characters:
        force = state.force(pc.side)
        if pc.role == ARMY_COMMANDER and pc.status == DEAD and not force.commander_lost:
            state = state.with_force(replace(force, commander_lost=True))
            events.append(Event("battle.commander_lost", {"side": pc.side, "pc": pc.key}))
    return state


def _morale(
    state: BattleState,
    winner: str | None,
    spec: Any,
    dice: Any,
    events: list[Event],
    down: set[str],
) -> BattleState:
    """§B.8.1 / §B.8.3: the loser's Morale rolls and what they decide (with the result's
    penalty, the previous day's, and a leader out or lost [house]); outright retreats and
    the capture of the commander."""
    if winner is None:
        return state
    loser = state.enemy(winner)
    if spec.loser_test in (HALF_HOLD, PER_UNIT_ROUT):
        extra = [("result", spec.loser_morale)] if spec.loser_morale else []
        if loser.next_day_morale:
            extra.append(("previous_day", loser.next_day_morale))
        if loser.key in down or loser.commander_lost:
            extra.append(("leader_down", house_value("leader_down.morale")))
        rolls = morale_rolls(dice, loser, extra)
        if spec.loser_test == HALF_HOLD:
            holds = half_made(rolls)
            if not holds:
                loser = replace(
                    loser, units=tuple(replace(u, retreated=u.on_field) for u in loser.units)
                )
                loser = replace(loser, retreated=True)
            events.append(
                Event(
                    "battle.morale",
                    {
                        "side": loser.key,
                        "test": spec.loser_test,
                        "rolls": [{"unit": u.key, "roll": r, "made": ok} for u, r, ok in rolls],
                        "holds": holds,
                    },
                )
            )
        else:
            made = {u.key: ok for u, _, ok in rolls}
            units = tuple(
                replace(u, retreated=made[u.key], routed=not made[u.key]) if u.key in made else u
                for u in loser.units
            )
            loser = replace(loser, units=units, retreated=True)
            events.append(
                Event(
                    "battle.morale",
                    {
                        "side": loser.key,
                        "test": spec.loser_test,
                        "rolls": [{"unit": u.key, "roll": r, "made": ok} for u, r, ok in rolls],
                        "routed": sorted(k for k, ok in made.items() if not ok),
                    },
                )
            )
    if spec.loser_retreats:
        units = tuple(replace(u, retreated=u.on_field or u.retreated) for u in loser.units)
        loser = replace(loser, units=units, retreated=True)
        events.append(Event("battle.retreat", {"side": loser.key}))
    if spec.commander_captured:
        loser = replace(loser, commander_captured=True, commander_lost=True)
        events.append(Event("battle.commander_captured", {"side": loser.key}))
    return state.with_force(loser)


def _finish_day(
    state: BattleState, entered: dict[str, int] | None, dice: Any, events: list[Event]
) -> BattleState:
    """Casualties (GM-entered or the house default), high-command reactions, then the next
    day or the end of the battle."""
    pending = dict(state.pending or {})
    winner, margin = pending["winner"], pending["margin"]
    for force in state.forces:
        loser = winner is not None and force.key != winner
        records = []
        for unit in force.units:
            if unit.key not in pending["fought"]:
                continue
            if entered is not None:
                percent, terms = entered[unit.key], (("gm", entered[unit.key]),)
            else:
                rout = dice.roll(6, purpose=f"rout_rows:{unit.key}") if unit.routed else 0
                percent, terms = house_percent(margin, loser, unit, rout, state.intensity)
            record = casualty_record(unit, percent, terms)
            records.append(record)
            force = force.with_unit(replace(unit, men=record["men_after"]))
        events.append(
            Event(
                "battle.casualties",
                {"side": force.key, "mode": GM if entered is not None else HOUSE, "units": records},
            )
        )
        state = state.with_force(force)
    state = _reactions(state, pending["glory_rows"], dice, events)
    summary = {
        "day": state.day,
        "winner": winner,
        "margin": margin,
        "ts": {f.key: f.ts for f in state.forces},
    }
    next_morale = pending["loser_next_day_morale"]
    forces = tuple(
        replace(f, next_day_morale=next_morale if winner and f.key != winner else 0)
        for f in state.forces
    )
    state = replace(state, forces=forces, history=(*state.history, summary), pending=None, risks={})
    state = replace(state, committed=())
    over = state.day >= state.days or any(f.retreated or f.ts <= 0 for f in state.forces)
    if not over:
        events.append(Event("battle.day_started", {"day": state.day + 1}))
        return replace(state, day=state.day + 1, phase=CHOICES)
    return _end(state, winner, events)


def _reactions(
    state: BattleState, rows: Mapping[str, str], dice: Any, events: list[Event]
) -> BattleState:
    """§B.6.2: high command's reaction (3d6 + new reputation) for the rows that call for
    one: promotion by a rank on Very Good+, possible demotion on Bad or worse; a survivor who
    fought very poorly is publicly called a coward."""
    for key, row in rows.items():
        spec = GLORY_TABLE[row]
        pc = state.character(key)
        if spec.coward_charge and pc.status != DEAD:
            events.append(Event("pc.called_coward", {"pc": key}))
        if spec.reaction is None or pc.status == DEAD:
            continue
        reputation = reputation_total(pc, state.month)
        roll = dice.roll_expr("3d6", purpose=f"reaction:{key}")
        total = roll.total + reputation
        effects = reaction_effects(spec.reaction, total)
        events.append(
            Event(
                "pc.reaction",
                {
                    "pc": key,
                    "kind": spec.reaction,
                    "roll": roll.to_dict(),
                    "reputation": reputation,
                    "total": total,
                    "band": reaction_band(total),
                    "effects": list(effects),
                },
            )
        )
        if "promotion" in effects:
            state = state.with_character(replace(pc, rank=pc.rank + 1))
    return state


def _decided_by(state: BattleState) -> str:
    """How the battle's winner is found: "left_field" (a side retreated or was wiped out),
    "days" (several days neither side left, under the `days` winner rule) or "day"."""
    if any(f.retreated or f.ts <= 0 for f in state.forces):
        return LEFT_FIELD
    return DAYS if state.winner_rule == DAYS and len(state.history) > 1 else DAY


def _end(state: BattleState, last_winner: str | None, events: list[Event]) -> BattleState:
    """The battle ends: the side whose enemy left the field wins (§B.8.1: it retreats or
    routs; both: nobody); after several days neither side left, the days decide
    (`battle_winner`, a house default); else the last day's winner (None after a tie). Every
    unit that fought counts one more battle (§B.8.5)."""
    retreated = [f.key for f in state.forces if f.retreated or f.ts <= 0]
    decided_by = _decided_by(state)
    ended: dict[str, Any] = {"day": state.day, "decided_by": decided_by}
    if decided_by == LEFT_FIELD:
        winner = state.enemy(retreated[0]).key if len(retreated) == 1 else None
    elif decided_by == DAYS:
        winner, ended["days_won"] = battle_winner(state.history, state.sides)
    else:
        winner = last_winner
    forces = tuple(
        replace(f, units=tuple(replace(u, battles=u.battles + 1) for u in f.units))
        for f in state.forces
    )
    events.append(Event("battle.ended", {"winner": winner, **ended}))
    return replace(state, forces=forces, phase=ENDED, winner=winner)


def outcome(state: BattleState) -> Outcome | None:
    """None while the battle runs; then the winner, and the forces and characters as they
    leave it (units' men, Morale penalties, PCs' HT, status, reputation, rank)."""
    if state.phase != ENDED:
        return None
    losers = tuple(key for key in state.sides if key != state.winner) if state.winner else ()
    return Outcome(
        state.winner,
        losers,
        {
            "days": state.day,
            "forces": [force.to_dict() for force in state.forces],
            "characters": [c.to_dict() for c in state.characters],
            "history": [dict(day) for day in state.history],
            "decided_by": _decided_by(state),
        },
    )


# --- auto-play and forecasts (protocol) -----------------------------------------------------------


def awaiting(state: BattleState) -> tuple[Waiting, ...]:
    """While the day's choices are open, every fit PC without a Risk and every commander who
    has not committed; the GM while casualties are to be entered; nobody once it ended."""
    if state.phase == CASUALTIES:
        return (Waiting(None, None),)
    if state.phase != CHOICES:
        return ()
    pcs = [Waiting(c.key, c.side) for c in _fighting(state) if c.key not in state.risks]
    sides = [Waiting(key, key) for key in state.sides if key not in state.committed]
    return (*pcs, *sides)


def clock(state: BattleState) -> tuple[int, int]:
    """(day, 0): a 3e battle resolves once a day, both sides together."""
    return (state.day, 0)


def standing(state: BattleState) -> Standing:
    """Per force its TS left of its TS at the start (men × TS per man), the men it lost, and
    whether it retreated, had units routed or lost its commander; per character his HT and
    whether he is unconscious or dead."""
    forces = []
    for force in state.forces:
        start = sum(u.men_start * man_ts(u.ts_per_man, u.racial, u.equipment) for u in force.units)
        flags = [name for name, happened in (
            ("retreated", force.retreated), ("routed", any(u.routed for u in force.units)),
            ("destroyed", force.ts <= 0), ("commander_lost", force.commander_lost),
        ) if happened]  # fmt: skip
        lost = sum(u.men_start - u.men for u in force.units)
        forces.append(ForceStanding(force.key, force.key, "force", "ts", force.ts, start,
                                    tuple(flags), {"men_lost": lost}))  # fmt: skip
    for character in state.characters:
        flags = () if character.status == FIT else (character.status,)
        forces.append(ForceStanding(character.key, character.side, "pc", "hp",
                                    max(0, character.ht), character.ht_max, flags))  # fmt: skip
    return Standing(state.sides, tuple(forces))
