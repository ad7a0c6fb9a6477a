"""The PF2e war encounter (§7): setup and initiative, turns and rounds, rout checks, the end
of the encounter, GM corrections, and the outcome. Implements `warfare.engine.battle.protocol`.

Setup (plain JSON)::

    {
      "sides": [
        {"key": "kingdom", "pcs_side": true, "kingdom_level": 3,
         "armies": [
           {"army": <ArmyState.to_dict()>,      # its key becomes a string in the battle
            "garrisoned": false,                 # from Garrison Army: fortified (§4.4, §7.5)
            "fortification": null,               # key of a fortification of its side
            "pcs": false,                        # PC leaders alongside: +1 status Morale (§7.7)
            "initiative_bonus": 0,               # Offensive Gambit, circumstance (§4.5)
            "start": null,                       # pre-chosen: "near", "distant" (Opening
            "start_target": null}]},             #   Salvo) or "engaged" with this enemy
                                                 #   (Ambush, Swamp Charge)
        {"key": "enemy", "auto_reactions": true,  # reactions used automatically (§0.5)
         "armies": [...]}],
      "fortifications": [{"key": "keep", "kind": "keep", "side": "kingdom", "hp": 5}],
      "terrain": ["strong_wind", "dim_light"],   # §7.4 features, plus "swamp" / "water"
      "initiative_dice": {"a1": 17},             # typed-in initiative d20s (optional)
      "offer_starts": true,                      # offer the starting positions (below)
      "typed_dice_by_roll": true                 # typed dice never go to a reaction (below)
    }

Starting positions (§7.3, §6.1 Ambush / Opening Salvo, §6.2 Swamp Charge): after initiative,
the starts are taken in initiative order. A start given in the setup is a pre-answer (applied,
or refused with `battle.start_refused` when the tactic, the initiative order or the terrain do
not allow it). With `"offer_starts": true`, an army without one whose tactics, initiative
order and terrain give it a choice beyond staying near chooses it itself: the state is in the
positions phase (`state.positions`, `battle.start_offered`), `legal_actions` of that army
lists "choose_start" options (params {"start": "near"} / {"start": "distant"} / {"start":
"engaged", "target": <enemy>}; no dice), and every other command is rejected
(`battle.start_pending`; GM corrections wait too: the GM may answer for the army). Once all
have chosen, round 1 begins. Without the flag (older battles) such an army stays near, so
their commands replay to the same states.

Commands: "choose_start" (above), every war action key of `actions.WAR_ACTIONS` (actor = the
army whose turn it is, params as in its `ActionOption`), "end_turn" (the last army's end of
turn runs the end of the round: rout checks, §7.3) and "gm_correction" (actor None; params
{"army", and any of "hp", "conditions" {key: value}, "position" near/distant, "engage" [keys],
"disengage" [keys], "shots"}) which is logged as an event like everything else.

Reactions (see `reactions`): Counterattack, False Retreat, Revel in Battle and Accustomed to
Panic, 1 per round per army. A side with `"auto_reactions": true` (the default) uses them
automatically when triggered; for a side with `false` the engine stops the command at the
trigger and offers the reaction: `state.pending` holds it, `legal_actions` of the reacting
army lists exactly "use_reaction" (with the check it rolls) and "decline_reaction" (actor =
the reacting army, params {}), every other command is rejected (`battle.reaction_pending`),
and the answer resumes the interrupted command (`_run`). GM corrections wait too: the command
would resume from the state before them. Each die typed in goes to the roll it was typed for
(with `"typed_dice_by_roll": true`, set for every battle since): those typed in with a command
to its own rolls, before and after a reaction; a reaction's rolls to those typed in with the
answer that uses it, else the server's (an automatic reaction: the server's). Without the flag
(older battles) the dice are used in the order rolled, reactions included, so that their
commands replay to the same states.

The army-specific actions of §6.2 (Trample, Trampling Charge, Reactive Rally, Furious Charge,
Swift Recovery, Battlefield Adaptability, Primal Magic) are war actions offered only to the
armies whose tactics grant them. Of the passive unique tactics, not built are: Wyvern Venom's
"ongoing venom" and its flat check on regaining HP (its weary +1 / 1 damage is built),
Flight's immunity to mired from effects it flies over, and the ways to destroy Troll
Marauders (firepots, burning them).
"""

import random
from collections.abc import Mapping
from contextlib import contextmanager
from typing import Any

from warfare.engine.battle.protocol import (
    ActionOption,
    ActionSpec,
    Command,
    CommandDice,
    ForceStanding,
    Outcome,
    Rejected,
    SetupError,
    Standing,
    Waiting,
    derive_seed,
)
from warfare.engine.dice import (
    DiceError,
    DiceExpr,
    LeanDice,
    Roll,
    SeededDice,
    TypedDice,
    typed_value_problem,
)
from warfare.engine.frozen import per_setup, per_state, replace, state_memo
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.state import ACTIVE, DESTROYED, ArmyState, add_condition
from warfare.engine.systems.pf2e.battle.actions import (
    MANEUVER,
    NO_COUNTERATTACK,
    WAR_ACTIONS,
    Ctx,
    _can_engage,
    cost_of,
    engage,
    retreat_cost,
    traits_of,
)
from warfare.engine.systems.pf2e.battle.reactions import (
    Decider,
    Offered,
    after_morale_checks,
    can_continue,
    counterattacks,
    false_retreat,
    preview,
)
from warfare.engine.systems.pf2e.battle.rules import (
    ACTIONS_PER_TURN,
    CF,
    CIRCUMSTANCE,
    CS,
    FORTIFICATIONS,
    MAX_ENGAGEMENTS,
    QUIET,
    REACTIONS,
    SCOUTING_PENALTY,
    TERRAIN,
    F,
    add_army_condition,
    destroy,
    effective_block,
    end_effects,
    extend,
    heal_army,
    ignores,
    knows,
    morale,
    morale_dc,
    roll_check,
    route,
    situational,
)
from warfare.engine.systems.pf2e.battle.state import (
    DISTANT,
    FLED,
    NEAR,
    NEXT_STRIKE,
    TURN_END,
    TURN_START,
    BattleArmy,
    BattleState,
    Effect,
    Fortification,
    InitiativeRoll,
    Pending,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS, implied_by
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.modifiers import Modifier, Stat
from warfare.engine.systems.pf2e.xp import kingdom_xp_for_defeated_army

END_TURN, GM_CORRECTION, CHOOSE_START = "end_turn", "gm_correction", "choose_start"
ENGAGED = "engaged"
STARTS = (NEAR, DISTANT, ENGAGED)
USE_REACTION, DECLINE_REACTION = "use_reaction", "decline_reaction"
ANSWERS = (USE_REACTION, DECLINE_REACTION)
GM_CONDITIONS = tuple(k for k in CONDITIONS if k not in ("defeated", "destroyed", "distant",
                                                          "engaged"))  # fmt: skip


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"battle.{code}", params)


# --- setup ---------------------------------------------------------------------------------------


def validate_setup(setup: Mapping[str, Any]) -> list[Problem]:
    """Problems with a setup (empty: `start` accepts it)."""
    problems: list[Problem] = []
    sides = setup.get("sides")
    if not isinstance(sides, list | tuple) or len(sides) != 2:
        return [_p("setup.two_sides_needed")]
    side_keys = [str(side.get("key", "")) for side in sides]
    if len(set(side_keys)) != 2 or "" in side_keys:
        problems.append(_p("setup.bad_side_keys", sides=side_keys))
    forts = {f.get("key"): f for f in setup.get("fortifications") or ()}
    for key, fort in forts.items():
        if fort.get("kind") not in FORTIFICATIONS:
            problems.append(_p("setup.unknown_fortification", fortification=key,
                               kind=fort.get("kind")))  # fmt: skip
        if fort.get("side") not in side_keys:
            problems.append(_p("setup.bad_fortification_side", fortification=key))
    for feature in setup.get("terrain") or ():
        if feature not in TERRAIN:
            problems.append(_p("setup.unknown_terrain", terrain=feature))
    seen: set[str] = set()
    occupants: dict[str, int] = {}
    for side in sides:
        if not isinstance(side.get("auto_reactions", True), bool):
            problems.append(_p("setup.bad_auto_reactions", side=side.get("key")))
        armies = side.get("armies") or ()
        if not armies:
            problems.append(_p("setup.side_without_armies", side=side.get("key")))
        for entry in armies:
            problems += _army_entry_problems(entry, side, forts, seen, occupants)
    for fort, count in occupants.items():
        if fort in forts and forts[fort].get("kind") in FORTIFICATIONS:
            capacity = FORTIFICATIONS[forts[fort]["kind"]][2]
            if count > capacity:
                problems.append(_p("setup.fortification_full", fortification=fort,
                                   capacity=capacity, armies=count))  # fmt: skip
    return problems + _flag_and_dice_problems(setup, seen)


def _army_entry_problems(
    entry: Mapping[str, Any],
    side: Mapping[str, Any],
    forts: Mapping[Any, Mapping[str, Any]],
    seen: set[str],
    occupants: dict[str, int],
) -> list[Problem]:
    """The problems of one army of a side's set-up; its key joins `seen` and its
    fortification counts one more occupant."""
    try:
        army = ArmyState.from_dict(entry["army"])
        block = army.block()
    except (KeyError, TypeError, ValueError) as error:
        return [_p("setup.bad_army", error=type(error).__name__)]
    problems = []
    key = str(army.key) if army.key is not None else ""
    if not key or key in seen:
        problems.append(_p("setup.duplicate_army_key", army=key))
    seen.add(key)
    if army.status != ACTIVE:
        problems.append(_p("setup.army_not_active", army=key, status=army.status))
    if army.hp <= 0:
        problems.append(_p("setup.army_defeated", army=key))
    if army.hp > block.max_hp.value:
        problems.append(_p("setup.bad_hp", army=key, hp=army.hp))
    fort = entry.get("fortification")
    if fort is not None:
        fortified = entry.get("garrisoned") or "fortified" in army.spec.condition_values
        if fort not in forts:
            problems.append(_p("setup.unknown_fortification", fortification=fort))
        elif forts[fort].get("side") != side.get("key"):
            problems.append(_p("setup.bad_fortification_side", fortification=fort))
        elif not fortified:
            problems.append(_p("setup.fortification_needs_garrison", army=key))
        occupants[fort] = occupants.get(fort, 0) + 1
    start = entry.get("start")
    if start not in (None, *STARTS):
        problems.append(_p("setup.bad_start", army=key, start=start))
    bonus = entry.get("initiative_bonus", 0)
    if isinstance(bonus, bool) or not isinstance(bonus, int):
        problems.append(_p("setup.bad_initiative_bonus", army=key))
    return problems


def _flag_and_dice_problems(setup: Mapping[str, Any], armies: set[str]) -> list[Problem]:
    """The set-up's flags and typed-in initiative dice (for the `armies` it has)."""
    problems = []
    if not isinstance(setup.get("offer_starts", False), bool):
        problems.append(_p("setup.bad_offer_starts"))
    if not isinstance(setup.get("typed_dice_by_roll", False), bool):
        problems.append(_p("setup.bad_typed_dice_by_roll"))
    for key, value in (setup.get("initiative_dice") or {}).items():
        if key not in armies:
            problems.append(_p("setup.unknown_army", army=key))
        problem = typed_value_problem(value, 20)
        if problem is not None:
            problems.append(problem)
    return problems


def _initiative(state: BattleState, key: str, seed: int, typed: int | None) -> InitiativeRoll:
    """§7.3 step 1: a Scouting check (`_initiative_modifier`) with the army's own die."""
    modifier = _initiative_modifier(state, key)
    if typed is None:  # `CommandDice`'s seeded d20 (`LeanDice` draws it as `SeededDice`)
        rng = random.Random(derive_seed(seed, f"start:{key}"))  # noqa: S311 - game dice
        die, source = LeanDice(rng).d20(purpose="initiative"), SeededDice.source
    else:
        dice = CommandDice(derive_seed(seed, f"start:{key}"), [typed])
        die = dice.d20(purpose="initiative")
        source = dice.log[-1].source
    return InitiativeRoll(
        key, die, source, modifier.value, modifier.breakdown, die + modifier.value
    )


@per_state()
def _initiative_modifier(state: BattleState, key: str) -> Stat:
    """§7.3 step 1: the Scouting modifier; Keen Eyed +2 status, Offensive Gambit
    circumstance, Water Stride / Swamp Dwellers with swamp or water, darkness / fog / dim
    light penalties. Kept for the state: `start` rolls from the state `_prepared` worked out
    once per set-up."""
    entry = state.army(key)
    block = effective_block(state, key)
    whens = ["initiative"]
    if "swamp" in state.terrain or "water" in state.terrain:
        whens += ["initiative_swamp_or_water", "swamp_or_water"]
    extra = situational(block, ["scouting"], whens)
    if entry.initiative_bonus:
        extra.append(Modifier("offensive_gambit", entry.initiative_bonus, CIRCUMSTANCE))
    extra += [
        Modifier(f"terrain.{feature}", penalty, CIRCUMSTANCE)
        for feature, penalty in SCOUTING_PENALTY.items()
        if feature in state.terrain and not ignores(state, key, feature)
    ]
    return extend(block.scouting, extra)


@per_setup()
def _prepared(
    setup: Mapping[str, Any],
) -> tuple[tuple[Problem, ...], BattleState | None, dict[str, tuple[str, Any]]]:
    """What `start` does before any die: (the set-up's problems, the state before the
    initiative, the starting positions the set-up gives). Worked out once per set-up."""
    problems = validate_setup(setup)
    if problems:
        return tuple(problems), None, {}
    sides = tuple(str(side["key"]) for side in setup["sides"])
    pc_side = next((str(s["key"]) for s in setup["sides"] if s.get("pcs_side")), None)
    forts = []
    for data in setup.get("fortifications") or ():
        ac, hp, capacity = FORTIFICATIONS[data["kind"]]
        forts.append(
            Fortification(str(data["key"]), data["kind"], str(data["side"]), ac,
                          int(data.get("hp", hp)), hp, capacity)
        )  # fmt: skip
    armies: list[BattleArmy] = []
    starts: dict[str, tuple[str, Any]] = {}
    for side in setup["sides"]:
        for entry in side["armies"]:
            army = ArmyState.from_dict(entry["army"])
            army = replace(army, key=str(army.key), fought_this_turn=True)
            if entry.get("garrisoned") and "fortified" not in army.spec.condition_values:
                army = add_condition(army, "fortified", 1, [])
            armies.append(
                BattleArmy(
                    key=str(army.key),
                    side=str(side["key"]),
                    army=army,
                    shots=army.block().shots.value,
                    fortification=entry.get("fortification"),
                    pcs=bool(entry.get("pcs", False)),
                    initiative_bonus=int(entry.get("initiative_bonus", 0)),
                    auto_reactions=bool(side.get("auto_reactions", True)),
                )
            )
            if entry.get("start"):
                starts[str(army.key)] = (entry["start"], entry.get("start_target"))
    state = BattleState(
        sides=sides,
        armies=tuple(armies),
        order=(),
        pc_side=pc_side,
        kingdoms={str(s["key"]): {"level": s.get("kingdom_level")} for s in setup["sides"]},
        terrain=tuple(setup.get("terrain") or ()),
        fortifications=tuple(forts),
        typed_dice_by_roll=bool(setup.get("typed_dice_by_roll", False)),
    )
    return (), state, starts


def start(setup: Mapping[str, Any], seed: int) -> BattleState:
    """Validate `setup`, roll initiative, place the armies (§7.1-§7.3): up to the first
    army whose controller chooses its starting position, else into round 1."""
    problems, state, starts = _prepared(setup)
    if problems:
        raise SetupError(problems)
    assert state is not None
    sides, pc_side = state.sides, state.pc_side
    typed = setup.get("initiative_dice") or {}
    rolls = [_initiative(state, e.key, seed, typed.get(e.key)) for e in state.armies]
    index = {e.key: i for i, e in enumerate(state.armies)}
    enemies_first = house_value("battle.initiative_ties_enemies_of_pcs_first")

    def rank(roll: InitiativeRoll) -> tuple[int, int, int]:
        pcs = state.army(roll.army).side == pc_side if enemies_first and pc_side else False
        return (-roll.total, int(pcs), index[roll.army])

    order = tuple(roll.army for roll in sorted(rolls, key=rank))
    state = replace(state, order=order, initiative=tuple(rolls))
    events: list[Event] = [Event("battle.started", {"sides": list(sides), "order": list(order)})]
    events += [Event("battle.initiative", roll.to_dict()) for roll in rolls]
    offer = setup.get("offer_starts", False)
    positions = tuple(
        (key, *starts[key]) if key in starts else (key, None, None)
        for key in order
        if key in starts or (offer and _may_choose_start(state, key))
    )
    state = _place(replace(state, positions=positions), events, None)
    return replace(state, opening=tuple(events))


def _may_choose_start(state: BattleState, key: str) -> bool:
    """Do its tactics, the initiative order and the terrain give `key` a start beyond near
    (§6.1 Ambush and Opening Salvo: acting before every enemy; §6.2 Swamp Charge: swamp or
    water)?"""
    if knows(state, key, "swamp_charge") and _swampy(state):
        return True
    tactics = knows(state, key, "opening_salvo") or knows(state, key, "ambush")
    return tactics and _acts_before_enemies(state, key)


def _swampy(state: BattleState) -> bool:
    return "swamp" in state.terrain or "water" in state.terrain


def _start_options(state: BattleState, key: str) -> list[dict[str, Any]]:
    """The "choose_start" params open to `key` now: stay near; start distant (Opening Salvo,
    acting before every enemy); start engaged with each enemy it may engage (§7.2: neither
    fortified, both below 4 engagements) by Ambush (acting before every enemy, who all rolled
    lower) or Swamp Charge (swamp or water)."""
    first = _acts_before_enemies(state, key)
    options: list[dict[str, Any]] = [{"start": NEAR}]
    if first and knows(state, key, "opening_salvo"):
        options.append({"start": DISTANT})
    if (first and knows(state, key, "ambush")) or (
        knows(state, key, "swamp_charge") and _swampy(state)
    ):
        options += [
            {"start": ENGAGED, "target": enemy.key}
            for enemy in state.enemies(key)
            if enemy.present and _can_engage(state, key, enemy.key)
        ]
    return options


def _place(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Take the starting positions left in `state.positions`, in initiative order; stop at
    the first army whose controller chooses (when it has more than staying near to choose
    from: `battle.start_offered`); once none is left, round 1 begins."""
    while state.positions:
        (key, option, target), rest = state.positions[0], state.positions[1:]
        if option is None:
            if len(_start_options(state, key)) > 1:
                events.append(Event("battle.start_offered", {"army": key}))
                return state
        else:
            state = _start_option(state, key, option, target, events)
        state = replace(state, positions=rest)
    events.append(Event("battle.round_started", {"round": 1}))
    return _begin_turn(state, events, dice)


def _acts_before_enemies(state: BattleState, key: str) -> bool:
    position = state.order.index(key)
    return all(state.order.index(e.key) > position for e in state.enemies(key))


def _start_option(
    state: BattleState, key: str, option: str, target: Any, events: list[Event]
) -> BattleState:
    """§7.3 / §6.1 / §6.2: stay near (the default), Opening Salvo (start distant), Ambush and
    Swamp Charge (start engaged with an enemy, with a bonus to attacks on it in the first
    turn)."""

    def refuse(reason: str) -> BattleState:
        events.append(Event("battle.start_refused", {"army": key, "start": option,
                                                      "reason": reason}))  # fmt: skip
        return state

    if option == NEAR:
        events.append(Event("battle.start_near", {"army": key}))
        return state
    if option == DISTANT:
        if not knows(state, key, "opening_salvo"):
            return refuse("needs_opening_salvo")
        if not _acts_before_enemies(state, key):
            return refuse("not_first")
        events.append(Event("battle.start_distant", {"army": key, "reason": "opening_salvo"}))
        return state.with_army(replace(state.army(key), position=DISTANT))
    if not isinstance(target, str) or not state.has_army(target):
        return refuse("unknown_target")
    if state.army(target).side == state.army(key).side:
        return refuse("target_not_enemy")
    if knows(state, key, "ambush") and _acts_before_enemies(state, key):
        code, value = "ambush", 2
    elif knows(state, key, "swamp_charge") and _swampy(state):
        code, value = "swamp_charge", 1
    else:
        return refuse("not_allowed")
    before = state
    state = engage(state, key, target, events, code)
    if state is before:
        return state
    effect = Effect(code, key, "attack_bonus", value, None, target, TURN_END, key, 1)
    events.append(Event("battle.effect_started", effect.to_dict()))
    return replace(state, effects=(*state.effects, effect))


# --- turns, rounds, the end ----------------------------------------------------------------------


def _boundary(state: BattleState, key: str, boundary: str, events: list[Event]) -> BattleState:
    """Effects timed on `key`'s turn start/end count down; the ones reaching 0 end.
    "next_strike" effects owned by `key` end with its turn."""
    if not state.effects:
        return state
    keep, ended = [], []
    for effect in state.effects:
        matches = effect.owner == key and (
            effect.boundary == boundary or (boundary == TURN_END and effect.boundary == NEXT_STRIKE)
        )
        if not matches:
            keep.append(effect)
        elif effect.boundary == NEXT_STRIKE or effect.remaining <= 1:
            ended.append(effect)
        else:
            keep.append(replace(effect, remaining=effect.remaining - 1))
    return (
        end_effects(state, keep, ended, events) if ended or keep != list(state.effects) else state
    )


def _begin_turn(
    state: BattleState, events: list[Event], dice: Any, *, own: bool = False
) -> BattleState:
    """Start the current army's turn; skip armies that cannot act (defeated, fled,
    destroyed), running the end of the round when the order wraps. `own` (a lean end of
    turn, see `_end_turn`): `state` and every state made from it are the command's own,
    seen by nobody yet, so the actions left are set in them instead of in one more copy."""
    for _ in range(4 * max(1, len(state.order)) + 4):
        if state.finished:
            return state
        key = state.order[state.turn]
        if state.effects:  # (`_boundary` changes nothing without effects)
            state = _boundary(state, key, TURN_START, events)
        entry = state.army(key)
        regenerates = "regeneration" in entry.army.spec.tactics  # (`knows`, of the entry)
        if regenerates and entry.present and entry.hp < entry.army.max_hp:
            state = heal_army(state, key, 1, events, "regeneration")  # §6.2 Regeneration
            # Frightening Foe (§6.2) reads "Regeneration was used this turn".
            used = Effect("regeneration", key, "regenerated", 1, None, None, TURN_END, key, 1)
            events.append(Event("battle.effect_started", used.to_dict()))
            state = replace(state, effects=(*state.effects, used))
        entry = state.army(key)
        fresh = not entry.attacks and entry.next_attack_bonus is None
        if not fresh or entry.disengage_blocked or entry.reaction_used:
            # (else the entry stays as it is, and so does its stat block, kept per entry)
            state = state.with_army(
                replace(
                    entry,
                    attacks=(),
                    next_attack_bonus=None,
                    disengage_blocked=False,
                    reaction_used=False,  # §0.5: its reaction comes back at its turn start
                ),
                actions_left=ACTIONS_PER_TURN,
            )
        elif own:
            object.__setattr__(state, "actions_left", ACTIONS_PER_TURN)
        else:
            state = replace(state, actions_left=ACTIONS_PER_TURN)
        if entry.present and not entry.defeated:
            if events is not QUIET:
                events.append(Event("battle.turn_started", {"army": key, "round": state.round}))
            return state
        if events is not QUIET:
            events.append(Event("battle.turn_skipped", {"army": key, "round": state.round}))
        if state.effects:  # (idem)
            state = _boundary(state, key, TURN_END, events)
        state = _advance(state, events, dice)
    return state


def _advance(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Move to the next army; after the last one, the end of the round (§7.3 step 3)."""
    return _after_turn(replace(state, turn=state.turn + 1), events, dice)


def _after_turn(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """`_advance` once the turn has moved on: the end of the round after the last army."""
    if state.turn < len(state.order):
        return state
    state = _end_of_round(state, events, dice)
    state = _check_end(state, events)
    if state.finished:
        return replace(state, turn=0)
    state = replace(state, round=state.round + 1, turn=0)
    if events is not QUIET:
        events.append(Event("battle.round_started", {"round": state.round}))
    return state


def _end_of_round(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """§7.3 step 3: every army at or below its RT makes a Morale check vs the highest Morale
    DC among the remaining enemy armies. CS: no more rout checks this encounter; F: shaken
    +1; CF: routed."""
    if events is not QUIET:
        events.append(Event("battle.round_ended", {"round": state.round}))
    include_defeated = house_value("rout_check.include_defeated")
    for key in state.order:
        entry = state.army(key)
        if not entry.present or entry.rout_exempt or (entry.defeated and not include_defeated):
            continue
        threshold = effective_block(state, key).rout_threshold
        if threshold is None or entry.hp > threshold.value:
            continue
        enemies = [e.key for e in state.enemies(key) if e.present and not e.defeated]
        if not enemies:
            continue
        against, dc = enemies[0], morale_dc(state, enemies[0])
        for other in enemies[1:]:  # (`max` by DC: the first of the highest, each DC once)
            other_dc = morale_dc(state, other)
            if other_dc.value > dc.value:
                against, dc = other, other_dc
        modifier = morale(state, key, ["resist_rout"])
        if dice is None:  # pragma: no cover - rounds only end inside commands
            raise RuntimeError("a rout check needs dice")
        rolled = roll_check(dice, "morale", modifier, dc, purpose="rout_check", against=against)
        if events is not QUIET:
            events.append(Event("battle.rout_check", {"army": key, "degree": rolled.degree.code,
                                                      "check": rolled.record}))  # fmt: skip
        if rolled.degree is CS:
            state = state.with_army(replace(state.army(key), rout_exempt=True))
        elif rolled.degree is F:
            state = add_army_condition(state, key, "shaken", 1, events, "rout_check")
        elif rolled.degree is CF:
            state = route(state, key, events, "rout_check")
        if rolled.degree.succeeded:
            state = false_retreat(state, key, against, "rout_check", dice, events)
    return state


def _check_end(state: BattleState, events: list[Event]) -> BattleState:
    """§7.3 step 5: a side whose armies are all defeated or routed (or gone) has lost."""
    if state.finished:
        return state
    # The sides with an army still fighting, as a dict's keys (`fighting[side] = True` and
    # the loop over the sides below call no function: every command asks).
    fighting: dict[str, bool] = {}
    for entry in state.armies:  # (`BattleArmy.out_of_fight` inline: every command asks)
        side = entry.side
        if side in fighting:
            continue
        army = entry.army
        if entry.position == FLED or army.status == DESTROYED or army.hp == 0:
            continue
        implied = implied_by(army.spec.conditions)
        if "defeated" not in implied and "routed" not in implied:
            fighting[side] = True
    for side in state.sides:
        if side not in fighting:
            break
    else:
        return state  # no side beaten
    beaten = [side for side in state.sides if side not in fighting]
    winners = [side for side in state.sides if side not in beaten]
    return _finish(state, winners[0] if winners else None, beaten, events)


def _finish(
    state: BattleState, winner: str | None, losers: list[str], events: list[Event]
) -> BattleState:
    """End of the encounter (§7.3 step 5, §9 Defeated/Routed): a side whose armies are all
    defeated is destroyed; routed ends but gives shaken +1; shots refill; effects end."""
    events.append(Event("battle.finished", {"winner": winner, "losers": losers}))
    for side in state.sides:
        armies = [e for e in state.armies if e.side == side and not e.destroyed]
        if armies and all(e.defeated for e in armies):
            for entry in armies:
                state = destroy(state, entry.key, events, "side_defeated")
    for entry in state.armies:
        if entry.destroyed:
            continue
        army = entry.army
        if "routed" in army.conditions:
            conditions = army.spec.condition_values
            conditions.pop("routed", None)
            army = replace(army, spec=replace(army.spec, conditions=conditions))
            events.append(Event("army.routed_removed", {"army": entry.key,
                                                        "reason": "encounter_end"}))  # fmt: skip
            army = add_condition(army, "shaken", 1, events, "encounter_end")
        shots = army.block().shots.value
        state = state.with_army(replace(entry, army=army, shots=shots, attacks=()))
    state = end_effects(state, [], state.effects, events)
    return replace(state, finished=True, winner=winner, actions_left=0)


# --- the protocol ---------------------------------------------------------------------------------


def _action_problems(state: BattleState, command: Command) -> list[Problem]:
    """The problems of a war action or "end_turn" in this state (empty: legal). Kept for
    the state (`per_state`): the policy checks the command it suggests, then `apply` checks
    it again; the list returned must not be changed."""
    try:
        # The params in their order (the same params in another order: another key, the
        # same answer); a value's type too (1, 1.0 and True are equal, not the same).
        key = (_PROBLEMS, command.actor, command.kind,
               *[(k, type(v), v) for k, v in command.params.items()])  # fmt: skip
        memo = state_memo(state)
        return memo[key]
    except KeyError:
        problems = memo[key] = _problems_of_action(state, command)
        return problems
    except TypeError:  # params that cannot be a key (unhashable, mixed keys): no memo
        return _problems_of_action(state, command)


_PROBLEMS = "pf2e._action_problems"


def _problems_of_action(state: BattleState, command: Command) -> list[Problem]:
    actor, kind = command.actor, command.kind
    if actor != state.current:
        return [_p("not_your_turn", army=actor, current=state.current)]
    if kind == END_TURN:
        return []
    if kind not in WAR_ACTIONS:
        return [_p("unknown_action", action=kind)]
    entry = state.army(actor)
    block = effective_block(state, actor)
    if kind not in block.war_actions:
        return [_p("action_not_known", action=kind)]
    cost = cost_of(kind)
    if cost > state.actions_left:
        return [_p("not_enough_actions", action=kind, cost=cost, left=state.actions_left)]
    if entry.routed and kind not in ("retreat", "reactive_rally"):
        may_disengage = house_value("battle.routed_engaged_may_disengage")
        if not (kind == "disengage" and may_disengage):
            return [_p("routed_must_retreat", action=kind)]
    if MANEUVER in traits_of(kind) and "pinned" in dict(block.conditions):
        return [_p("pinned", action=kind)]
    return WAR_ACTIONS[kind].validate(state, actor, command.params)


def legal_actions(state: BattleState, actor: str) -> list[ActionSpec]:
    """The buttons for `actor` now (empty unless it is its turn), each option valid; while a
    reaction is offered, only "use_reaction" / "decline_reaction" for the reacting army;
    while starting positions are chosen, only "choose_start" for the army choosing."""
    if state.finished:
        return []
    if state.pending is not None:
        if actor != state.pending.army:
            return []
        checks = preview(state, state.pending)
        return [
            ActionSpec(USE_REACTION, 0, ("reaction",), (ActionOption({}, checks),)),
            ActionSpec(DECLINE_REACTION, 0, ("reaction",), (ActionOption({}),)),
        ]
    if state.positions:
        if actor != state.to_act:
            return []
        options = tuple(ActionOption(params) for params in _start_options(state, actor))
        return [ActionSpec(CHOOSE_START, 0, ("start",), options)]
    if actor != state.current:
        return []
    block = effective_block(state, actor)
    specs = []
    for key, action in WAR_ACTIONS.items():
        if key not in block.war_actions:
            continue
        options = []
        for params in action.candidates(state, actor):
            if _action_problems(state, Command(actor, key, params)):
                continue
            options.append(ActionOption(params, action.preview(state, actor, params)))
        if options:
            specs.append(
                ActionSpec(key, cost_of(key), traits_of(key), tuple(options),
                           action.optional_params)
            )  # fmt: skip
    specs.append(ActionSpec(END_TURN, 0, (), (ActionOption({}),)))
    return specs


def _answer_problems(state: BattleState, command: Command) -> list[Problem]:
    """A command while a reaction is offered: only its controller's answer is accepted."""
    pending = state.pending
    assert pending is not None
    if command.kind not in ANSWERS:
        return [_p("reaction_pending", army=pending.army, reaction=pending.reaction)]
    if command.actor != pending.army:
        return [_p("not_your_reaction", army=command.actor, reacting=pending.army)]
    return []


def apply(
    state: BattleState, command: Command, dice: Any
) -> tuple[BattleState, list[Event]] | Rejected:
    """Apply one command (see the module docstring); never changes `state`."""
    if state.finished:
        return Rejected((_p("finished"),))
    pending = state.pending
    if pending is not None:
        problems = _answer_problems(state, command)
        if problems:
            return Rejected(tuple(problems))
        answers = (*pending.answers, command.kind == USE_REACTION)
        resumed = _ResumeDice(pending.rolls, dice, pending.typed, answer=True,
                              by_roll=state.typed_dice_by_roll)  # fmt: skip
        return _run(
            BattleState.from_dict(pending.before), Command.from_dict(pending.command), resumed,
            answers, pending.logged, state.sequence + 1,
        )  # fmt: skip
    if state.positions:
        return _choose_start(state, command, dice)
    if command.kind == CHOOSE_START:
        return Rejected((_p("no_start_pending"),))
    if command.kind in ANSWERS:
        return Rejected((_p("no_reaction_pending"),))
    if command.kind == GM_CORRECTION:
        problems = _gm_problems(state, command.params)
    else:
        problems = _action_problems(state, command)
    if problems:
        return Rejected(tuple(problems))
    fresh = _ResumeDice((), dice, by_roll=state.typed_dice_by_roll)
    return _run(state, command, fresh, (), 0, state.sequence + 1)


def _choose_start(
    state: BattleState, command: Command, dice: Any
) -> tuple[BattleState, list[Event]] | Rejected:
    """The positions phase (§7.3): only the choosing army's "choose_start" with one of its
    options is accepted; the starts after it are taken, up to the next choice or round 1."""
    key = str(state.to_act)
    if command.kind != CHOOSE_START:
        return Rejected((_p("start_pending", army=key),))
    if command.actor != key:
        return Rejected((_p("not_your_start", army=command.actor, choosing=key),))
    params = {k: v for k, v in dict(command.params).items() if v is not None}
    if params not in _start_options(state, key):
        return Rejected((_p("bad_start_choice", army=key, start=params.get("start"),
                            target=params.get("target")),))  # fmt: skip
    events: list[Event] = []
    state = _start_option(state, key, params["start"], params.get("target"), events)
    state = _place(replace(state, positions=state.positions[1:]), events, dice)
    return replace(state, sequence=state.sequence + 1), events


class _ResumeDice:
    """The dice of a command, run afresh or again after a reaction was answered: the `rolls`
    it already made (recorded in `Pending`) first, then, with `by_roll` (see the module
    docstring): for the command's own rolls, the results typed in with it (`carried` over a
    pause, or those of `dice` on a fresh run) then the server's; for a reaction's rolls
    (`reaction`), those typed in with the answer using it when this command is that answer,
    then the server's. Without `by_roll` (older battles): `dice`'s typed results, then the
    carried ones, then the server's, whatever the roll. `log` holds them all."""

    def __init__(
        self, rolls: Any, dice: Any, carried: tuple[int, ...] = (), *, answer: bool = False,
        by_roll: bool = False,
    ) -> None:  # fmt: skip
        self._rolls = [
            Roll(r["expression"], r["sides"], tuple(r["results"]), r["modifier"], r["purpose"],
                 r["source"])
            for r in rolls
        ]  # fmt: skip
        self._dice = dice
        self._carried = TypedDice(carried)
        self._answer = answer
        self._by_roll = by_roll
        self._reaction: bool | None = None  # inside a reaction's rolls: answered by `dice`?
        self.log: list[Roll] = []

    @property
    def typed_left(self) -> tuple[int, ...]:
        """The typed-in results not used yet (carried on if the command stops again): by
        roll, only the command's own."""
        own = getattr(self._dice, "typed_remaining", ())
        if self._by_roll:
            return self._carried.remaining if self._answer else own
        return (*self._carried.remaining, *own)

    @contextmanager
    def reaction(self, answered: bool):
        """The rolls of a reaction (`answered`: used by the answer being applied)."""
        before, self._reaction = self._reaction, answered
        try:
            yield
        finally:
            self._reaction = before

    def _source(self) -> Any:
        server = getattr(self._dice, "server", self._dice)
        if not self._by_roll:
            if getattr(self._dice, "typed_remaining", ()) or not self._carried.remaining:
                return self._dice
            return self._carried
        if self._reaction is not None:
            return self._dice if self._reaction and self._answer else server
        if self._answer:
            return self._carried if self._carried.remaining else server
        return self._dice

    def roll(self, sides: int, *, purpose: str = "") -> int:
        if self._rolls:
            self.log.append(self._rolls.pop(0))
            return self.log[-1].results[0]
        source = self._source()
        value = source.roll(sides, purpose=purpose)
        self.log.append(source.log[-1])
        return value

    def d20(self, *, purpose: str = "") -> int:
        return self.roll(20, purpose=purpose)

    def roll_expr(self, expression: str | DiceExpr, *, purpose: str = "") -> Roll:
        if self._rolls:
            self.log.append(self._rolls.pop(0))
            return self.log[-1]
        roll = self._source().roll_expr(expression, purpose=purpose)
        self.log.append(roll)
        return roll


def _run(
    before: BattleState,
    command: Command,
    dice: _ResumeDice,
    answers: tuple[bool, ...],
    logged: int,
    sequence: int,
) -> tuple[BattleState, list[Event]] | Rejected:
    """Run `command` from the state `before` it with the reactions answered so far; return
    the new state and the events after the first `logged` ones (those are already in the
    log). A reaction offered and not yet answered stops it: the state at the trigger, with
    `pending` recording how to resume, and a `battle.reaction_offered` event."""
    ctx = Ctx(dice)
    token = REACTIONS.set(Decider(answers))
    try:
        if command.kind == GM_CORRECTION:
            state = _gm_correction(before, command.params, ctx.events)
        elif command.kind == END_TURN:
            state = _end_turn(before, ctx)
        else:
            state = _war_action(before, command, ctx)
    except Offered as offer:
        pending = Pending(
            army=offer.army, reaction=offer.reaction, trigger=offer.trigger, by=offer.by,
            target=offer.target, command=command.to_dict(), before=before.to_dict(),
            answers=answers, rolls=tuple(roll.to_dict() for roll in dice.log),
            typed=dice.typed_left, logged=len(ctx.events),
        )  # fmt: skip
        offered = Event("battle.reaction_offered", {"army": offer.army,
                                                    "reaction": offer.reaction,
                                                    "trigger": offer.trigger, "by": offer.by,
                                                    "target": offer.target})  # fmt: skip
        state = replace(offer.state, pending=pending, sequence=sequence)
        return state, [*ctx.events[logged:], offered]
    except DiceError as error:
        return Rejected((error.problem,))
    finally:
        REACTIONS.reset(token)
    return replace(state, sequence=sequence), ctx.events[logged:]


def _war_action(
    state: BattleState, command: Command, ctx: Ctx, *, lean: bool = False
) -> BattleState:
    """The war action's new state. `lean` (the forecast's play-out, no events, no reaction
    offered on the way, `simulation`): the actions it costs are taken off in the last copy
    the action makes instead of a first copy of its own (nothing the resolution runs reads
    `actions_left`; an action ending the battle leaves it 0, as `_finish` sets it), and the
    state returned is always a new one, which the caller may still set fields of."""
    actor, kind = str(command.actor), command.kind
    entry = state.army(actor)
    ctx.aoa_bonus = entry.next_attack_bonus
    action = WAR_ACTIONS[kind]  # (its cost and traits read inline: `cost_of`, `traits_of`)
    cost = action.cost if kind != "retreat" else retreat_cost()
    left = state.actions_left - cost
    if lean:
        before = state
        if entry.next_attack_bonus is not None:
            state = state.with_army(replace(entry, next_attack_bonus=None))
    elif entry.next_attack_bonus is not None:  # (one copy of the state for both changes)
        state = state.with_army(replace(entry, next_attack_bonus=None), actions_left=left)
    else:
        state = replace(state, actions_left=left)
    if ctx.events is not QUIET:
        ctx.events.append(
            Event("battle.action", {"army": actor, "action": kind, "cost": cost,
                                    "params": dict(command.params),
                                    "actions_left": state.actions_left})
        )  # fmt: skip
    traits = action.traits if kind != "feint" else traits_of(kind)
    if MANEUVER in traits and kind not in NO_COUNTERATTACK:
        state = counterattacks(state, actor, kind, ctx.dice, ctx.events)  # §8.2
        if not can_continue(state, actor):
            ctx.events.append(
                Event("battle.action_interrupted", {"army": actor, "action": kind,
                                                    "reason": "reaction"})
            )  # fmt: skip
            state = _check_end(state, ctx.events)
            return _spent(state, before, left) if lean else state
    state = action.resolve(state, actor, command.params, ctx)
    if ctx.morale_successes:  # (False Retreat only after a Morale check succeeded)
        state = after_morale_checks(state, ctx.morale_successes, ctx.dice, ctx.events)
    state = _check_end(state, ctx.events)
    if not lean:
        return state
    if state is before:  # (`_spent` inline)
        return replace(state, actions_left=left)
    if not state.finished:
        object.__setattr__(state, "actions_left", left)
    return state


def _spent(state: BattleState, before: BattleState, left: int) -> BattleState:
    """A lean war action's last state with its actions left (see `_war_action`): a copy
    when it is still the state the action began with, else that new state itself (made by
    this action, seen by nobody yet); a finished battle's stay 0."""
    if state is before:
        return replace(state, actions_left=left)
    if not state.finished:
        object.__setattr__(state, "actions_left", left)
    return state


def _end_turn(state: BattleState, ctx: Ctx, *, lean: bool = False) -> BattleState:
    """The end of the current army's turn and the start of the next one. `lean` (the
    forecast's play-out, no reaction offered on the way, `simulation`): after its first
    copy (the turn moved on) the states it makes are its own, and the next turn's actions
    are set in them (`_begin_turn`'s `own`)."""
    key = str(state.current)
    if ctx.events is not QUIET:
        ctx.events.append(Event("battle.turn_ended", {"army": key, "round": state.round}))
    if state.effects:  # (`_boundary` changes nothing without effects)
        state = _boundary(state, key, TURN_END, ctx.events)
    entry = state.army(key)
    if entry.attacks or entry.next_attack_bonus is not None:  # (one copy: the turn moves too)
        state = state.with_army(
            replace(entry, attacks=(), next_attack_bonus=None), turn=state.turn + 1
        )
    else:
        state = replace(state, turn=state.turn + 1)
    state = _after_turn(state, ctx.events, ctx.dice)
    return _begin_turn(state, ctx.events, ctx.dice, own=lean)


# --- GM corrections--------------------------------------------------------------------------------


def _gm_problems(state: BattleState, params: Mapping[str, Any]) -> list[Problem]:
    key = params.get("army")
    if not isinstance(key, str) or not state.has_army(key):
        return [_p("gm.unknown_army", army=key)]
    entry = state.army(key)
    problems = []
    changes = {"hp", "conditions", "position", "engage", "disengage", "shots"} & set(params)
    if not changes:
        problems.append(_p("gm.nothing_to_change"))
    if "hp" in params:
        hp = params["hp"]
        if isinstance(hp, bool) or not isinstance(hp, int) or not 0 <= hp <= entry.army.max_hp:
            problems.append(_p("gm.bad_hp", hp=hp, max_hp=entry.army.max_hp))
    for condition, value in dict(params.get("conditions") or {}).items():
        if condition not in GM_CONDITIONS:
            problems.append(_p("gm.unknown_condition", condition=condition))
            continue
        limit = 99 if CONDITIONS[condition].valued else 1
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= limit:
            problems.append(_p("gm.bad_condition_value", condition=condition, value=value))
    if "position" in params and params["position"] not in (NEAR, DISTANT):
        problems.append(_p("gm.bad_position", position=params["position"]))
    if "position" in params and not entry.present:
        problems.append(_p("gm.army_gone", army=key))
    engaged = set(state.engaged_with(key))
    for other in params.get("engage") or ():
        if not isinstance(other, str) or not state.has_army(other):
            problems.append(_p("gm.unknown_army", army=other))
        elif state.army(other).side == entry.side or not state.army(other).present:
            problems.append(_p("gm.bad_engagement", army=other))
        elif other not in engaged:
            engaged.add(other)
            if len(state.engaged_with(other)) >= MAX_ENGAGEMENTS:
                problems.append(_p("gm.engagement_limit", army=other))
    for other in params.get("disengage") or ():
        engaged.discard(other)
    if len(engaged) > MAX_ENGAGEMENTS:
        problems.append(_p("gm.engagement_limit", army=key))
    if "shots" in params:
        shots = params["shots"]
        if isinstance(shots, bool) or not isinstance(shots, int) or shots < 0:
            problems.append(_p("gm.bad_shots", shots=shots))
    return problems


def _snapshot(state: BattleState, key: str) -> dict[str, Any]:
    entry = state.army(key)
    return {
        "hp": entry.hp,
        "conditions": dict(entry.army.spec.condition_values),
        "position": entry.position,
        "engaged_with": list(state.engaged_with(key)),
        "shots": entry.shots,
    }


def _gm_correction(
    state: BattleState, params: Mapping[str, Any], events: list[Event]
) -> BattleState:
    """Set HP / conditions / position / engagements / shots of one army, as the GM says."""
    key = params["army"]
    before = _snapshot(state, key)
    entry = state.army(key)
    army = entry.army
    if "hp" in params:
        army = replace(army, hp=params["hp"])
    if params.get("conditions"):
        conditions = army.spec.condition_values
        conditions.update(params["conditions"])
        conditions = {k: v for k, v in conditions.items() if v}
        army = replace(army, spec=replace(army.spec, conditions=conditions))
    entry = entry.with_army(army)
    if "routed" in army.conditions:
        entry = replace(entry, was_routed=True)
    if "shots" in params:
        entry = replace(entry, shots=params["shots"])
    if "position" in params:
        entry = replace(entry, position=params["position"])
    state = state.with_army(entry)
    if params.get("position") == DISTANT:
        state = state.disengage_all(key)
    for other in params.get("disengage") or ():
        state = state.disengage(key, other)
    for other in params.get("engage") or ():
        state = state.engage(key, other)
        for k in (key, other):
            if state.army(k).position == DISTANT:
                state = state.with_army(replace(state.army(k), position=NEAR))
    events.append(
        Event("battle.gm_correction", {"army": key, "before": before,
                                       "after": _snapshot(state, key)})
    )  # fmt: skip
    return _check_end(state, events)


# --- outcome (§7.6) ------------------------------------------------------------------------------

VICTORY_EFFECTS: dict[str, list[dict[str, Any]]] = {
    "critical_success": [
        {"code": "damaged_armies_regain_hp", "hp": 1},
        {"code": "fame_or_infamy", "value": 1, "when": "next_kingdom_turn"},
        {"code": "unrest", "value": -1, "when": "next_kingdom_turn"},
    ],
    "success": [{"code": "damaged_armies_regain_hp", "hp": 1}],
    "failure": [],
    "critical_failure": [
        {"code": "armies_that_took_damage_choose", "options": [{"weary": 1}, {"shaken": 1}]}
    ],
}
DEFEAT_EFFECTS: dict[str, list[dict[str, Any]]] = {
    "critical_success": [
        {"code": "defeated_armies_restored", "hp": 1},
        {"code": "one_damaged_army_regains_hp", "hp": 1},
    ],
    "success": [
        {"code": "one_damaged_army_regains_hp", "hp": 1},
        {"code": "unrest", "value": 1},
    ],
    "failure": [{"code": "unrest", "value": 1}],
    "critical_failure": [
        {"code": "participating_armies_choose", "options": [{"weary": 2}, {"shaken": 2}]},
        {"code": "unrest_roll", "dice": "1d4"},
    ],
}


def _xp(state: BattleState, side: str) -> dict[str, Any]:
    """§7.6: kingdom XP per enemy army it defeated (routed ones only by house default)."""
    level = state.kingdoms.get(side, {}).get("level")
    count_routed = house_value("kingdom_xp.count_routed")
    rows = []
    for entry in state.armies:
        if entry.side == side:
            continue
        beaten = entry.defeated or entry.destroyed or (count_routed and entry.was_routed)
        if not beaten:
            continue
        xp = kingdom_xp_for_defeated_army(entry.army.spec.level, level) if level else None
        rows.append({"army": entry.key, "level": entry.army.spec.level, "xp": xp})
    total = sum(row["xp"] or 0 for row in rows) if level else None
    return {"kingdom_level": level, "armies": rows, "total": total}


def outcome(state: BattleState) -> Outcome | None:
    """None while the battle runs; then the winner, the §7.6 kingdom check each side makes
    (skill, DC = its Control DC, effects per degree), XP, and the armies as they leave."""
    if not state.finished:
        return None
    losers = tuple(side for side in state.sides if side != state.winner)
    checks = {}
    for side in state.sides:
        won = side == state.winner
        checks[side] = {
            "result": "victory" if won else "defeat",
            "skill": "warfare" if won else "defense",
            "dc": "control_dc",
            "effects": VICTORY_EFFECTS if won else DEFEAT_EFFECTS,
            "pc_encounter": {"won": "improve_one_degree", "lost": "worsen_one_degree"},
            "armies": [e.key for e in state.armies if e.side == side],
            "took_damage": [e.key for e in state.armies if e.side == side and e.took_damage],
            "damaged": [
                e.key
                for e in state.armies
                if e.side == side and not e.destroyed and e.hp < e.army.max_hp
            ],
            "defeated": [
                e.key for e in state.armies if e.side == side and e.defeated and not e.destroyed
            ],
        }
    details = {
        "rounds": state.round,
        "kingdom_checks": checks,
        "xp": {side: _xp(state, side) for side in state.sides},
        "armies": {e.key: e.army.to_dict() for e in state.armies},
        "destroyed": [e.key for e in state.armies if e.destroyed],
        "fled": [e.key for e in state.armies if e.position == FLED],
    }
    return Outcome(state.winner, losers, details)


def decided(state: BattleState) -> tuple[bool, str | None]:
    """(the battle is over, its winner): what a forecast reads of `outcome` (protocol)."""
    return (True, state.winner) if state.finished else (False, None)


# --- auto-play and forecasts (protocol) -----------------------------------------------------------


def awaiting(state: BattleState) -> tuple[Waiting, ...]:
    """The army the board waits for (`state.to_act`: a reaction's answer, a starting
    position, else the army whose turn it is); nobody once the battle is over."""
    key = state.to_act
    if state.finished or key is None:
        return ()
    return (Waiting(key, state.army(key).side),)


def clock(state: BattleState) -> tuple[int, int]:
    """(round, index of the acting army in the initiative order)."""
    return (state.round, state.turn)


def standing(state: BattleState) -> Standing:
    """Per army its HP left of its max, and whether it was routed, defeated, fled or was
    destroyed (§7.3, §9)."""
    forces = []
    for entry in state.armies:
        flags = [
            name
            for name, happened in (
                ("routed", entry.was_routed or entry.routed),
                ("defeated", entry.defeated),
                ("fled", entry.fled),
                ("destroyed", entry.destroyed),
            )
            if happened
        ]
        hp = 0 if entry.destroyed else entry.hp
        forces.append(
            ForceStanding(entry.key, entry.side, "army", "hp", hp, entry.army.max_hp, tuple(flags))
        )
    return Standing(state.sides, tuple(forces))


def forced(state: BattleState) -> Command | None:
    """The command the board sends by itself (protocol `forced`): "end_turn" for the army
    whose turn it is once it has no action left (§0.5: three a turn), or can no longer act
    (destroyed, fled or defeated by a reaction in its own turn), and no reaction or starting
    position waits for an answer. Nothing else is forced: an army with actions left still
    chooses to end its turn early."""
    key = state.current
    if key is None or state.pending is not None or state.positions:
        return None
    if state.actions_left > 0 and can_continue(state, key):
        return None
    return Command(key, END_TURN)
