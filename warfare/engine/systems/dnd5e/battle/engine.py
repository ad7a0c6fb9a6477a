"""The D&D 5e "When Armies Clash" battle (dnd5e §5-§7) behind the shared protocol
(`warfare.engine.battle.protocol`): setup and deployment, initiative, turns, the end of the
round in the fixed order of §6.2, the end of the battle (§7.3) and the outcome.

Setup (plain JSON)::

    {
      "grid": {"width": 12, "height": 8,
               "squares": [{"x": 5, "y": 3, "terrain": "forest", "difficult": false,
                            "elevation": 0}]},            # clear, road, forest, water_*
      "creatures": [<Creature.to_dict()>],                # besides the SRD library
      "options": {<Options fields>},                      # the seed's variants, off
      "sides": [
        {"key": "a", "zone": [0, 0, 3, 7],                # deployment zone x0, y0, x1, y1
         "units": [{"key": "a1", "kind": "regiment",      # or "skirmisher"
                    "configuration": "march",             # aid / defend / march
                    "creature": "orc", "stands": 3,       # or a list of {"creature", "pos"}
                    "damage": [4],                        # optional: HP stand n has lost
                    "positions": [[1, 1], [1, 2], [1, 3]],   # optional: placed at set-up
                    "surprised": false}],
         "solos": [{"key": "hero", "creature": "knight", "pc": true, "pos": [2, 2],
                    "joined": "a1.1", "commander": true, "hp": 52}]}, ...],
      "objectives": [{"key": "bridge", "type": "destruction", "side": "a",
                      "squares": [{"x": 6, "y": 4, "hp": 30, "ac": 15, "vp": 5}]},
                     {"key": "hold", "type": "protection", "side": "b", "paired": "bridge",
                      "vp": 1},
                     {"key": "kill", "type": "attrition", "side": "b", "vp": 2},
                     {"key": "flag", "type": "custom", "side": "a", "vp": 3}],
      "engines": [{"key": "bal", "kind": "ballista", "side": "a", "pos": [0, 4],
                   "crew": "a1"}],
      "initiative_dice": {"a1": 12}                       # typed-in d20s (optional)
    }

Stands are keyed "<unit>.<n>". A battle whose pieces all have positions starts in round 1;
otherwise it starts in deployment: each unit and unattached solo sends "place" {piece, x, y}
inside its side's zone, and the GM sends "begin" once everything is placed.

Commands of a turn: see `actions.TURN_ACTIONS` (actor = the unit or solo whose turn it is;
solos joined to the acting unit's stands act with their own key), and "end_turn". After the
last turn of a round: §6.2 step 1 removes casualties; if a removed stand's unit may slide an
adjacent allied stand into the space or rejoin a freed solo, the battle waits for that unit's
"slide_in" {offer, stand} / "rejoin" {solo, stand} and its "done"; then death saves, morale,
objectives and the end of the battle. GM commands (actor None): "begin", "award"
{objective} (a custom objective met), "declare_draw" / "extra_round" (§7.3, tie) and
"gm_correction" {piece, hp?, conditions?}.

Dice typed in with a command (`Command.typed_dice`: d20s and damage dice rolled at the table,
used in order before the server's) are recorded after its events as "dnd5e.typed_dice"
{actor, dice}: the log says which results were rolled at the table.
"""

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import fields
from functools import partial
from typing import Any

from warfare.engine.battle.protocol import (
    ActionOption,
    ActionSpec,
    Command,
    ForceStanding,
    Outcome,
    Rejected,
    SetupError,
    Standing,
    Waiting,
    start_dice,
)
from warfare.engine.dice import DiceError, typed_value_problem
from warfare.engine.frozen import per_setup, replace
from warfare.engine.problems import Problem
from warfare.engine.systems.dnd5e.battle.actions import (
    COSTS,
    OPTIONAL,
    QUIET,
    TURN_ACTIONS,
    Ctx,
    acting_solo,
    acting_unit,
    also_problem,
    can_attack,
    can_move,
)
from warfare.engine.systems.dnd5e.creatures import LIBRARY, Creature
from warfare.engine.systems.dnd5e.grid import CLEAR, TERRAINS, Grid, Pos, adjacent, squares_of
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.engine.systems.dnd5e.rules import (
    creature_of,
    death_saves,
    end_band,
    field_stands,
    is_isolated,
    lost_more_than_half,
    occupancy,
    score_objectives,
    size_of,
    squares,
    wisdom_save,
)
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES
from warfare.engine.systems.dnd5e.state import (
    CASUALTIES,
    CONFIGURATIONS,
    DEPLOY,
    DRAW,
    ENDED,
    MARCH,
    REGIMENT,
    ROUND,
    SKIRMISHER,
    BattleState,
    Engine,
    Event,
    Objective,
    ObjectiveSquare,
    Offer,
    Options,
    Solo,
    Stand,
    Turn,
    Unit,
    board_memo,
    pieces_memo,
)

END_TURN, PLACE, BEGIN, SLIDE_IN, REJOIN, DONE = (
    "end_turn", "place", "begin", "slide_in", "rejoin", "done")  # fmt: skip
GM_KINDS = ("begin", "award", "declare_draw", "extra_round", "gm_correction")
OBJECTIVE_TYPES = ("attrition", "destruction", "protection", "custom")


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"dnd5e.{code}", params)


# --- setup ----------------------------------------------------------------------------------------


def _creatures(setup: Mapping[str, Any]) -> dict[str, Creature]:
    creatures = dict(LIBRARY)
    for data in setup.get("creatures") or ():
        creature = Creature.from_dict(data)
        creatures[creature.key] = creature
    return creatures


def _unit_stands(unit: Mapping[str, Any]) -> list[tuple[str, Pos | None]]:
    """(creature, position) per stand of a unit entry."""
    stands = unit.get("stands")
    if isinstance(stands, list):
        return [(str(s["creature"]), _pos(s.get("pos"))) for s in stands]
    positions = list(unit.get("positions") or ())
    count = int(stands or 0)
    return [(str(unit["creature"]), _pos(positions[i]) if i < len(positions) else None)
            for i in range(count)]  # fmt: skip


def _pos(value: Any) -> Pos | None:
    if value is None:
        return None
    x, y = value
    return (int(x), int(y))


def validate_setup(setup: Mapping[str, Any]) -> list[Problem]:
    """Problems with a setup (empty: `start` accepts it)."""
    try:
        return _validate(setup)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        return [_p("setup.malformed", error=type(error).__name__)]


def _validate(setup: Mapping[str, Any]) -> list[Problem]:
    sides = setup.get("sides")
    if not isinstance(sides, list | tuple) or len(sides) != 2:
        return [_p("setup.two_sides_needed")]
    grid = Grid.from_dict(setup["grid"])
    problems = _grid_problems(setup, grid)
    creatures = _creatures(setup)
    side_keys = [str(s.get("key", "")) for s in sides]
    if len(set(side_keys)) != 2 or "" in side_keys:
        problems.append(_p("setup.bad_side_keys", sides=side_keys))
    keys = _Keys()
    for side in sides:
        if not side.get("units"):
            problems.append(_p("setup.side_without_units", side=side.get("key")))
        for unit in side.get("units") or ():
            problems += _unit_problems(unit, str(side["key"]), creatures, keys)
        problems += _zone_problems(side, grid)
        for solo in side.get("solos") or ():
            problems += _solo_problems(solo, creatures, keys)
    for side in sides:
        for solo in side.get("solos") or ():
            problems += _join_problems(solo, side, keys)
    problems += _option_problems(setup)
    problems += _objective_problems(setup, grid, side_keys)
    for engine in setup.get("engines") or ():
        problems += _engine_problems(engine, side_keys, keys)
    for key, value in (setup.get("initiative_dice") or {}).items():
        if key not in keys.units and key not in keys.seen:
            problems.append(_p("setup.unknown_actor", actor=key))
        problem = typed_value_problem(value, 20)
        if problem is not None:
            problems.append(problem)
    return problems


class _Keys:
    """The keys a set-up has given so far: every piece's (`seen`), unit -> side (`units`),
    stand -> unit (`stand_units`)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.units: dict[str, str] = {}
        self.stand_units: dict[str, str] = {}

    def new(self, key: str, problems: list[Problem]) -> None:
        """A new key: a problem if it is empty, taken, or names an objective square."""
        if not key or key in self.seen or key.startswith("sq:"):
            problems.append(_p("setup.duplicate_key", key=key))
        self.seen.add(key)


def _grid_problems(setup: Mapping[str, Any], grid: Grid) -> list[Problem]:
    problems = []
    if not (1 <= grid.width <= 100 and 1 <= grid.height <= 100):
        problems.append(_p("setup.bad_grid"))
    for square in setup["grid"].get("squares") or ():
        if square.get("terrain", "clear") not in TERRAINS:
            problems.append(_p("setup.unknown_terrain", terrain=square.get("terrain")))
    return problems


def _unit_problems(
    unit: Mapping[str, Any], side: str, creatures: Mapping[str, Creature], keys: _Keys
) -> list[Problem]:
    problems: list[Problem] = []
    key = str(unit.get("key", ""))
    keys.new(key, problems)
    keys.units[key] = side
    kind = unit.get("kind")
    if kind not in (SKIRMISHER, REGIMENT):
        problems.append(_p("setup.bad_unit_kind", unit=key, kind=kind))
    if kind == REGIMENT and unit.get("configuration", MARCH) not in CONFIGURATIONS:
        problems.append(_p("setup.bad_configuration", unit=key))
    stands = _unit_stands(unit)
    if not stands:
        problems.append(_p("setup.unit_without_stands", unit=key))
    damage = unit.get("damage") or []
    if (
        not isinstance(damage, list)
        or len(damage) > len(stands)
        or any(type(hp) is not int or hp < 0 for hp in damage)
    ):
        problems.append(_p("setup.bad_stand_damage", unit=key))
    for n, (creature, _) in enumerate(stands, 1):
        keys.new(f"{key}.{n}", problems)
        keys.stand_units[f"{key}.{n}"] = key
        if creature not in creatures:
            problems.append(_p("setup.unknown_creature", creature=creature))
        elif creatures[creature].size == "gargantuan":
            problems.append(_p("setup.gargantuan_stand", unit=key))  # §4.1
    return problems


def _zone_problems(side: Mapping[str, Any], grid: Grid) -> list[Problem]:
    zone = side.get("zone")
    if zone is None:
        return []
    x0, y0, x1, y1 = (int(v) for v in zone)
    if not (grid.inside((x0, y0)) and grid.inside((x1, y1)) and x0 <= x1 and y0 <= y1):
        return [_p("setup.bad_zone", side=side.get("key"))]
    return []


def _solo_problems(
    solo: Mapping[str, Any], creatures: Mapping[str, Creature], keys: _Keys
) -> list[Problem]:
    problems: list[Problem] = []
    key = str(solo.get("key", ""))
    keys.new(key, problems)
    creature = creatures.get(solo.get("creature"))  # type: ignore[arg-type]
    if creature is None:
        problems.append(_p("setup.unknown_creature", creature=solo.get("creature")))
    elif not 0 <= int(solo.get("hp", creature.hp)) <= creature.hp:
        problems.append(_p("setup.bad_hp", solo=key))
    return problems


def _join_problems(solo: Mapping[str, Any], side: Mapping[str, Any], keys: _Keys) -> list[Problem]:
    problems = []
    joined = solo.get("joined")
    if joined is not None and keys.units.get(keys.stand_units.get(joined, "")) != side["key"]:
        problems.append(_p("setup.bad_join", solo=solo.get("key"), stand=joined))
    if solo.get("commander") and joined is None:
        problems.append(_p("setup.commander_not_joined", solo=solo.get("key")))
    return problems


def _option_problems(setup: Mapping[str, Any]) -> list[Problem]:
    option_types = {f.name: type(f.default) for f in fields(Options)}
    problems = []
    for name, value in dict(setup.get("options") or {}).items():
        wanted = option_types.get(name)
        if wanted is None or type(value) is not wanted:
            problems.append(_p("setup.bad_option", option=name))
    return problems


def _objective_problems(
    setup: Mapping[str, Any], grid: Grid, side_keys: list[str]
) -> list[Problem]:
    problems = []
    for objective in setup.get("objectives") or ():
        if objective.get("type") not in OBJECTIVE_TYPES:
            problems.append(_p("setup.bad_objective", objective=objective.get("key")))
        if objective.get("side") not in side_keys:
            problems.append(_p("setup.bad_objective_side", objective=objective.get("key")))
        for square in objective.get("squares") or ():
            if not grid.inside((int(square["x"]), int(square["y"]))):
                problems.append(_p("setup.objective_off_grid", objective=objective.get("key")))
    return problems


def _engine_problems(engine: Mapping[str, Any], side_keys: list[str], keys: _Keys) -> list[Problem]:
    problems: list[Problem] = []
    keys.new(str(engine.get("key", "")), problems)
    if engine.get("kind") not in SIEGE_ENGINES:
        problems.append(_p("setup.unknown_engine", kind=engine.get("kind")))
    if engine.get("side") not in side_keys:
        problems.append(_p("setup.bad_engine_side", engine=engine.get("key")))
    if engine.get("crew") is not None and keys.units.get(engine["crew"]) != engine.get("side"):
        problems.append(_p("setup.bad_crew", engine=engine.get("key")))
    return problems


def _build(setup: Mapping[str, Any]) -> BattleState:
    creatures = _creatures(setup)
    options = Options.from_dict(
        {"protection_stands": house_value("protection.stands_needed"),
         "morale_every_round": bool(house_value("morale.every_round")),
         "hp_multiplier": house_value("stand.hp_multiplier"),
         **dict(setup.get("options") or {})}
    )  # fmt: skip
    units: list[Unit] = []
    stands: list[Stand] = []
    solos: list[Solo] = []
    zones: dict[str, tuple[int, int, int, int]] = {}
    grid = Grid.from_dict(setup["grid"])
    for side in setup["sides"]:
        key = str(side["key"])
        zone = side.get("zone") or (0, 0, grid.width - 1, grid.height - 1)
        zones[key] = tuple(int(v) for v in zone)  # type: ignore[assignment]
        commanders = {s["joined"]: s["key"] for s in side.get("solos") or () if s.get("commander")}
        for unit in side["units"]:
            entries = _unit_stands(unit)
            damage = list(unit.get("damage") or ()) + [0] * len(entries)
            unit_stands = [
                Stand(f"{unit['key']}.{n}", unit["key"], creature, pos,
                      max(1, creatures[creature].hp * options.hp_multiplier - damage[n - 1]),
                      creatures[creature].hp * options.hp_multiplier)
                for n, (creature, pos) in enumerate(entries, 1)
            ]  # fmt: skip
            stands += unit_stands
            commander = next((commanders[s.key] for s in unit_stands if s.key in commanders),
                             None)  # fmt: skip
            units.append(Unit(
                unit["key"], key, unit["kind"],
                unit.get("configuration", MARCH) if unit["kind"] == REGIMENT else None,
                len(entries), commander, surprised=bool(unit.get("surprised", False))))  # fmt: skip
        for solo in side.get("solos") or ():
            creature = creatures[solo["creature"]]
            hp = int(solo.get("hp", creature.hp))
            solos.append(Solo(
                solo["key"], key, creature.key, bool(solo.get("pc", False)),
                None if solo.get("joined") else _pos(solo.get("pos")), solo.get("joined"),
                hp, creature.hp, surprised=bool(solo.get("surprised", False)),
                conditions=tuple(solo.get("conditions") or ())))  # fmt: skip
    objectives = []
    for n, o in enumerate(setup.get("objectives") or (), 1):
        squares_ = tuple(
            ObjectiveSquare(int(s["x"]), int(s["y"]), int(s.get("hp", 10)),
                            int(s.get("hp", 10)),
                            int(s.get("ac", house_value("destruction.ranged_ac"))),
                            int(s.get("vp", 1)))
            for s in o.get("squares") or ()
        )  # fmt: skip
        default_vp = house_value("attrition.vp_per_unit") if o["type"] == "attrition" else 1
        objectives.append(Objective(str(o.get("key", f"objective{n}")), o["type"], o["side"],
                                    int(o.get("vp", default_vp)), squares_,
                                    o.get("paired")))  # fmt: skip
    engines = tuple(
        Engine(e["key"], e["kind"], e["side"], _pos(e["pos"]),  # type: ignore[arg-type]
               SIEGE_ENGINES[e["kind"]].hp, e.get("crew"))
        for e in setup.get("engines") or ()
    )  # fmt: skip
    return BattleState(
        grid=grid, creatures=creatures, sides=tuple(str(s["key"]) for s in setup["sides"]),
        units=tuple(units), stands=tuple(stands), solos=tuple(solos),
        objectives=tuple(objectives), engines=engines, options=options, order=(),
        initiative={}, zones=zones, vp={str(s["key"]): 0 for s in setup["sides"]},
    )  # fmt: skip


def _placement_problems(state: BattleState) -> list[Problem]:
    """Pieces overlapping, off the grid, or in deep water without a swim speed (§4.7)."""
    problems = []
    seen: dict[Pos, str] = {}
    for key in [s.key for s in state.stands if s.pos] + [s.key for s in state.solos if s.pos]:
        piece = state.find(key)
        assert isinstance(piece, Stand | Solo)
        if not state.grid.fits(piece.pos, size_of(state, piece)):  # type: ignore[arg-type]
            problems.append(_p("setup.off_grid", piece=key))
            continue
        for p in squares(state, key):
            if p in seen:
                problems.append(_p("setup.overlap", piece=key, other=seen[p]))
            seen[p] = key
        swims = creature_of(state, piece).speeds.get("swim")
        if not swims and any(state.grid.at(p).terrain == "water_deep" for p in squares(state, key)):
            problems.append(_p("setup.deep_water", piece=key))  # §4.7
    for engine in state.engines:
        for p in squares(state, engine.key):
            if p in seen or not state.grid.inside(p):
                problems.append(_p("setup.overlap", piece=engine.key, other=seen.get(p)))
            seen[p] = engine.key
    return problems


@per_setup()
def _prepared(
    setup: Mapping[str, Any],
) -> tuple[tuple[Problem, ...], BattleState | None, tuple[tuple[str, int, tuple], ...]]:
    """What `start` does before any die: (the set-up's problems, the built state, each
    actor's initiative modifier with its terms). Worked out once per set-up (a forecast
    starts hundreds of battles from one); the state is frozen and shared."""
    problems = validate_setup(setup)
    if problems:
        return tuple(problems), None, ()
    state = _build(setup)
    problems = _placement_problems(state)
    if problems:
        return tuple(problems), None, ()
    actors = [u.key for u in state.units] + [s.key for s in state.solos]
    return (), state, tuple((key, *initiative_modifier(state, key)) for key in actors)


def start(setup: Mapping[str, Any], seed: int) -> BattleState:
    """Validate, build, roll initiative (§5.2) and open deployment or round 1."""
    problems, built, modifiers = _prepared(setup)
    if problems:
        raise SetupError(list(problems))
    assert built is not None
    state = built
    typed = setup.get("initiative_dice") or {}
    dice = start_dice(seed)
    rolls: list[tuple[int, int, int, str]] = []
    events: list[Event] = []
    for index, (key, modifier, terms) in enumerate(modifiers):
        die = int(typed[key]) if key in typed else dice.d20(purpose="initiative")
        rolls.append((die + modifier, modifier, -index, key))
        events.append(Event("dnd5e.initiative", {"actor": key, "die": die, "modifier": modifier,
                                                 "terms": [list(t) for t in terms],
                                                 "total": die + modifier,
                                                 "typed": key in typed}))  # fmt: skip
    rolls.sort(reverse=True)
    state = replace(state, order=tuple(r[3] for r in rolls),
                    initiative={r[3]: r[0] for r in rolls}, opening=tuple(events))  # fmt: skip
    if all(s.pos for s in state.stands) and all(s.pos or s.joined for s in state.solos):
        state, more = _begin_round(state, 1, dice)
        state = replace(state, opening=state.opening + tuple(more))
    return state


def initiative_modifier(state: BattleState, key: str) -> tuple[int, tuple[tuple[str, int], ...]]:
    """§5.2: a skirmisher unit adds the highest Dex modifier of its stands and joined solos,
    a regiment the lowest; a solo its own Dex."""
    item = state.find(key)
    if isinstance(item, Solo):
        dex = creature_of(state, item).mod("dex")
        return dex, (("dex", dex),)
    assert isinstance(item, Unit)
    pieces: list[Stand | Solo] = []
    for stand in state.stands_of(key):
        pieces += [stand, *state.joined_to(stand.key)]
    values = [creature_of(state, p).mod("dex") for p in pieces]
    value = max(values) if item.kind == SKIRMISHER else min(values)
    return value, (("highest_dex" if item.kind == SKIRMISHER else "lowest_dex", value),)


# --- turns ----------------------------------------------------------------------------------------


def _can_take_turn(state: BattleState, key: str) -> bool:
    item = state.find(key)
    if isinstance(item, Unit):
        for stand in state.stands_of(key):  # noqa: SIM110 (no generator's call per stand)
            if stand.pos is not None:  # (`on_field`: none of them is gone)
                return True
        return False
    return (
        isinstance(item, Solo) and item.on_field and item.can_act
        and key not in state.solos_done
    )  # fmt: skip


def _begin_round(state: BattleState, number: int, dice: Any) -> tuple[BattleState, list[Event]]:
    events = [Event("dnd5e.round", {"round": number})]
    state = replace(state, phase=ROUND, round=number, turn_index=-1, turn=None, solos_done=())
    state = _advance(state, events, dice)
    return state, events


def _advance(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Start the next actor's turn, skipping the absent and, in round 1, the surprised (they
    neither move nor act, §2, §5.2; a unit's joined solos with it); after the last one, the
    end of the round."""
    index = state.turn_index + 1
    while index < len(state.order):
        key = state.order[index]
        if _can_take_turn(state, key):
            item = state.find(key)
            if getattr(item, "surprised", False) and state.round == 1:
                events.append(Event("dnd5e.surprised", {"actor": key, "round": 1}))
            else:
                state = replace(state, turn_index=index, turn=Turn(key))
                if events is not QUIET:
                    events.append(Event("dnd5e.turn", {"actor": key, "round": state.round}))
                return _start_of_turn(state, key, events, dice)
        index += 1
    return _end_of_round(replace(state, turn=None, turn_index=len(state.order)), events, dice)


def _start_of_turn(state: BattleState, key: str, events: list[Event], dice: Any) -> BattleState:
    """§6.3 Rally: a broken unit with a commander rolls DC 10 Wis (highest) + the
    commander's Cha at the start of its turn; it uses the commander's bonus action."""
    item = state.find(key)
    if not isinstance(item, Unit):
        return state
    commander = state.solo(item.commander) if item.commander else None
    if commander is not None and not commander.can_act:
        state = state.put(replace(item, commander=None))  # §4.5: a commander who cannot act
        events.append(Event("dnd5e.command_lost", {"unit": key, "solo": commander.key}))
        return state
    if item.broken and commander is not None:
        cha = creature_of(state, commander).mod("cha")
        record = wisdom_save(state, key, dice, "rally", (("commander_cha", cha),))
        events.append(Event("dnd5e.rally", record))
        if record["success"]:
            state = state.put(replace(item, broken=False))
        if house_value("rally.costs_bonus_action"):
            state = replace(state, turn=replace(state.turn, bonus=(commander.key,)))
    return state


def _end_turn(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Prepare / Incite bookkeeping (§4.5), then the next turn."""
    actor = state.current
    item = state.find(str(actor))
    if isinstance(item, Unit) and (item.prepared or item.incited):
        state = state.put(replace(item, prepared=max(0, item.prepared - 1),
                                  incited=max(0, item.incited - 1)))  # fmt: skip
    if events is not QUIET:
        events.append(Event("dnd5e.turn_end", {"actor": actor}))
    assert state.turn is not None
    done = [*state.turn.solos, *([actor] if isinstance(item, Solo) else [])]
    if done:  # (`_advance` makes a new state in any case)
        state = replace(state, solos_done=tuple(dict.fromkeys((*state.solos_done, *done))))
    return _advance(state, events, dice)


# --- the end of the round (§6.2) ------------------------------------------------------------------


def _end_of_round(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Step 1: remove casualties; offer slide-ins and rejoins (then wait) or go on."""
    if events is not QUIET:
        events.append(Event("dnd5e.end_of_round", {"round": state.round}))
    offers: list[Offer] = []
    for stand in state.stands:
        if not (stand.casualty and stand.on_field):
            continue
        pos = stand.pos
        assert pos is not None
        freed = state.joined_to(stand.key)
        state = state.put(replace(stand, gone="eliminated"))
        if events is not QUIET:
            events.append(Event("dnd5e.eliminated", {"stand": stand.key}))
        for solo in freed:  # §5.7: stays in play in the vacated space unless it rejoins
            state = state.put(replace(solo, joined=None, pos=pos))
            events.append(Event("dnd5e.freed", {"solo": solo.key, "stand": stand.key}))
        offers.append(Offer(stand.unit, pos, size_of(state, stand),
                            tuple(s.key for s in freed)))  # fmt: skip
    state = replace(state, offers=tuple(offers), phase=CASUALTIES)
    pending = _pending(state)
    if pending:
        events.append(Event("dnd5e.offers", {"units": list(pending)}))
        return replace(state, pending=pending)
    return _finish_round(state, events, dice)


def _pending(state: BattleState) -> tuple[str, ...]:
    """The units with a slide-in or a rejoin to choose (§6.2 step 1), in the offers' order.
    They read the offers and who stands where: kept for the board (`board_memo`) and the
    offers."""
    memo = board_memo(state)
    key = (_PENDING, state.offers)
    try:
        return memo[key]
    except KeyError:
        pass
    found = memo[key] = tuple(dict.fromkeys(
        o.unit for o in state.offers
        if next(_slides(state, o.unit), None) is not None or _rejoin_options(state, o.unit)
    ))  # fmt: skip
    return found


_PENDING = "dnd5e.pending"


def _slides(state: BattleState, unit: str) -> Iterator[dict[str, Any]]:
    """§6.2 step 1: one adjacent allied stand may move into each vacated space (the
    options one by one: whether there is one, the first)."""
    side = state.unit(unit).side
    occ = occupancy(state)
    for index, offer in enumerate(state.offers):
        if offer.unit != unit:
            continue
        space = squares_of(offer.pos, offer.size)
        for stand in field_stands(state, side):
            size = size_of(state, stand)
            new = squares_of(offer.pos, size)
            if size > offer.size or not adjacent(squares(state, stand.key), space):
                continue
            if any(occ.get(p, stand.key) != stand.key for p in new):
                continue
            yield {"offer": index, "stand": stand.key}


def _rejoin_options(state: BattleState, unit: str) -> list[dict[str, Any]]:
    """§5.7: a freed solo may join an adjacent stand of its unit."""
    result = []
    for offer in state.offers:
        if offer.unit != unit:
            continue
        for key in offer.solos:
            solo = state.solo(key)
            if solo.joined or not solo.on_field:
                continue
            for stand in state.stands_of(unit):
                if stand.on_field and adjacent(squares(state, key), squares(state, stand.key)):
                    result.append({"solo": key, "stand": stand.key})
    return result


def _finish_round(state: BattleState, events: list[Event], dice: Any) -> BattleState:
    """Steps 1 (death saves), 2 (morale), 3 (objectives) and the end of the battle."""
    state = replace(state, offers=(), pending=())
    count = 1 if state.options.seed_one_death_save else house_value("death_saves.per_round")
    for solo in state.solos:
        if solo.dying and solo.pc and solo.gone is None:
            saved, rolls = death_saves(solo, dice, count)
            state = state.put(saved)
            events.append(Event("dnd5e.death_saves", {"solo": solo.key, "rolls": rolls,
                                                      "hp": saved.hp, "stable": saved.stable,
                                                      "dead": saved.dead}))  # fmt: skip
    for unit in state.units:
        if unit.broken or not state.stands_of(unit.key):
            continue
        if not lost_more_than_half(state, unit.key):
            continue
        if unit.morale_checked and not state.options.morale_every_round:
            continue
        record = wisdom_save(state, unit.key, dice, "morale")
        events.append(Event("dnd5e.morale", record))
        state = state.put(replace(unit, morale_checked=True, broken=not record["success"]))
    state, scored = score_objectives(state)
    events.extend(scored)
    band = end_band(state.vp, state.sides)
    present = [side for side in state.sides if _present(state, side)]
    if band is None and len(present) < 2 and house_value("end.army_gone"):
        winner_ = present[0] if present else None
        return _finish(state, "last_standing" if winner_ else "draw", winner_, events, dice)
    if band is None:
        state, more = _begin_round(state, state.round + 1, dice)
        events.extend(more)
        return state
    result, winner = band
    if result == "draw":
        if state.options.draw_fight_on:  # §10 item 9, the seed: fight on until decided
            events.append(Event("dnd5e.draw_fight_on", {"vp": dict(state.vp)}))
            state, more = _begin_round(state, state.round + 1, dice)
            events.extend(more)
            return state
        events.append(Event("dnd5e.tie", {"vp": dict(state.vp)}))
        return replace(state, phase=DRAW)
    return _finish(state, result, winner, events, dice)


def _present(state: BattleState, side: str) -> bool:
    """The army still has a stand on the field or a solo able to act."""
    if field_stands(state, side):
        return True
    return any(s.side == side and s.can_act and (s.on_field or s.joined) for s in state.solos)


def _finish(
    state: BattleState, result: str, winner: str | None, events: list[Event], dice: Any
) -> BattleState:
    """§7.3: on a total victory every surviving unit of the loser rolls a d20: 10+ it is
    treated as eliminated (its survivors flee and desert)."""
    deserted: list[str] = []
    if result == "total" and winner is not None:
        loser = next(s for s in state.sides if s != winner)
        for unit in state.units:
            if unit.side != loser or not state.stands_of(unit.key):
                continue
            die = dice.d20(purpose="desertion")
            needs = house_value("victory.desertion_roll")
            gone = die >= needs
            events.append(Event("dnd5e.desertion", {"unit": unit.key, "die": die,
                                                    "needs": needs,
                                                    "eliminated": gone}))  # fmt: skip
            if gone:
                deserted.append(unit.key)
                for stand in state.stands_of(unit.key):
                    state = state.put(replace(stand, gone="deserted"))
    summary = {"result": result, "winner": winner, "vp": dict(state.vp), "deserted": deserted}
    events.append(Event("dnd5e.battle_end", summary))
    return replace(state, phase=ENDED, turn=None, result=summary)


# --- protocol: legal actions and apply ------------------------------------------------------------


Listing = Callable[[], Iterable[tuple[dict[str, Any], tuple]]]


def _kinds(state: BattleState, actor: str) -> dict[str, Listing]:
    """The command kinds `actor` may send now, each with a function that lists its options
    ((params, checks)): `apply` checks the one command it is given without listing the
    others (issue 13), `legal_actions` lists them all."""
    if state.phase == DEPLOY:
        return {PLACE: lambda: _place_options(state, actor)}
    if state.phase == CASUALTIES:
        if actor not in state.pending:
            return {}
        # (slides one by one: whether there is one, or the one asked for, needs no more)
        return {SLIDE_IN: lambda: ((o, ()) for o in _slides(state, actor)),
                REJOIN: lambda: [(o, ()) for o in _rejoin_options(state, actor)],
                DONE: lambda: [({}, ())]}  # fmt: skip
    if state.phase != ROUND or state.turn is None:
        return {}
    result: dict[str, Listing] = {}
    if acting_unit(state, actor) or acting_solo(state, actor):
        result = {kind: partial(opts, state, actor) for kind, (opts, _) in TURN_ACTIONS.items()}
    if actor == state.current:
        result[END_TURN] = lambda: [({}, ())]
    return result


def _kind(state: BattleState, actor: str, kind: str) -> Listing | None:
    """`_kinds(state, actor).get(kind)`, without making the others' listings."""
    if state.phase == ROUND and state.turn is not None:
        if kind == END_TURN:
            return (lambda: [({}, ())]) if actor == state.current else None
        if kind not in TURN_ACTIONS:
            return None
        if acting_unit(state, actor) or acting_solo(state, actor):
            return partial(TURN_ACTIONS[kind][0], state, actor)
        return None
    return _kinds(state, actor).get(kind)


def _listed(state: BattleState, actor: str) -> list[tuple[str, list[tuple[dict, tuple]]]]:
    """(kind, [(params, checks)]) the actor may send now."""
    return [(kind, list(options())) for kind, options in _kinds(state, actor).items()]


def legal_actions(state: BattleState, actor: str) -> list[ActionSpec]:
    """The buttons for `actor` now, each option with its previews (to-hit and AC with their
    terms, advantage sources as zero terms, DCs). GM commands are not listed."""
    specs = []
    for kind, options in _listed(state, actor):
        if not options:
            continue
        specs.append(ActionSpec(
            kind, COSTS.get(kind, 0 if kind in (END_TURN, PLACE, SLIDE_IN, REJOIN, DONE) else 1),
            (), tuple(ActionOption(params, checks) for params, checks in options),
            OPTIONAL.get(kind, ())))  # fmt: skip
    return specs


def _place_options(state: BattleState, actor: str) -> Iterator[tuple[dict[str, Any], tuple]]:
    """Deployment: the actor's own pieces on free squares of its side's zone."""
    item = state.find(actor)
    if isinstance(item, Unit):
        pieces: list[Stand | Solo] = list(state.stands_of(actor))
        side = item.side
    elif isinstance(item, Solo) and not item.joined:
        pieces, side = [item], item.side
    else:
        return
    x0, y0, x1, y1 = state.zones[side]
    occ = occupancy(state)
    for piece in pieces:
        size = size_of(state, piece)
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                new = squares_of((x, y), size)
                if not all(x0 <= px <= x1 and y0 <= py <= y1 for px, py in new):
                    continue
                if not state.grid.fits((x, y), size):
                    continue
                if any(occ.get(p, piece.key) != piece.key for p in new):
                    continue
                if not creature_of(state, piece).speeds.get("swim") and any(
                    state.grid.at(p).terrain == "water_deep" for p in new
                ):
                    continue  # fmt: skip
                yield {"piece": piece.key, "x": x, "y": y}, ()


def _matches(params: Mapping[str, Any], option: Mapping[str, Any], optional: tuple) -> bool:
    extra = set(params) - set(option)
    if extra - set(optional):
        return False
    return all(params.get(k) == v for k, v in option.items())


def _listed_option(
    state: BattleState, actor: str, kind: str, params: Mapping[str, Any], listing: Listing
) -> bool:
    """Is `params` one of the options `listing` gives (plus the optional params of `kind`)?
    A move and an attack are looked up directly (the piece's destinations; its attack forms
    and targets in reach) instead of listing every option of every piece."""
    optional = OPTIONAL.get(kind, ())
    if kind == "move":
        return can_move(state, actor, params)
    if kind == "attack":
        return can_attack(state, actor, params, optional)
    return any(_matches(params, option, optional) for option, _ in listing())


def _optional_problems(state: BattleState, command: Command) -> list[Problem]:
    params = command.params
    for name in OPTIONAL.get(command.kind, ()):
        if name not in params:
            continue
        value = params[name]
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            return [_p("bad_param", param=name)]
        if name == "stands" and any(v not in {s.key for s in state.stands} for v in value):
            return [_p("bad_param", param=name)]
        if name == "also":
            problem = also_problem(state, params)
            if problem:
                return [_p(problem, param=name)]
    return []


def apply(
    state: BattleState, command: Command, dice: Any
) -> tuple[BattleState, list[Event]] | Rejected:
    """Apply one command; never changes `state`; illegal input gives `Rejected`."""
    if state.phase == ENDED:
        return Rejected((_p("finished"),))
    if command.actor is None:
        return _gm(state, command, dice)
    actor = str(command.actor)
    listing = _kind(state, actor, command.kind)
    if listing is None:
        return Rejected((_p("not_allowed", kind=command.kind, actor=actor),))
    params = dict(command.params)
    if not _listed_option(state, actor, command.kind, params, listing):
        return Rejected((_p("illegal_params", kind=command.kind),))
    problems = _optional_problems(state, command)
    if problems:
        return Rejected(tuple(problems))
    ctx = Ctx(dice)
    try:
        state = _dispatch(state, actor, command.kind, params, ctx)
    except DiceError as error:
        return Rejected((error.problem,))
    typed = [value for roll in dice.log if roll.source == "typed" for value in roll.results]
    if typed:
        ctx.events.append(Event("dnd5e.typed_dice", {"actor": actor, "dice": typed}))
    return replace(state, sequence=state.sequence + 1), ctx.events


def _dispatch(state: BattleState, actor: str, kind: str, params: dict, ctx: Ctx) -> BattleState:
    if kind == PLACE:
        piece = state.find(params["piece"])
        ctx.events.append(Event("dnd5e.placed", dict(params)))
        return state.put(replace(piece, pos=(params["x"], params["y"])))  # type: ignore[type-var]
    if kind == SLIDE_IN:
        offer = state.offers[params["offer"]]
        stand = state.stand(params["stand"])
        ctx.events.append(Event("dnd5e.slid_in", {"stand": stand.key, "to": list(offer.pos)}))
        return state.put(replace(stand, pos=offer.pos))
    if kind == REJOIN:
        ctx.events.append(Event("dnd5e.joined", {"solo": params["solo"],
                                                 "stand": params["stand"]}))  # fmt: skip
        return state.put(replace(state.solo(params["solo"]), joined=params["stand"], pos=None))
    if kind == DONE:
        state = replace(state, pending=tuple(p for p in state.pending if p != actor))
        return state if state.pending else _finish_round(state, ctx.events, ctx.dice)
    if kind == END_TURN:
        return _end_turn(state, ctx.events, ctx.dice)
    if ctx.events is not QUIET:
        ctx.events.append(Event("dnd5e.action", {"actor": actor, "kind": kind,
                                                 "params": dict(params)}))  # fmt: skip
    if actor != state.turn.actor and actor not in state.turn.solos:  # a joined solo acting
        state = replace(state, turn=replace(state.turn, solos=(*state.turn.solos, actor)))
    return TURN_ACTIONS[kind][1](state, actor, params, ctx)


# --- GM commands ----------------------------------------------------------------------------------


def _gm(
    state: BattleState, command: Command, dice: Any
) -> tuple[BattleState, list[Event]] | Rejected:
    kind, params = command.kind, dict(command.params)
    events: list[Event] = []
    if kind == BEGIN:
        if state.phase != DEPLOY:
            return Rejected((_p("not_deploying"),))
        problems = [_p("unplaced", piece=s.key) for s in state.stands if s.pos is None]
        problems += [_p("unplaced", piece=s.key) for s in state.solos
                     if s.pos is None and not s.joined]  # fmt: skip
        if problems:
            return Rejected(tuple(problems))
        state, events = _begin_round(state, 1, dice)
    elif kind == "award":
        objective = next((o for o in state.objectives if o.key == params.get("objective")),
                         None)  # fmt: skip
        if objective is None or objective.type != "custom" or objective.achieved:
            return Rejected((_p("bad_objective"),))
        state = state.put(replace(objective, achieved=True))
        events.append(Event("dnd5e.objective_met", {"objective": objective.key}))
    elif kind in ("declare_draw", "extra_round"):
        if state.phase != DRAW:
            return Rejected((_p("no_tie"),))
        if kind == "declare_draw":
            state = _finish(state, "draw", None, events, dice)
        else:
            state, events = _begin_round(state, state.round + 1, dice)
    elif kind == "gm_correction":
        problem = _gm_correction_problem(state, params)
        if problem:
            return Rejected((problem,))
        item = state.find(params["piece"])
        changes: dict[str, Any] = {}
        if "hp" in params:
            changes["hp"] = params["hp"]
            if isinstance(item, Stand):
                changes["casualty"] = params["hp"] == 0
        if "conditions" in params:
            changes["conditions"] = tuple(params["conditions"])
        state = state.put(replace(item, **changes))  # type: ignore[type-var]
        events.append(Event("dnd5e.gm_correction", params))
    else:
        return Rejected((_p("unknown_command", kind=kind),))
    return replace(state, sequence=state.sequence + 1), events


def _gm_correction_problem(state: BattleState, params: Mapping[str, Any]) -> Problem | None:
    item = state.find(str(params.get("piece")))
    if not isinstance(item, Stand | Solo):
        return _p("gm.unknown_piece")
    hp = params.get("hp")
    if "hp" in params and (isinstance(hp, bool) or not isinstance(hp, int)
                           or not 0 <= hp <= item.max_hp):  # fmt: skip
        return _p("gm.bad_hp")
    if "conditions" in params:
        if isinstance(item, Stand):
            return _p("gm.conditions_for_solos")
        if not isinstance(params["conditions"], list) or not all(
            isinstance(c, str) for c in params["conditions"]):  # fmt: skip
            return _p("gm.bad_conditions")
    return None


# --- outcome and board ----------------------------------------------------------------------------


def outcome(state: BattleState) -> Outcome | None:
    """None while the battle runs; then the winner, the result band (§7.3) and the losses to
    write back: eliminated stands = 10 creatures each [inferred, §13 item 11]."""
    if state.phase != ENDED or state.result is None:
        return None
    winner = state.result["winner"]
    losers = tuple(s for s in state.sides if s != winner) if winner else ()
    units = {
        u.key: {"side": u.side, "start_stands": u.start_stands,
                "stands_left": len(state.stands_of(u.key)),
                "creatures_lost": 10 * (u.start_stands - len(state.stands_of(u.key))),
                "broken": u.broken}
        for u in state.units
    }  # fmt: skip
    solos = {s.key: {"hp": s.hp, "dead": s.dead, "stable": s.stable, "gone": s.gone,
                     "conditions": list(s.conditions)} for s in state.solos}  # fmt: skip
    return Outcome(winner, losers, {**state.result, "units": units, "solos": solos})


def board(state: BattleState) -> list[list[dict[str, Any]]]:
    """The grid as rows of cells for a template to draw (renders nothing): per square its
    terrain, difficult flag, elevation, occupant (kind, key, side, unit, HP, casualty,
    hidden, joined solos, isolated) and objective (key, HP).

    Worked out once for the same pieces (`pieces_memo`: a command that changes only the
    turn, the round or the score reuses it), so the rows are shared: read them, never
    change them."""
    memo = pieces_memo(state)
    try:
        return memo[_BOARD_ROWS]
    except KeyError:
        rows = memo[_BOARD_ROWS] = _board(state)
        return rows


_BOARD_ROWS = "dnd5e.board_rows"


def _board(state: BattleState) -> list[list[dict[str, Any]]]:
    grid = state.grid
    width, height = grid.width, grid.height
    # Every square first, as plain clear ground, empty and no objective (most of a board's
    # hundred: `Grid.at` inline, looked up only in the squares that are not), then the few
    # occupied and objective squares.
    squares = grid.squares
    clear = (CLEAR.terrain, CLEAR.is_difficult, CLEAR.elevation)
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            if (x, y) in squares:
                square = squares[(x, y)]
                terrain, difficult, elevation = (
                    square.terrain, square.is_difficult, square.elevation)  # fmt: skip
            else:
                terrain, difficult, elevation = clear
            row.append({"x": x, "y": y, "terrain": terrain,
                        "difficult": difficult, "elevation": elevation,
                        "occupant": None, "objective": None})  # fmt: skip
        rows.append(row)
    joined: dict[str, list[str]] = {}  # (`BattleState.joined_to` of every stand at once)
    for solo in state.solos:
        if solo.joined is not None and solo.gone is None:
            joined.setdefault(solo.joined, []).append(solo.key)
    for (x, y), key in occupancy(state).items():
        if key is not None and 0 <= x < width and 0 <= y < height:
            rows[y][x]["occupant"] = _occupant(state, key, (x, y), joined)
    for o in state.objectives:
        for s in o.squares:
            x, y = s.pos
            if 0 <= x < width and 0 <= y < height:
                rows[y][x]["objective"] = {"key": o.key, "type": o.type, "side": o.side,
                                           "hp": s.hp, "max_hp": s.max_hp, "vp": s.vp}  # fmt: skip
    return rows


def _occupant(
    state: BattleState, key: str, pos: Pos, joined: Mapping[str, list[str]]
) -> dict[str, Any]:
    """The piece on square `pos` as `board` gives it (`joined`: the solos joined to each
    stand)."""
    item = state.find(key)
    if item is None:  # (as `BattleState.side_of` refuses it)
        raise KeyError(key)
    stand = isinstance(item, Stand)
    unit = state.unit(item.unit) if stand else None  # (a stand's side is its unit's)
    occupant = {
        "key": key,
        "side": unit.side if unit is not None else item.side,
        "kind": type(item).__name__.lower(),
        "anchor": tuple(getattr(item, "pos", None) or ()) == pos,
    }
    if stand:
        occupant.update(
            unit=item.unit,
            creature=item.creature,
            hp=item.hp,
            max_hp=item.max_hp,
            casualty=item.casualty,
            hidden=item.hidden,
            isolated=is_isolated(state, key),
            broken=unit.broken,
            solos=list(joined.get(key, ())),
        )
    elif isinstance(item, Solo):
        occupant.update(
            creature=item.creature,
            hp=item.hp,
            max_hp=item.max_hp,
            hidden=item.hidden,
            isolated=is_isolated(state, key),
        )
    elif isinstance(item, Engine):
        occupant.update(engine=item.kind, hp=item.hp)  # fmt: skip
    return occupant


# --- auto-play and forecasts (protocol) -----------------------------------------------------------


def awaiting(state: BattleState) -> tuple[Waiting, ...]:
    """Deployment: every unit and unattached solo with a piece still to place, then the GM
    (begin); a round: the unit or solo whose turn it is (its joined solos act on its turn);
    the end of a round: the units with a slide-in or rejoin to answer; a tie: the GM."""
    if state.phase == DEPLOY:
        keys = [u.key for u in state.units if any(s.pos is None for s in state.stands_of(u.key))]
        keys += [s.key for s in state.solos if s.pos is None and not s.joined and s.gone is None]
        if not keys:
            return (Waiting(None, None),)
        return tuple(Waiting(key, state.side_of(key)) for key in keys)
    if state.phase == ROUND and state.turn is not None:
        return (Waiting(state.turn.actor, state.side_of(state.turn.actor)),)
    if state.phase == CASUALTIES:
        return tuple(Waiting(key, state.unit(key).side) for key in state.pending)
    if state.phase == DRAW:
        return (Waiting(None, None),)
    return ()


def _offers(state: BattleState, actor: str, kinds: tuple[str, ...] | None = None) -> bool:
    """Does `actor` have a legal command now other than ending its turn or saying done (of
    `kinds` only, when given)? Stops at the first option found."""
    for kind, options in _kinds(state, actor).items():
        if kind in (END_TURN, DONE) or (kinds is not None and kind not in kinds):
            continue
        if next(iter(options()), None) is not None:
            return True
    return False


def forced(state: BattleState) -> Command | None:
    """The command the board sends by itself (protocol `forced`), when it is the only one
    anybody could send: "end_turn" for the unit or solo whose turn it is once neither it nor
    a solo joined to its stands has anything left to do (every stand has used its action
    and its move, §5.3-§5.4, or a surprised unit in round 1, §5.2); "done" for a unit at
    the end of the round with no casualty's space to slide into and no solo to rejoin
    (§6.2 step 1). Never the GM's commands."""
    if state.phase == ROUND and state.turn is not None:
        actor = state.turn.actor
        joined = [s.key for s in state.solos if acting_solo(state, s.key) and s.key != actor]
        if any(_offers(state, key) for key in (actor, *joined)):
            return None
        return Command(actor, END_TURN)
    if state.phase == CASUALTIES:
        for key in state.pending:
            if not _offers(state, key, (SLIDE_IN, REJOIN)):
                return Command(key, DONE)
    return None


def clock(state: BattleState) -> tuple[int, int]:
    """(round, index of the acting unit or solo in the initiative order); (0, 0) while
    deploying."""
    return (state.round, state.turn_index if state.phase == ROUND else 0)


def standing(state: BattleState) -> Standing:
    """Per unit its stands left of those it started with, their HP, and whether it broke,
    was eliminated or deserted; per solo its HP and whether it is dead, dying or gone; per
    side its VP (§7.1)."""
    forces = []
    for unit in state.units:
        stands = [s for s in state.stands if s.unit == unit.key]
        left = [s for s in stands if s.gone is None]
        flags = [name for name, happened in (
            ("broken", unit.broken), ("eliminated", not left),
            ("deserted", any(s.gone == "deserted" for s in stands)),
        ) if happened]  # fmt: skip
        forces.append(ForceStanding(unit.key, unit.side, "unit", "stands", len(left),
                                    unit.start_stands, tuple(flags),
                                    {"hp": sum(s.hp for s in left)}))  # fmt: skip
    for solo in state.solos:
        flags = [name for name, happened in (
            ("dead", solo.dead), ("dying", solo.dying), ("gone", solo.gone is not None),
        ) if happened]  # fmt: skip
        forces.append(ForceStanding(solo.key, solo.side, "solo", "hp", solo.hp, solo.max_hp,
                                    tuple(flags)))  # fmt: skip
    return Standing(
        state.sides, tuple(forces), {side: state.vp.get(side, 0) for side in state.sides}
    )
