"""The toy rule system's battle engine: pure Python, like every engine under
`warfare/engine/systems/` (no Django).

Two sides, a and b, take turns; the one whose turn it is sends "attack": a d6, a hit on 4 or
more. The first side to score 3 hits wins.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from warfare.engine.battle import protocol
from warfare.engine.events import Event
from warfare.engine.problems import Problem

KEY = "toy"
SIDES = ("a", "b")
HIT_ON = 4
HITS_TO_WIN = 3


@dataclass(frozen=True)
class ToyState:
    names: Mapping[str, str]
    turn: str | None = "a"
    round: int = 1
    hits: Mapping[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    winner: str | None = None
    opening: tuple[Event, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": dict(self.names),
            "turn": self.turn,
            "round": self.round,
            "hits": dict(self.hits),
            "winner": self.winner,
            "opening": [event.to_dict() for event in self.opening],
        }


def state_from_dict(data: Mapping[str, Any]) -> ToyState:
    return ToyState(
        names=dict(data["names"]),
        turn=data.get("turn"),
        round=int(data.get("round", 1)),
        hits={side: int(value) for side, value in data["hits"].items()},
        winner=data.get("winner"),
        opening=tuple(Event.from_dict(event) for event in data.get("opening") or ()),
    )


def start(setup: Mapping[str, Any], seed: int) -> ToyState:
    sides = setup.get("sides") or []
    if [side.get("key") for side in sides] != list(SIDES):
        raise protocol.SetupError([Problem("toy.setup.two_sides")])
    names = {side["key"]: str(side.get("name") or side["key"]) for side in sides}
    opening = (Event("toy.started", {"first": "a"}),)
    return ToyState(names=names, opening=opening)


def legal_actions(state: ToyState, actor: str) -> list[protocol.ActionSpec]:
    if state.winner is not None or actor != state.turn:
        return []
    check = protocol.CheckPreview(stat="attack", modifier=0, modifier_breakdown=(), dc=HIT_ON)
    return [
        protocol.ActionSpec(key="attack", cost=1, options=(protocol.ActionOption({}, (check,)),))
    ]


def apply(
    state: ToyState, command: protocol.Command, dice
) -> tuple[ToyState, list[Event]] | protocol.Rejected:
    if state.winner is not None:
        return protocol.Rejected((Problem("toy.over"),))
    if command.kind != "attack":
        return protocol.Rejected((Problem("toy.unknown_command", {"kind": command.kind}),))
    if command.actor != state.turn:
        return protocol.Rejected((Problem("toy.not_your_turn", {"side": command.actor}),))
    side = state.turn
    target = "b" if side == "a" else "a"
    roll = dice.roll(6, purpose="attack")
    hit = roll >= HIT_ON
    hits = {**state.hits, side: state.hits[side] + int(hit)}
    events = [Event("toy.attack", {"side": side, "target": target, "roll": roll, "hit": hit})]
    if hits[side] >= HITS_TO_WIN:
        events.append(Event("toy.won", {"side": side}))
        return replace(state, hits=hits, winner=side, turn=None), events
    next_round = state.round + (1 if side == "b" else 0)
    if next_round != state.round:
        events.append(Event("toy.round_started", {"round": next_round}))
    return replace(state, hits=hits, turn=target, round=next_round), events


def outcome(state: ToyState) -> protocol.Outcome | None:
    if state.winner is None:
        return None
    loser = "b" if state.winner == "a" else "a"
    return protocol.Outcome(
        state.winner, (loser,), {"hits": dict(state.hits), "rounds": state.round}
    )


def awaiting(state: ToyState) -> tuple[protocol.Waiting, ...]:
    return () if state.turn is None else (protocol.Waiting(state.turn, state.turn),)


def suggest(state: ToyState, actor: str | None) -> protocol.Command:
    if actor is None or actor != state.turn:
        raise ValueError(f"the board does not wait for {actor!r}")
    return protocol.Command(actor, "attack")


def clock(state: ToyState) -> tuple[int, int]:
    return state.round, 0 if state.turn == "a" else 1


def standing(state: ToyState) -> protocol.Standing:
    forces = tuple(
        protocol.ForceStanding(key=side, side=side, kind="side", measure="hits",
                      left=HITS_TO_WIN - state.hits["b" if side == "a" else "a"],
                      start=HITS_TO_WIN)
        for side in SIDES
    )  # fmt: skip
    return protocol.Standing(sides=SIDES, forces=forces, scores=dict(state.hits))


SYSTEM = protocol.FunctionSystem.of_module(KEY, globals())
