"""The GURPS Mass Combat 4e battle (§A.4-A.7) behind the shared battle protocol
(`warfare.engine.battle.protocol`): `SYSTEM.start / legal_actions / apply / outcome`.

Setup (plain JSON)::

    {
      "battle_type": "land",               # land / naval / air / amphibious (§A.3.1)
      "terrain": "woodlands",              # a key of tables.TERRAIN_RATING
      "extra_classes": ["Rec"],            # GM: Eng / Nav / Rec superiority also applies
      "siege": false, "obscured": false,   # obscured: bad weather or night (§A.5.1)
      "recon": {"a": {conditions}, "b": {conditions}},   # §A.4.3; null: no contest
      "kind": "pitched", "initiative": "a",  # without a recon contest (set-piece battle)
      "db": {"a": 2},                      # GM-set Defense Bonus per side (§A.5.4): its
                                           #   size, and who holds one beyond the rule
                                           #   (e.g. a tied recon's pitched battle); the
                                           #   rule's other holders roll it
      "neutralize": {"a": true, "b": true},  # GM: use neutralizers (§A.5.3)
      "house_rules": {"recon.ambush_margin": 5},   # per-battle house_rules overrides
      "start_dice": [3, 4, 5],             # typed-in dice for the start (recon)
      "sides": {
        "a": {"force": <Force.to_dict()>,
              "pcs": [{"key": "pc1", "name": "Ann", "hp": 12, "max_hp": 12,
                       "element": "hi", "skill_15": true, "commands_element": true,
                       "commander": false, "exempt": false}]},
        "b": {"force": ..., "pcs": []}}
    }

Actors: "a" and "b" are the two sides: their commander's choices (choose_battle_kind,
choose_strategy, answer_parley, change_strategy / keep_strategy, choose_pursuit). A PC key
is that PC's own choices (choose_risk, significant_action); a PC who is the force commander
has no separate choice (its Risk is the side's). The GM (actor None) sends, while the round's
choices are open, gm_circumstance {side, value -3..3} (special circumstances, this round
only), gm_commander_out {side} (an NPC commander falls: successor's Leadership roll),
gm_detailed_action {pc, success} (a cinematic significant action: no Misfortunes roll for
that PC this round); and at any time gm_end_battle {reason, victor} (e.g. an agreed Parley).

A round resolves inside the `apply` of the last required choice (both strategies, every
active PC's Risk): reveal, a one-sided Parley waits for the other side's answer, a single slow
strategy opens the other side's one-time change, then the Strategy contest, CRT, casualties,
PB, Misfortunes of War, successor and Rally rolls, and the victory check (§A.6.6). When the
battle ends, pursuit (a Leadership success waits for the victor's choose_pursuit) and the
aftermath run (§A.7).

Params: choose_strategy / change_strategy {strategy, desperate (bool), risk (-3..3, the
commander's Risk), raid_logistics (bool: a winning Raid hits the enemy's logistics)};
choose_risk / significant_action {risk, on_critical: "injury" (6d) | "surrender"};
choose_battle_kind {kind: pitched | encounter | avoid}; answer_parley {accept};
choose_pursuit {pursue}.

SECRET: `state.choices` holds both commanders' pending strategies until the reveal. The
Django layer must show a player `public_state(state, viewer)`, never `state.to_dict()`, and
must not show the other side the params of a stored choose_strategy command before the
`gurps4e.strategies_revealed` event (its own `gurps4e.strategy_chosen` event carries no
strategy). Events are codes "gurps4e.*" with params; every roll carries its dice, skill,
margin and the breakdown of its effective skill.
"""

from collections.abc import Mapping
from fractions import Fraction
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
    start_dice,
)
from warfare.engine.checks import Degree, quick_contest, success_roll
from warfare.engine.dice import Dice, DiceError, typed_value_problem
from warfare.engine.frozen import per_fields, per_setup, per_state, replace
from warfare.engine.problems import Problem
from warfare.engine.systems.gurps4e import aftermath as after
from warfare.engine.systems.gurps4e import prebattle as pre
from warfare.engine.systems.gurps4e import rounds as rules
from warfare.engine.systems.gurps4e.battle.state import (
    ACTIVE,
    BATTLE_KIND,
    CAPTURED,
    CHANGE,
    CHOOSING,
    DOWN,
    FINISHED,
    PARLEY,
    PC,
    PURSUIT,
    SIDE_KEYS,
    BattleState,
    Event,
    PCChoice,
    SideChoice,
    SideState,
)
from warfare.engine.systems.gurps4e.forces import (
    Force,
    applicable_classes,
    force_problems,
    force_ts,
    takes_part,
)
from warfare.engine.systems.gurps4e.house_rules import HOUSE_RULES, house_value
from warfare.engine.systems.gurps4e.strategies import (
    DEFENSE_S,
    INDIRECT_ATTACK,
    RALLY,
    STRATEGIES,
)
from warfare.engine.systems.gurps4e.strategies import (
    PARLEY as PARLEY_S,
)
from warfare.engine.systems.gurps4e.tables import (
    BATTLE_TYPES,
    MISFORTUNE_CRITICAL_DAMAGE,
    MISFORTUNE_DAMAGE,
    RECON_ROAD,
    RECON_TERRAIN_FEATURE,
    RISK_RANGE,
    SUPERIORITY_CLASSES,
    TERRAIN_RATING,
    round_length,
)

KEY = "gurps4e"
GM_COMMANDS = ("gm_circumstance", "gm_commander_out", "gm_detailed_action", "gm_end_battle")
RISKS = tuple(range(RISK_RANGE[0], RISK_RANGE[1] + 1))


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"gurps4e.{code}", params)


def _side_index(key: Any) -> int | None:
    return SIDE_KEYS.index(key) if key in SIDE_KEYS else None


# --- setup ---------------------------------------------------------------------------------------


def _is_key(value: Any, table: Mapping[str, Any]) -> bool:
    return isinstance(value, str) and value in table


def _shape_problems(setup: Any) -> list[Problem]:
    """The setup's containers have the right JSON types (checked before anything else)."""
    if not isinstance(setup, Mapping):
        return [_p("setup.malformed", field="setup")]
    problems = []
    for name in ("db", "house_rules", "neutralize", "recon"):
        if not isinstance(setup.get(name) or {}, Mapping):
            problems.append(_p("setup.malformed", field=name))
    for name in ("extra_classes", "start_dice"):
        if not isinstance(setup.get(name) or [], list | tuple):
            problems.append(_p("setup.malformed", field=name))
    sides = setup.get("sides")
    if isinstance(sides, Mapping):
        for key, side in sides.items():
            pcs = side.get("pcs") or [] if isinstance(side, Mapping) else None
            if not isinstance(pcs, list | tuple):
                problems.append(_p("setup.malformed", field=f"sides.{key}"))
                continue
            for pc in pcs:
                if not isinstance(pc, Mapping) or not _pc_fields_ok(pc):
                    problems.append(_p("setup.bad_pc", side=key))
    return problems


def _pc_fields_ok(pc: Mapping[str, Any]) -> bool:
    ints = [pc.get(k, 10) for k in ("hp", "max_hp")]
    flags = [pc.get(k, False) for k in ("skill_15", "commands_element", "commander", "exempt")]
    return (
        all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in ints)
        and all(isinstance(v, bool) for v in flags)
        and isinstance(pc.get("name", ""), str)
        and isinstance(pc.get("element") or "", str)
    )


def validate_setup(setup: Mapping[str, Any]) -> list[Problem]:
    """Problems with a setup (empty: `start` accepts it)."""
    problems = _shape_problems(setup)
    if problems:
        return problems
    if setup.get("battle_type", "land") not in BATTLE_TYPES:
        problems.append(_p("setup.bad_battle_type", battle_type=setup.get("battle_type")))
    if not _is_key(setup.get("terrain", "plains"), TERRAIN_RATING):
        problems.append(_p("setup.bad_terrain", terrain=setup.get("terrain")))
    sides = setup.get("sides")
    if not isinstance(sides, Mapping) or set(sides) != set(SIDE_KEYS):
        return [*problems, _p("setup.two_sides_needed", sides=list(SIDE_KEYS))]
    pc_keys: set[str] = set()
    for key in SIDE_KEYS:
        problems += force_problems(sides[key].get("force"), key)
        commanders = 0
        for pc in sides[key].get("pcs") or ():
            pc_key = pc.get("key") if isinstance(pc, Mapping) else None
            if (
                not isinstance(pc_key, str)
                or not pc_key
                or pc_key in pc_keys
                or pc_key in SIDE_KEYS
            ):
                problems.append(_p("setup.bad_pc_key", pc=pc_key))
                continue
            pc_keys.add(pc_key)
            commanders += bool(pc.get("commander"))
        if commanders > 1:
            problems.append(_p("setup.two_commanders", side=key))
        problems += _links_problems(sides[key], key)
        problems += _participation_problems(setup, sides[key], key)
    if setup.get("recon") is None and setup.get("kind", pre.PITCHED) not in (
        pre.PITCHED,
        pre.ENCOUNTER,
    ):
        problems.append(_p("setup.bad_kind", kind=setup.get("kind")))
    if setup.get("initiative") not in (None, *SIDE_KEYS):
        problems.append(_p("setup.bad_initiative", initiative=setup.get("initiative")))
    for key, value in (setup.get("db") or {}).items():
        if (
            key not in SIDE_KEYS
            or isinstance(value, bool)
            or not isinstance(value, int)
            or value < 0
        ):
            problems.append(_p("setup.bad_db", side=key))
    rules_by_key = {entry.key: entry for entry in HOUSE_RULES}
    for key in setup.get("house_rules") or {}:
        if key not in rules_by_key:
            problems.append(_p("setup.unknown_house_rule", key=key))
        elif not rules_by_key[key].configurable:
            problems.append(_p("setup.house_rule_fixed", key=key))
        elif not _override_ok(rules_by_key[key].value, setup["house_rules"][key]):
            problems.append(_p("setup.bad_house_rule", key=key))
    for cls in setup.get("extra_classes") or ():
        if cls not in SUPERIORITY_CLASSES:
            problems.append(_p("setup.unknown_class", cls=cls))
    recon = setup.get("recon")
    if recon is not None:
        problems += _recon_problems(recon)
    for value in setup.get("start_dice") or ():
        problem = typed_value_problem(value, 6)
        if problem is not None:
            problems.append(problem)
    return problems


def _pc_from(data: Mapping[str, Any], side: int) -> PC:
    fields = ("name", "hp", "element", "skill_15", "commands_element", "commander", "exempt")
    values = {k: data[k] for k in fields if k in data}
    max_hp = int(data.get("max_hp", data.get("hp", 10)))
    return PC(key=str(data["key"]), side=side, max_hp=max_hp, **values)


def _override_ok(default: Any, value: Any) -> bool:
    """A per-battle house-rule value has the default's type (a fraction as text or int)."""
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, tuple):
        return isinstance(value, list | tuple) and all(isinstance(v, str) for v in value)
    try:
        return not isinstance(value, bool) and Fraction(str(value)) >= 0
    except (ValueError, ZeroDivisionError):
        return False


def _recon_problems(recon: Any) -> list[Problem]:
    """§A.4.3: the GM-entered recon conditions of each side."""
    if not isinstance(recon, Mapping):
        return [_p("setup.bad_recon")]
    problems = []
    for key, conditions in recon.items():
        if key not in SIDE_KEYS or not isinstance(conditions, Mapping):
            problems.append(_p("setup.bad_recon", side=key))
            continue
        ints_ok = all(
            conditions.get(name) is None
            or (isinstance(conditions[name], int) and not isinstance(conditions[name], bool))
            for name in ("recon_bonus", "extra")
        )
        if (
            conditions.get("march", 0) not in (0, 1, 2)
            or not _is_key(conditions.get("road", "none"), RECON_ROAD)
            or not _is_key(conditions.get("terrain_feature", "none"), RECON_TERRAIN_FEATURE)
            or not ints_ok
        ):
            problems.append(_p("setup.bad_recon", side=key))
    return problems


def _participation_problems(setup: Mapping[str, Any], side: Mapping[str, Any], key: str):
    """§A.3.1: a side needs at least one element that can take part in this type of battle."""
    if (
        force_problems(side.get("force"), key)
        or setup.get("battle_type", "land") not in BATTLE_TYPES
    ):
        return []
    force = Force.from_dict(side["force"])
    known = {entry.key: entry.value for entry in HOUSE_RULES}
    overrides = {
        k: v
        for k, v in (setup.get("house_rules") or {}).items()
        if k in known and _override_ok(known[k], v)
    }
    battle_type = setup.get("battle_type", "land")
    if not any(row.count and takes_part(row.type, battle_type, overrides) for row in force.rows):
        return [_p("setup.no_element_takes_part", side=key, battle_type=battle_type)]
    return []


def _links_problems(side: Mapping[str, Any], key: str) -> list[Problem]:
    """A PC's element must be a row of its force; a successor who is a PC must be one of its
    side's PCs."""
    force = side.get("force")
    if not isinstance(force, Mapping):
        return []
    rows = {r.get("type", {}).get("key") for r in force.get("rows") or () if isinstance(r, Mapping)}
    pcs = {pc.get("key") for pc in side.get("pcs") or () if isinstance(pc, Mapping)}
    problems = []
    for pc in side.get("pcs") or ():
        if isinstance(pc, Mapping) and pc.get("element") not in (None, *rows):
            problems.append(_p("setup.unknown_element", pc=pc.get("key"), side=key))
    staff = force.get("staff") or {}
    for officer in staff.get("chain") or () if isinstance(staff, Mapping) else ():
        if isinstance(officer, Mapping) and officer.get("pc") not in (None, *pcs):
            problems.append(_p("setup.unknown_successor_pc", pc=officer.get("pc"), side=key))
    return problems


@per_setup()
def _prepared(
    setup: Mapping[str, Any],
) -> tuple[tuple[Problem, ...], BattleState | None, dict[str, tuple[str, ...]]]:
    """What `start` does before any die: (the set-up's problems, the battle's state before
    the reconnaissance, the rows not taking part per side). Worked out once per set-up."""
    problems = validate_setup(setup)
    if problems:
        return tuple(problems), None, {}
    overrides = dict(setup.get("house_rules") or {})
    battle_type = str(setup.get("battle_type", "land"))
    forces, absent = [], {}
    for key in SIDE_KEYS:
        force = Force.from_dict(setup["sides"][key]["force"])
        rows = [r for r in force.rows if takes_part(r.type, battle_type, overrides)]
        absent[key] = tuple(r.key for r in force.rows if r not in rows)
        forces.append(replace(force, rows=tuple(rows)))
    terrain = str(setup.get("terrain", "plains"))
    pcs = [
        _pc_from(data, index)
        for index, key in enumerate(SIDE_KEYS)
        for data in setup["sides"][key].get("pcs") or ()
    ]
    sides = tuple(SideState(force=f, ts=force_ts(f, overrides)) for f in forces)
    neutralize = setup.get("neutralize") or {}
    state = BattleState(
        battle_type=battle_type,
        terrain=terrain,
        terrain_rating=TERRAIN_RATING[terrain],
        classes=applicable_classes(battle_type, setup.get("extra_classes") or (), overrides),
        sides=(sides[0], sides[1]),
        pcs=tuple(pcs),
        siege=bool(setup.get("siege", False)),
        obscured=bool(setup.get("obscured", False)),
        overrides=overrides,
        neutralize=(bool(neutralize.get("a", True)), bool(neutralize.get("b", True))),
        gm_db=dict(setup.get("db") or {}),
        round_length=round_length(min(f.elements for f in forces)),
    )
    return (), state, absent


def start(setup: Mapping[str, Any], seed: int) -> BattleState:
    """Validate `setup`, build the forces (TS, class TS), run the reconnaissance contest if
    there is one (§A.4), and either wait for the recon winner's choice of battle or set up
    round 1 (§A.5)."""
    problems, state, absent = _prepared(setup)
    if problems:
        raise SetupError(problems)
    assert state is not None
    sides = state.sides
    dice = start_dice(seed, setup.get("start_dice"))
    started = {
        "ts": [str(side.ts) for side in sides],
        "round_length": state.round_length,
        "terrain_rating": state.terrain_rating,
        "classes": list(state.classes),
        "not_taking_part": {key: list(rows) for key, rows in absent.items()},
    }
    events = [Event("gurps4e.battle_started", started)]
    recon = setup.get("recon")
    if recon is None:
        state = replace(state, initiative=_side_index(setup.get("initiative")))
        state = _fix_kind(state, str(setup.get("kind", pre.PITCHED)), (), dice, events)
    else:
        state = _recon(state, recon, dice, events)
        if state.phase != BATTLE_KIND:
            result = state.recon or {}
            confused = tuple(result["confused"])
            state = _fix_kind(state, str(result["kind"]), confused, dice, events)
    return replace(state, opening=tuple(events))


def _recon(
    state: BattleState, conditions: Mapping[str, Any], dice: Dice, events: list[Event]
) -> BattleState:
    """§A.4: the reconnaissance contest."""
    forces = [side.force for side in state.sides]
    land = state.battle_type == "land"
    terms = tuple(
        pre.recon_skill_terms(forces[i])
        + pre.recon_condition_terms(
            forces[i],
            forces[1 - i],
            conditions.get(SIDE_KEYS[i]) or {},
            land=land,
            overrides=state.overrides,
        )
        for i in (0, 1)
    )
    entrenched = tuple(not f.mobile and f.posture == "entrenched" for f in forces)
    result = pre.recon_contest(
        dice,
        (terms[0], terms[1]),
        state.terrain_rating,
        (entrenched[0], entrenched[1]),
        state.overrides,
    )
    events.append(Event("gurps4e.recon", result.to_dict()))
    state = replace(state, recon=result.to_dict(), initiative=result.winner)
    if result.winner is not None:
        return replace(state, phase=BATTLE_KIND)
    return state


@per_fields("sides", "classes", "neutralize", "overrides")
def _superiorities(state: BattleState, encounter: bool) -> tuple[Any, ...]:
    """§A.5.3 for the forces of the state (read only: cached while they are the same, as
    for every battle a forecast starts from one set-up)."""
    forces = (state.sides[0].force, state.sides[1].force)
    return tuple(
        pre.superiorities(
            forces,
            state.classes,
            encounter=encounter,
            neutralize=state.neutralize,
            overrides=state.overrides,
        )
    )


def _fix_kind(
    state: BattleState, kind: str, confused: tuple[int, ...], dice: Dice, events: list[Event]
) -> BattleState:
    """§A.4.4-A.5.4: the kind of battle is known: confusion, BSM, DB, round 1."""
    encounter = kind == pre.ENCOUNTER
    forces = (state.sides[0].force, state.sides[1].force)
    sups = _superiorities(state, encounter)
    ambusher = None
    if state.recon and state.recon.get("result") == pre.AMBUSH:
        ambusher = state.recon["winner"]
    holders = pre.defense_bonus_side(
        kind, state.initiative, (not forces[0].mobile, not forces[1].mobile)
    )
    if ambusher is not None and house_value("db.ambusher_any_strategy", state.overrides):
        holders = [*holders, ambusher]
    holders = sorted({*holders, *(i for i in (0, 1) if SIDE_KEYS[i] in state.gm_db)})
    db_value, db_terms = 0, []
    if holders and not all(SIDE_KEYS[h] in state.gm_db for h in holders):
        db_value, db_terms = pre.roll_defense_bonus(dice, state.terrain)
    ts = (state.sides[0].ts, state.sides[1].ts)
    new_sides = []
    for i, side in enumerate(state.sides):
        db = int(state.gm_db.get(SIDE_KEYS[i], db_value)) if i in holders else 0
        confused_now = i in confused
        new_sides.append(
            replace(
                side,
                bsm=tuple(pre.bsm_terms(ts, i, sups, 0, state.overrides)),
                superiority={s.cls: s.bonus if s.holder == i else 0 for s in sups},
                db=db,
                confused=confused_now,
                started_confused=confused_now,
                ambusher=ambusher == i,
            )
        )
    state = replace(state, kind=kind, sides=(new_sides[0], new_sides[1]), phase=CHOOSING, round=1)
    events.append(
        Event(
            "gurps4e.battle_set",
            {
                "kind": kind,
                "confused": [SIDE_KEYS[i] for i in confused],
                "superiority": [s.to_dict() for s in sups],
                "bsm": [[list(t) for t in side.bsm] for side in state.sides],
                "db": [side.db for side in state.sides],
                "db_terms": [list(t) for t in db_terms],
                "ambusher": SIDE_KEYS[ambusher] if ambusher is not None else None,
            },
        )
    )
    events.append(Event("gurps4e.round_started", {"round": 1}))
    return state


# --- what each actor may do ----------------------------------------------------------------------


def _strategy_problems(state: BattleState, index: int, key: str, desperate: bool) -> list:
    side, enemy = state.sides[index], state.sides[1 - index]
    return rules.strategy_problems(
        key,
        round_no=state.round,
        encounter=state.kind == pre.ENCOUNTER,
        mobile=side.force.mobile,
        confused=side.confused,
        started_confused=side.started_confused,
        ambusher=side.ambusher,
        db=side.db,
        siege=state.siege,
        desperate=desperate,
        casualties=side.casualties,
        enemy_casualties=enemy.casualties,
        overrides=state.overrides,
    )


def _significant_total(state: BattleState, index: int) -> int:
    effects = [c.effect for key, c in state.pc_choices.items() if state.pc(key).side == index]
    if not house_value("significant_actions.stack", state.overrides):
        return max(effects, default=0)
    return sum(effects)


def _skill_terms(
    state: BattleState,
    index: int,
    strategy: str,
    enemy_strategy: str,
    choice: SideChoice,
    parley_refused: bool = False,
) -> list[tuple[str, int]]:
    """§A.6.4: the full breakdown of side `index`'s Strategy (or Tactics) roll."""
    return _side_skill_terms(
        _skill_basis(state, index), strategy, enemy_strategy, choice, parley_refused
    )


def _skill_basis(state: BattleState, index: int) -> dict[str, Any]:
    """What side `index`'s Strategy (or Tactics) roll takes whatever the strategies and the
    choice (`_side_skill_terms`): the board's preview of every strategy reads it once."""
    side = state.sides[index]
    officer = side.officer
    tactics = side.force.elements <= 4
    base = (
        ("skill.tactics", officer.tactics if officer else 10)
        if tactics
        else ("skill.strategy", officer.strategy if officer else 10)
    )
    bsm = list(side.bsm)
    penalty = pre.casualty_penalty(side.casualties)
    if penalty:
        bsm.append(("bsm.casualties", penalty))
    return {
        "skill": base,
        "bsm": bsm,
        "superiorities": dict(side.superiority),
        "db": side.db,
        "db_any_strategy": side.ambusher and state.round == 1,
        "significant": _significant_total(state, index),
        "confused": side.confused,
        "previous": side.previous,
        "pb": side.pb,
        "circumstance": side.circumstance,
        "overrides": state.overrides,
    }


def _side_skill_terms(
    basis: dict[str, Any],
    strategy: str,
    enemy_strategy: str,
    choice: SideChoice,
    parley_refused: bool = False,
) -> list[tuple[str, int]]:
    return rules.skill_terms(
        **basis,
        strategy=strategy,
        enemy_strategy=enemy_strategy,
        risk=choice.risk,
        desperate=choice.desperate,
        parley_refused=parley_refused,
    )


def _pc_shared(state: BattleState, pc: PC, risk: int) -> dict[str, Any]:
    force = state.sides[pc.side].force
    row = next((r for r in force.rows if r.key == pc.element), None)
    return {
        "risk": risk,
        "fanatic": bool(row and row.type.fanatic_or_impetuous),
        "support_or_logistics": bool(row and (row.type.support or row.logistics)),
        "several_elements": force.elements > 1,
    }


def _heroism_terms(state: BattleState, pc: PC, risk: int) -> list[tuple[str, int]]:
    return rules.significant_action_terms(
        skill_15=pc.skill_15, commands_element=pc.commands_element, **_pc_shared(state, pc, risk)
    )


def _preview(stat: str, terms: list[tuple[str, int]]) -> CheckPreview:
    return CheckPreview(stat, sum([v for _, v in terms]), tuple(terms), None)


def _needs_pc_choice(state: BattleState, pc: PC) -> bool:
    return pc.status == ACTIVE and not pc.commander and not state.sides[pc.side].left


def legal_actions(state: BattleState, actor: str) -> list[ActionSpec]:
    """The buttons `actor` ("a"/"b" or a PC key) has now; the GM's commands are not listed."""
    if state.finished:
        return []
    index = _side_index(actor)
    if index is None:
        return _pc_actions(state, actor)
    if state.phase == BATTLE_KIND and state.initiative == index:
        kinds = [pre.PITCHED, pre.ENCOUNTER]
        forces = state.sides[index].force, state.sides[1 - index].force
        if pre.may_avoid_battle(*forces):
            kinds.append("avoid")
        return [
            ActionSpec(
                "choose_battle_kind", 0, options=tuple(ActionOption({"kind": k}) for k in kinds)
            )
        ]
    if state.phase == CHOOSING and not state.sides[index].left:
        return [
            ActionSpec(
                "choose_strategy",
                0,
                options=_strategy_options(state, index),
                optional_params=("risk", "raid_logistics"),
            )
        ]
    if state.phase == PARLEY and _parley_answerer(state) == index:
        return [
            ActionSpec(
                "answer_parley",
                0,
                options=(ActionOption({"accept": True}), ActionOption({"accept": False})),
            )
        ]
    if state.phase == CHANGE and rules.slow_change_side(*_chosen(state), _refused(state)) == index:
        return [
            ActionSpec(
                "change_strategy",
                0,
                options=_strategy_options(state, index, after_reveal=True),
                optional_params=("risk", "raid_logistics"),
            ),
            ActionSpec("keep_strategy", 0, options=(ActionOption({}),)),
        ]
    if state.phase == PURSUIT and state.victor == index:
        return [
            ActionSpec(
                "choose_pursuit",
                0,
                options=(ActionOption({"pursue": True}), ActionOption({"pursue": False})),
            )
        ]
    return []


def _strategy_options(
    state: BattleState, index: int, *, after_reveal: bool = False
) -> tuple[ActionOption, ...]:
    """One option per strategy (and Desperate variant) side `index` may choose, each with the
    preview of its Strategy roll (against an enemy Attack; the enemy's choice is secret).
    After the reveal (the slow-strategy change) Parley is no longer offered."""
    options = []
    basis = _skill_basis(state, index)
    for key in STRATEGIES:
        if after_reveal and key == PARLEY_S:
            continue
        for desperate in (False, True):
            if _strategy_problems(state, index, key, desperate):
                continue
            choice = SideChoice(key, desperate=desperate)
            terms = _side_skill_terms(basis, key, "attack", choice)
            options.append(
                ActionOption(
                    {"strategy": key, "desperate": desperate}, (_preview("strategy", terms),)
                )
            )
    return tuple(options)


def _pc_actions(state: BattleState, actor: str) -> list[ActionSpec]:
    try:
        pc = state.pc(actor)
    except KeyError:
        return []
    if state.phase != CHOOSING or not _needs_pc_choice(state, pc):
        return []
    current = state.pc_choices.get(pc.key)
    if current is not None and (current.significant is not None or current.detailed):
        return []
    specs = [
        ActionSpec(
            "choose_risk",
            0,
            options=tuple(ActionOption({"risk": r}) for r in RISKS),
            optional_params=("on_critical",),
        )
    ]
    heroism = tuple(
        ActionOption({"risk": r}, (_preview("heroism", _heroism_terms(state, pc, r)),))
        for r in RISKS
    )
    specs.append(
        ActionSpec("significant_action", 0, options=heroism, optional_params=("on_critical",))
    )
    return specs


def _chosen(state: BattleState) -> tuple[str, str]:
    a, b = state.choices
    return (a.strategy if a else "attack", b.strategy if b else "attack")


def _parley_answerer(state: BattleState) -> int | None:
    strategies = _chosen(state)
    if (strategies[0] == PARLEY_S) != (strategies[1] == PARLEY_S):
        return 1 if strategies[0] == PARLEY_S else 0
    return None


def _refused(state: BattleState) -> int | None:
    """The side whose Parley was refused (its refused Parley counts as a slow strategy)."""
    if state.parley == "refused":
        answerer = _parley_answerer(state)
        return None if answerer is None else 1 - answerer
    return None


# --- apply ---------------------------------------------------------------------------------------


def apply(
    state: BattleState, command: Command, dice: Dice
) -> "tuple[BattleState, list] | Rejected":
    """Apply one command; `Rejected` with problems on illegal input (nothing changes)."""
    handler = _HANDLERS.get(command.kind)
    if handler is None:
        return Rejected((_p("command.unknown", kind=command.kind),))
    if state.finished:
        return Rejected((_p("command.battle_over"),))
    events: list[Event] = []
    try:
        result = handler(state, command, dice, events)
    except DiceError as error:
        return Rejected((error.problem,))
    if isinstance(result, list):
        return Rejected(tuple(result))
    return result, events


def _cmd_battle_kind(state, command, dice, events):
    index = _side_index(command.actor)
    if state.phase != BATTLE_KIND or index is None or index != state.initiative:
        return [_p("command.not_your_choice", kind=command.kind)]
    kind = command.params.get("kind")
    forces = state.sides[index].force, state.sides[1 - index].force
    if kind == "avoid":
        if not pre.may_avoid_battle(*forces):
            return [_p("battle_kind.cannot_avoid")]
        events.append(Event("gurps4e.battle_avoided", {"side": command.actor}))
        return replace(state, phase=FINISHED, finished=True, end_reason="avoided")
    if kind not in (pre.PITCHED, pre.ENCOUNTER):
        return [_p("battle_kind.unknown", kind=kind)]
    recon = state.recon or {}
    confused = pre.confused_after_kind(str(recon.get("result")), state.initiative, kind)
    events.append(Event("gurps4e.battle_kind_chosen", {"side": command.actor, "kind": kind}))
    return _fix_kind(state, kind, confused, dice, events)


def _choice_from(params: Mapping[str, Any]) -> SideChoice | list[Problem]:
    strategy = params.get("strategy")
    desperate = params.get("desperate", False)
    risk = params.get("risk", 0)
    raid = params.get("raid_logistics", True)
    problems = []
    if not isinstance(desperate, bool) or not isinstance(raid, bool):
        problems.append(_p("command.bad_params"))
    risk_problem = rules.risk_problem(risk)
    if risk_problem:
        problems.append(risk_problem)
    if not isinstance(strategy, str):
        problems.append(_p("strategy.unknown", strategy=strategy))
    return problems or SideChoice(strategy, desperate, risk, raid)


def _cmd_choose_strategy(state, command, dice, events):
    index = _side_index(command.actor)
    if state.phase != CHOOSING or index is None or state.sides[index].left:
        return [_p("command.not_your_choice", kind=command.kind)]
    choice = _choice_from(command.params)
    if isinstance(choice, list):
        return choice
    problems = _strategy_problems(state, index, choice.strategy, choice.desperate)
    if problems:
        return problems
    return choose_strategy(state, index, choice, dice, events)


def choose_strategy(
    state: BattleState, index: int, choice: SideChoice, dice: Dice, events: list[Event]
) -> BattleState:
    """Side `index` chose `choice` (checked: `_cmd_choose_strategy`); the round resolves
    when it was the last choice it waited for."""
    choices = list(state.choices)
    choices[index] = choice
    state = replace(state, choices=(choices[0], choices[1]))
    events.append(Event("gurps4e.strategy_chosen", {"side": SIDE_KEYS[index], "secret": True}))
    return _maybe_resolve(state, dice, events)


def _pc_choice(state, command) -> tuple[PC, int, str] | list[Problem]:
    try:
        pc = state.pc(str(command.actor))
    except KeyError:
        return [_p("command.unknown_actor", actor=command.actor)]
    if state.phase != CHOOSING or not _needs_pc_choice(state, pc):
        return [_p("command.not_your_choice", kind=command.kind)]
    current = state.pc_choices.get(pc.key)
    if current is not None and (current.significant is not None or current.detailed):
        return [_p("significant.already_rolled", pc=pc.key)]
    risk = command.params.get("risk", 0)
    on_critical = command.params.get("on_critical", "injury")
    problem = rules.risk_problem(risk)
    if problem:
        return [problem]
    if on_critical not in ("injury", "surrender"):
        return [_p("command.bad_params")]
    return pc, risk, on_critical


def _cmd_choose_risk(state, command, dice, events):
    checked = _pc_choice(state, command)
    if isinstance(checked, list):
        return checked
    pc, risk, on_critical = checked
    choices = {**state.pc_choices, pc.key: PCChoice(risk, on_critical)}
    events.append(Event("gurps4e.risk_chosen", {"pc": pc.key, "risk": risk}))
    return _maybe_resolve(replace(state, pc_choices=choices), dice, events)


def _cmd_significant_action(state, command, dice, events):
    """§A.6.2: 3d6 vs 5 + modifiers; crit +2, success +1, failure 0, crit failure −1."""
    checked = _pc_choice(state, command)
    if isinstance(checked, list):
        return checked
    pc, risk, on_critical = checked
    terms = _heroism_terms(state, pc, risk)
    roll = success_roll(
        dice, sum(v for _, v in terms), purpose="significant_action", breakdown=terms
    )
    effect = rules.significant_action_effect(roll.degree.code)
    choices = {**state.pc_choices, pc.key: PCChoice(risk, on_critical, roll.to_dict(), effect)}
    events.append(
        Event(
            "gurps4e.significant_action", {"pc": pc.key, "roll": roll.to_dict(), "effect": effect}
        )
    )
    return _maybe_resolve(replace(state, pc_choices=choices), dice, events)


def _cmd_answer_parley(state, command, dice, events):
    index = _side_index(command.actor)
    if state.phase != PARLEY or index is None or index != _parley_answerer(state):
        return [_p("command.not_your_choice", kind=command.kind)]
    accept = command.params.get("accept")
    if not isinstance(accept, bool):
        return [_p("command.bad_params")]
    state = replace(state, parley="accepted" if accept else "refused")
    events.append(Event("gurps4e.parley_answered", {"side": command.actor, "accepted": accept}))
    return _maybe_resolve(state, dice, events)


def _cmd_change_strategy(state, command, dice, events):
    index = _side_index(command.actor)
    if (
        state.phase != CHANGE
        or index is None
        or index != rules.slow_change_side(*_chosen(state), _refused(state))
    ):
        return [_p("command.not_your_choice", kind=command.kind)]
    if command.kind == "keep_strategy":
        return change_strategy(state, index, None, dice, events)
    choice = _choice_from(command.params)
    if isinstance(choice, list):
        return choice
    problems = _strategy_problems(state, index, choice.strategy, choice.desperate)
    if choice.strategy == PARLEY_S:
        problems.append(_p("strategy.no_parley_after_reveal"))
    if problems:
        return problems
    return change_strategy(state, index, choice, dice, events)


def change_strategy(
    state: BattleState, index: int, choice: SideChoice | None, dice: Dice, events: list[Event]
) -> BattleState:
    """Side `index` makes its one-time change to `choice` (None: keeps its strategy), checked
    (`_cmd_change_strategy`); then the round resolves."""
    side = SIDE_KEYS[index]
    if choice is None:
        events.append(Event("gurps4e.strategy_kept", {"side": side}))
        return _maybe_resolve(replace(state, changed=True), dice, events)
    choices = list(state.choices)
    choices[index] = choice
    events.append(Event("gurps4e.strategy_changed", {"side": side, "strategy": choice.strategy}))
    state = replace(state, choices=(choices[0], choices[1]), changed=True)
    return _maybe_resolve(state, dice, events)


def _cmd_choose_pursuit(state, command, dice, events):
    index = _side_index(command.actor)
    if state.phase != PURSUIT or index != state.victor:
        return [_p("command.not_your_choice", kind=command.kind)]
    pursue = command.params.get("pursue")
    if not isinstance(pursue, bool):
        return [_p("command.bad_params")]
    return _pursue(state, after.PURSUE if pursue else after.HOLD, dice, events)


def _cmd_gm(state, command, dice, events):
    """GM commands (actor None): circumstance modifier, commander out, detailed action, end."""
    if command.actor is not None:
        return [_p("command.gm_only", kind=command.kind)]
    params = command.params
    if command.kind == "gm_end_battle":
        victor = _side_index(params.get("victor"))
        if params.get("victor") is not None and victor is None:
            return [_p("command.bad_params")]
        events.append(
            Event(
                "gurps4e.gm_ended",
                {"victor": params.get("victor"), "reason": str(params.get("reason", "gm"))},
            )
        )
        state = replace(state, victor=victor, end_reason=str(params.get("reason", "gm")))
        return _aftermath(state, dice, events, pursuit=False)
    if state.phase != CHOOSING:
        return [_p("command.wrong_phase", phase=state.phase)]
    if command.kind == "gm_detailed_action":
        try:
            pc = state.pc(str(params.get("pc")))
        except KeyError:
            return [_p("command.unknown_actor", actor=params.get("pc"))]
        if not _needs_pc_choice(state, pc) or not isinstance(params.get("success"), bool):
            return [_p("command.bad_params")]
        risk = state.pc_choices[pc.key].risk if pc.key in state.pc_choices else 0
        bonus = int(house_value("significant_actions.detailed_success_bonus", state.overrides))
        effect = bonus if params["success"] else 0
        choices = {**state.pc_choices, pc.key: PCChoice(risk, "injury", None, effect, True)}
        events.append(Event("gurps4e.detailed_action", {"pc": pc.key, "effect": effect}))
        return _maybe_resolve(replace(state, pc_choices=choices), dice, events)
    index = _side_index(params.get("side"))
    if index is None:
        return [_p("command.bad_params")]
    if command.kind == "gm_circumstance":
        value = params.get("value")
        if isinstance(value, bool) or not isinstance(value, int) or not -3 <= value <= 3:
            return [_p("command.bad_params")]
        events.append(Event("gurps4e.gm_circumstance", {"side": params["side"], "value": value}))
        return state.with_side(index, replace(state.sides[index], circumstance=value))
    return _commander_out(state, index, dice, events)


_HANDLERS = {
    "choose_battle_kind": _cmd_battle_kind,
    "choose_strategy": _cmd_choose_strategy,
    "choose_risk": _cmd_choose_risk,
    "significant_action": _cmd_significant_action,
    "answer_parley": _cmd_answer_parley,
    "change_strategy": _cmd_change_strategy,
    "keep_strategy": _cmd_change_strategy,
    "choose_pursuit": _cmd_choose_pursuit,
    **dict.fromkeys(GM_COMMANDS, _cmd_gm),
}


# --- the round -----------------------------------------------------------------------------------


def _maybe_resolve(state: BattleState, dice: Dice, events: list[Event]) -> BattleState:
    """Resolve the round when every required choice is in (§A.6.3 reveal and what follows)."""
    if state.phase == CHOOSING:
        missing_sides = [i for i in (0, 1) if state.choices[i] is None and not state.sides[i].left]
        missing_pcs = [
            pc for pc in state.pcs if _needs_pc_choice(state, pc) and pc.key not in state.pc_choices
        ]
        if missing_sides or missing_pcs:
            return state
        events.append(
            Event(
                "gurps4e.strategies_revealed",
                {SIDE_KEYS[i]: c.to_dict() for i, c in enumerate(state.choices) if c},
            )
        )
    strategies = _chosen(state)
    if strategies == (PARLEY_S, PARLEY_S):
        events.append(Event("gurps4e.parley_both"))
        return _end_round(state, None, (0, 0), dice, events, fought=False)
    if _parley_answerer(state) is not None:
        if state.parley is None:
            return replace(state, phase=PARLEY)
        if state.parley == "accepted":
            return _end_round(state, None, (0, 0), dice, events, fought=False)
    if not state.changed and rules.slow_change_side(*strategies, _refused(state)) is not None:
        return replace(state, phase=CHANGE)
    return _fight(state, dice, events)


def _fight(state: BattleState, dice: Dice, events: list[Event]) -> BattleState:
    """§A.6.3 pairing, §A.6.4 the Strategy contest, CRT, casualties, PB."""
    choices = (state.choices[0] or SideChoice("attack"), state.choices[1] or SideChoice("attack"))
    refused = _refused(state)
    chosen = [DEFENSE_S if i == refused else c.strategy for i, c in enumerate(choices)]
    first, second, fought = rules.pair(chosen[0], chosen[1])
    effective = (first, second)
    if not fought:
        events.append(Event("gurps4e.no_battle", {"strategies": list(effective)}))
        return _end_round(state, None, (0, 0), dice, events, fought=False)
    terms = [
        _skill_terms(state, i, effective[i], effective[1 - i], choices[i], refused == i)
        for i in (0, 1)
    ]
    rolls = [
        success_roll(
            dice,
            sum(v for _, v in terms[i]),
            purpose=f"strategy.{SIDE_KEYS[i]}",
            breakdown=terms[i],
        )
        for i in (0, 1)
    ]
    contest = quick_contest(rolls[0], rolls[1])
    winner = contest.winner
    margin, adjustment = contest.margin_of_victory, ""
    if winner is not None:
        uses = state.sides[winner].indirect_uses
        margin, adjustment = rules.adjusted_margin(margin, effective[winner], uses)
    result = rules.round_casualties(
        effective,
        winner,
        margin,
        (choices[0].desperate, choices[1].desperate),
        (choices[0].raid_logistics, choices[1].raid_logistics),
        state.overrides,
    )
    pb_before = (state.sides[0].pb, state.sides[1].pb)
    pb_after, pb_reason = rules.position_bonus(pb_before, effective, winner, result["crt"]["pb"])
    sides = []
    for i, side in enumerate(state.sides):
        sides.append(
            replace(
                side,
                casualties=rules.apply_casualties(side.casualties, result["casualties"][i]),
                logistics=rules.apply_casualties(side.logistics, result["logistics"][i]),
                pb=pb_after[i],
                indirect_uses=side.indirect_uses + (effective[i] == INDIRECT_ATTACK),
            )
        )
    state = replace(state, sides=(sides[0], sides[1]))
    events.append(
        Event(
            "gurps4e.strategy_contest",
            {
                "round": state.round,
                "strategies": list(effective),
                "chosen": chosen,
                "rolls": [roll.to_dict() for roll in rolls],
                "winner": SIDE_KEYS[winner] if winner is not None else None,
                "margin": contest.margin_of_victory,
                "adjusted_margin": margin,
                "margin_adjustment": adjustment,
                "crt": result["crt"],
                "casualties": result["casualties"],
                "logistics": result["logistics"],
                "casualty_steps": result["steps"],
                "cumulative": [s.casualties for s in sides],
                "pb_before": list(pb_before),
                "pb_after": pb_after,
                "pb_reason": pb_reason,
            },
        )
    )
    return _end_round(
        state, winner, tuple(result["casualties"]), dice, events, fought=True, effective=effective
    )


def _end_round(
    state: BattleState,
    winner: int | None,
    casualties: tuple[int, ...],
    dice: Dice,
    events: list[Event],
    *,
    fought: bool,
    effective: tuple[str, str] | None = None,
) -> BattleState:
    """§A.6.5-A.6.6: Misfortunes of War, successors, Rally, leaving the field, victory."""
    choices = state.choices
    state = _misfortunes(state, winner, casualties, dice, events)
    for i in (0, 1):
        choice = choices[i]
        side = state.sides[i]
        if choice and choice.strategy == RALLY and side.confused:
            state = _rally(state, i, dice, events)
    left = []
    for i in (0, 1):
        choice = choices[i]
        if choice is None:
            continue
        strategy = effective[i] if effective else choice.strategy
        if rules.leaves_field(strategy, i, winner, fought):
            left.append(i)
    sides = list(state.sides)
    for i in (0, 1):
        previous = choices[i].strategy if choices[i] else sides[i].previous
        sides[i] = replace(
            sides[i], previous=previous, left=sides[i].left or i in left, circumstance=0
        )
    state = replace(
        state,
        sides=(sides[0], sides[1]),
        choices=(None, None),
        pc_choices={},
        parley=None,
        changed=False,
        phase=CHOOSING,
    )
    for i in left:
        events.append(Event("gurps4e.left_field", {"side": SIDE_KEYS[i]}))
    events.append(Event("gurps4e.round_ended", {"round": state.round}))
    destroyed = [i for i in (0, 1) if state.sides[i].casualties >= 100]
    if destroyed:
        victor = None if len(destroyed) == 2 else 1 - destroyed[0]
        reason = "mutual_destruction" if len(destroyed) == 2 else "destroyed"
        return _aftermath(
            replace(state, victor=victor, end_reason=reason), dice, events, pursuit=False
        )
    gone = [i for i in (0, 1) if state.sides[i].left]
    if gone:
        victor = None if len(gone) == 2 else 1 - gone[0]
        return _aftermath(
            replace(state, victor=victor, end_reason="retreat"),
            dice,
            events,
            pursuit=victor is not None,
        )
    state = replace(state, round=state.round + 1)
    events.append(Event("gurps4e.round_started", {"round": state.round}))
    return state


def _misfortunes(
    state: BattleState,
    winner: int | None,
    casualties: tuple[int, ...],
    dice: Dice,
    events: list[Event],
) -> BattleState:
    """§A.6.5: 3d6 vs the chance for each PC; success 2d−1, critical 6d or surrender; at 0 HP
    rescued or captured by who won the round; a fallen commander is replaced."""
    for pc in state.pcs:
        choice = state.pc_choices.get(pc.key)
        side_choice = state.choices[pc.side]
        if pc.status != ACTIVE or pc.exempt or (choice and choice.detailed):
            continue
        chance = rules.misfortune_chance(casualties[pc.side])
        if chance is None:
            continue
        risk = side_choice.risk if pc.commander and side_choice else (choice.risk if choice else 0)
        desperate = bool(side_choice and side_choice.desperate)
        terms = rules.misfortune_terms(chance, desperate=desperate, **_pc_shared(state, pc, risk))
        roll = success_roll(dice, sum(v for _, v in terms), purpose="misfortune", breakdown=terms)
        params: dict[str, Any] = {"pc": pc.key, "roll": roll.to_dict(), "damage": 0}
        status, hp = pc.status, pc.hp
        if roll.degree is Degree.CRIT_SUCCESS and choice and choice.on_critical == "surrender":
            status, params["result"] = CAPTURED, "surrendered"
        elif roll.succeeded:
            expr = (
                MISFORTUNE_CRITICAL_DAMAGE
                if roll.degree is Degree.CRIT_SUCCESS
                else (MISFORTUNE_DAMAGE)
            )
            damage = dice.roll_expr(expr, purpose="misfortune_damage")
            amount = max(
                int(house_value("misfortune.damage_minimum", state.overrides)), damage.total
            )
            hp -= amount
            params.update(damage=amount, damage_roll=damage.to_dict(), result="injured")
            if hp <= 0:
                rescued = winner == pc.side or (
                    winner is None and house_value("misfortune.tie_rescues", state.overrides)
                )
                status = DOWN if rescued else CAPTURED
                params["result"] = "rescued" if rescued else "captured"
        else:
            params["result"] = "unharmed"
        params["hp"] = hp
        events.append(Event("gurps4e.misfortune", params))
        state = state.with_pc(replace(pc, hp=hp, status=status))
        if status != ACTIVE and pc.commander:
            state = _commander_out(state, pc.side, dice, events)
    return state


def _commander_out(state: BattleState, index: int, dice: Dice, events: list[Event]):
    """§A.6.5: the next in the chain of command takes over and rolls Leadership; failure (or
    no successor [inferred]) -> the force is confused."""
    side = replace(state.sides[index], commander=state.sides[index].commander + 1)
    officer = side.officer
    params: dict[str, Any] = {
        "side": SIDE_KEYS[index],
        "successor": officer.name if officer else None,
    }
    if officer is None:
        confused = bool(house_value("commander.no_successor_confused", state.overrides))
    else:
        roll = success_roll(
            dice,
            officer.leadership,
            purpose="successor_leadership",
            breakdown=[("leadership", officer.leadership)],
        )
        params["roll"] = roll.to_dict()
        confused = not roll.succeeded
    params["confused"] = confused
    events.append(Event("gurps4e.commander_replaced", params))
    for pc in state.pcs:
        if pc.side == index and pc.commander:
            state = state.with_pc(replace(pc, commander=False))
    if officer is not None and officer.pc:
        state = state.with_pc(replace(state.pc(officer.pc), commander=True))
    return state.with_side(index, replace(side, confused=side.confused or confused))


def _rally(state: BattleState, index: int, dice: Dice, events: list[Event]) -> BattleState:
    """§A.6.3: a rallying force's commander rolls Leadership −2 [impl]; success clears
    confusion."""
    side = state.sides[index]
    officer = side.officer
    leadership = officer.leadership if officer else 10
    modifier = int(house_value("rally.leadership_modifier", state.overrides))
    terms = [("leadership", leadership), ("rally", modifier)]
    roll = success_roll(dice, leadership + modifier, purpose="rally", breakdown=terms)
    events.append(
        Event(
            "gurps4e.rally",
            {"side": SIDE_KEYS[index], "roll": roll.to_dict(), "rallied": roll.succeeded},
        )
    )
    if roll.succeeded:
        return state.with_side(index, replace(side, confused=False))
    return state


# --- the end -------------------------------------------------------------------------------------


def _aftermath(state: BattleState, dice: Dice, events: list[Event], *, pursuit: bool):
    """§A.7.1: the victor's Leadership decides pursuit (success: its choice), then §A.7.2-4."""
    events.append(
        Event(
            "gurps4e.battle_ended",
            {
                "victor": SIDE_KEYS[state.victor] if state.victor is not None else None,
                "reason": state.end_reason,
            },
        )
    )
    if not pursuit or state.victor is None:
        return _close(state, None, events)
    officer = state.sides[state.victor].officer
    result = after.pursuit_roll(dice, officer.leadership if officer else 10)
    events.append(Event("gurps4e.pursuit_roll", {"side": SIDE_KEYS[state.victor], **result}))
    if result["chooses"]:
        return replace(state, phase=PURSUIT)
    return _pursue(state, result["choice"], dice, events)


def _pursue(state: BattleState, choice: str, dice: Dice, events: list[Event]) -> BattleState:
    """§A.7.1: Pursue or Hold the field."""
    victor = state.victor if state.victor is not None else 0
    effects = after.pursuit_effects(dice, choice, state.sides[victor].superiority, state.overrides)
    loser, winner_side = state.sides[1 - victor], state.sides[victor]
    state = state.with_side(
        1 - victor,
        replace(
            loser,
            casualties=rules.apply_casualties(loser.casualties, effects["retreating"]),
            logistics=rules.apply_casualties(loser.logistics, effects["logistics"]),
        ),
    )
    state = state.with_side(
        victor,
        replace(
            winner_side,
            casualties=rules.apply_casualties(winner_side.casualties, effects["victor"]),
        ),
    )
    events.append(Event("gurps4e.pursuit", {"choice": choice, **effects}))
    return _close(state, {"choice": choice, **effects}, events)


def _close(
    state: BattleState, pursuit: Mapping[str, Any] | None, events: list[Event]
) -> BattleState:
    """§A.7.2-A.7.4: recovery, new TS, loot."""
    sides = {}
    for i, side in enumerate(state.sides):
        winner_like = state.victor == i or (
            state.victor is None
            and (
                state.end_reason != "retreat"
                or house_value("retreat.both_no_victor_recover", state.overrides)
            )
        )
        role = "winner" if winner_like else "loser"
        final = after.final_casualties(side.casualties, role)
        lost_rows = [r for r in side.force.rows if role == "loser" and "fanatic" in r.type.features]
        lost_ts = force_ts(replace(side.force, rows=tuple(lost_rows)), state.overrides)
        sides[SIDE_KEYS[i]] = {
            "role": role,
            "casualties": side.casualties,
            "final_casualties": final,
            "logistics_losses": side.logistics,
            "old_ts": str(side.ts),
            "new_ts": after.new_ts(Fraction(side.ts) - lost_ts, final),
            "remaining_share": 100 - final,
            "destroyed_rows": [r.key for r in lost_rows],
            "loot_value": after.loot_value(side.force.raise_cost, final),
        }
    elements = sum(side.force.elements for side in state.sides)
    data = {
        "sides": sides,
        "pursuit": dict(pursuit) if pursuit else None,
        "loot": {
            "minutes": after.loot_minutes(elements),
            "holder": SIDE_KEYS[state.victor] if state.victor is not None else None,
        },
        "pcs": [{"key": pc.key, "hp": pc.hp, "status": pc.status} for pc in state.pcs],
    }
    events.append(Event("gurps4e.aftermath", data))
    return replace(state, aftermath=data, finished=True, phase=FINISHED)


def outcome(state: BattleState) -> Outcome | None:
    """None while the battle runs; then the victor and what the Django layer writes back to
    each persistent force (new TS, final casualties %, logistics losses, destroyed rows, loot,
    the PCs' HP and status)."""
    if not state.finished:
        return None
    losers = tuple(SIDE_KEYS[i] for i in (0, 1) if state.victor is not None and i != state.victor)
    winner = SIDE_KEYS[state.victor] if state.victor is not None else None
    return Outcome(winner, losers, {"end_reason": state.end_reason, **dict(state.aftermath or {})})


def public_state(state: BattleState, viewer: str | None) -> dict[str, Any]:
    """The state as `viewer` may see it (DESIGN "Visibility").

    None (the GM) sees everything. A side ("a"/"b") or one of its PCs sees its own side in
    full; of the other side (and a spectator, of both) only whether its commander has chosen
    (never the pending strategy), its casualties, PB, confusion, whether it left, and its
    PCs' names and status (not their HP). A side also gets `intelligence`: what it knows of
    the enemy force at the precision of §A.5.1."""
    if viewer is None:
        return state.to_dict()
    data = state.to_dict(opening=False)
    index = _side_index(viewer)
    if index is None:
        index = next((pc.side for pc in state.pcs if pc.key == viewer), None)
    for i in (0, 1):
        if i == index:
            continue
        data["choices"][i] = {"chosen": True} if data["choices"][i] else None
        data["sides"][i] = {
            k: data["sides"][i][k] for k in ("casualties", "pb", "confused", "left")
        }
    data["pcs"] = [
        pc if pc["side"] == index else {k: pc[k] for k in ("key", "name", "side", "status")}
        for pc in data["pcs"]
    ]
    if index is not None:
        data["intelligence"] = pre.initial_intelligence(
            state.sides[1 - index].force,
            kind=state.kind or pre.ENCOUNTER,
            confused=state.sides[index].started_confused,
            initiative=state.initiative == index,
            obscured=state.obscured,
        )
    return data


# --- auto-play and forecasts (protocol) -----------------------------------------------------------


@per_state()
def awaiting(state: BattleState) -> tuple[Waiting, ...]:
    """Who the battle waits for: the recon winner's choice of battle, every commander and PC
    whose choice the round still needs (a PC who chose a Risk may change it, but the round
    does not wait for that), a Parley's answer, the one-time change after a slow strategy,
    the victor's pursuit choice (§A.4-§A.7). Kept in the state: auto-play asks it, then the
    policy checks the actor against it."""
    if state.finished:
        return ()
    if state.phase == BATTLE_KIND and state.initiative is not None:
        return (Waiting(SIDE_KEYS[state.initiative], SIDE_KEYS[state.initiative]),)
    if state.phase == CHOOSING:
        sides = [
            Waiting(SIDE_KEYS[i], SIDE_KEYS[i])
            for i in (0, 1)
            if state.choices[i] is None and not state.sides[i].left
        ]
        pcs = [
            Waiting(pc.key, SIDE_KEYS[pc.side])
            for pc in state.pcs
            if _needs_pc_choice(state, pc) and pc.key not in state.pc_choices
        ]
        return (*sides, *pcs)
    index = None
    if state.phase == PARLEY:
        index = _parley_answerer(state)
    elif state.phase == CHANGE:
        index = rules.slow_change_side(*_chosen(state), _refused(state))
    elif state.phase == PURSUIT:
        index = state.victor
    return () if index is None else (Waiting(SIDE_KEYS[index], SIDE_KEYS[index]),)


def clock(state: BattleState) -> tuple[int, int]:
    """(round, 0): both sides choose together."""
    return (state.round, 0)


def standing(state: BattleState) -> Standing:
    """Per force the TS it has left after its casualties (of its TS at the start), its
    casualties and logistics losses %, whether it was destroyed (100 %) or left the field;
    per PC its HP and whether it is down or captured."""
    forces = []
    for i, side in enumerate(state.sides):
        flags = [name for name, happened in (("destroyed", side.casualties >= 100),
                                             ("retreated", side.left)) if happened]  # fmt: skip
        ts = float(side.ts)
        forces.append(
            ForceStanding(SIDE_KEYS[i], SIDE_KEYS[i], "force", "ts",
                          ts * (100 - side.casualties) / 100, ts, tuple(flags),
                          {"casualties": side.casualties, "logistics": side.logistics})
        )  # fmt: skip
    for pc in state.pcs:
        flags = () if pc.status == ACTIVE else (pc.status,)
        forces.append(
            ForceStanding(pc.key, SIDE_KEYS[pc.side], "pc", "hp", max(0, pc.hp), pc.max_hp, flags)
        )
    return Standing(SIDE_KEYS, tuple(forces))
