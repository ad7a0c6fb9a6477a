"""The actions of a turn (dnd5e §4.3-§5.7, §8): for each command kind, `options` lists every
legal params dict (what the board highlights, with previews) and `resolve` applies one.

`apply` accepts a command only if its params are one of the listed options (plus the
optional params named in `OPTIONAL`), so the board and the engine can never disagree.
"""

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from warfare.engine.battle.protocol import CheckPreview
from warfare.engine.dice import Dice
from warfare.engine.frozen import per_state, replace
from warfare.engine.systems.dnd5e.creatures import Attack, Spell, range_squares, size_rank
from warfare.engine.systems.dnd5e.grid import (
    DIRECTIONS,
    MoveRules,
    Pos,
    Square,
    adjacent,
    area_squares,
    reachable,
    squares_of,
    steps,
)
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.engine.systems.dnd5e.rules import (
    attack_profile,
    base_speed,
    creature_of,
    damage_solo,
    damage_stand,
    destruction_of,
    enemy_of,
    field_stands,
    is_isolated,
    layout,
    objective_square,
    occupancy,
    roll_d20,
    roll_damage,
    size_of,
    speed,
    squares,
)
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES
from warfare.engine.systems.dnd5e.state import (
    AID,
    CONFIGURATIONS,
    DEFEND,
    REGIMENT,
    SKIRMISHER,
    BattleState,
    Engine,
    Event,
    Solo,
    Stand,
    Turn,
    Unit,
    board_memo,
)

Params = dict[str, Any]


class _Quiet(list):
    """An events sink that keeps nothing (`QUIET`)."""

    __slots__ = ()

    def append(self, item: Any) -> None:
        pass

    def extend(self, items: Any) -> None:
        pass


QUIET: list[Event] = _Quiet()
"""The events of a command nobody reads (a simulated battle, `simulation.apply_suggested`):
appending to it keeps nothing, and the hot sites (an attack's rolls, a move, the action,
a turn's end and start) check `events is QUIET` and do not build them at all."""


@dataclass
class Ctx:
    """What one command accumulates: its dice and events (`QUIET`: none are kept)."""

    dice: Dice
    events: list[Event] = field(default_factory=list)


# --- who acts -------------------------------------------------------------------------------------


def acting_unit(state: BattleState, actor: str) -> str | None:
    """The unit whose turn it is if `actor` is that unit."""
    # `find` gives a unit first: a unit of that key is there iff it finds one.
    turn = state.turn
    if turn is not None and turn.actor == actor and type(state.find(actor)) is Unit:
        return actor
    return None


def acting_solo(state: BattleState, actor: str) -> Solo | None:
    """`actor` as a solo that may act now: the current unattached solo, or a solo joined to
    a stand of the current unit (joined solos act on their unit's turn, §5.2)."""
    if not state.turn:
        return None
    solo = state.find(actor)
    if type(solo) is not Solo:  # `find` gives a unit, stand or engine of the key first
        if not any(s.key == actor for s in state.solos):
            return None
        solo = state.solo(actor)
    if not solo.can_act or actor in state.solos_done:
        return None  # a solo takes one turn a round, joined or not
    if state.turn.actor == actor and not solo.joined:
        return solo
    if solo.joined and state.stand(solo.joined).unit == state.turn.actor:
        return solo
    return None


def _turn(state: BattleState) -> Turn:
    """The turn on (the hot paths, which run only during a turn, read `state.turn` itself:
    a call fewer each)."""
    assert state.turn is not None
    return state.turn


def _set_turn(state: BattleState, **changes: Any) -> BattleState:
    return replace(state, turn=replace(state.turn, **changes))


# --- movement (§5.3, §4.2, §4.7) ------------------------------------------------------------------


def _enemy_stand_squares(state: BattleState, side: str) -> set[Pos]:
    result: set[Pos] = set()
    for stand in field_stands(state, enemy_of(state, side)):
        result.update(squares(state, stand.key))
    return result


def _next_to(squares_: tuple[Pos, ...], others: set[Pos]) -> bool:
    """Is a square orthogonally next to one of `squares_` in `others`?"""
    for x, y in squares_:
        if ((x, y - 1) in others or (x + 1, y) in others or (x, y + 1) in others
                or (x - 1, y) in others):  # fmt: skip
            return True
    return False


def move_rules(state: BattleState, piece: Stand | Solo, retreat: bool, join: str | None = None):
    """The `MoveRules` of a stand or unattached solo now (§4.2 passing through allies, §5.3
    adjacency lock unless Retreat, §4.7 deep water)."""
    side = state.side_of(piece.key)
    size = size_of(state, piece)
    occ = occupancy(state)
    enemy_squares = _enemy_stand_squares(state, side)
    is_stand = isinstance(piece, Stand)
    skirmisher = is_stand and state.unit(piece.unit).kind == SKIRMISHER  # type: ignore[union-attr]
    join_squares = set(squares(state, join)) if join else set()
    reasons: dict[str, str] = {}

    def reason(other: str) -> str:
        """Why the piece may not share a square with `other` ("enemy": not even pass)."""
        if other not in reasons:
            item = state.find(other)
            found = "ally"
            if isinstance(item, Engine) or state.side_of(other) != side:
                found = "enemy"
            elif isinstance(item, Stand):
                kind = state.unit(item.unit).kind
                if (is_stand and not skirmisher) or (not is_stand and kind == REGIMENT):
                    found = "enemy"
            reasons[other] = found
        return reasons[other]

    def blocked_by(pos: Pos) -> str | None:
        """The first reason the piece cannot be on `pos` (None: free)."""
        for p in (pos,) if size == 1 else squares_of(pos, size):
            other = occ.get(p)
            if other is None or other == piece.key:
                continue
            if p in join_squares:
                continue
            return reason(other)
        return None

    def stops_at(pos: Pos) -> bool:
        # §5.3 speaks of stands: a solo is not held by adjacent enemies [inferred].
        if not is_stand or retreat:
            return False
        if size == 1:  # `_next_to` for the one square
            x, y = pos
            return ((x, y - 1) in enemy_squares or (x + 1, y) in enemy_squares
                    or (x, y + 1) in enemy_squares or (x - 1, y) in enemy_squares)  # fmt: skip
        return _next_to(squares_of(pos, size), enemy_squares)

    def can_stop(pos: Pos) -> bool:
        if join:
            return bool(set(squares_of(pos, size)) & join_squares) and blocked_by(pos) is None
        return blocked_by(pos) is None

    def passable(pos: Pos) -> bool:
        if size == 1:  # `blocked_by` of the one square, inline
            other = occ.get(pos)
            if other is None or other == piece.key or pos in join_squares:
                return True
            return reason(other) != "enemy"
        return blocked_by(pos) != "enemy"

    creature = creature_of(state, piece)
    _, mode = base_speed(creature)
    flying = mode == "fly" and bool(house_value("fly.ignores_terrain"))
    return MoveRules(
        size=size,
        passable=passable,
        can_stop=can_stop,
        stops_at=stops_at,
        swim=bool(creature.speeds.get("swim")) or flying,
        ignore_terrain=flying,
    )


def held(state: BattleState, unit: Unit) -> bool:
    """None of the unit's stands may move now: a regiment moves only before or with a moving
    action (Dash, Retreat), unless the house rule `regiment.split_move` lets it split."""
    return (
        unit.kind == REGIMENT
        and state.turn.action not in (None, "dash", "retreat")
        and not house_value("regiment.split_move")
    )


def _may_move(state: BattleState, piece: Stand | Solo) -> bool:
    turn = state.turn
    if piece.key in turn.done_moving or not piece.pos or piece.gone:
        return False
    if isinstance(piece, Stand):
        unit = state.unit(piece.unit)
        if held(state, unit):
            return False
        if piece.key in turn.acted and unit.kind == REGIMENT:
            return False
    return True


def destinations(state: BattleState, piece: Stand | Solo) -> Mapping[Pos, tuple[int, bool]]:
    """Where `piece` can end a move now: {anchor: (cost, road bonus used)} (read-only;
    worked out once per state and piece: the board, the check of a move and the move
    itself ask for it in turn, issue 13)."""
    if state.find(piece.key) is piece:
        return _destinations_of(state, piece.key)
    return MappingProxyType(_destinations(state, piece))


@per_state(64)
def _destinations_of(state: BattleState, key: str) -> Mapping[Pos, tuple[int, bool]]:
    piece = state.find(key)
    assert isinstance(piece, Stand | Solo)
    return MappingProxyType(_destinations(state, piece))


def _destinations(state: BattleState, piece: Stand | Solo) -> dict[Pos, tuple[int, bool]]:
    """The search, once per (piece, square, budget, retreat, `layout`): a piece's moves
    depend on nothing else (its side, unit kind and creature are fixed for the battle)."""
    key = move_key(state, piece)
    try:
        return _ROUTES[key]
    except KeyError:
        pass
    budget, retreat = key[2], key[3]
    rules = move_rules(state, piece, retreat)
    start = piece.pos
    assert start is not None
    found = {} if rules.stops_at(start) or budget <= 0 else reachable(
        state.grid, start, budget, rules)  # fmt: skip
    if len(_ROUTES) >= ROUTES_KEPT:
        _ROUTES.clear()
    _ROUTES[key] = found
    return found


def move_key(state: BattleState, piece: Stand | Solo) -> tuple[str, Any, int, bool, int]:
    """(piece, square, squares of move left, retreating, `layout`): all a piece's
    destinations depend on."""
    turn = state.turn
    budget = speed(state, piece, turn.dashed) - turn.spent.get(piece.key, 0)
    return (piece.key, piece.pos, budget, turn.action == "retreat", layout(state))


ROUTES_KEPT = 8192
_ROUTES: dict[tuple, dict[Pos, tuple[int, bool]]] = {}
"""Destinations by (piece, square, budget, retreat, layout): read-only (handed out behind
`MappingProxyType`)."""


def movers(state: BattleState, actor: str) -> list[Stand | Solo]:
    unit = acting_unit(state, actor)
    if unit:
        if held(state, state.unit(unit)):
            return []
        return [s for s in state.stands_of(unit) if s.on_field and _may_move(state, s)]
    solo = acting_solo(state, actor)
    if solo and not solo.joined and _may_move(state, solo):
        return [solo]
    return []


def move_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    for piece in movers(state, actor):
        for x, y in sorted(destinations(state, piece)):
            yield {"piece": piece.key, "x": x, "y": y}, ()


def can_move(state: BattleState, actor: str, params: Mapping[str, Any]) -> bool:
    """Is `params` one of `move_options` (found from the one piece's destinations)?"""
    if not set(params) <= {"piece", "x", "y"}:
        return False
    piece = next((p for p in movers(state, actor) if params.get("piece") == p.key), None)
    if piece is None:
        return False
    try:
        return (params.get("x"), params.get("y")) in destinations(state, piece)
    except TypeError:  # an unhashable coordinate equals no square
        return False


def resolve_move(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    piece = state.find(params["piece"])
    assert isinstance(piece, Stand | Solo)
    pos = (int(params["x"]), int(params["y"]))
    cost, road = destinations(state, piece)[pos]
    turn = state.turn
    spent = {**turn.spent, piece.key: turn.spent.get(piece.key, 0) + cost}
    done = turn.done_moving + ((piece.key,) if road else ())
    fled = not state.grid.fits(pos, size_of(state, piece))
    state = _set_turn(state, spent=spent, done_moving=done)
    if fled:
        state = state.put(replace(piece, pos=None, gone="fled"))
        for solo in state.joined_to(piece.key) if isinstance(piece, Stand) else ():
            state = state.put(replace(solo, joined=None, gone="fled"))
        ctx.events.append(Event("dnd5e.fled", {"piece": piece.key}))
        return state
    if ctx.events is not QUIET:
        ctx.events.append(Event("dnd5e.moved", {"piece": piece.key, "to": list(pos),
                                                "cost": cost, "road": road}))  # fmt: skip
    return state.put(replace(piece, pos=pos))


# --- attack (§5.4) --------------------------------------------------------------------------------


def _attack_allowed(state: BattleState, actor: str) -> bool:
    unit = acting_unit(state, actor)
    if unit:
        return _unit_may_attack(state, unit)
    return acting_solo(state, actor) is not None


def _unit_may_attack(state: BattleState, unit: str) -> bool:
    """The acting unit may still attack (§4.3 Defend, §6.2 broken, §5.4 its one action)."""
    u = state.unit(unit)
    if u.broken or u.configuration == DEFEND:
        return False
    return state.turn.action in (None, "attack")


def attackers(state: BattleState, actor: str) -> list[Stand | Solo]:
    unit = acting_unit(state, actor)
    if unit:
        return unit_attackers(state, unit)
    solo = acting_solo(state, actor)
    return [solo] if solo and solo.key not in state.turn.acted else []


def unit_attackers(state: BattleState, unit: str) -> list[Stand | Solo]:
    """`attackers` of `unit`, the acting unit (for a caller that knows it is)."""
    if not _unit_may_attack(state, unit):
        return []
    turn = state.turn
    result: list[Stand | Solo] = []
    for stand in state.stands_of(unit):
        if stand.pos is None or stand.key in turn.aided:  # (`on_field`: none is gone)
            continue
        made = turn.attacks.get(stand.key, 0)
        if not made:  # none made yet: unless it used its action otherwise
            if stand.key not in turn.acted:
                result.append(stand)
        elif made < 1 + (1 if creature_of(state, stand).reach_bonus_attack else 0):
            result.append(stand)  # the reach bonus attack (§5.4)
    return result


def targets(state: BattleState, side: str) -> tuple[str, ...]:
    """Everything an army may attack: enemy stands and unattached solos on the field, enemy
    siege engines, and the squares of Destruction objectives it scores that still have HP
    (kept for the board, `board_memo`)."""
    memo = board_memo(state)
    try:
        return memo[(_TARGETS, side)]
    except KeyError:
        found = memo[(_TARGETS, side)] = tuple(_targets(state, side))
        return found


_TARGETS = "dnd5e.targets"


def _targets(state: BattleState, side: str) -> list[str]:
    enemy = enemy_of(state, side)
    keys = [s.key for s in field_stands(state, enemy)]
    keys += [s.key for s in state.solos if s.side == enemy and s.on_field]
    keys += [e.key for e in state.engines if e.side == enemy and not e.destroyed]
    for o in state.objectives:
        if o.type == "destruction" and o.side == side:
            keys += [f"sq:{sq.x}:{sq.y}" for sq in o.squares if sq.hp > 0]
    return keys


def _attack_forms(state: BattleState, piece: Stand | Solo) -> list[Attack]:
    creature = creature_of(state, piece)
    turn = state.turn
    if turn.attacks.get(piece.key, 0) >= 1:  # the reach bonus attack (§5.4)
        return [a for a in creature.attacks if (a.reach_ft or 0) >= 10]
    return list(creature.attacks)


def attack_geometry(
    state: BattleState, piece: str, form: Attack, target: str
) -> tuple[bool, bool] | None:
    """(melee?, long range?) if `form` can reach `target`, else None (§5.4: melee needs an
    adjacent target; ranged counts squares with the §5.4 conversion)."""
    return geometry_at(form, steps(squares(state, piece), squares(state, target)))


def geometry_at(form: Attack, distance: int) -> tuple[bool, bool] | None:
    """`attack_geometry` for a target `distance` steps away."""
    if form.melee and distance == 1:
        return True, False
    if form.ranged and form.range_ft is not None:
        normal = range_squares(form.range_ft)
        long = range_squares(form.long_ft or form.range_ft)
        if 1 <= distance <= long:
            return False, distance > normal
    return None


def _preview(profile: Any, stat: str = "attack") -> CheckPreview:
    terms = [("to_hit", profile.to_hit)]
    terms += [(f"advantage.{a}", 0) for a in profile.advantage]
    terms += [(f"disadvantage.{d}", 0) for d in profile.disadvantage]
    if profile.double_damage:
        terms.append(("double_damage", 0))
    if profile.auto_hit:
        terms.append(("auto_hit", 0))
    return CheckPreview(stat, profile.to_hit, tuple(terms), profile.ac, profile.ac_terms)


def attack_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    turn = _turn(state)
    for piece in attackers(state, actor):
        side = state.side_of(piece.key)
        aided = piece.key in turn.aided.values()
        for form in _attack_forms(state, piece):
            for target in targets(state, side):
                geometry = attack_geometry(state, piece.key, form, target)
                if geometry is None:
                    continue
                melee, long = geometry
                profile = attack_profile(state, piece.key, form.to_hit, melee, target,
                                         long_range=long, aided=aided and melee)  # fmt: skip
                yield ({"piece": piece.key, "attack": form.key, "target": target},
                       (_preview(profile),))  # fmt: skip


def can_attack(
    state: BattleState, actor: str, params: Mapping[str, Any], optional: tuple[str, ...]
) -> bool:
    """Is `params` one of `attack_options` plus `optional` params (found from the one
    piece's attack forms and the target, without the previews)?"""
    if set(params) - {"piece", "attack", "target"} - set(optional):
        return False
    for piece in attackers(state, actor):
        if params.get("piece") != piece.key:
            continue
        side = state.side_of(piece.key)
        target = next((t for t in targets(state, side) if params.get("target") == t), None)
        if target is None:
            return False
        return any(
            params.get("attack") == form.key
            and attack_geometry(state, piece.key, form, target) is not None
            for form in _attack_forms(state, piece)
        )
    return False


def apply_damage(
    state: BattleState,
    target: str,
    amount: int,
    crit: bool,
    damage_type: str,
    ctx: Ctx,
    overflow: tuple[str, ...] = (),
) -> BattleState:
    """Damage to any target: a stand (overflow, §6.1), a solo (§2), a siege engine or a
    Destruction square (objects: immune to poison and psychic, §2, §8)."""
    if target.startswith("sq:"):
        if damage_type in ("poison", "psychic"):
            return state
        square = objective_square(state, target)
        objective = destruction_of(state, target)
        hp = max(0, square.hp - amount)
        squares_ = tuple(replace(s, hp=hp) if s.pos == square.pos else s for s in objective.squares)
        state = state.put(replace(objective, squares=squares_))
        ctx.events.append(Event("dnd5e.damage", {"target": target, "amount": amount, "hp": hp}))
        if hp == 0 and square.hp > 0:  # destroyed by this hit, not by an earlier one
            ground = state.grid.at(square.pos)
            if ground.terrain == "road":  # §7.1: a destroyed road square becomes difficult
                state = replace(state, grid=state.grid.with_square(
                    square.pos, Square(ground.terrain, True, ground.elevation)))  # fmt: skip
            ctx.events.append(Event("dnd5e.objective_destroyed", {"square": target}))
        return state
    item = state.find(target)
    if isinstance(item, Engine):
        if damage_type in SIEGE_ENGINES[item.kind].immunities:
            return state
        hp = max(0, item.hp - amount)
        ctx.events.append(Event("dnd5e.damage", {"target": target, "amount": amount, "hp": hp}))
        return state.put(replace(item, hp=hp, destroyed=hp == 0))
    if isinstance(item, Stand):
        if damage_type in creature_of(state, item).immunities:
            return state
        state, events = damage_stand(state, target, amount, overflow, quiet=ctx.events is QUIET)
    else:
        assert isinstance(item, Solo)
        if damage_type in creature_of(state, item).immunities:
            return state
        state, events = damage_solo(state, target, amount, crit)
    ctx.events.extend(events)
    return state


def _reveal(state: BattleState, key: str) -> BattleState:
    item = state.find(key)
    if isinstance(item, Stand | Solo) and item.hidden:
        return state.put(replace(item, hidden=False))
    return state


def resolve_attack(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    piece = state.find(params["piece"])
    assert isinstance(piece, Stand | Solo)
    target = str(params["target"])
    form = creature_of(state, piece).attack(str(params["attack"]))
    assert form is not None
    turn = state.turn
    bonus = turn.attacks.get(piece.key, 0) >= 1
    melee, long = attack_geometry(state, piece.key, form, target)  # type: ignore[misc]
    aided = piece.key in turn.aided.values() and melee
    profile = attack_profile(state, piece.key, form.to_hit, melee, target, long_range=long,
                             aided=aided)  # fmt: skip
    overflow = params.get("overflow")
    overflow = tuple(str(k) for k in overflow) if overflow else ()
    state = _set_turn(
        state,
        action="attack" if acting_unit(state, actor) else turn.action,
        acted=tuple(dict.fromkeys((*turn.acted, piece.key))),
        attacks={**turn.attacks, piece.key: turn.attacks.get(piece.key, 0) + 1},
    )
    rolls = 1 if bonus else form.count
    for _ in range(rolls):
        if profile.auto_hit:
            die, dice_, hit, crit = None, (), True, False
        else:
            die, dice_ = roll_d20(ctx.dice, profile.mode, "attack")
            crit = die == 20
            hit = crit or (die != 1 and die + form.to_hit >= profile.ac)
        amount = 0
        if hit:
            amount = roll_damage(ctx.dice, form.damage, crit=crit, double=profile.double_damage,
                                 purpose="damage")  # fmt: skip
        if ctx.events is not QUIET:
            ctx.events.append(Event("dnd5e.attack", {
                "piece": piece.key, "attack": form.key, "target": target, "die": die,
                "dice": list(dice_), "to_hit": form.to_hit, "ac": profile.ac,
                "advantage": list(profile.advantage),
                "disadvantage": list(profile.disadvantage), "hit": hit, "critical": crit,
                "damage": amount, "bonus_attack": bonus}))  # fmt: skip
        if hit and amount:
            state = apply_damage(state, target, amount, crit, form.damage_type, ctx, overflow)
    # The attacker's own flag (nothing in the attack hides or reveals it).
    return _reveal(state, piece.key) if piece.hidden else state


# --- aid, configure, dash, retreat, hide (§4.3, §5.6) ---------------------------------------------


def _unit_fresh(state: BattleState, actor: str) -> str | None:
    """The acting unit if it has not chosen its action yet and may act."""
    unit = acting_unit(state, actor)
    if not unit or _turn(state).action is not None:
        return None
    return unit


def aid_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    unit = acting_unit(state, actor)
    if not unit or state.unit(unit).configuration != AID or not _attack_allowed(state, actor):
        return
    turn = _turn(state)
    stands = [s for s in state.stands_of(unit) if s.on_field]
    for helper in stands:
        if helper.key in turn.acted:
            continue
        for helped in stands:
            if (
                helped.key != helper.key
                and helped.key not in turn.acted
                and helped.key not in turn.aided.values()
                and adjacent(squares(state, helper.key), squares(state, helped.key))
            ):
                yield {"stand": helper.key, "helps": helped.key}, ()  # fmt: skip


def resolve_aid(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    turn = _turn(state)
    ctx.events.append(Event("dnd5e.aid", dict(params)))
    return _set_turn(state, action="attack", acted=(*turn.acted, params["stand"]),
                     aided={**turn.aided, params["stand"]: params["helps"]})  # fmt: skip


def configure_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    unit = _unit_fresh(state, actor)
    if unit and state.unit(unit).kind == REGIMENT and not state.unit(unit).broken:
        for configuration in CONFIGURATIONS:
            if configuration != state.unit(unit).configuration:
                yield {"configuration": configuration}, ()


def resolve_configure(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    unit = state.unit(actor)
    ctx.events.append(Event("dnd5e.configured", {"unit": actor, "from": unit.configuration,
                                                 "to": params["configuration"]}))  # fmt: skip
    state = state.put(replace(unit, configuration=params["configuration"]))
    if house_value("configure.costs_action"):
        state = _set_turn(state, action="configure")
    return state


def simple_options(kind: str) -> Callable[[BattleState, str], Iterator[tuple[Params, tuple]]]:
    """Dash and Retreat: any unit (a broken one only Retreat, §6.2); Dash also for solos."""

    def options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
        unit = _unit_fresh(state, actor)
        if unit and (kind == "retreat" or not state.unit(unit).broken):
            yield {}, ()
        solo = acting_solo(state, actor)
        if solo and not solo.joined and solo.key not in _turn(state).acted and kind == "dash":
            yield {}, ()

    return options


def resolve_simple(kind: str) -> Callable[[BattleState, str, Params, Ctx], BattleState]:
    def resolve(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
        ctx.events.append(Event(f"dnd5e.{kind}", {"actor": actor}))
        turn = _turn(state)
        if acting_unit(state, actor):
            return _set_turn(state, action=kind, dashed=turn.dashed or kind == "dash")
        return _set_turn(state, acted=(*turn.acted, actor), dashed=True)

    return resolve


def _observers_perception(state: BattleState, side: str) -> int:
    enemy = enemy_of(state, side)
    pieces: list[Stand | Solo] = list(field_stands(state, enemy))
    pieces += [s for s in state.solos if s.side == enemy and s.on_field]
    return max((creature_of(state, p).perception for p in pieces), default=10)


def hide_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    unit = _unit_fresh(state, actor)
    if unit and state.unit(unit).kind == SKIRMISHER and not state.unit(unit).broken:
        dc = _observers_perception(state, state.unit(unit).side)
        checks = tuple(
            CheckPreview("stealth", creature_of(state, s).stealth_bonus,
                         (("stealth", creature_of(state, s).stealth_bonus),), dc,
                         (("passive_perception", dc),))
            for s in state.stands_of(unit) if s.on_field
        )  # fmt: skip
        yield {}, checks
    solo = acting_solo(state, actor)
    if solo and not solo.joined and solo.key not in _turn(state).acted:
        dc = _observers_perception(state, solo.side)
        bonus = creature_of(state, solo).stealth_bonus
        yield {}, (CheckPreview("stealth", bonus, (("stealth", bonus),), dc),)


def resolve_hide(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    """§5.6 Hide: each stand that tries rolls Dex (Stealth) against the best passive
    Perception of the enemy; stands that cannot or choose not to try take no other action."""
    unit = acting_unit(state, actor)
    pieces: list[Stand | Solo]
    if unit:
        pieces = [s for s in state.stands_of(unit) if s.on_field]
        chosen = params.get("stands")
        trying = [p for p in pieces if chosen is None or p.key in chosen]
        side = state.unit(unit).side
    else:
        trying = pieces = [state.solo(actor)]
        side = state.solo(actor).side
    dc = _observers_perception(state, side)
    for piece in trying:
        bonus = creature_of(state, piece).stealth_bonus
        die = ctx.dice.d20(purpose="stealth")
        hidden = die + bonus >= dc
        ctx.events.append(Event("dnd5e.hide", {"piece": piece.key, "die": die, "bonus": bonus,
                                               "dc": dc, "hidden": hidden}))  # fmt: skip
        state = state.put(replace(piece, hidden=hidden, stealth=die + bonus))
    turn = _turn(state)
    acted = tuple(dict.fromkeys((*turn.acted, *(p.key for p in pieces))))
    return _set_turn(state, action="hide" if unit else turn.action, acted=acted)


# --- cast a spell (§5.5) --------------------------------------------------------------------------


def casters(state: BattleState, actor: str) -> list[Stand | Solo]:
    unit = acting_unit(state, actor)
    if unit:
        return unit_casters(state, unit)
    turn = state.turn
    solo = acting_solo(state, actor)
    if solo and solo.key not in turn.acted and creature_of(state, solo).spells:
        return [solo]
    return []


def unit_casters(state: BattleState, unit: str) -> list[Stand | Solo]:
    """`casters` of `unit`, the acting unit (for a caller that knows it is)."""
    if state.unit(unit).broken:
        return []
    turn = state.turn
    return [s for s in state.stands_of(unit) if s.on_field and s.key not in turn.acted
            and creature_of(state, s).spells]  # fmt: skip


def _spell_left(piece: Stand | Solo, spell: Spell, state: BattleState) -> bool:
    """A spell with limited uses: a solo counts its own, a stand's are kept per battle in
    `state.spell_uses` (all casters of a stand cast together, §5.5)."""
    if spell.uses is None:
        return True
    if isinstance(piece, Solo):
        return piece.spells_used.get(spell.key, 0) < spell.uses
    return state.spell_uses.get(f"{piece.key}:{spell.key}", 0) < spell.uses


def _spell_targets(state: BattleState, caster: Stand | Solo, spell: Spell) -> list[str]:
    side = state.side_of(caster.key)
    result = []
    for target in targets(state, side):
        item = state.find(target)
        if isinstance(caster, Solo) and isinstance(item, Stand) and spell.targets < 5:
            continue  # §5.5: a solo's targeted spell affects a stand only if it can target 5+
        if isinstance(caster, Solo) and target.startswith("sq:"):
            continue  # §7.1: not from targeted spells cast by solos
        if isinstance(item, Engine) and spell.save:
            continue
        distance = steps(squares(state, caster.key), squares(state, target))
        if 1 <= distance <= range_squares(spell.range_ft):
            result.append(target)
    return result


def cast_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    for caster in casters(state, actor):
        for spell in creature_of(state, caster).spells:
            if not _spell_left(caster, spell, state):
                continue
            if spell.area is None:
                for target in _spell_targets(state, caster, spell):
                    if spell.attack_bonus is not None:
                        profile = attack_profile(state, caster.key, spell.attack_bonus, False,
                                                 target)  # fmt: skip
                        checks: tuple = (_preview(profile, "spell_attack"),)
                    else:
                        checks = (CheckPreview("spell_save", 0, (), spell.dc),)
                    yield {"piece": caster.key, "spell": spell.key, "target": target}, checks
                continue
            yield from _area_options(state, caster, spell)


def _area_options(
    state: BattleState, caster: Stand | Solo, spell: Spell
) -> Iterator[tuple[Params, tuple]]:
    """§5.5: a cone or line starts at a square next to one side of the caster's space and
    points away from it; a sphere/cube/cylinder is centred on any square in range."""
    assert spell.area is not None
    check = (CheckPreview("spell_save", 0, (), spell.dc),)
    mine = squares(state, caster.key)
    base = {"piece": caster.key, "spell": spell.key}
    if spell.area[0] in ("cone", "line"):
        seen: set[tuple[Pos, str]] = set()
        for x, y in mine:
            for direction, (dx, dy) in DIRECTIONS.items():
                origin = (x + dx, y + dy)
                if origin in mine or not state.grid.inside(origin) or (origin, direction) in seen:
                    continue
                seen.add((origin, direction))
                yield {**base, "x": origin[0], "y": origin[1], "direction": direction}, check
        return
    reach = range_squares(spell.range_ft)
    for y in range(state.grid.height):
        for x in range(state.grid.width):
            if (x, y) not in mine and steps(mine, ((x, y),)) <= reach:
                yield {**base, "x": x, "y": y}, check


def _save(
    state: BattleState, key: str, ability: str, dc: int, dice: Dice, disadvantage: bool
) -> tuple[bool, dict[str, Any]]:
    """A saving throw of a stand, solo (own save) or object (fails, §7.1): skirmisher stands
    have advantage on Dex saves (§4.2), Prepared units on all saves (§4.5)."""
    if key.startswith("sq:") or isinstance(state.find(key), Engine):
        return False, {"target": key, "auto_fail": True}
    item = state.find(key)
    assert isinstance(item, Stand | Solo)
    bonus = creature_of(state, item).save(ability)
    advantage = []
    unit_key = item.unit if isinstance(item, Stand) else (
        state.stand(item.joined).unit if item.joined else None)  # fmt: skip
    if unit_key:
        unit = state.unit(unit_key)
        if isinstance(item, Stand) and unit.kind == SKIRMISHER and ability == "dex":
            advantage.append("skirmisher")
        if unit.prepared > 0:
            advantage.append("prepared")
    mode = (1 if advantage else 0) - (1 if disadvantage else 0)
    die, dice_ = roll_d20(dice, mode, "save")
    success = die + bonus >= dc
    return success, {"target": key, "die": die, "dice": list(dice_), "bonus": bonus, "dc": dc,
                     "advantage": advantage, "success": success}  # fmt: skip


def also_problem(state: BattleState, params: Mapping[str, Any]) -> str | None:
    """§5.5: a stand's spell that targets several creatures affects one stand or unattached
    solo per creature: `also` lists the extra targets (distinct, in range, at most
    targets - 1). None if fine, else the problem code."""
    caster = state.find(str(params.get("piece")))
    if not isinstance(caster, Stand | Solo):
        return "bad_param"
    spell = creature_of(state, caster).spell(str(params.get("spell")))
    extra = list(params["also"])
    if spell is None or spell.area is not None or len(extra) > spell.targets - 1:
        return "too_many_targets"
    allowed = set(_spell_targets(state, caster, spell)) - {params.get("target")}
    if len(set(extra)) != len(extra) or not set(extra) <= allowed:
        return "bad_target"
    return None


def _targeted(
    state: BattleState,
    caster: Stand | Solo,
    spell: Spell,
    target: str,
    total: int | None,
    ctx: Ctx,
) -> BattleState:
    """One target of a targeted spell (§5.5): a stand's spell against an isolated solo has
    advantage and double damage (attack) or gives disadvantage and double damage on a
    failed save."""
    by_stand = isinstance(caster, Stand)
    item = state.find(target)
    vs_isolated_solo = by_stand and isinstance(item, Solo) and is_isolated(state, target)
    if spell.attack_bonus is not None:
        profile = attack_profile(state, caster.key, spell.attack_bonus, False, target)
        die, dice_ = roll_d20(ctx.dice, profile.mode, "spell_attack")
        crit = die == 20
        hit = crit or (die != 1 and die + spell.attack_bonus >= profile.ac)
        amount = 0
        if hit:
            amount = roll_damage(ctx.dice, spell.damage, crit=crit,
                                 double=profile.double_damage, purpose="damage")  # fmt: skip
        ctx.events.append(Event("dnd5e.spell_attack", {
            "piece": caster.key, "target": target, "die": die, "dice": list(dice_),
            "ac": profile.ac, "hit": hit, "damage": amount}))  # fmt: skip
        if hit:
            state = apply_damage(state, target, amount, crit, spell.damage_type, ctx)
        return state
    assert total is not None
    ok, record = _save(state, target, spell.save or "dex", spell.dc or 10, ctx.dice,
                       vs_isolated_solo)  # fmt: skip
    amount = (total // 2 if spell.half_on_save else 0) if ok else total
    if vs_isolated_solo and not ok:
        amount *= 2
    ctx.events.append(Event("dnd5e.spell_save", {**record, "damage": amount}))
    return apply_damage(state, target, amount, False, spell.damage_type, ctx)


def resolve_cast(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    caster = state.find(params["piece"])
    assert isinstance(caster, Stand | Solo)
    spell = creature_of(state, caster).spell(params["spell"])
    assert spell is not None
    turn = _turn(state)
    state = _set_turn(state, acted=(*turn.acted, caster.key))
    if spell.uses is not None:
        if isinstance(caster, Solo):
            used = {**caster.spells_used, spell.key: caster.spells_used.get(spell.key, 0) + 1}
            state = state.put(replace(caster, spells_used=used))
        else:
            key = f"{caster.key}:{spell.key}"
            uses = {**state.spell_uses, key: state.spell_uses.get(key, 0) + 1}
            state = replace(state, spell_uses=uses)
    by_stand = isinstance(caster, Stand)
    ctx.events.append(Event("dnd5e.cast", dict(params)))
    if spell.area is None:
        chosen = [str(params["target"]), *(str(k) for k in params.get("also") or ())]
        total = None
        if spell.attack_bonus is None:  # a save spell's damage is rolled once for all
            total = roll_damage(ctx.dice, spell.damage, crit=False, double=False,
                                purpose="damage")  # fmt: skip
        for target in chosen:
            state = _targeted(state, caster, spell, target, total, ctx)
        return _reveal(state, caster.key)
    origin = (int(params["x"]), int(params["y"]))
    area = area_squares(spell.area[0], spell.area[1], origin, params.get("direction", "n"))
    total = roll_damage(ctx.dice, spell.damage, crit=False, double=False, purpose="damage")
    affected: list[tuple[str, bool]] = []
    for stand in field_stands(state):
        covered = set(squares(state, stand.key)) & area
        if covered:
            full = covered == set(squares(state, stand.key))
            affected.append((stand.key, full))
            affected += [(s.key, full) for s in state.joined_to(stand.key)]
    affected += [
        (s.key, True) for s in state.solos if s.on_field and set(squares(state, s.key)) & area
    ]
    for o in state.objectives:
        if o.type == "destruction" and o.side == state.side_of(caster.key):
            affected += [(f"sq:{s.x}:{s.y}", True) for s in o.squares if s.pos in area and s.hp > 0]
    for target, full in affected:
        ok, record = _save(state, target, spell.save or "dex", spell.dc or 10, ctx.dice, False)
        amount = (total // 2 if spell.half_on_save else 0) if ok else total
        if not full:
            amount //= 2  # §5.5: a stand only partly inside takes half damage
        if by_stand:
            amount *= 2  # §5.5: an area spell cast by a stand deals double damage
        ctx.events.append(Event("dnd5e.spell_save", {**record, "damage": amount,
                                                     "partial": not full}))  # fmt: skip
        if amount:
            state = apply_damage(state, target, amount, False, spell.damage_type, ctx)
    return _reveal(state, caster.key)


# --- solos: join, leave, switch, command (§5.7, §4.5) ---------------------------------------------


def _size_ok(state: BattleState, solo: Solo, stand: Stand) -> bool:
    """§5.7: at most one size category larger than the stand's creatures."""
    solo_size = size_rank(creature_of(state, solo).size)
    return solo_size <= size_rank(creature_of(state, stand).size) + 1


def join_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    solo = acting_solo(state, actor)
    turn = _turn(state)
    if not solo or solo.joined or solo.key in turn.acted or not _may_move(state, solo):
        return
    budget = speed(state, solo, turn.dashed) - turn.spent.get(solo.key, 0)
    for stand in field_stands(state, solo.side):
        if not _size_ok(state, solo, stand):
            continue
        if adjacent(squares(state, solo.key), squares(state, stand.key)) and budget >= 1:
            yield {"stand": stand.key}, ()
            continue
        rules = move_rules(state, solo, turn.action == "retreat", join=stand.key)
        if budget > 0 and reachable(state.grid, solo.pos, budget, rules):  # type: ignore[arg-type]
            yield {"stand": stand.key}, ()


def resolve_join(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    solo = state.solo(actor)
    turn = _turn(state)
    ctx.events.append(Event("dnd5e.joined", {"solo": actor, "stand": params["stand"]}))
    state = _set_turn(state, acted=(*turn.acted, actor), done_moving=(*turn.done_moving, actor))
    return state.put(replace(solo, joined=params["stand"], pos=None, hidden=False))


def _may_reposition(state: BattleState, solo: Solo | None) -> bool:
    """§5.7: a joined solo leaves or switches in place of its move (the seed: in place of
    its action, option `seed_switch_uses_action`, §10 item 4)."""
    if not solo or not solo.joined:
        return False
    used = _turn(state).acted if state.options.seed_switch_uses_action else _turn(state).done_moving
    return solo.key not in used


def _reposition(state: BattleState, actor: str) -> BattleState:
    turn = _turn(state)
    if state.options.seed_switch_uses_action:
        return _set_turn(state, acted=(*turn.acted, actor))
    return _set_turn(state, done_moving=(*turn.done_moving, actor))


def leave_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    """§5.7: a joined solo leaves into an empty adjacent space (see `_may_reposition`)."""
    solo = acting_solo(state, actor)
    if not _may_reposition(state, solo):
        return
    size = size_of(state, solo)
    occ = occupancy(state)
    stand_squares = squares(state, solo.joined)
    seen: set[Pos] = set()
    for sx, sy in stand_squares:
        for ox in range(-size, 2):
            for oy in range(-size, 2):
                anchor = (sx + ox, sy + oy)
                mine = squares_of(anchor, size)
                if anchor in seen or not state.grid.fits(anchor, size):
                    continue
                seen.add(anchor)
                if any(p in occ for p in mine) or not adjacent(mine, stand_squares):
                    continue
                if any(state.grid.at(p).terrain == "water_deep" for p in mine):
                    continue
                yield {"x": anchor[0], "y": anchor[1]}, ()


def resolve_leave(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    solo = state.solo(actor)
    unit = state.unit(state.stand(str(solo.joined)).unit)
    if unit.commander == actor:
        state = state.put(replace(unit, commander=None))
        ctx.events.append(Event("dnd5e.command_lost", {"unit": unit.key, "solo": actor}))
    state = _reposition(state, actor)
    ctx.events.append(Event("dnd5e.left", {"solo": actor, "to": [params["x"], params["y"]]}))
    return state.put(replace(state.solo(actor), joined=None,
                             pos=(int(params["x"]), int(params["y"]))))  # fmt: skip


def switch_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    solo = acting_solo(state, actor)
    if not solo or not _may_reposition(state, solo):
        return
    current = state.stand(str(solo.joined))
    for stand in state.stands_of(current.unit):
        if (
            stand.key != current.key
            and stand.on_field
            and _size_ok(state, solo, stand)
            and adjacent(squares(state, stand.key), squares(state, current.key))
        ):
            yield {"stand": stand.key}, ()  # fmt: skip


def resolve_switch(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    state = _reposition(state, actor)
    ctx.events.append(Event("dnd5e.switched", {"solo": actor, "stand": params["stand"]}))
    return state.put(replace(state.solo(actor), joined=params["stand"]))


def _commander_unit(state: BattleState, solo: Solo) -> str | None:
    return state.stand(solo.joined).unit if solo.joined else None


def command_options(kind: str) -> Callable[[BattleState, str], Iterator[tuple[Params, tuple]]]:
    """Bonus actions of a joined solo (§4.5): take_command, step_down, prepare, incite."""

    def options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
        solo = acting_solo(state, actor)
        if not solo or not solo.joined or solo.key in _turn(state).bonus:
            return
        unit = state.unit(str(_commander_unit(state, solo)))
        if (
            kind == "take_command"
            and unit.commander is None
            or kind == "step_down"
            and unit.commander == actor
        ):
            yield {}, ()
        elif kind in ("prepare", "incite") and unit.commander == actor:
            cha = creature_of(state, solo).mod("cha")
            dc = house_value("commander.dc")
            yield {}, (CheckPreview("charisma", cha, (("cha", cha),), dc),)

    return options


def resolve_command(kind: str) -> Callable[[BattleState, str, Params, Ctx], BattleState]:
    def resolve(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
        solo = state.solo(actor)
        unit = state.unit(str(_commander_unit(state, solo)))
        turn = _turn(state)
        state = _set_turn(state, bonus=(*turn.bonus, actor))
        if kind == "take_command":
            ctx.events.append(Event("dnd5e.command_taken", {"unit": unit.key, "solo": actor}))
            return state.put(replace(unit, commander=actor))
        if kind == "step_down":
            ctx.events.append(Event("dnd5e.command_lost", {"unit": unit.key, "solo": actor}))
            return state.put(replace(unit, commander=None))
        cha = creature_of(state, solo).mod("cha")
        die = ctx.dice.d20(purpose=kind)
        dc = house_value("commander.dc")
        success = die + cha >= dc
        ctx.events.append(Event(f"dnd5e.{kind}", {"unit": unit.key, "solo": actor, "die": die,
                                                  "cha": cha, "dc": dc,
                                                  "success": success}))  # fmt: skip
        if success:
            field_ = "prepared" if kind == "prepare" else "incited"
            state = state.put(replace(unit, **{field_: 2}))
        return state

    return resolve


# --- siege engines (§8) ---------------------------------------------------------------------------


def _crew_stands(state: BattleState, unit: str, engine: Engine) -> list[Stand]:
    turn = _turn(state)
    return [s for s in state.stands_of(unit) if s.on_field and s.key not in turn.acted
            and adjacent(squares(state, s.key), squares(state, engine.key))]  # fmt: skip


def _siege_targets(state: BattleState, engine: Engine) -> Iterator[tuple[Params, tuple]]:
    data = SIEGE_ENGINES[engine.kind]
    mine = squares(state, engine.key)
    if engine.kind == "cauldron":
        reach = house_value("siege.cauldron_reach")
        for y in range(state.grid.height):
            for x in range(state.grid.width):
                if (x, y) not in mine and steps(mine, ((x, y),)) <= reach:
                    yield {"x": x, "y": y}, (CheckPreview("dex_save", 0, (), data.save_dc),)
        return
    for target in targets(state, engine.side):
        distance = steps(mine, squares(state, target))
        if data.reach_ft is not None:
            ok, long = distance == 1, False
        else:
            normal, far = data.range_squares or (0, 0)
            ok, long = data.min_squares <= distance <= far and distance >= 1, distance > normal
        if not ok:
            continue
        profile = attack_profile(state, engine.key, data.to_hit or 0, data.reach_ft is not None,
                                 target, long_range=long)  # fmt: skip
        if data.indirect:  # "can hit targets behind cover"
            terms = tuple(t for t in profile.ac_terms if t[0] != "half_cover")
            profile = replace(profile, ac=sum(v for _, v in terms), ac_terms=terms)
        yield {"target": target}, (_preview(profile),)


def siege_options(state: BattleState, actor: str) -> Iterator[tuple[Params, tuple]]:
    unit = acting_unit(state, actor)
    if not unit or _turn(state).action not in (None, "siege") or state.unit(unit).broken:
        return
    for engine in state.engines:
        if engine.crew != unit or engine.destroyed:
            continue
        data = SIEGE_ENGINES[engine.kind]
        if not data.fire:
            continue
        for stand in _crew_stands(state, unit, engine):
            base = {"engine": engine.key, "stand": stand.key}
            if engine.loaded < data.load:
                yield {**base, "step": "load"}, ()
            elif engine.aimed < data.aim:
                yield {**base, "step": "aim"}, ()
            else:
                for params, checks in _siege_targets(state, engine):
                    yield {**base, "step": "fire", **params}, checks


def resolve_siege(state: BattleState, actor: str, params: Params, ctx: Ctx) -> BattleState:
    engine = state.engine(params["engine"])
    data = SIEGE_ENGINES[engine.kind]
    turn = _turn(state)
    state = _set_turn(state, action="siege", acted=(*turn.acted, params["stand"]))
    step = params["step"]
    if step in ("load", "aim"):
        field_ = "loaded" if step == "load" else "aimed"
        engine = replace(engine, **{field_: getattr(engine, field_) + 1})
        ctx.events.append(Event("dnd5e.siege_step", {"engine": engine.key, "step": step,
                                                     "loaded": engine.loaded,
                                                     "aimed": engine.aimed}))  # fmt: skip
        return state.put(engine)
    state = state.put(replace(engine, loaded=0, aimed=0))
    if engine.kind == "cauldron":
        pos = (int(params["x"]), int(params["y"]))
        total = roll_damage(ctx.dice, data.damage or "0d1", crit=False, double=False,
                            purpose="damage")  # fmt: skip
        hit_keys = [s.key for s in field_stands(state) if pos in squares(state, s.key)]
        hit_keys += [s.key for s in state.solos if s.on_field and pos in squares(state, s.key)]
        for key in hit_keys:
            ok, record = _save(state, key, "dex", data.save_dc or 15, ctx.dice, False)
            amount = total // 2 if ok else total
            if isinstance(state.find(key), Stand):
                amount //= 2  # §8: the 10-ft square covers part of a 20-ft square: half
            ctx.events.append(Event("dnd5e.spell_save", {**record, "damage": amount}))
            if amount:
                state = apply_damage(state, key, amount, False, data.damage_type, ctx)
        return state
    target = str(params["target"])
    options = {p["target"]: c for p, c in _siege_targets(state, state.engine(engine.key))}
    preview = options[target][0]
    advantage = any(t[0].startswith("advantage.") for t in preview.modifier_breakdown)
    disadvantage = any(t[0].startswith("disadvantage.") for t in preview.modifier_breakdown)
    double = any(t[0] == "double_damage" for t in preview.modifier_breakdown)
    auto = any(t[0] == "auto_hit" for t in preview.modifier_breakdown)
    if auto:
        die, dice_, crit, hit = None, (), False, True
    else:
        die, dice_ = roll_d20(ctx.dice, int(advantage) - int(disadvantage), "attack")
        crit = die == 20
        hit = crit or (die != 1 and die + (data.to_hit or 0) >= (preview.dc or 0))
    amount = roll_damage(ctx.dice, data.damage or "1d1", crit=crit, double=double,
                         purpose="damage") if hit else 0  # fmt: skip
    ctx.events.append(Event("dnd5e.siege_fire", {"engine": engine.key, "target": target,
                                                 "die": die, "dice": list(dice_),
                                                 "ac": preview.dc, "hit": hit,
                                                 "damage": amount}))  # fmt: skip
    if hit:
        state = apply_damage(state, target, amount, crit, data.damage_type, ctx)
    return state


# --- the table ------------------------------------------------------------------------------------

Options = Callable[[BattleState, str], Iterator[tuple[Params, tuple]]]
Resolve = Callable[[BattleState, str, Params, Ctx], BattleState]

TURN_ACTIONS: Mapping[str, tuple[Options, Resolve]] = {
    "move": (move_options, resolve_move),
    "attack": (attack_options, resolve_attack),
    "aid": (aid_options, resolve_aid),
    "configure": (configure_options, resolve_configure),
    "dash": (simple_options("dash"), resolve_simple("dash")),
    "retreat": (simple_options("retreat"), resolve_simple("retreat")),
    "hide": (hide_options, resolve_hide),
    "cast": (cast_options, resolve_cast),
    "join": (join_options, resolve_join),
    "leave": (leave_options, resolve_leave),
    "switch": (switch_options, resolve_switch),
    "take_command": (command_options("take_command"), resolve_command("take_command")),
    "step_down": (command_options("step_down"), resolve_command("step_down")),
    "prepare": (command_options("prepare"), resolve_command("prepare")),
    "incite": (command_options("incite"), resolve_command("incite")),
    "siege": (siege_options, resolve_siege),
}
"""Command kind -> (options, resolve), in the order the board lists them."""

OPTIONAL: Mapping[str, tuple[str, ...]] = {
    "attack": ("overflow",),
    "hide": ("stands",),
    "cast": ("also",),
}
"""Params a command may add to a listed option (validated by the engine)."""

COSTS: Mapping[str, int] = {
    "move": 0, "leave": 0, "switch": 0, "take_command": 0, "step_down": 0, "prepare": 0,
    "incite": 0,
}  # fmt: skip
"""Actions a command costs (bonus actions and movement cost none)."""
