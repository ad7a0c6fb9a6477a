"""The Pathfinder auto-play policy (`suggest`): what a GM would do for an NPC army.

Answers first: an offered reaction (§0.5) is used (every reaction the engine offers helps
the army that has it); a starting position (§7.3, §6.1, §6.2) is engaged with the weakest
enemy when Ambush or Swamp Charge allows it and the army fights in melee, distant when
Opening Salvo allows it and the army shoots, else near.

On its turn, with its actions left, an army:

1. **routed** (§9): Reactive Rally if it has it, else Retreat, else (engaged) Disengage
   when the house rule lets a routed army do so, else ends its turn;
2. **close to routing** (shaken 2+, or shaken at or below its Rout Threshold, where the end
   of the round asks for a rout check): Rally against the enemy with the lowest Morale DC;
3. **engaged** with an enemy still fighting: strikes the weakest of them (fewest HP, then
   lowest AC) with the attack that deals the most expected damage per action at the odds
   of the check (Battle, All-Out Assault, Dirty Fighting, Trample; multiple attack penalty
   and every modifier included, as the board previews them); engaged only with beaten
   enemies, it finishes them off (a defeated army struck is destroyed on a failed flat
   check, §9, and no longer holds it engaged);
4. **not engaged**: shoots the weakest enemy (one not distant first) if it has shots and no
   melee Strike, or if no enemy can be engaged; otherwise Advances on the nearest enemy it
   can engage (near before distant, then the weakest);
5. a last action whose best Strike would hit less than once in four Guards against the
   engaged enemy with the best attack instead; an engaged army that only shoots and has no
   target it may shoot (Engines of War) Disengages; with nothing useful left it ends its
   turn;
6. an army that can no longer hurt anybody (no melee Strike, and no ranged Strike or no
   shots left), that is distant and sees no enemy (every one distant in darkness or heavy
   fog, §7.4), or that is pinned and engaged with nobody (it may not Advance, §9) and has
   nothing to shoot, Disengages and Retreats from the field (a GM would not leave it
   standing; it also keeps a battle of such armies from going on for ever); from round
   `STALEMATE_ROUND` on, so does an army that finds nothing at all to do on its turn (an
   enemy it cannot reach in a fortification, hidden in the dark…).

Every command is checked against the engine's own validation before it is returned (a
candidate the rules refuse is skipped), so `suggest` only proposes legal commands; ending
the turn is always legal on the army's turn. It reads the whole state (the GM's view).
"""

from collections.abc import Mapping
from typing import Any

from warfare.engine.battle.protocol import Command
from warfare.engine.checks import Degree
from warfare.engine.odds import d20_odds
from warfare.engine.systems.pf2e.armies import StatBlock
from warfare.engine.systems.pf2e.battle.actions import (
    MANEUVER,
    MELEE,
    RANGED,
    _advance_problems,
    _enemy_problems,
    strike_check,
    traits_of,
)
from warfare.engine.systems.pf2e.battle.engine import (
    CHOOSE_START,
    DISTANT,
    END_TURN,
    ENGAGED,
    NEAR,
    USE_REACTION,
    _problems_of_action,
    _start_options,
    cost_of,
)
from warfare.engine.systems.pf2e.battle.rules import (
    ACTIONS_PER_TURN,
    effective_block,
    morale_dc,
    undetected_by,
)
from warfare.engine.systems.pf2e.battle.state import BattleState
from warfare.engine.systems.pf2e.conditions import implied_by
from warfare.engine.systems.pf2e.house_rules import house_value

CS, S, F = Degree.CRIT_SUCCESS, Degree.SUCCESS, Degree.FAILURE
LOW_HIT_CHANCE = 0.25
"""A last action whose best Strike hits less often than this Guards instead."""
ROUT_SHAKEN = 2
"""Shaken at which an army Rallies before anything else (shaken 4 routs it, §9)."""
STALEMATE_ROUND = 10
"""From this round an army that finds nothing to do on its whole turn withdraws."""

# Damage per degree and cost of the Strikes the policy weighs (§8.1, §8.2, §6.2).
STRIKES: dict[str, dict[Degree, int]] = {
    "battle": {CS: 2, S: 1},
    "all_out_assault": {CS: 3, S: 2, F: 1},
    "dirty_fighting": {CS: 1, S: 1},
    "trample": {CS: 2, S: 2, F: 1},
}


def _legal(state: BattleState, command: Command) -> bool:
    return not _problems_of_action(state, command)


def _answer(state: BattleState, actor: str) -> Command:
    """A pending reaction (use it) or a starting position (see the module docstring)."""
    if state.pending is not None:
        return Command(actor, USE_REACTION)
    options = _start_options(state, actor)
    block = effective_block(state, actor)
    engaged = [o for o in options if o["start"] == ENGAGED]
    if engaged and block.melee is not None:
        weakest = min(engaged, key=lambda o: _weakness(state, o["target"]))
        return Command(actor, CHOOSE_START, weakest)
    distant = [o for o in options if o["start"] == DISTANT]
    if distant and block.ranged is not None and state.army(actor).shots:
        return Command(actor, CHOOSE_START, distant[0])
    return Command(actor, CHOOSE_START, {"start": NEAR})


def _weakness(state: BattleState, key: str) -> tuple[Any, ...]:
    """Sort key: the weakest enemy first (still fighting, fewest HP, lowest AC, key)."""
    entry = state.army(key)
    return (entry.out_of_fight, entry.hp, effective_block(state, key).ac.value, key)


def _expected_damage(state: BattleState, actor: str, kind: str, params: Mapping[str, Any]) -> float:
    """Expected damage per action of a Strike (`STRIKES`) with these params now."""
    odds = _odds(state, actor, params)
    damage = sum(odds[degree] * amount for degree, amount in STRIKES[kind].items())
    return damage / cost_of(kind)


def _hit_chance(state: BattleState, actor: str, params: Mapping[str, Any]) -> float:
    odds = _odds(state, actor, params)
    return odds[S] + odds[CS]


def _odds(state: BattleState, actor: str, params: Mapping[str, Any]) -> dict[Degree, float]:
    """The odds of each degree of a Strike (params: target, weapon) now. Asked with the very
    arguments `actions.roll_strike` gives, so the engine rolling it reuses the modifier and
    the AC worked out here (they are kept per arguments while the armies stay the same)."""
    weapon, target = params["weapon"], params["target"]
    aoa = state.army(actor).next_attack_bonus
    modifier, dc = strike_check(
        state, actor, weapon, target=target, fortification=None, aoa_bonus=aoa
    )
    return d20_odds(modifier.value, dc.value)


def _best_strike(state: BattleState, actor: str, block: StatBlock, targets: list[str], weapon: str):
    """(expected damage per action, command) of the best legal Strike on the weakest of
    `targets` that it may Strike, or None (the value is 0 when there was only one Strike to
    choose); `block`: the actor's `effective_block`."""
    kinds = _strike_kinds(block.war_actions, state.actions_left, weapon)
    if len(targets) > 1:  # (one needs no sort key)
        targets = sorted(targets, key=lambda key: _weakness(state, key))
    if weapon == MELEE and kinds == ("battle",):  # the loop below with one command a target
        for target in targets:
            if not _enemy_problems(state, actor, target):  # (`_strike_legal`'s)
                return (0.0, Command(actor, "battle", {"target": target, "weapon": weapon}))
        return None
    for target in targets:
        commands = [Command(actor, kind, {"target": target, "weapon": weapon}) for kind in kinds]
        legal = [command for command in commands if _strike_legal(state, command)]
        if len(legal) == 1:  # nothing to weigh
            return (0.0, legal[0])
        if legal:
            return max(
                ((_expected_damage(state, actor, c.kind, c.params), c) for c in legal),
                key=lambda pair: pair[0],
            )
    return None


def _strike_kinds(war_actions: tuple[str, ...], actions_left: int, weapon: str) -> tuple[str, ...]:
    """The Strikes of `STRIKES` an army knowing `war_actions` may make with `weapon` and
    `actions_left` actions (all but Battle are melee), in their order: kept per arguments,
    the costs of these actions being fixed (`cost_of` reads the house rules only for
    Retreat)."""
    try:
        return _KINDS[(war_actions, actions_left, weapon)]
    except KeyError:
        kinds = _KINDS[(war_actions, actions_left, weapon)] = tuple(
            kind
            for kind in STRIKES
            if kind in war_actions
            and cost_of(kind) <= actions_left
            and (kind == "battle" or weapon == MELEE)
        )
        return kinds


_KINDS: dict[tuple[Any, ...], tuple[str, ...]] = {}
"""`_strike_kinds` per arguments (a few stat blocks' actions, 0-3 actions, two weapons)."""


def _strike_legal(state: BattleState, command: Command) -> bool:
    """`_legal` of a Strike `_best_strike` weighs. A melee Battle Strike on an army it is
    engaged with, asked by `turn_command` (the actor is the army whose turn it is, not
    routed, with a melee Strike, knowing Battle, with the action left: `_best_strike`'s
    kinds), has passed every check of `_problems_of_action` but the target's
    (`actions._enemy_problems`): only that one is made (the same answer,
    `test_pf2e_policy`)."""
    params = command.params
    if command.kind == "battle" and params["weapon"] == MELEE:
        return not _enemy_problems(state, str(command.actor), params["target"])
    return _legal(state, command)


def turn_command(state: BattleState, actor: str) -> Command:
    """`suggest` on the turn of `actor`, the army whose turn it is (no reaction nor starting
    position waiting): a lean play-out reads the army awaited from the state itself."""
    if state.actions_left <= 0:
        return Command(actor, END_TURN)
    entry = state.army(actor)
    if "routed" in implied_by(entry.army.spec.conditions):  # (`entry.routed` inline)
        for command in _routed_options(state, actor, _present_enemies(state, actor)):
            if _legal(state, command):
                return command
        return Command(actor, END_TURN)
    block = effective_block(state, actor)
    shaken = dict(block.conditions).get("shaken", 0)
    threshold = block.rout_threshold
    at_risk = threshold is not None and entry.army.hp <= threshold.value
    enemies: list | None = None  # (the enemies present, once a choice reads them)
    if (shaken >= ROUT_SHAKEN or (shaken and at_risk)) and (
        enemies := _present_enemies(state, actor)
    ):
        target = min(enemies, key=lambda e: (morale_dc(state, e.key).value, e.key))
        command = Command(actor, "rally", {"target": target.key})
        if _legal(state, command):
            return command
    if block.melee is None and (block.ranged is None or entry.shots <= 0):
        for command in (Command(actor, "retreat"), Command(actor, "disengage")):
            if _legal(state, command):
                return command  # it can no longer hurt anybody
        return Command(actor, END_TURN)
    engaged = state.engaged_with(actor)  # (read once: nothing below changes the state)
    fighting = [k for k in engaged if not state.army(k).out_of_fight]
    if fighting and block.melee is not None:
        best = _best_strike(state, actor, block, fighting, MELEE)
        if best is not None:
            last = state.actions_left == 1
            if last and _hit_chance(state, actor, best[1].params) < LOW_HIT_CHANCE:
                guard = _guard(state, actor, fighting)
                if guard is not None:
                    return guard
            return best[1]
    if not fighting and engaged and block.melee is not None:
        finish = _finish_off(state, actor, block, engaged)
        if finish is not None:
            return finish
    shoot = block.ranged is not None and entry.shots > 0
    can_advance = block.melee is not None and not fighting
    if enemies is None:
        enemies = _present_enemies(state, actor)
    advance = _advance(state, actor, enemies, block) if can_advance else None
    if shoot and (advance is None or block.melee is None):
        near = [e.key for e in enemies if e.position != DISTANT and not e.out_of_fight]
        far = [e.key for e in enemies if not e.out_of_fight]
        best = _best_strike(state, actor, block, near or far, RANGED)
        if best is not None:
            return best[1]
    if advance is not None:
        return advance
    unseen = all(undetected_by(state, e.key, actor) for e in enemies)
    pinned = "pinned" in dict(block.conditions) and not engaged
    if ((entry.position == DISTANT and unseen) or pinned) and _legal(
        state, Command(actor, "retreat")
    ):
        return Command(actor, "retreat")  # it can reach nobody (§7.4, §9): it withdraws
    if fighting and block.melee is None and _legal(state, Command(actor, "disengage")):
        return Command(actor, "disengage")  # it shoots, and may not shoot from here
    if fighting:
        guard = _guard(state, actor, fighting)
        if guard is not None:
            return guard
    idle = state.actions_left == ACTIONS_PER_TURN and state.round >= STALEMATE_ROUND
    if idle and _legal(state, Command(actor, "retreat")):
        return Command(actor, "retreat")  # nothing to do, for rounds: it withdraws
    return Command(actor, END_TURN)


def _finish_off(
    state: BattleState, actor: str, block: StatBlock, engaged: tuple[str, ...]
) -> Command | None:
    """The best Strike on an engaged enemy that is beaten but still there (a defeated army
    struck is destroyed on a failed flat check, §9 Defeated), or None."""
    beaten = [k for k in engaged if state.army(k).present]
    if not beaten:
        return None
    best = _best_strike(state, actor, block, beaten, MELEE)
    return best[1] if best is not None else None


def _present_enemies(state: BattleState, actor: str) -> list:
    side = state.army(actor).side  # (`state.enemies` inline: every turn asks)
    return [e for e in state.armies if e.side != side and e.present]


def _routed_options(state: BattleState, actor: str, enemies: list) -> list[Command]:
    commands = []
    if enemies:
        target = min(enemies, key=lambda e: (morale_dc(state, e.key).value, e.key))
        commands.append(Command(actor, "reactive_rally", {"target": target.key}))
    commands.append(Command(actor, "retreat"))
    if house_value("battle.routed_engaged_may_disengage"):
        commands.append(Command(actor, "disengage"))
    return commands


def _advance(state: BattleState, actor: str, enemies: list, block: StatBlock) -> Command | None:
    """Advance on the nearest enemy it may engage (near first, then the weakest); `block`:
    the actor's `effective_block`."""
    candidates = [e for e in enemies if not e.out_of_fight]
    if not candidates or not _may_advance(state, block):
        return None
    if len(candidates) > 1:  # (one needs no sort key)
        # Distant last, then `_weakness` of each entry read from it (none is out of the
        # fight; keys differ). A tuple compare stops at the first difference: when no two
        # candidates share (distant, HP), the AC (a stat block each) is never read, and
        # the order by those two alone is the same.
        near_hp = [(e.position == DISTANT, e.army.hp) for e in candidates]
        if len(set(near_hp)) == len(near_hp):
            candidates = [e for _, e in sorted(zip(near_hp, candidates, strict=True))]
        else:
            candidates.sort(
                key=lambda e: (e.position == DISTANT, False, e.army.hp,
                               effective_block(state, e.key).ac.value, e.key)
            )  # fmt: skip
    for enemy in candidates:
        params = {"target": enemy.key}
        if not _advance_problems(state, actor, params):
            return Command(actor, "advance", params)
    return None


def _may_advance(state: BattleState, block: StatBlock) -> bool:
    """`_legal` of an Advance asked by `turn_command` (the actor is the army whose turn it
    is, not routed, with an action left), but the target's checks (`_advance_problems`):
    the checks of `_problems_of_action` that read only the actor (`block`: its
    `effective_block`; `test_pf2e_shortcuts`)."""
    if "advance" not in block.war_actions or cost_of("advance") > state.actions_left:
        return False
    return MANEUVER not in traits_of("advance") or "pinned" not in dict(block.conditions)


def _guard(state: BattleState, actor: str, fighting: list[str]) -> Command | None:
    """Guard against the engaged enemy with the best melee attack."""

    def danger(key: str) -> tuple[int, str]:
        melee = effective_block(state, key).melee
        return (-(melee.value if melee is not None else -99), key)

    command = Command(actor, "guard", {"target": min(fighting, key=danger)})
    return command if _legal(state, command) else None


def suggest(state: BattleState, actor: str | None) -> Command:
    """The policy's command for `actor`, who must be the army the board waits for (see the
    module docstring). Raises ValueError for any other actor (or a finished battle)."""
    if state.finished or actor is None or actor != state.to_act:
        raise ValueError(f"pf2e: {actor!r} is not awaited")
    if state.pending is not None or state.positions:
        return _answer(state, actor)
    return turn_command(state, actor)
