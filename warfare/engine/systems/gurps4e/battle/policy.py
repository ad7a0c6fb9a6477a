"""The GURPS Mass Combat 4e auto-play policy (`suggest`): what a GM would choose for an NPC
commander or PC, from the exact odds of the Strategy contest (§A.6.4).

**Strategy** (choose_strategy): for every strategy the side may choose (§A.6.3, Desperate
variants included when the casualty gap allows them) and every strategy the enemy may choose
that fights (Attack, Defense, Raid and Skirmish groups; the enemy's pending choice is secret
and never read), the expected value of the round is worked out exactly: both effective
skills as the engine adds them up (BSM, casualties, DB, PB, superiority, repeats…), the
distribution of the margin of the Quick Contest of two 3d6 rolls, the margin adjustments,
the Combat Results Table and the casualty steps, and the Position Bonus after the round
(`rounds`). Value = enemy casualties − own casualties + `PB_WEIGHT` × PB gained. The
strategy with the best average over the enemy's options is chosen (ties: the table order).
A confused force Rallies (§A.6.3); a force far behind (own casualties at least
`RETREAT_AT` %, and the enemy with `RETREAT_RATIO` times its TS left) takes Full Retreat and
leaves the field.
Parley is never chosen. The commander's Risk is 0 (an NPC officer does not gamble), or, when
a PC is the force commander, the Risk whose +skill best outweighs the PC's Misfortunes.

**PCs** (not commanding the force): a significant action (§A.6.2) at the Risk with the best
expected effect on the contest (critical +2, success +1, critical failure −1) minus
`HARM_WEIGHT` × the expected HP lost to Misfortunes of War at that Risk (§A.6.5, at the
chance of a 20 % casualty round); when no Risk makes it worth it, a plain Risk choice at the
Risk with the least harm.

**Others**: the battle kind after the reconnaissance (§A.4.4) is pitched, or avoiding the
battle when allowed and the enemy has three times its TS; a one-sided Parley is accepted by
the side that is behind (more casualties); after the reveal, the one-time change of a slow
strategy (§A.6.3) is made when another strategy does better against the enemy's now known
one; a victor that may choose pursues (§A.7.1).

The strategy choice depends only on what both sides can see; it is cached on those numbers,
so the thousands of identical decisions of a forecast are worked out once.
"""

from collections.abc import Mapping
from functools import lru_cache
from itertools import count, product
from typing import Any

from warfare.engine.battle.protocol import Command
from warfare.engine.frozen import state_memo
from warfare.engine.odds import THREE_D6, success_odds
from warfare.engine.systems.gurps4e import prebattle as pre
from warfare.engine.systems.gurps4e import rounds as rules
from warfare.engine.systems.gurps4e.battle.engine import (
    RISKS,
    _heroism_terms,
    _pc_shared,
    _refused,
    _side_index,
    _significant_total,
    _skill_terms,
    _strategy_problems,
    awaiting,
)
from warfare.engine.systems.gurps4e.battle.state import (
    BATTLE_KIND,
    CHANGE,
    CHOOSING,
    PARLEY,
    PURSUIT,
    BattleState,
    SideChoice,
)
from warfare.engine.systems.gurps4e.strategies import (
    ATTACK,
    DEFENSE,
    FULL_RETREAT,
    RAID_SKIRMISH,
    RALLY,
    STRATEGIES,
)
from warfare.engine.systems.gurps4e.strategies import (
    PARLEY as PARLEY_S,
)
from warfare.engine.systems.gurps4e.tables import casualty_penalty

PB_WEIGHT = 2.0
"""Casualty points one Position Bonus point is worth (it adds to the next rolls)."""
RETREAT_AT, RETREAT_RATIO = 50, 1.5
"""Full Retreat once own casualties reach this and the enemy has more than this many times
the TS left (TS × the share its casualties leave it)."""
HARM_WEIGHT = 0.1
"""Strategy-roll points one expected HP lost by a PC is worth."""
MISFORTUNE_CHANCE = 7
"""The Misfortunes chance a PC's Risk is weighed at (a 20-25 % casualty round, §A.6.5)."""
AVOID_RATIO = 3
FIGHTING = (ATTACK, DEFENSE, RAID_SKIRMISH)

# (enemy roll - own roll, chance) of two 3d6: the contest margin is D + this, where D is
# own effective skill - the enemy's.
_DIFFERENCES: tuple[tuple[int, float], ...] = tuple(
    sorted(
        {
            d: sum(THREE_D6[a] * THREE_D6[b] for a, b in product(THREE_D6, THREE_D6) if b - a == d)
            for d in range(-15, 16)
        }.items()
    )
)
_cache: dict[Any, Any] = {}
CACHE_SIZE = 100_000


_SCALARS = frozenset((str, int, float, bool, type(None)))


def _frozen(value: Any) -> Any:
    """A hashable, order-independent copy of plain data (a cache key's part). The plain
    types are told by `type` first: `isinstance` against `Mapping` (an ABC) was most of the
    cost of the thousands of keys a forecast builds."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict or isinstance(value, Mapping):
        if not value:
            return ()
        return tuple(sorted((str(k), _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


@lru_cache(maxsize=65536)
def _casualties(
    effective: tuple[str, str],
    winner: int | None,
    margin: int,
    desperate: tuple[bool, bool],
    overrides: Any,
) -> tuple[int, int, int]:
    """(casualties of side 0, of side 1, the CRT's PB change) of a fought round."""
    result = rules.round_casualties(effective, winner, margin, desperate, (True, True),
                                    dict(overrides))  # fmt: skip
    cas = result["casualties"]
    return cas[0], cas[1], result["crt"]["pb"]


def _round_value(
    me: int,
    strategies: tuple[str, str],
    desperate: tuple[bool, bool],
    uses: tuple[int, int],
    pb: tuple[int, int],
    difference: int,
    overrides: Any,
) -> float:
    """Expected value of a round for side `me` (see the module docstring), `difference` =
    its effective skill minus the enemy's; `strategies` in side order as fought; `uses`
    whether each side used Indirect Attack before (0 or 1: all the margin adjustment reads).
    `_Skills.mean` keeps these values by what they read (`_Values`)."""
    first, second, fought = rules.pair(*strategies)
    if not fought:
        return 0.0
    return _value(me, _outcomes((first, second), desperate, uses, pb, overrides), difference)


def _value(me: int, known: "_Outcomes", difference: int) -> float:
    """The sum of `_round_value`: the chance of each difference of the two 3d6 rolls times
    the round's outcome for side `me`, in the order of `_DIFFERENCES`, from 0.0 (the same
    sum, to the last bit, however the outcomes are looked up).

    The terms are the `_outcome`s of side 0 by the margin difference (side 0's margin − side
    1's), shared by both sides: what side 1 gets at difference d is exactly the opposite of
    what side 0 gets at −d (the same contest, seen from the other side)."""
    low = difference - _SPREAD + _REACH
    if low >= 0 and low + _TERMS <= len(known.side0):
        terms = (known.side0 if me == 0 else known.side1)[low : low + _TERMS]
        if None in terms:
            known.fill(me, difference)
            terms = (known.side0 if me == 0 else known.side1)[low : low + _TERMS]
        value = 0.0
        for chance, outcome in zip(_CHANCES, terms, strict=True):
            value += chance * outcome
        return value
    value = 0.0  # a skill difference beyond the lists: one outcome at a time
    for offset, chance in _DIFFERENCES:
        diff = difference + offset if me == 0 else -(difference + offset)
        outcome = known.outcome(diff)
        value += chance * (outcome if me == 0 else -outcome)
    return value


_SPREAD = 15
"""The largest difference of two 3d6 rolls."""
_CHANCES = tuple(chance for _, chance in _DIFFERENCES)
_TERMS = len(_CHANCES)
_REACH = 64
"""The margin differences `_Outcomes` keeps in its lists: −_REACH to +_REACH."""


class _Outcomes:
    """The `_outcome`s of one fought pairing (its effective strategies, Desperate flags,
    Indirect Attack uses, PB and house rules) by margin difference, worked out as they are
    needed: `side0[_REACH + d]` is side 0's at difference d, `side1[_REACH + d]` side 1's
    (−side 0's at −d); None where not worked out yet."""

    __slots__ = ("args", "side0", "side1")

    def __init__(self, args: tuple[Any, ...]) -> None:
        self.args = args
        self.side0: list[float | None] = [None] * (2 * _REACH + 1)
        self.side1: list[float | None] = [None] * (2 * _REACH + 1)

    def outcome(self, diff: int) -> float:
        """Side 0's outcome at margin difference `diff`."""
        if -_REACH <= diff <= _REACH:
            known = self.side0[_REACH + diff]
            if known is not None:
                return known
        effective, desperate, uses, pb, overrides = self.args
        outcome = _outcome(effective, desperate, uses, pb, diff, overrides)
        if -_REACH <= diff <= _REACH:
            self.side0[_REACH + diff] = outcome
            self.side1[_REACH - diff] = -outcome
        return outcome

    def fill(self, me: int, difference: int) -> None:
        """Work out the outcomes side `me`'s sum at skill difference `difference` needs."""
        side0, side1 = self.side0, self.side1
        side = side0 if me == 0 else side1
        effective, desperate, uses, pb, overrides = self.args
        low = difference - _SPREAD + _REACH
        for index in range(low, low + _TERMS):
            if side[index] is None:
                diff = index - _REACH if me == 0 else _REACH - index
                outcome = _outcome(effective, desperate, uses, pb, diff, overrides)
                side0[_REACH + diff] = outcome
                side1[_REACH - diff] = -outcome


_PAIRINGS: dict[tuple[Any, ...], _Outcomes] = {}


def _outcomes(
    effective: tuple[str, str],
    desperate: tuple[bool, bool],
    uses: tuple[int, int],
    pb: tuple[int, int],
    overrides: Any,
) -> _Outcomes:
    """The `_Outcomes` of one fought pairing (kept across decisions)."""
    key = (effective, desperate, uses, pb, overrides)
    try:
        return _PAIRINGS[key]
    except KeyError:
        pass
    if len(_PAIRINGS) >= CACHE_SIZE:
        _PAIRINGS.clear()
    known = _PAIRINGS[key] = _Outcomes(key)
    return known


_CONTESTS: dict[tuple[Any, ...], tuple[int | None, int, int]] = {}
_GAINS: dict[tuple[Any, ...], int] = {}


def _outcome(
    effective: tuple[str, str],
    desperate: tuple[bool, bool],
    uses: tuple[int, int],
    pb: tuple[int, int],
    diff: int,
    overrides: Any,
) -> float:
    """The value for side 0 of a fought round whose margins differ by `diff` (side 0's margin
    − side 1's): one term of `_round_value`, shared by every skill difference whose contest
    can end this way (and, negated, by side 1's). Its two parts are kept on what each reads:
    the casualties (not the PB) and the PB gained (not the margin)."""
    key = (effective, desperate, uses, diff, overrides)
    try:
        winner, casualties, crt_pb = _CONTESTS[key]
    except KeyError:
        winner = None if diff == 0 else (0 if diff > 0 else 1)
        margin = abs(diff)
        if winner is not None:
            margin, _ = rules.adjusted_margin(margin, effective[winner], uses[winner])
        cas0, cas1, crt_pb = _casualties(effective, winner, margin, desperate, overrides)
        casualties = cas1 - cas0
        if len(_CONTESTS) >= CACHE_SIZE:
            _CONTESTS.clear()
        _CONTESTS[key] = (winner, casualties, crt_pb)
    pb_key = (pb, effective, winner, crt_pb)
    try:
        gained = _GAINS[pb_key]
    except KeyError:
        pb_after, _ = rules.position_bonus(pb, effective, winner, crt_pb)
        gained = (pb_after[0] - pb_after[1]) - (pb[0] - pb[1])
        if len(_GAINS) >= CACHE_SIZE:
            _GAINS.clear()
        _GAINS[pb_key] = gained
    return casualties + PB_WEIGHT * gained


class _Values(dict):
    """The `_round_value`s of side `me` for one pairing (`strategies` and `desperate` in side
    order, with the decision's `uses`, `pb` and house rules), by skill difference, as they
    are worked out (`work`)."""

    __slots__ = ("args",)

    def work(self, difference: int) -> float:
        me, strategies, desperate, uses, pb, overrides = self.args
        value = self[difference] = _round_value(
            me, strategies, desperate, uses, pb, difference, overrides
        )
        return value


_Tables = tuple[dict[tuple[Any, ...], _Values], dict[tuple[Any, ...], list[_Values]]]
_TABLES: dict[tuple[Any, ...], _Tables] = {}


def _tables(uses: tuple[int, int], pb: tuple[int, int], overrides: Any) -> _Tables:
    """The `_Values` of every pairing seen with these Indirect Attack uses, PB and house
    rules, by (me, own strategy, own Desperate, enemy strategy, enemy Desperate), and the
    rows of them `_Skills.mean` reads, by (me, own option, the enemy's options…)."""
    key = (uses, pb, overrides)
    try:
        return _TABLES[key]
    except KeyError:
        pass
    if len(_TABLES) >= CACHE_SIZE // 100:
        _TABLES.clear()
    found: _Tables = ({}, {})
    _TABLES[key] = found
    return found


def _options(state: BattleState, index: int, *, after_reveal: bool = False):
    """(strategy, desperate) the side may choose now (`engine._strategy_problems`; kept on
    what those checks read, so the thousands of equal checks of a forecast are made once:
    of the round only whether it is the first, of the casualties only whether they allow
    Desperate strategies, `rounds.strategy_problems`)."""
    side, enemy = state.sides[index], state.sides[1 - index]
    overrides = _frozen(state.overrides)
    key = (
        state.round == 1, state.kind, side.force.mobile, side.confused, side.started_confused,
        side.ambusher, side.db, state.siege, overrides,
        rules.desperate_allowed(side.casualties, enemy.casualties, state.overrides),
    )  # fmt: skip
    try:
        return list(_OPTIONS[key])
    except KeyError:
        pass
    found = []
    for strategy in STRATEGIES:
        if strategy == PARLEY_S:
            continue
        for desperate in (False, True):
            if not _strategy_problems(state, index, strategy, desperate):
                found.append((strategy, desperate))
    if len(_OPTIONS) >= CACHE_SIZE:
        _OPTIONS.clear()
    _OPTIONS[key] = tuple(found)
    return found


_OPTIONS: dict[tuple[Any, ...], tuple[tuple[str, bool], ...]] = {}
_SKILLS: dict[tuple[Any, ...], int] = {}


def _skill_inputs(state: BattleState, index: int) -> tuple[Any, ...]:
    """What `engine._skill_terms` reads of the state for side `index` (but the strategies
    and the choice): of the casualties only the penalty they give."""
    side = state.sides[index]
    officer = side.officer
    return (
        officer.tactics if officer else None, officer.strategy if officer else None,
        side.force.elements <= 4, side.bsm, casualty_penalty(side.casualties),
        _frozen(side.superiority),
        side.db, side.ambusher and state.round == 1, _significant_total(state, index),
        side.confused, side.previous, side.pb, side.circumstance,
    )  # fmt: skip


@lru_cache(maxsize=1024)
def side_choice(strategy: str, desperate: bool = False, risk: int = 0) -> SideChoice:
    """`SideChoice(strategy, desperate, risk)`, one object per choice (they are immutable:
    the thousands of equal choices of a forecast need not be built one by one)."""
    return SideChoice(strategy, desperate, risk)


class _Skills:
    """The effective skills of one decision, each worked out once: a side's skill with a
    strategy depends on the enemy's only through Deliberate Attack halving its DB. The sums
    are also kept across decisions on what they read (`_skill_inputs`)."""

    def __init__(self, state: BattleState) -> None:
        self.state = state
        self.known: dict[tuple[int, str, bool, int, bool], int] = {}
        self.overrides = _frozen(state.overrides)
        self.inputs: dict[int, tuple[Any, ...]] = {}
        sides = state.sides
        self.uses = (min(sides[0].indirect_uses, 1), min(sides[1].indirect_uses, 1))
        self.pb = (sides[0].pb, sides[1].pb)
        self.tables, self.rows = _tables(self.uses, self.pb, self.overrides)
        self.enemy_skills: dict[tuple[Any, ...], list[int]] = {}

    def skill(self, index: int, strategy: str, enemy: str, desperate: bool, risk: int = 0):
        halved = enemy == "deliberate_attack"
        key = (index, strategy, desperate, risk, halved)
        if key not in self.known:
            if index not in self.inputs:
                self.inputs[index] = _skill_inputs(self.state, index)
            kept = (self.inputs[index], strategy, desperate, risk, halved, self.overrides)
            if kept not in _SKILLS:
                choice = side_choice(strategy, desperate, risk)
                terms = _skill_terms(self.state, index, strategy, enemy, choice)
                if len(_SKILLS) >= CACHE_SIZE:
                    _SKILLS.clear()
                _SKILLS[kept] = sum(v for _, v in terms)
            self.known[key] = _SKILLS[kept]
        return self.known[key]

    def value(self, index: int, mine: tuple[str, bool], theirs: tuple[str, bool], risk: int):
        strategies = (mine[0], theirs[0]) if index == 0 else (theirs[0], mine[0])
        desperate = (mine[1], theirs[1]) if index == 0 else (theirs[1], mine[1])
        difference = self.skill(index, mine[0], theirs[0], mine[1], risk) - self.skill(
            1 - index, theirs[0], mine[0], theirs[1]
        )
        return _round_value(
            index, strategies, desperate, self.uses, self.pb, difference, self.overrides
        )

    def table(self, index: int, mine: tuple[str, bool], theirs: tuple[str, bool]) -> _Values:
        """The `_Values` of side `index` choosing `mine` against `theirs`."""
        key = (index, *mine, *theirs)
        try:
            return self.tables[key]
        except KeyError:
            pass
        if index == 0:
            pair, both = (mine[0], theirs[0]), (mine[1], theirs[1])
        else:
            pair, both = (theirs[0], mine[0]), (theirs[1], mine[1])
        table = self.tables[key] = _Values()
        table.args = (index, pair, both, self.uses, self.pb, self.overrides)
        return table

    def row(self, index: int, mine: tuple[str, bool], theirs: list[tuple[str, bool]]):
        """The `table`s of `mine` against each of `theirs`, in their order."""
        key = (index, mine, *theirs)
        try:
            return self.rows[key]
        except KeyError:
            pass
        found = self.rows[key] = [self.table(index, mine, option) for option in theirs]
        return found

    def _enemy(self, index: int, theirs: list[tuple[str, bool]], halved: bool) -> list[int]:
        """The enemy's effective skill with each of `theirs` against a strategy that halves
        its DB (Deliberate Attack) or not."""
        key = (index, halved, *theirs)
        try:
            return self.enemy_skills[key]
        except KeyError:
            pass
        against = "deliberate_attack" if halved else ""
        found = self.enemy_skills[key] = [
            self.skill(index, other, against, other_desperate) for other, other_desperate in theirs
        ]
        return found

    def mean(self, index: int, mine: tuple[str, bool], theirs: list[tuple[str, bool]], risk: int):
        """The average `value` of `mine` over the enemy's options `theirs` (the same sum in
        the same order, its lookups made once per option rather than once per pair)."""
        strategy, desperate = mine
        enemy_skills = self._enemy(1 - index, theirs, strategy == "deliberate_attack")
        plain = self.skill(index, strategy, "", desperate, risk)
        halved = None
        values = []
        tables = self.row(index, mine, theirs)
        for option, enemy_skill, table in zip(theirs, enemy_skills, tables, strict=True):
            if option[0] == "deliberate_attack":
                if halved is None:
                    halved = self.skill(index, strategy, "deliberate_attack", desperate, risk)
                own = halved
            else:
                own = plain
            difference = own - enemy_skill
            value = table.get(difference)
            if value is None:
                value = table.work(difference)
            values.append(value)
        return sum(values) / len(theirs)


def _public_key(state: BattleState, index: int, kind: str) -> tuple[Any, ...]:
    """Everything the strategy choice of side `index` depends on."""
    pcs = tuple(sorted((k, state.pc(k).side, c.effect) for k, c in state.pc_choices.items()))
    commander = next((pc for pc in state.pcs if pc.side == index and pc.commander), None)
    revealed = state.choices[1 - index] if kind == CHANGE else None
    return (
        kind, index, state.round == 1, state.kind, state.siege, _frozen(state.overrides),
        _side_key(state.sides[0]), _side_key(state.sides[1]), pcs, commander, revealed,
        state.parley,
    )  # fmt: skip


_SIDE_KEY = "gurps4e.policy_side_key"


def _side_key(side: Any) -> tuple[Any, ...]:
    """What `_public_key` reads of one side, kept in the side object (`state_memo`): a round
    changes the sides once, but both commanders and the change after the reveal read them."""
    memo = state_memo(side)
    try:
        return memo[_SIDE_KEY]
    except KeyError:
        pass
    officer = side.officer
    key = memo[_SIDE_KEY] = (
        side.ts.numerator, side.ts.denominator, side.bsm, _frozen(side.superiority),
        side.db, side.pb, side.casualties, side.confused, side.started_confused,
        side.ambusher, side.left, (officer.strategy, officer.tactics) if officer else None,
        _force_token(side.force), side.indirect_uses, side.previous, side.circumstance,
    )  # fmt: skip
    return key


def _memo(key: tuple[Any, ...], work):
    try:
        return _cache[key]
    except KeyError:
        pass
    value = work()
    if len(_cache) >= CACHE_SIZE:
        _cache.clear()
    _cache[key] = value
    return value


_FORCES: dict[Any, int] = {}
_NUMBERS = count()
_FORCE_NUMBER = "gurps4e.force_number"


def _force_token(force: Any) -> int:
    """A number standing for this force in a cache key (equal forces, one number; hashing
    a whole force, its rows and fractions, for every decision was most of a key's cost).
    Numbers are never reused, so a cleared table only costs cache misses."""
    memo = state_memo(force)
    try:
        return memo[_FORCE_NUMBER]
    except KeyError:
        pass
    token = _FORCES.get(force)
    if token is None:
        if len(_FORCES) >= CACHE_SIZE:
            _FORCES.clear()
        token = _FORCES[force] = next(_NUMBERS)
    memo[_FORCE_NUMBER] = token
    return token


def _enemy_options(state: BattleState, index: int) -> list[tuple[str, bool]]:
    """The enemy's strategies that fight (not Desperate: the gap it needs is public, but a
    commander weighs the plain strategies)."""
    enemy = 1 - index
    options = [o for o in _options(state, enemy) if STRATEGIES[o[0]].group in FIGHTING and not o[1]]
    return options or [("attack", False)]


def _best_strategy(state: BattleState, index: int) -> tuple[str, bool, int]:
    """(strategy, desperate, risk) for side `index` (see the module docstring)."""
    side, enemy = state.sides[index], state.sides[1 - index]
    own = _options(state, index)
    keys = {key for key, _ in own}
    if side.confused and RALLY in keys:
        return (RALLY, False, 0)
    behind = side.casualties >= RETREAT_AT and _left(side) * RETREAT_RATIO < _left(enemy)
    if (behind or side.confused) and FULL_RETREAT in keys:
        return (FULL_RETREAT, False, 0)
    fighting = [o for o in own if STRATEGIES[o[0]].group in FIGHTING] or own
    theirs = _enemy_options(state, index)
    skills = _Skills(state)
    best, best_value = fighting[0], None
    for option in fighting:
        value = skills.mean(index, option, theirs, 0)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = option, value
    return (best[0], best[1], _commander_risk(skills, index, best, theirs))


def _left(side: Any) -> float:
    """The TS a force has left after its casualties."""
    return float(side.ts) * (100 - side.casualties) / 100


def _commander_risk(skills: _Skills, index: int, option, theirs) -> int:
    """0, or for a PC force commander the Risk with the best value net of its harm."""
    state = skills.state
    pc = next((p for p in state.pcs if p.side == index and p.commander and p.status == "active"),
              None)  # fmt: skip
    if pc is None:
        return 0

    def net(risk: int) -> float:
        value = skills.mean(index, option, theirs, risk)
        return value - HARM_WEIGHT * PB_WEIGHT * _harm(state, pc, risk)

    return max(RISKS, key=lambda r: (net(r), -abs(r)))


def _harm(state: BattleState, pc: Any, risk: int) -> float:
    """Expected HP a PC loses to Misfortunes of War at `risk` (§A.6.5)."""
    terms = rules.misfortune_terms(MISFORTUNE_CHANCE, desperate=False,
                                   **_pc_shared(state, pc, risk))  # fmt: skip
    odds = success_odds(sum(v for _, v in terms))
    return odds[2] * 6 + odds[3] * 21  # 2d6-1 and 6d6 on average


_PC_CHOICE = "gurps4e.policy_pc_choice"


def _pc_command(state: BattleState, actor: str) -> Command:
    """The PC's choice (`_pc_choice`): it reads the PC and its force only, so it is kept in
    the PC object (`state_memo`) per force (`_force_token`), and across PCs on the numbers
    it reads."""
    pc = state.pc(actor)
    force = state.sides[pc.side].force
    memo = state_memo(pc)
    mine = (_PC_CHOICE, _force_token(force))
    try:
        kind, risk = memo[mine]
    except KeyError:
        shared = _pc_shared(state, pc, 0)
        key = ("pc", pc.skill_15, pc.commands_element, *sorted(shared.items()))
        kind, risk = memo[mine] = _memo(key, lambda: _pc_choice(state, pc))
    return Command(actor, kind, {"risk": risk})


def _pc_choice(state: BattleState, pc: Any) -> tuple[str, int]:
    """(command kind, Risk) of a PC (see the module docstring)."""

    def significant(risk: int) -> float:
        odds = success_odds(sum(v for _, v in _heroism_terms(state, pc, risk)))
        effect = 2 * odds[3] + odds[2] - odds[0]
        return effect - HARM_WEIGHT * _harm(state, pc, risk)

    best = max(RISKS, key=lambda r: (significant(r), -r))
    if significant(best) > 0:
        return ("significant_action", best)
    return ("choose_risk", min(RISKS, key=lambda r: (_harm(state, pc, r), r)))


def _change(state: BattleState, index: int) -> tuple[str, bool] | None:
    """The strategy to change to after the reveal (None: keep the chosen one)."""
    current = state.choices[index]
    enemy = state.choices[1 - index]
    refused = _refused(state)
    theirs = ("defense" if refused == 1 - index else (enemy.strategy if enemy else "attack"),
              enemy.desperate if enemy else False)  # fmt: skip
    own = [o for o in _options(state, index) if STRATEGIES[o[0]].group in FIGHTING]
    now = (current.strategy, current.desperate) if current else ("attack", False)
    skills = _Skills(state)
    best = max(own, key=lambda o: skills.value(index, o, theirs, 0), default=now)
    if best != now and skills.value(index, best, theirs, 0) > skills.value(index, now, theirs, 0):
        return best
    return None


def suggest(state: BattleState, actor: str | None) -> Command:
    """The policy's command for `actor` ("a"/"b" or a PC key), who must be awaited."""
    if actor is None or actor not in {w.actor for w in awaiting(state)}:
        raise ValueError(f"gurps4e: {actor!r} is not awaited")
    return choose(state, actor)


def strategy_choice(state: BattleState, index: int) -> tuple[str, bool, int]:
    """(strategy, desperate, risk) side `index` chooses for the round (phase "choosing")."""
    return _memo(_public_key(state, index, CHOOSING), lambda: _best_strategy(state, index))


def strategy_change(state: BattleState, index: int) -> tuple[str, bool] | None:
    """The strategy side `index` changes to after the reveal (phase "change"; None: keeps
    its own)."""
    return _memo(_public_key(state, index, CHANGE), lambda: _change(state, index))


def choose(state: BattleState, actor: str) -> Command:
    """`suggest` for an actor known to be awaited (the forecast's play-out asks only those)."""
    index = _side_index(actor)
    if index is None:
        return _pc_command(state, actor)
    if state.phase == BATTLE_KIND:
        own, enemy = state.sides[index], state.sides[1 - index]
        avoid = pre.may_avoid_battle(own.force, enemy.force) and enemy.ts >= AVOID_RATIO * own.ts
        return Command(actor, "choose_battle_kind", {"kind": "avoid" if avoid else pre.PITCHED})
    if state.phase == CHOOSING:
        strategy, desperate, risk = strategy_choice(state, index)
        params: dict[str, Any] = {"strategy": strategy, "desperate": desperate}
        if risk:
            params["risk"] = risk
        return Command(actor, "choose_strategy", params)
    if state.phase == PARLEY:
        own, enemy = state.sides[index], state.sides[1 - index]
        return Command(actor, "answer_parley", {"accept": own.casualties > enemy.casualties})
    if state.phase == CHANGE:
        change = strategy_change(state, index)
        if change is None:
            return Command(actor, "keep_strategy")
        return Command(actor, "change_strategy", {"strategy": change[0], "desperate": change[1]})
    if state.phase == PURSUIT:
        return Command(actor, "choose_pursuit", {"pursue": True})
    raise ValueError(f"gurps4e: nothing to choose in phase {state.phase!r}")
