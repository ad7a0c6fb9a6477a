"""The rules of dnd5e "When Armies Clash" as small pure functions over a `BattleState`:
isolation (§4.6), speed (§4.3, §5.6), attack modifiers (§5.4, §4.6, §4.7), d20 rolls with
advantage (§2), damage with overflow and casualties (§6.1), solos' dying (§2, §6.2), morale
and rally (§6.2, §6.3), objectives and VP (§7.1), the end of the battle (§7.3) and the
balance hint (§7.2).
"""

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from warfare.engine.dice import Dice
from warfare.engine.frozen import MEMO, replace
from warfare.engine.systems.dnd5e.creatures import Creature, footprint
from warfare.engine.systems.dnd5e.grid import Pos, adjacent, between, squares_of, steps
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES
from warfare.engine.systems.dnd5e.state import (
    _PLACE,
    AID,
    DEFEND,
    FIELD_STANDS,
    SKIRMISHER,
    BattleState,
    Engine,
    Event,
    Objective,
    ObjectiveSquare,
    Solo,
    Stand,
    board_memo,
    pieces_part,
)

# --- pieces on the grid --------------------------------------------------------------------------


def creature_of(state: BattleState, piece: Stand | Solo) -> Creature:
    return state.creatures[piece.creature]


def size_of(state: BattleState, piece: Stand | Solo) -> int:
    return footprint(creature_of(state, piece).size)


def squares(state: BattleState, key: str) -> tuple[Pos, ...]:
    """The squares a stand, an unattached solo, an engine or an objective square covers (a
    joined solo: its stand's). Cached for the same pieces (`board_memo`)."""
    try:  # `board_memo`, inline, when the state's own memo holds it
        return state.__dict__[MEMO][_PLACE][(_SQUARES, key)]
    except KeyError:
        pass
    memo = board_memo(state)
    try:
        return memo[(_SQUARES, key)]
    except KeyError:
        found = memo[(_SQUARES, key)] = _squares(state, key)
        return found


_SQUARES, _OCCUPANCY, _ISOLATED = "dnd5e.squares", "dnd5e.occupancy", "dnd5e.isolated"


def _squares(state: BattleState, key: str) -> tuple[Pos, ...]:
    if key.startswith("sq:"):
        _, x, y = key.split(":")
        return ((int(x), int(y)),)
    item = state.find(key)
    if isinstance(item, Solo) and item.joined:
        return squares(state, item.joined)
    if isinstance(item, Stand | Solo) and item.pos is not None:
        return squares_of(item.pos, size_of(state, item))
    if isinstance(item, Engine):
        return squares_of(item.pos, SIEGE_ENGINES[item.kind].space)
    return ()


def occupancy(state: BattleState) -> Mapping[Pos, str]:
    """Square -> key of the stand, unattached solo or engine on it (read-only; cached for
    the same pieces, `board_memo`)."""
    memo = board_memo(state)
    try:
        return memo[_OCCUPANCY]
    except KeyError:
        found = memo[_OCCUPANCY] = _occupancy(state)
        return found


def layout(state: BattleState) -> int:
    """A number for who stands where in this battle (the squares of its stands, unattached
    solos and standing engines, on its grid):
    the same for every state of the same battle with the same occupancy, whatever the HP,
    the turn or the score, so what depends only on that (where a piece can move) is worked
    out once for all of them, across the battles a forecast plays from one set-up."""
    try:  # `board_memo`, inline, when the state's own memo holds it
        return state.__dict__[MEMO][_PLACE][_LAYOUT]
    except KeyError:
        pass
    memo = board_memo(state)
    try:
        return memo[_LAYOUT]
    except KeyError:
        pass
    signature = (
        id(state.creatures), id(state.grid),
        tuple((s.key, s.pos) for s in state.stands if s.on_field),
        tuple((s.key, s.pos) for s in state.solos if s.on_field),
        tuple(e.key for e in state.engines if not e.destroyed),
    )  # fmt: skip
    hit = _LAYOUTS.get(signature)
    if hit is None:
        if len(_LAYOUTS) >= LAYOUTS_KEPT:
            _LAYOUTS.clear()
        # Held with the number: while it is kept, those ids name these very objects.
        hit = _LAYOUTS[signature] = (next(_LAYOUT_NUMBERS), state.creatures, state.grid)
    memo[_LAYOUT] = hit[0]
    return hit[0]


LAYOUTS_KEPT = 4096
_LAYOUTS: dict[tuple, tuple[int, Any, Any]] = {}
_LAYOUT_NUMBERS = itertools.count()  # never reused: a forgotten layout's number stays dead
_LAYOUT = "dnd5e.layout"


def _occupancy(state: BattleState) -> Mapping[Pos, str]:
    result: dict[Pos, str] = {}
    for stand in state.stands:
        if stand.on_field:
            for p in squares(state, stand.key):
                result[p] = stand.key
    for solo in state.solos:
        if solo.on_field:
            for p in squares(state, solo.key):
                result[p] = solo.key
    for engine in state.engines:
        if not engine.destroyed:
            for p in squares(state, engine.key):
                result[p] = engine.key
    return MappingProxyType(result)


def field_stands(state: BattleState, side: str | None = None) -> tuple[Stand, ...]:
    """The stands on the field (of `side`); kept for these very pieces (`pieces_memo`)."""
    kept = pieces_part(state, FIELD_STANDS)
    try:
        return kept[side]
    except KeyError:
        if side is None:
            found = tuple(s for s in state.stands if s.on_field)
        else:
            sides = {}
            for unit in state.units:
                sides.setdefault(unit.key, unit.side)  # the first of a key, as `state.unit`
            found = tuple(s for s in state.stands if s.on_field and sides[s.unit] == side)
        kept[side] = found
        return found


def enemy_of(state: BattleState, side: str) -> str:
    for other in state.sides:  # the first other side (a loop: no generator to close)
        if other != side:
            return other
    raise StopIteration  # (as `next` of no other side)


def within(a: tuple[Pos, ...], b: tuple[Pos, ...], n: int) -> bool:
    """'Within n squares' (§4.6, §7.1): counting the squares between the two (diagonal
    neighbours are 1 apart, §3), or the steps with house `within.counts_squares_between` 0."""
    if house_value("within.counts_squares_between"):
        return between(a, b) <= n
    return steps(a, b) <= n


def is_isolated(state: BattleState, key: str) -> bool:
    """§4.6: a regiment stand not adjacent to another stand of its unit; a skirmisher stand
    more than 1 square from every other stand of its unit; an unattached solo more than 1
    square from every allied stand. A joined solo is never isolated itself; the last stand
    of a unit is not isolated (house `isolation.lone_stand`)."""
    memo = board_memo(state)
    try:
        return memo[(_ISOLATED, key)]
    except KeyError:
        found = memo[(_ISOLATED, key)] = _is_isolated(state, key)
        return found


def _is_isolated(state: BattleState, key: str) -> bool:
    item = state.find(key)
    if isinstance(item, Stand):
        if not item.on_field:
            return False
        mine = squares(state, key)
        others = [s for s in state.stands_of(item.unit) if s.key != key and s.on_field]
        if not others:
            return bool(house_value("isolation.lone_stand"))
        if state.unit(item.unit).kind == SKIRMISHER:
            return not any(within(mine, squares(state, o.key), 1) for o in others)
        return not any(adjacent(mine, squares(state, o.key)) for o in others)
    if isinstance(item, Solo) and item.on_field:
        mine = squares(state, key)
        allies = field_stands(state, item.side)
        return not any(within(mine, squares(state, a.key), 1) for a in allies)
    return False


# --- speed (§4.1, §4.3, §5.6) --------------------------------------------------------------------


def base_speed(creature: Creature) -> tuple[int, str]:
    """Speed in squares and the mode used: walk, or fly when at least as fast [inferred]."""
    walk = creature.speeds.get("walk", 0)
    fly = creature.speeds.get("fly", 0)
    feet, mode = (fly, "fly") if fly and fly >= walk else (walk, "walk")
    return feet // house_value("speed.feet_per_square"), mode


def speed(state: BattleState, piece: Stand | Solo, dashed: bool) -> int:
    """Squares a piece may move this turn: half (round down) in Aid or Defend (§4.3); Dash
    adds the speed again, and a regiment in Aid/Defend then moves its full speed (§5.6)."""
    squares_, _ = base_speed(creature_of(state, piece))
    if isinstance(piece, Stand):
        unit = state.unit(piece.unit)
        if unit.configuration in (AID, DEFEND):
            if not dashed:
                return squares_ // 2
            return squares_ if house_value("dash.half_speed_to_full") else squares_ // 2 * 2
    return squares_ * 2 if dashed else squares_


# --- attacks (§5.4) ------------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackProfile:
    """Everything an attack roll needs, computed before rolling (also the board's preview)."""

    to_hit: int
    ac: int
    ac_terms: tuple[tuple[str, int], ...]
    advantage: tuple[str, ...]
    disadvantage: tuple[str, ...]
    double_damage: bool
    auto_hit: bool = False

    @property
    def mode(self) -> int:
        """+1 advantage, -1 disadvantage, 0 plain (any of each cancel, §2)."""
        return (1 if self.advantage else 0) - (1 if self.disadvantage else 0)


def _is_hidden(state: BattleState, key: str) -> bool:
    item = state.find(key)
    return bool(getattr(item, "hidden", False))


def elevation_of(state: BattleState, key: str) -> int:
    if not state.grid.squares:
        return 0  # plain ground everywhere (`CLEAR`): the `max` below, without asking
    return max((state.grid.at(p).elevation for p in squares(state, key)), default=0)


def target_ac(state: BattleState, target: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """AC with its terms: Defend +2 (§4.3), forest half cover +2 (§4.7, §2)."""
    item = state.find(target)
    if target.startswith("sq:"):
        square = objective_square(state, target)
        return square.ac, (("objective", square.ac),)
    if isinstance(item, Engine):
        ac = SIEGE_ENGINES[item.kind].ac
        return ac, (("engine", ac),)
    assert isinstance(item, Stand | Solo)
    base = creature_of(state, item).ac
    terms: list[tuple[str, int]] = [("ac", base)]
    if isinstance(item, Stand) and state.unit(item.unit).configuration == DEFEND:
        terms.append(("defend", 2))
    if state.grid.squares and any(  # (no terrain on the grid: no forest)
        state.grid.at(p).terrain == "forest" for p in squares(state, target)
    ):
        terms.append(("half_cover", 2))
    return sum(v for _, v in terms), tuple(terms)


def attack_profile(
    state: BattleState,
    attacker: str,
    to_hit: int,
    melee: bool,
    target: str,
    *,
    long_range: bool = False,
    aided: bool = False,
) -> AttackProfile:
    """The `_attack_profile` of this attack, kept for every state with the same
    `_profile_number` (the policy weighs an attack, then the engine rolls it; HP and the
    turn do not change it)."""
    key = (_profile_number(state), attacker, to_hit, melee, target, long_range, aided)
    try:
        return _PROFILES[key]
    except KeyError:
        pass
    if len(_PROFILES) >= PROFILES_KEPT:
        _PROFILES.clear()
    found = _PROFILES[key] = _attack_profile(state, attacker, to_hit, melee, target,
                                             long_range=long_range, aided=aided)  # fmt: skip
    return found


def _profile_number(state: BattleState) -> int:
    """A number for all an attack profile reads besides its arguments: the `layout`
    (squares, so isolation, cover and elevation), the options, each unit's configuration and
    Incite, who is hidden and which stand each solo has joined. Kept for the board."""
    try:  # `board_memo`, inline, when the state's own memo holds it
        return state.__dict__[MEMO][_PLACE][_PROFILE]
    except KeyError:
        pass
    memo = board_memo(state)
    try:
        return memo[_PROFILE]
    except KeyError:
        pass
    signature = (
        layout(state), state.options,
        tuple((u.configuration, u.incited) for u in state.units),
        tuple(s.hidden for s in state.stands),
        tuple((s.hidden, s.joined) for s in state.solos),
    )  # fmt: skip
    number = _PROFILE_NUMBERS.get(signature)
    if number is None:
        if len(_PROFILE_NUMBERS) >= LAYOUTS_KEPT:
            _PROFILE_NUMBERS.clear()
        number = _PROFILE_NUMBERS[signature] = next(_LAYOUT_NUMBERS)
    memo[_PROFILE] = number
    return number


_PROFILE = "dnd5e.attack_profile"
PROFILES_KEPT = 16384
_PROFILES: dict[tuple, "AttackProfile"] = {}
_PROFILE_NUMBERS: dict[tuple, int] = {}


def _attack_profile(
    state: BattleState,
    attacker: str,
    to_hit: int,
    melee: bool,
    target: str,
    *,
    long_range: bool = False,
    aided: bool = False,
) -> AttackProfile:
    """§5.4 modifiers: isolation (§4.6: attacker isolated → disadvantage; target isolated →
    advantage, double damage), high ground (§4.7: melee vs a lower target → advantage), Aid
    (§4.3), Incite (§4.5), hidden attacker → advantage, hidden target → disadvantage (§2),
    long range → disadvantage (§2); cover and Defend on the AC. Destruction squares are hit
    automatically by melee (and by everything with the seed's option, §10 item 6)."""
    advantage: list[str] = []
    disadvantage: list[str] = []
    ac, terms = target_ac(state, target)
    auto = target.startswith("sq:") and (melee or state.options.seed_autohit)
    if is_isolated(state, attacker):
        disadvantage.append("attacker_isolated")
    double = False
    if is_isolated(state, target):
        advantage.append("target_isolated")
        double = True
    if melee and elevation_of(state, attacker) > elevation_of(state, target):
        advantage.append("high_ground")
    if aided:
        advantage.append("aid")
    unit_key = _unit_of(state, attacker)
    if unit_key is not None and state.unit(unit_key).incited == 1:
        advantage.append("incite")
    if _is_hidden(state, attacker):
        advantage.append("hidden")
    if _is_hidden(state, target):
        disadvantage.append("target_hidden")
    if long_range:
        disadvantage.append("long_range")
    return AttackProfile(to_hit, ac, terms, tuple(advantage), tuple(disadvantage), double, auto)


def _unit_of(state: BattleState, key: str) -> str | None:
    item = state.find(key)
    if isinstance(item, Stand):
        return item.unit
    if isinstance(item, Solo) and item.joined:
        return state.stand(item.joined).unit
    return None


def roll_d20(dice: Dice, mode: int, purpose: str) -> tuple[int, tuple[int, ...]]:
    """A d20 with advantage (mode +1), disadvantage (-1) or plain: (kept die, all dice)."""
    if mode == 0:
        value = dice.d20(purpose=purpose)
        return value, (value,)
    a, b = dice.d20(purpose=purpose), dice.d20(purpose=purpose)
    return (max(a, b) if mode > 0 else min(a, b)), (a, b)


def roll_damage(dice: Dice, expression: str, *, crit: bool, double: bool, purpose: str) -> int:
    """Damage dice (a critical hit rolls the dice twice, §2), doubled against an isolated
    target (§4.6)."""
    roll = dice.roll_expr(expression, purpose=purpose)
    total = roll.total
    if crit:
        total += sum(dice.roll_expr(expression, purpose=purpose + ".crit").results)
    total = max(0, total)
    return total * 2 if double else total


# --- damage (§6.1) ------------------------------------------------------------------------------


def overflow_candidates(state: BattleState, stand: Stand) -> tuple[Stand, ...]:
    """§6.1: adjacent identical stands (same creature) of the same unit, able to take damage."""
    mine = squares(state, stand.key)
    return tuple(
        other for other in state.stands_of(stand.unit)
        if other.key != stand.key and other.on_field and other.creature == stand.creature
        and adjacent(mine, squares(state, other.key))
    )  # fmt: skip


def damage_stand(
    state: BattleState,
    key: str,
    amount: int,
    choices: Sequence[str] = (),
    seen: tuple[str, ...] = (),
    quiet: bool = False,
) -> tuple[BattleState, list[Event]]:
    """Apply `amount` to a stand: HP never below 0; at 0 it is a casualty (§6.1) that counts
    as 1 HP (house `casualty.absorbs`); the excess passes to one adjacent identical stand of
    its unit (the attacker's `choices` in order, else the first by key) and on [inferred].
    `quiet`: no events (nobody reads them: a simulated battle)."""
    stand = state.stand(key)
    events: list[Event] = []
    if stand.casualty:
        absorbed = min(amount, house_value("casualty.absorbs"))
        left = amount - absorbed
        if not quiet:
            events.append(Event("dnd5e.damage", {"target": key, "amount": absorbed, "hp": 0}))
    else:
        hp = max(0, stand.hp - amount)
        left = amount - (stand.hp - hp)
        state = state.put(replace(stand, hp=hp, casualty=hp == 0))
        if not quiet:
            events.append(Event("dnd5e.damage", {"target": key, "amount": amount - left,
                                                 "hp": hp}))  # fmt: skip
            if hp == 0:
                events.append(Event("dnd5e.casualty", {"stand": key}))
    if left > 0 and (not seen or house_value("overflow.chain")):
        seen = (*seen, key)
        candidates = [c for c in overflow_candidates(state, stand) if c.key not in seen]
        if candidates:
            by_key = {c.key: c for c in candidates}
            pick = next((by_key[c] for c in choices if c in by_key), candidates[0])
            if not quiet:
                events.append(Event("dnd5e.overflow", {"from": key, "to": pick.key,
                                                       "amount": left}))  # fmt: skip
            state, more = damage_stand(state, pick.key, left, choices, seen, quiet)
            events.extend(more)
    return state, events


def damage_solo(
    state: BattleState, key: str, amount: int, crit: bool
) -> tuple[BattleState, list[Event]]:
    """Standard 5e damage to a solo (§6.1): a PC drops to 0 and is dying; damage at 0 HP is a
    failed death save (two on a critical hit, §2); a monster at 0 HP dies."""
    solo = state.solo(key)
    events = [Event("dnd5e.damage", {"target": key, "amount": amount,
                                     "hp": max(0, solo.hp - amount)})]  # fmt: skip
    if solo.hp == 0:
        failures = solo.death_failures + (2 if crit else 1)
        solo = replace(solo, death_failures=min(3, failures), stable=False, dead=failures >= 3)
    else:
        hp = max(0, solo.hp - amount)
        solo = replace(solo, hp=hp, dead=hp == 0 and not solo.pc)
        if hp == 0:
            events.append(Event("dnd5e.solo_down", {"solo": key, "dying": solo.pc}))
    if solo.dead:
        events.append(Event("dnd5e.solo_dead", {"solo": key}))
    return state.put(solo), events


def death_saves(solo: Solo, dice: Dice, count: int) -> tuple[Solo, list[dict[str, Any]]]:
    """§2/§6.2: up to `count` death saves one after another: 10+ success, natural 20 regains
    1 HP, natural 1 two failures; 3 successes stable, 3 failures dead."""
    rolls: list[dict[str, Any]] = []
    for _ in range(count):
        if not solo.dying:
            break
        die = dice.d20(purpose="death_save")
        rolls.append({"die": die})
        if die == 20:
            solo = replace(solo, hp=1, death_successes=0, death_failures=0)
        elif die >= 10:
            s = solo.death_successes + 1
            solo = replace(solo, death_successes=s, stable=s >= 3)
        else:
            f = solo.death_failures + (2 if die == 1 else 1)
            solo = replace(solo, death_failures=min(3, f), dead=f >= 3)
    return solo, rolls


# --- morale and rally (§6.2, §6.3) --------------------------------------------------------------


def morale_modifier(state: BattleState, unit: str) -> tuple[int, str]:
    """The highest Wisdom save (or modifier with the seed's Wisdom check, §10 item 2) among
    the unit's surviving stands and the solos joined to them: (value, whose)."""
    best: tuple[int, str] | None = None
    check = state.options.seed_morale_check
    for stand in state.stands_of(unit):
        pieces: list[Stand | Solo] = [stand, *state.joined_to(stand.key)]
        for piece in pieces:
            c = creature_of(state, piece)
            value = c.mod("wis") if check else c.save("wis")
            if best is None or value > best[0]:
                best = (value, piece.key)
    return best or (0, "")


def lost_more_than_half(state: BattleState, unit: str) -> bool:
    """§6.2: the unit has lost more than half of the stands it started with."""
    u = state.unit(unit)
    lost = u.start_stands - len(state.stands_of(unit))
    return lost * 2 > u.start_stands


def wisdom_save(
    state: BattleState, unit: str, dice: Dice, purpose: str, extra: tuple[tuple[str, int], ...] = ()
) -> dict[str, Any]:
    """A DC 10 Wisdom save of a unit (highest Wis, §6.2), with advantage while Prepared
    (§4.5; not for the seed's check); `extra` terms (rally: commander's Cha, §6.3)."""
    wis, whose = morale_modifier(state, unit)
    terms = (("wis", wis), *extra)
    prepared = state.unit(unit).prepared > 0 and not state.options.seed_morale_check
    die, dice_ = roll_d20(dice, 1 if prepared else 0, purpose)
    total = die + sum(v for _, v in terms)
    dc = house_value("morale.dc")
    return {"unit": unit, "die": die, "dice": list(dice_), "terms": [list(t) for t in terms],
            "whose": whose, "total": total, "dc": dc, "success": total >= dc}  # fmt: skip


# --- objectives and VP (§7) ---------------------------------------------------------------------


def objective_square(state: BattleState, key: str) -> ObjectiveSquare:
    _, x, y = key.split(":")
    for objective in state.objectives:
        for square in objective.squares:
            if square.pos == (int(x), int(y)):
                return square
    raise KeyError(key)


def destruction_of(state: BattleState, key: str) -> Objective:
    _, x, y = key.split(":")
    pos = (int(x), int(y))
    for o in state.objectives:  # the first (loops: no generator to close)
        if o.type == "destruction":
            for square in o.squares:
                if square.pos == pos:
                    return o
    raise StopIteration  # (as `next` of none)


def unit_eliminated(state: BattleState, unit: str) -> bool:
    return not state.stands_of(unit)


def protection_holds(state: BattleState, objective: Objective) -> bool:
    """§7.1 Protection: the defender has `protection_stands` (2; the seed 1) stands adjacent
    to a square of the paired Destruction objective that still has HP, and no enemy stand or
    solo is within 2 squares of it. It reads who stands where, the option and the squares
    with HP left: kept for the board (`board_memo`)."""
    memo = board_memo(state)
    key = (_PROTECTION, objective.key, objective.side, objective.paired)
    try:
        return memo[key]
    except KeyError:
        found = memo[key] = _protection_holds(state, objective)
        return found


_PROTECTION = "dnd5e.protection"


def _protection_holds(state: BattleState, objective: Objective) -> bool:
    paired = next((o for o in state.objectives if o.key == objective.paired), None)
    if paired is None:
        return False
    enemy = enemy_of(state, objective.side)
    clearance = house_value("protection.enemy_clearance")
    enemies = [s.key for s in field_stands(state, enemy)]
    enemies += [s.key for s in state.solos if s.side == enemy and s.on_field]
    for square in paired.squares:
        if square.hp <= 0:
            continue
        here = (square.pos,)
        near = sum(1 for s in field_stands(state, objective.side)
                   if adjacent(here, squares(state, s.key)))  # fmt: skip
        if near < state.options.protection_stands:
            continue
        if not any(within(here, squares(state, e), clearance) for e in enemies):
            return True
    return False


def score_objectives(state: BattleState) -> tuple[BattleState, list[Event]]:
    """§6.2 step 3 / §7.1: score every objective at the end of the round."""
    events: list[Event] = []
    vp = dict(state.vp)
    for original in state.objectives:
        objective, gained = original, 0
        if objective.type == "attrition":
            enemy = enemy_of(state, objective.side)
            new = [u.key for u in state.units
                   if u.side == enemy and unit_eliminated(state, u.key)
                   and u.key not in objective.counted]  # fmt: skip
            gained = objective.vp * len(new)
            if new:  # (none new: the same objective)
                objective = replace(objective, counted=(*objective.counted, *new))
        elif objective.type == "destruction":
            if state.options.seed_all_or_nothing:
                if all(s.hp <= 0 for s in objective.squares) and not objective.scored:
                    gained = objective.vp
            else:
                fresh = [s for s in objective.squares if s.hp <= 0 and not s.scored]
                gained = sum(s.vp for s in fresh)
                if fresh:  # (none: each square at 0 HP scored already, the same objective)
                    objective = replace(
                        objective,
                        squares=tuple(
                            replace(s, scored=True) if s.hp <= 0 else s for s in objective.squares
                        ),
                    )
        elif objective.type == "protection":
            gained = objective.vp if protection_holds(state, objective) else 0
        elif objective.type == "custom" and objective.achieved and not objective.scored:
            gained = objective.vp
        if gained:
            vp[objective.side] = vp.get(objective.side, 0) + gained
            objective = replace(objective, scored=objective.scored + gained)
            events.append(Event("dnd5e.vp", {"objective": objective.key,
                                             "side": objective.side, "vp": gained,
                                             "total": vp[objective.side]}))  # fmt: skip
        if objective is not original and objective != original:  # an unchanged objective
            # keeps the board (`board_memo`)
            state = state.put(objective)
    return replace(state, vp=vp), events


def end_band(vp: Mapping[str, int], sides: Sequence[str]) -> tuple[str, str | None] | None:
    """§7.3: None while nobody has 10 VP; else (result, winner): "total" (3+ ahead),
    "tactical" (1-2 ahead) or "draw"."""
    a, b = (vp.get(s, 0) for s in sides)
    if max(a, b) < house_value("victory.vp"):
        return None
    diff = abs(a - b)
    if diff == 0:
        return "draw", None
    winner = sides[0] if a > b else sides[1]
    return ("total" if diff >= house_value("victory.total_margin") else "tactical"), winner


def balance_hint(objectives: Sequence[Mapping[str, Any]], sides: Sequence[str]) -> dict[str, Any]:
    """§7.2: per side, its chances to score and the VP available, with hint codes where a
    side has fewer than 5 chances, less than 12 VP, or the two sides differ."""
    per: dict[str, dict[str, int]] = {s: {"chances": 0, "vp": 0} for s in sides}
    for o in objectives:
        side = o.get("side")
        if side not in per:
            continue
        if o.get("type") == "destruction":
            squares_ = o.get("squares") or ()
            per[side]["chances"] += len(squares_)
            per[side]["vp"] += sum(int(s.get("vp", 1)) for s in squares_)
        else:
            per[side]["chances"] += 1
            per[side]["vp"] += int(o.get("vp", 1))
    hints: list[dict[str, Any]] = []
    for side, numbers in per.items():
        if numbers["chances"] < house_value("balance.min_chances"):
            hints.append({"code": "balance.few_chances", "side": side, **numbers})
        if numbers["vp"] < house_value("balance.min_vp"):
            hints.append({"code": "balance.low_vp", "side": side, **numbers})
    values = [per[s]["vp"] for s in sides]
    if len(set(values)) > 1:
        hints.append({"code": "balance.uneven", "vp": dict(zip(sides, values, strict=True))})
    return {"sides": per, "hints": hints}
