"""The D&D 5e auto-play policy (`suggest`): what a GM would do for an NPC unit or solo.

* **Deployment** (§5.1): each piece goes to the free square of its side's zone nearest the
  enemy's zone, a regiment's stands next to the ones already placed (unit integrity, §4.6);
  once everything is placed the GM begins.
* **A unit's turn**: a broken unit Retreats (§6.2): its stands leave the grid where they
  can (they flee), else move as far from the enemy as they can. A crew whose engine can
  load, aim or fire (§8) works it while no enemy is within a move of the unit. A unit whose
  every stand is out of reach even with a full move Dashes. Then each stand, front ones
  first, moves to the reachable square nearest an enemy stand, solo or engine, or a square
  of an objective its side scores by destroying (§7.1): next to it for a melee stand, within
  normal range for a stand that shoots; a regiment stand prefers squares next to another
  stand of its unit (§4.6 isolation), and nobody leaves the grid. Then every stand in turn
  (and each solo joined to the unit, on the unit's turn, §5.7) attacks: the attack and
  target with the most expected damage at the odds of the roll (advantage, disadvantage, AC with
  cover and Defend, double damage on an isolated target, §4.6, §5.4), a target it can take
  to 0 HP counted double. Then it ends its turn.
* **A solo's turn**: the same as one stand; a spellcaster also weighs its targeted spells
  (§5.5) against its attacks.
* **A battle that drags on**: from round `STALEMATE_ROUND` on, every unit Retreats as a
  broken one does (the GM calls the fight off), so auto-play always ends.
* **End of the round** (§6.2 step 1): a freed solo rejoins an adjacent stand of its unit;
  then the unit is done (no slide-ins). A tie (§7.3) is declared a draw by the GM.

Every command is one of the options the engine lists (or passes its own check), so the
policy only proposes legal commands. It reads the whole state (the GM's view).
"""

import itertools
from functools import lru_cache
from typing import Any

from warfare.engine.battle.protocol import Command
from warfare.engine.dice import parse_expr
from warfare.engine.systems.dnd5e.battle.actions import (
    _attack_forms,
    _spell_left,
    _spell_targets,
    _turn,
    acting_solo,
    acting_unit,
    attackers,
    casters,
    destinations,
    geometry_at,
    held,
    move_key,
    movers,
    siege_options,
    targets,
    unit_attackers,
    unit_casters,
)
from warfare.engine.systems.dnd5e.battle.engine import (
    BEGIN,
    DONE,
    END_TURN,
    PLACE,
    REJOIN,
    _place_options,
    _rejoin_options,
)
from warfare.engine.systems.dnd5e.creatures import range_squares
from warfare.engine.systems.dnd5e.grid import adjacent, squares_of, steps
from warfare.engine.systems.dnd5e.rules import (
    _profile_number,
    attack_profile,
    base_speed,
    creature_of,
    layout,
    objective_square,
    size_of,
    speed,
    squares,
)
from warfare.engine.systems.dnd5e.state import (
    CASUALTIES,
    DEPLOY,
    DRAW,
    REGIMENT,
    ROUND,
    BattleState,
    Solo,
    Stand,
    Unit,
    board_memo,
)

FINISH_BONUS = 2.0
"""An attack expected to take its target to 0 HP counts this many times."""
ISOLATION_PENALTY = 2
"""Squares of distance a regiment stand gives up to stay next to its unit."""
OBJECTIVE_WEIGHT = 0.5
"""Expected damage to a Destruction square counts this much (per VP 5, §7.1)."""
STALEMATE_ROUND = 30
"""From this round on the fight is called off: every unit Retreats (as a broken one does),
so a battle neither side can win (a Defend line that never strikes against attackers that
hit it on a 20 with disadvantage) still ends [policy choice]."""


@lru_cache(maxsize=512)
def _average(expression: str) -> float:
    expr = parse_expr(expression)
    return expr.count * (expr.sides + 1) / 2 + expr.modifier


def _hit_chance(to_hit: int, ac: int, mode: int) -> float:
    """d20 + to_hit >= AC (natural 20 hits, natural 1 misses), with advantage (+1) or
    disadvantage (-1)."""
    single = min(19, max(1, 21 - (ac - to_hit))) / 20
    if mode > 0:
        return 1 - (1 - single) ** 2
    if mode < 0:
        return single * single
    return single


def _target_hp(state: BattleState, target: str) -> int:
    if target.startswith("sq:"):
        return objective_square(state, target).hp
    return getattr(state.find(target), "hp", 0)


def _value(state: BattleState, target: str, damage: float) -> float:
    """Expected damage, weighted: a finishing blow counts `FINISH_BONUS` times; a
    Destruction square `OBJECTIVE_WEIGHT` per 5 VP."""
    if target.startswith("sq:"):
        return damage * OBJECTIVE_WEIGHT * objective_square(state, target).vp / 5
    return _piece_value(state, target, damage)


def _piece_value(state: BattleState, target: str, damage: float) -> float:
    """`_value` of a piece (not a Destruction square): a finishing blow counts more."""
    hp = getattr(state.find(target), "hp", 0)  # `_target_hp` of a piece
    return damage * (FINISH_BONUS if 0 < hp <= damage else 1.0)


def _attack_damage(
    state: BattleState,
    piece: Stand | Solo,
    form: Any,
    target: str,
    profiles: dict,
    distance: int,
) -> float | None:
    """Expected damage of one attack on a target `distance` steps away (None: out of its
    reach); `profiles` remembers the attack profile of each (target, melee, long range) for
    the piece's other attack forms. `_value` weighs it."""
    geometry = geometry_at(form, distance)  # `attack_geometry`, the distance known
    if geometry is None:
        return None
    melee, long = geometry
    turn = state.turn
    if (target, melee, long) not in profiles:
        aided = piece.key in turn.aided.values() and melee
        profiles[(target, melee, long)] = attack_profile(
            state, piece.key, form.to_hit, melee, target, long_range=long, aided=aided
        )
    profile = profiles[(target, melee, long)]
    chance = 1.0 if profile.auto_hit else _hit_chance(form.to_hit, profile.ac, profile.mode)
    rolls = 1 if turn.attacks.get(piece.key, 0) >= 1 else form.count
    return chance * _average(form.damage) * rolls * (2 if profile.double_damage else 1)


def _attack_choices(
    state: BattleState, piece: Stand | Solo, aimed: tuple[str, ...]
) -> tuple[tuple[str, str, float, bool], ...]:
    """(target, attack form, expected damage before `_value`, a square?) of each attack `piece` can
    make now, in the order `_best_attack` weighs them. It reads only what
    `_profile_number` numbers (the squares, hence the distances, and the profiles), the
    turn's count of the piece's attacks and Aid, and the targets: kept per those
    (`_ATTACKS`); the HP a finishing blow reads is weighed by the caller."""
    mine = squares(state, piece.key)
    forms = _attack_forms(state, piece)
    reach = max(
        [1] + [range_squares(f.long_ft or f.range_ft) for f in forms if f.ranged and f.range_ft]
    )
    profiles: dict = {}
    found = []
    for target in aimed:
        distance = steps(mine, squares(state, target))
        if distance > reach:
            continue  # out of reach of every form (`attack_geometry`)
        for form in forms:
            damage = _attack_damage(state, piece, form, target, profiles, distance)
            if damage is not None:
                found.append((target, form.key, damage, target.startswith("sq:")))
    return tuple(found)


ATTACKS_KEPT = 16384
_ATTACKS: dict[tuple, tuple[tuple[str, str, float, bool], ...]] = {}


def _best_attack(
    state: BattleState, actor: str, unit: bool = False
) -> tuple[float, Command] | None:
    """The best attack or spell of `actor` (`unit`: the caller knows it is the acting unit)."""
    best: tuple[float, Command] | None = None
    turn = state.turn
    number = None
    for piece in unit_attackers(state, actor) if unit else attackers(state, actor):
        side = state.side_of(piece.key)
        if number is None:
            number = _profile_number(state)
        aimed = targets(state, side)
        key = (number, piece.key, turn.attacks.get(piece.key, 0) >= 1,
               piece.key in turn.aided.values(), aimed)  # fmt: skip
        choices = _ATTACKS.get(key)
        if choices is None:
            choices = _attack_choices(state, piece, aimed)
            if len(_ATTACKS) >= ATTACKS_KEPT:
                _ATTACKS.clear()
            _ATTACKS[key] = choices
        found = None
        for target, form_key, damage, square in choices:
            # (the choice knows whether it is a square: no `startswith` per choice)
            value = _value(state, target, damage) if square else _piece_value(state, target, damage)
            if value > 0 and (found is None or value > found[0]):
                found = (value, form_key, target)
        if found is not None:  # stands attack in turn, each at its own best target
            params = {"piece": piece.key, "attack": found[1], "target": found[2]}
            return found[0], Command(actor, "attack", params)
    for caster in unit_casters(state, actor) if unit else casters(state, actor):
        for spell in creature_of(state, caster).spells:
            if spell.area is not None or not _spell_left(caster, spell, state):
                continue
            for target in _spell_targets(state, caster, spell):
                if spell.attack_bonus is not None:
                    profile = attack_profile(state, caster.key, spell.attack_bonus, False, target)
                    chance = _hit_chance(spell.attack_bonus, profile.ac, profile.mode)
                else:
                    chance = 0.75  # a failed save or half damage [policy estimate]
                value = _value(state, target, chance * _average(spell.damage))
                if value > 0 and (best is None or value > best[0]):
                    params = {"piece": caster.key, "spell": spell.key, "target": target}
                    best = (value, Command(actor, "cast", params))
    return best


def _goals(state: BattleState, side: str) -> list[tuple[int, int]]:
    """The squares worth moving to: enemy pieces and engines, own Destruction targets."""
    found: list[tuple[int, int]] = []
    for target in targets(state, side):
        found.extend(squares(state, target))
    return found


def _distances(state: BattleState, side: str) -> dict[tuple[int, int], int]:
    """Square -> steps to the nearest goal of `side` (every square of the grid; kept for
    the board, `board_memo`: the goals are the board's pieces and objectives)."""
    return _goal_field(state, side)[1]


def _goal_field(state: BattleState, side: str) -> tuple[int, dict[tuple[int, int], int]]:
    """(a number for the goals of `side` on this grid, `_distances`)."""
    memo = board_memo(state)
    try:
        return memo[(_DISTANCES, side)]
    except KeyError:
        pass
    # The goals are the squares of the targets: known from the layout and the targets.
    by_targets = (layout(state), side, targets(state, side))
    found = _FIELDS.get(by_targets)
    if found is None:
        goals = tuple(sorted(set(_goals(state, side))))
        signature = (goals, state.grid.width, state.grid.height)
        found = _FIELDS.get(signature)
        if found is None:
            if len(_FIELDS) >= FIELDS_KEPT:
                _FIELDS.clear()
            distances = _field(goals, state.grid.width, state.grid.height) if goals else {}
            found = _FIELDS[signature] = (next(_FIELD_NUMBERS), distances)
        _FIELDS[by_targets] = found
    memo[(_DISTANCES, side)] = found
    return found


_DISTANCES = "dnd5e.policy.distances"
FIELDS_KEPT = 1024
_FIELDS: dict[tuple, tuple[int, dict[tuple[int, int], int]]] = {}
_FIELD_NUMBERS = itertools.count()  # never reused (see `_best_square`)


@lru_cache(maxsize=256)
def _field(goals: tuple[tuple[int, int], ...], width: int, height: int) -> dict:
    """Steps from every square of a width x height grid to the nearest of `goals` (a
    breadth-first search: Manhattan distances, §3)."""
    found = dict.fromkeys(goals, 0)
    frontier = list(goals)
    while frontier:
        nxt = []
        for x, y in frontier:
            step = found[(x, y)] + 1
            for p in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if p not in found and 0 <= p[0] < width and 0 <= p[1] < height:
                    found[p] = step
                    nxt.append(p)
        frontier = nxt
    return found


_REACH: dict[int, tuple[Any, tuple[int, bool]]] = {}


def _creature_reach(creature: Any) -> tuple[int, bool]:
    hit = _REACH.get(id(creature))
    if hit is not None and hit[0] is creature:
        return hit[1]
    if len(_REACH) > 1024:
        _REACH.clear()
    _REACH[id(creature)] = (creature, _work_reach(creature))
    return _REACH[id(creature)][1]


def _work_reach(creature: Any) -> tuple[int, bool]:
    melee = max((_average(a.damage) * a.count for a in creature.attacks if a.melee), default=0)
    ranged = [(a, _average(a.damage) * a.count) for a in creature.attacks if a.ranged]
    best = max(ranged, key=lambda pair: pair[1], default=None)
    if best is not None and best[1] > melee and best[0].range_ft:
        return range_squares(best[0].range_ft), True
    return 1, False


def _reach(state: BattleState, piece: Stand | Solo) -> tuple[int, bool]:
    """(squares it wants to be from a goal, shoots): 1 for melee, its best normal range for
    a piece whose ranged attack does more than its melee one."""
    return _creature_reach(creature_of(state, piece))


def _gap(distances: dict[tuple[int, int], int], mine: tuple[tuple[int, int], ...], reach: int):
    return max(0, min(distances.get(p, 1 << 20) for p in mine) - reach)


def _unit_neighbours(state: BattleState, piece: Stand) -> set[tuple[int, int]] | None:
    """The squares next to the other stands of a regiment stand's unit (None: it cannot be
    isolated: a skirmisher, or the last stand)."""
    unit = state.unit(piece.unit)
    if unit.kind != REGIMENT:
        return None
    others = [s for s in state.stands_of(unit.key) if s.key != piece.key and s.on_field]
    if not others:
        return None
    near: set[tuple[int, int]] = set()
    for other in others:
        for x, y in squares(state, other.key):
            near.update(((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    return near


def _score(distances, mine, reach: int, near: set[tuple[int, int]] | None) -> int:
    """Squares still to go from `mine` (+ the isolation penalty off the unit)."""
    gap = _gap(distances, mine, reach)
    if near is not None and not any(p in near for p in mine):
        gap += ISOLATION_PENALTY
    return gap


def _move(state: BattleState, actor: str) -> Command | None:
    """The first stand (nearest a goal first) whose best move brings it nearer."""
    unit = state.find(actor)
    if type(unit) is Unit and held(state, unit):
        return None  # `movers` is empty
    side = unit.side if type(unit) is Unit else state.side_of(actor)  # (`side_of` a unit)
    number, distances = _goal_field(state, side)
    if not distances:
        return None
    turn = state.turn
    if type(unit) is Unit:  # the acting unit's (`_unit_turn`)
        # Its `movers` and their speeds read only the squares of its stands, the turn's
        # action, Dash, moves done and stands acted, and its configuration; with the
        # goals and what has moved, that is all the choice reads (`_UNIT_MOVES`).
        fast = (number, layout(state), actor, turn.action, turn.dashed, turn.done_moving,
                turn.acted, tuple(turn.spent), unit.configuration)  # fmt: skip
        try:
            chosen = _UNIT_MOVES[fast]
        except KeyError:
            chosen = _UNIT_MOVES[fast] = _chosen(state, actor, number, distances, side)
            if len(_UNIT_MOVES) >= MOVES_KEPT:
                _UNIT_MOVES.clear()
                _UNIT_MOVES[fast] = chosen
    else:
        chosen = _chosen(state, actor, number, distances, side)
    if chosen is None:
        return None
    piece, x, y = chosen
    return Command(actor, "move", {"piece": piece, "x": x, "y": y})


_UNIT_MOVES: dict[tuple, tuple[str, int, int] | None] = {}


def _chosen(state: BattleState, actor: str, number: int, distances: dict, side: str):
    """(piece, x, y) of `_move` (None: no move), kept per what it reads (`_CHOSEN`)."""
    turn = state.turn
    dashed, retreat = turn.dashed, turn.action == "retreat"
    pieces = [p for p in movers(state, actor) if p.key not in turn.spent]
    if not pieces:
        return None  # `_choose_move` of no pieces
    # What the choice reads (`_best_square`'s `move_key` for each piece: nothing is spent
    # yet, so its budget is its speed): kept per those (`_CHOSEN`).
    key = (number, layout(state), retreat,
           tuple((p.key, speed(state, p, dashed)) for p in pieces))  # fmt: skip
    try:
        chosen = _CHOSEN[key]
    except KeyError:
        chosen = _choose_move(state, pieces, distances, side)
        if len(_CHOSEN) >= MOVES_KEPT:
            _CHOSEN.clear()
        _CHOSEN[key] = chosen
    return chosen


def _choose_move(
    state: BattleState, pieces: list[Stand | Solo], distances: dict, side: str
) -> tuple[str, int, int] | None:
    """(piece, x, y) of `_move`, for its `pieces` not yet moved."""
    candidates = []
    for piece in pieces:
        reach, _ = _reach(state, piece)
        now = _gap(distances, squares(state, piece.key), reach)
        candidates.append((now, piece.key, piece, reach))
    candidates.sort(key=lambda c: (c[0], c[1]))
    for now, _, piece, reach in candidates:
        if now == 0:
            continue
        best = _best_square(state, piece, reach, side)
        if best is not None:
            return piece.key, best[0], best[1]
    return None


_CHOSEN: dict[tuple, tuple[str, int, int] | None] = {}


def _best_square(state: BattleState, piece: Stand | Solo, reach: int, side: str):
    """The destination of `piece` with the fewest squares still to go (`_score`), then the
    cheapest, then the first; None unless it is nearer than where the piece stands. Kept
    per (destinations, goals): it reads nothing else (`move_key`, `_goal_field`; the
    piece's unit neighbours are its unit's squares, part of the layout)."""
    number, distances = _goal_field(state, side)
    key = (move_key(state, piece), number, reach)
    try:
        return _MOVES[key]
    except KeyError:
        pass
    size = size_of(state, piece)
    near = _unit_neighbours(state, piece) if isinstance(piece, Stand) else None
    here = _score(distances, squares_of(piece.pos, size), reach, near)
    best = None
    grid = state.grid
    for pos, (cost, _road) in destinations(state, piece).items():
        if size == 1:  # `fits` and `_score` for the one square, inline
            x, y = pos
            if x < 0 or y < 0 or x >= grid.width or y >= grid.height:
                continue  # leaving the grid is fleeing
            score = max(0, distances.get(pos, 1 << 20) - reach)
            if near is not None and pos not in near:
                score += ISOLATION_PENALTY
        elif not grid.fits(pos, size):
            continue
        else:
            score = _score(distances, squares_of(pos, size), reach, near)
        choice = (score, cost, pos)
        if best is None or choice < best:
            best = choice
    found = best[2] if best is not None and best[0] < here else None
    if len(_MOVES) >= MOVES_KEPT:
        _MOVES.clear()
    _MOVES[key] = found
    return found


MOVES_KEPT = 8192
_MOVES: dict[tuple, tuple[int, int] | None] = {}


def _should_dash(state: BattleState, unit: Unit) -> bool:
    """No stand can reach a goal even with a full move, and the turn has not begun."""
    turn = state.turn
    if turn.action is not None or turn.spent or turn.acted:
        return False
    number, distances = _goal_field(state, unit.side)
    if not distances:
        return False
    # It reads the goals and the squares of the unit's stands: kept per those (`_DASHES`).
    key = (number, layout(state), unit.key)
    try:
        return _DASHES[key]
    except KeyError:
        pass
    found = True
    for stand in state.stands_of(unit.key):
        if not stand.on_field:
            continue
        reach, _ = _reach(state, stand)
        speed_, _ = base_speed(creature_of(state, stand))
        if _gap(distances, squares(state, stand.key), reach) <= speed_:
            found = False
            break
    if len(_DASHES) >= MOVES_KEPT:
        _DASHES.clear()
    _DASHES[key] = found
    return found


_DASHES: dict[tuple, bool] = {}


def _enemy_in_reach(state: BattleState, unit: Unit) -> bool:
    """Can a stand of the unit reach an enemy piece (not an objective) with a full move?
    It reads the squares (`layout`) and the targets: kept per those (`_IN_REACH`)."""
    key = (layout(state), targets(state, unit.side), unit.key)
    try:
        return _IN_REACH[key]
    except KeyError:
        pass
    if len(_IN_REACH) >= MOVES_KEPT:
        _IN_REACH.clear()
    found = _IN_REACH[key] = _work_enemy_in_reach(state, unit)
    return found


_IN_REACH: dict[tuple, bool] = {}


def _work_enemy_in_reach(state: BattleState, unit: Unit) -> bool:
    enemy = tuple(sorted({sq for t in targets(state, unit.side) if not t.startswith("sq:")
                          for sq in squares(state, t)}))  # fmt: skip
    if not enemy:
        return False
    distances = _field(enemy, state.grid.width, state.grid.height)
    for stand in state.stands_of(unit.key):
        if stand.on_field:
            reach, _ = _reach(state, stand)
            speed, _ = base_speed(creature_of(state, stand))
            if _gap(distances, squares(state, stand.key), reach) <= speed:
                return True
    return False


def _fall_back(state: BattleState, actor: str) -> Command | None:
    """A broken unit Retreats (§6.2): each stand moves off the grid if it can (it flees),
    else as far from the enemy as it can get."""
    turn = _turn(state)
    if turn.action is None:
        return Command(actor, "retreat")
    distances = _distances(state, state.unit(actor).side)
    for piece in movers(state, actor):
        if piece.key in turn.spent:
            continue
        size = size_of(state, piece)
        here = _gap(distances, squares_of(piece.pos, size), 0) if distances else 0
        best = None
        for pos, (cost, _road) in destinations(state, piece).items():
            away = 1 << 20 if not state.grid.fits(pos, size) else (
                _gap(distances, squares_of(pos, size), 0) if distances else 0)  # fmt: skip
            key = (away, -cost, pos)
            if best is None or key > best:
                best = key
        if best is not None and best[0] > here:
            return Command(actor, "move", {"piece": piece.key, "x": best[2][0], "y": best[2][1]})
    return None


def _siege(state: BattleState, actor: str) -> Command | None:
    """Load or aim the crew's engine, or fire it at the weakest target (a stand or solo
    before a Destruction square)."""
    fire = []
    for params, _ in siege_options(state, actor):
        if params["step"] != "fire":
            return Command(actor, "siege", params)
        if "target" in params:
            target = params["target"]
            fire.append((target.startswith("sq:"), _target_hp(state, target), target, params))
    if not fire:
        return None
    return Command(actor, "siege", min(fire, key=lambda f: f[:3])[3])


def _unit_turn(state: BattleState, actor: str) -> Command:
    unit = state.unit(actor)
    if unit.broken or state.round >= STALEMATE_ROUND:
        return _fall_back(state, actor) or Command(actor, END_TURN)
    turn = state.turn
    crew = False  # it crews a standing engine
    for engine in state.engines:
        if engine.crew == actor and not engine.destroyed:
            crew = True
            break
    if crew and turn.action in (None, "siege") and not _enemy_in_reach(state, unit):
        siege = _siege(state, actor)
        if siege is not None:
            return siege
    if turn.action == "siege":
        return Command(actor, END_TURN)
    if _should_dash(state, unit):
        return Command(actor, "dash")
    move = _move(state, actor)
    if move is not None:
        return move
    best = _best_attack(state, actor, unit=True)
    if best is not None:
        return best[1]
    for solo in state.solos:
        if solo.joined and acting_solo(state, solo.key) is not None:
            best = _best_attack(state, solo.key)
            if best is not None:
                return best[1]
    return Command(actor, END_TURN)


def _solo_turn(state: BattleState, actor: str) -> Command:
    move = _move(state, actor)
    if move is not None:
        return move
    best = _best_attack(state, actor)
    return best[1] if best is not None else Command(actor, END_TURN)


def _place(state: BattleState, actor: str) -> Command:
    item = state.find(actor)
    side = item.side if isinstance(item, Unit | Solo) else state.side_of(actor)
    enemy = next(s for s in state.sides if s != side)
    x0, y0, x1, y1 = state.zones[enemy]
    centre = ((x0 + x1) / 2, (y0 + y1) / 2)
    placed = [s for s in state.stands if s.unit == actor and s.pos is not None]
    best = None
    for params, _ in _place_options(state, actor):
        piece = state.find(params["piece"])
        if piece is None or piece.pos is not None:
            continue
        pos = (params["x"], params["y"])
        distance = abs(pos[0] - centre[0]) + abs(pos[1] - centre[1])
        if placed and isinstance(piece, Stand):
            mine = squares_of(pos, size_of(state, piece))
            if not any(adjacent(mine, squares(state, s.key)) for s in placed):
                distance += ISOLATION_PENALTY * 2
        key = (distance, params["piece"], pos[1], pos[0])
        if best is None or key < best[0]:
            best = (key, params)
    if best is None:
        raise ValueError(f"dnd5e: nowhere to place {actor!r}")
    return Command(actor, PLACE, best[1])


def suggest(state: BattleState, actor: str | None) -> Command:
    """The policy's command for `actor` (a unit or solo key, or None for the GM), who must
    be awaited (see the module docstring)."""
    if actor is None:
        if state.phase == DEPLOY:
            return Command(None, BEGIN)
        if state.phase == DRAW:
            return Command(None, "declare_draw")
        raise ValueError("dnd5e: the GM is not awaited")
    if state.phase == DEPLOY:
        return _place(state, actor)
    if state.phase == CASUALTIES:
        options = _rejoin_options(state, actor)
        if options:
            return Command(actor, REJOIN, options[0])
        return Command(actor, DONE)
    turn = state.turn
    if state.phase != ROUND or turn is None or actor != turn.actor:  # (`current`, inline)
        raise ValueError(f"dnd5e: {actor!r} is not awaited")
    if acting_unit(state, actor):
        return _unit_turn(state, actor)
    return _solo_turn(state, actor)
