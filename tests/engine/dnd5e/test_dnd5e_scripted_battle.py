"""A small battle played to the end through the protocol only (issue #6 acceptance): two
armies of three units each and one objective, a bridge (Destruction for the attackers,
with the paired Protection for the defenders, dnd5e §7.1-§7.2). Every command is one of the
options `legal_actions` lists; the dice are the battle's seeded dice."""

from tests.engine.dnd5e.helpers import setup, unit
from warfare.engine.battle.protocol import Command, Rejected, command_dice, replay
from warfare.engine.systems.dnd5e.battle import SYSTEM
from warfare.engine.systems.dnd5e.grid import steps
from warfare.engine.systems.dnd5e.rules import squares

BRIDGE = (6, 3)
DATA = setup(
    [unit("a1", "orc", [(1, 2), (1, 3), (1, 4)]),
     unit("a2", "orc", [(2, 0), (2, 1)], configuration="aid"),
     unit("a3", "scout", [(1, 6), (2, 6)], kind="skirmisher")],
    [unit("b1", "hobgoblin", [(8, 2), (8, 3)]),
     unit("b2", "guard", [(9, 5), (9, 6)]),
     unit("b3", "goblin", [(10, 0), (10, 1)], kind="skirmisher")],
    width=12, height=8,
    squares=[{"x": 6, "y": y, "terrain": "road"} for y in range(8)],
    objectives=[{"key": "bridge", "type": "destruction", "side": "a",
                 "squares": [{"x": 6, "y": 3, "hp": 40, "ac": 15, "vp": 10}]},
                {"key": "hold", "type": "protection", "side": "b", "paired": "bridge",
                 "vp": 1}],
)  # fmt: skip


def _goal(state, key):
    """Where a piece heads: the bridge for the attackers, the nearest enemy for the rest."""
    side = state.side_of(key)
    if side == "a" and state.objectives[0].squares[0].hp > 0:
        return (BRIDGE,)
    enemies = [s for s in state.stands if s.on_field and state.side_of(s.key) != side]
    mine = squares(state, key)
    if not enemies:
        return (BRIDGE,)
    nearest = min(enemies, key=lambda e: steps(mine, squares(state, e.key)))
    return squares(state, nearest.key)


def _choose(state, actor, moved):
    """A simple general: attack the bridge or the first target, else move each stand once
    toward its goal, else end the turn."""
    specs = {s.key: s for s in SYSTEM.legal_actions(state, actor)}
    if "done" in specs:
        return Command(actor, "done", {})
    if "attack" in specs:
        options = specs["attack"].options
        bridge = [o for o in options if o.params["target"].startswith("sq:")]
        return Command(actor, "attack", (bridge or options)[0].params)
    if "move" in specs:
        for option in specs["move"].options:
            piece = option.params["piece"]
            if piece in moved:
                continue
            best = min(
                (o for o in specs["move"].options if o.params["piece"] == piece),
                key=lambda o: steps(((o.params["x"], o.params["y"]),), _goal(state, piece)),
            )
            moved.add(piece)
            here = squares(state, piece)
            if steps(((best.params["x"], best.params["y"]),), _goal(state, piece)) < steps(
                here, _goal(state, piece)
            ):
                return Command(actor, "move", best.params)
    return Command(actor, "end_turn", {})


def test_a_small_battle_to_the_end():
    """Play until `outcome` is not None; the winner has 10+ VP (§7.3) and the log replays."""
    seed = 2026
    state = SYSTEM.start(DATA, seed)
    commands: list[Command] = []
    moved: set[str] = set()
    turn = None
    while SYSTEM.outcome(state) is None:
        assert len(commands) < 500, "the battle should end"
        if state.phase == "draw":
            command = Command(None, "declare_draw", {})
        else:
            actor = state.pending[0] if state.phase == "casualties" else state.current
            if (state.round, actor) != turn:
                turn, moved = (state.round, actor), set()
            command = _choose(state, actor, moved)
        result = SYSTEM.apply(state, command, command_dice(seed, len(commands)))
        assert not isinstance(result, Rejected), (command, result.problems)
        state, _ = result
        commands.append(command)
    outcome = SYSTEM.outcome(state)
    # With this seed the orcs break the bridge (40 HP, auto-hit in melee) in round 3.
    assert (outcome.winner, outcome.losers) == ("a", ("b",))
    assert outcome.details["result"] == "total" and outcome.details["vp"] == {"a": 10, "b": 0}
    assert state.round == 3 and state.objectives[0].squares[0].hp == 0
    replayed, events = replay(SYSTEM, DATA, seed, commands)
    assert replayed == state
    assert events[-1].code == "dnd5e.battle_end"
