"""The state of a PF2e war encounter (§7): frozen, JSON-ready (`to_dict` / `from_dict`).

* `BattleArmy`: one army on the field: its `ArmyState` (HP and lasting conditions live there,
  so what it carries out of the battle is exact), side, position (near / distant / fled),
  shots left, fortification, PCs alongside (§7.7), per-turn counters.
* `Effect`: a temporary condition with a duration ("mired 1 until the start of its next
  turn"), kept apart from the army's lasting conditions and merged in when a stat block is
  derived (`rules.effective_block`).
* `Fortification` (§7.5) and engagement as a relation between pairs of armies (§7.2).
* `BattleState.positions`: the starting positions still to take before round 1 (§7.3), while
  an army's controller chooses its own (Ambush, Opening Salvo, Swamp Charge).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from warfare.engine.frozen import replace
from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.state import DESTROYED, ArmyState
from warfare.engine.systems.pf2e.conditions import implied_by

NEAR, DISTANT, FLED = "near", "distant", "fled"
POSITIONS = (NEAR, DISTANT, FLED)

TURN_START, TURN_END, NEXT_STRIKE, ENCOUNTER = "turn_start", "turn_end", "next_strike", "encounter"
BOUNDARIES = (TURN_START, TURN_END, NEXT_STRIKE, ENCOUNTER)


@dataclass(frozen=True)
class Effect:
    """A temporary condition on `army`.

    `condition`: a §9 condition key (mired, outflanked, shaken, weary…) or a battle effect
    ("guarded": item bonus to AC; "no_reactions"; "no_maneuver_reactions"). `by`: the army
    that caused it (Defensive Stance removes "outflanked by" one army). `against`: it only
    counts against this army's attacks (Guard success, Feint success). It ends at the
    `remaining`-th `boundary` (start or end) of `owner`'s turn; "next_strike" effects end when
    `against` Strikes the army (and at the end of `owner`'s turn), "encounter" ones never.
    """

    code: str
    army: str
    condition: str
    value: int = 1
    by: str | None = None
    against: str | None = None
    boundary: str = TURN_START
    owner: str | None = None
    remaining: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "army": self.army,
            "condition": self.condition,
            "value": self.value,
            "by": self.by,
            "against": self.against,
            "boundary": self.boundary,
            "owner": self.owner,
            "remaining": self.remaining,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Effect":
        return cls(**dict(data))


@dataclass(frozen=True)
class Fortification:
    """A fortification on the field (§7.5); the armies inside name it in `fortification`."""

    key: str
    kind: str
    side: str
    ac: int
    hp: int
    max_hp: int
    capacity: int

    @property
    def destroyed(self) -> bool:
        return self.hp <= 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "side": self.side,
            "ac": self.ac,
            "hp": self.hp,
            "max_hp": self.max_hp,
            "capacity": self.capacity,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Fortification":
        return cls(**dict(data))


@dataclass(frozen=True)
class BattleArmy:
    """One army in the encounter.

    `attacks`: the targets of its attack actions this turn, in order (MAP, §0.4).
    `next_attack_bonus`: (target it must NOT be, bonus) after an All-Out Assault critical
    success (§8.2). `rout_exempt`: a critical success at an end-of-round rout check (§7.3).
    `took_damage` / `was_routed`: what the end of the encounter and §7.6 read.
    `treated`: Battlefield Medicine already targeted it this encounter.
    `auto_reactions`: its side lets the engine use its reactions automatically when
    triggered (setup flag per side, default true). `reaction_used`: it has used its 1
    reaction (§0.5); reset at the start of its turn. `spent`: the once-per-encounter
    actions it has used (Furious Charge, Swift Recovery, §6.2).
    """

    key: str
    side: str
    army: ArmyState
    position: str = NEAR
    shots: int = 0
    fortification: str | None = None
    pcs: bool = False
    initiative_bonus: int = 0
    rout_exempt: bool = False
    took_damage: bool = False
    was_routed: bool = False
    treated: bool = False
    attacks: tuple[str, ...] = ()
    next_attack_bonus: tuple[str, int] | None = None
    disengage_blocked: bool = False
    auto_reactions: bool = True
    reaction_used: bool = False
    spent: tuple[str, ...] = ()

    @property
    def hp(self) -> int:
        return self.army.hp

    @property
    def destroyed(self) -> bool:
        return self.army.status == DESTROYED

    @property
    def fled(self) -> bool:
        return self.position == FLED

    @property
    def present(self) -> bool:
        """Still on the battlefield (not `fled`, not `destroyed`)."""
        return self.position != FLED and self.army.status != DESTROYED

    @property
    def defeated(self) -> bool:
        return self.army.defeated

    @property
    def routed(self) -> bool:
        return "routed" in implied_by(self.army.spec.conditions)  # type: ignore[arg-type]

    @property
    def out_of_fight(self) -> bool:
        """Counts as beaten for victory (§7.3 step 5): defeated, routed, fled or destroyed
        (`present`, `defeated` and `routed` in one go: the end of every command asks it of
        every army)."""
        army = self.army
        if self.position == FLED or army.status == DESTROYED or army.hp == 0:
            return True
        implied = implied_by(army.spec.conditions)  # type: ignore[arg-type]
        return "defeated" in implied or "routed" in implied

    def with_army(self, army: ArmyState) -> "BattleArmy":
        return replace(self, army=army)

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "side": self.side,
            "army": self.army.to_dict(),
            "position": self.position,
            "shots": self.shots,
            "fortification": self.fortification,
            "pcs": self.pcs,
            "initiative_bonus": self.initiative_bonus,
            "rout_exempt": self.rout_exempt,
            "took_damage": self.took_damage,
            "was_routed": self.was_routed,
            "treated": self.treated,
            "attacks": list(self.attacks),
            "next_attack_bonus": (
                list(self.next_attack_bonus) if self.next_attack_bonus is not None else None
            ),
            "disengage_blocked": self.disengage_blocked,
            "auto_reactions": self.auto_reactions,
            "reaction_used": self.reaction_used,
            "spent": list(self.spent),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BattleArmy":
        data = {**_ARMY_DEFAULTS, **data}  # (a key an older snapshot lacks: its default)
        bonus = data["next_attack_bonus"]
        return cls(
            key=str(data["key"]),
            side=str(data["side"]),
            army=ArmyState.from_dict(data["army"]),
            position=data["position"],
            shots=int(data["shots"]),
            fortification=data["fortification"],
            pcs=bool(data["pcs"]),
            initiative_bonus=int(data["initiative_bonus"]),
            rout_exempt=bool(data["rout_exempt"]),
            took_damage=bool(data["took_damage"]),
            was_routed=bool(data["was_routed"]),
            treated=bool(data["treated"]),
            attacks=tuple(data["attacks"]),
            next_attack_bonus=(str(bonus[0]), int(bonus[1])) if bonus else None,
            disengage_blocked=bool(data["disengage_blocked"]),
            auto_reactions=bool(data["auto_reactions"]),
            reaction_used=bool(data["reaction_used"]),
            spent=tuple(data["spent"]),
        )


_ARMY_DEFAULTS: dict[str, Any] = {
    "position": NEAR, "shots": 0, "fortification": None, "pcs": False, "initiative_bonus": 0,
    "rout_exempt": False, "took_damage": False, "was_routed": False, "treated": False,
    "attacks": (), "next_attack_bonus": None, "disengage_blocked": False,
    "auto_reactions": True, "reaction_used": False, "spent": (),
}  # fmt: skip
"""`BattleArmy.from_dict`'s values for the keys a snapshot may lack (one merge, not a
look-up per key: a board reads every army of its snapshot on every request)."""


@dataclass(frozen=True)
class InitiativeRoll:
    """One army's initiative (§7.3 step 1): a Scouting check without a DC."""

    army: str
    die: int
    source: str
    modifier: int
    breakdown: tuple[tuple[str, int], ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "army": self.army,
            "die": self.die,
            "source": self.source,
            "modifier": self.modifier,
            "breakdown": [list(term) for term in self.breakdown],
            "total": self.total,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "InitiativeRoll":
        return cls(
            army=str(data["army"]),
            die=int(data["die"]),
            source=str(data["source"]),
            modifier=int(data["modifier"]),
            breakdown=tuple((str(c), int(v)) for c, v in data["breakdown"]),
            total=int(data["total"]),
        )


@dataclass(frozen=True)
class Pending:
    """A reaction offered to its controller (§0.5): the engine waits for "use_reaction" or
    "decline_reaction" from `army` before the interrupted command goes on.

    `reaction`: its key (counterattack, false_retreat, revel_in_battle, accustomed_to_panic);
    `trigger`: what triggered it (a war action key, "rout_check", a condition's reason);
    `by`: the army whose action triggered it; `target`: the army the reaction acts on, if any.
    To resume exactly, the interrupted `command` is run again from the state `before` it with
    the recorded `rolls` replayed first and the earlier `answers` given again (the events up
    to the pause, `logged` of them, are already in the log); `typed`: die results typed in
    with the interrupted command (or an earlier answer) and not used yet.
    """

    army: str
    reaction: str
    trigger: str
    by: str | None
    target: str | None
    command: Mapping[str, Any]
    before: Mapping[str, Any]
    answers: tuple[bool, ...] = ()
    rolls: tuple[Mapping[str, Any], ...] = ()
    typed: tuple[int, ...] = ()
    logged: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "army": self.army,
            "reaction": self.reaction,
            "trigger": self.trigger,
            "by": self.by,
            "target": self.target,
            "command": dict(self.command),
            "before": dict(self.before),
            "answers": list(self.answers),
            "rolls": [dict(roll) for roll in self.rolls],
            "typed": list(self.typed),
            "logged": self.logged,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Pending":
        return cls(
            army=str(data["army"]),
            reaction=str(data["reaction"]),
            trigger=str(data["trigger"]),
            by=data.get("by"),
            target=data.get("target"),
            command=dict(data["command"]),
            before=dict(data["before"]),
            answers=tuple(bool(a) for a in data.get("answers", ())),
            rolls=tuple(dict(roll) for roll in data.get("rolls", ())),
            typed=tuple(int(value) for value in data.get("typed", ())),
            logged=int(data.get("logged", 0)),
        )


_BY_KEY = "_armies_by_key"
"""`BattleState.army`'s look-up, kept in the state's `__dict__` (outside the fields:
equality, `to_dict` and `dataclasses` never read it): (the armies tuple it was made from,
held, so the identity check cannot match another tuple; each army by key; each army's place
by key). `replace` copies it to the states made from this one: it serves them while their
armies are that very tuple; `with_army` makes the new state's from it."""


_ENGAGED: tuple[Any, dict[Any, tuple[str, ...]]] = ((), {})
"""`BattleState.engaged_with` of the last engagements tuple it read, per army (with that
tuple, held, so the identity check cannot match another one): engagements change seldom and
every check asks. One assignment of a pair, so a thread sees a pair that belongs together."""


_ENGAGED_BY_VALUE: dict[tuple[tuple[str, str], ...], dict[Any, tuple[str, ...]]] = {}
"""`BattleState.engaged_with` per engagements tuple by value (bounded: `ENGAGEMENTS_KEPT`)."""
ENGAGEMENTS_KEPT = 4096


def pair(a: str, b: str) -> tuple[str, str]:
    """An engagement as an ordered pair (the relation is symmetric)."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class BattleState:
    """A war encounter between two sides (§7).

    `order`: army keys by initiative; `turn`: index of the army acting; `actions_left`: of
    its 3 (§0.5). `finished` / `winner`: set when a side is beaten (§7.3 step 5).
    `kingdoms`: {side: {"level": int | None}} for XP (§7.6). `sequence`: commands applied.
    `pending`: a reaction offered to its controller, waiting for the answer (None: none).
    `positions`: the positions phase before round 1 (§7.3, §6.1 Ambush / Opening Salvo, §6.2
    Swamp Charge): the starting positions still to take, in initiative order, as (army,
    start, target); start None: its controller chooses it now (the first entry is the army
    whose choice is due). Empty once round 1 has begun.
    """

    sides: tuple[str, ...]
    armies: tuple[BattleArmy, ...]
    order: tuple[str, ...]
    initiative: tuple[InitiativeRoll, ...] = ()
    pc_side: str | None = None
    kingdoms: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    terrain: tuple[str, ...] = ()
    fortifications: tuple[Fortification, ...] = ()
    engagements: tuple[tuple[str, str], ...] = ()
    effects: tuple[Effect, ...] = ()
    round: int = 1
    turn: int = 0
    actions_left: int = 3
    finished: bool = False
    winner: str | None = None
    sequence: int = 0
    opening: tuple[Event, ...] = ()
    """The events of `start` (initiative, starting positions, refused start options)."""
    pending: Pending | None = None
    positions: tuple[tuple[str, str | None, str | None], ...] = ()
    typed_dice_by_roll: bool = False
    """Die results typed in go to the rolls of the command they were typed with, never to a
    reaction it triggers; a reaction's rolls take those typed in with its answer (setup flag
    of battles set up since: older battles replay as they were played)."""

    # --- reading -----------------------------------------------------------------------------

    def army(self, key: str) -> BattleArmy:
        try:
            held = self._armies_by_key
            if held[0] is self.armies:
                return held[1][key]
        except (AttributeError, KeyError, TypeError):
            pass
        return self._find(key)

    def _find(self, key: Any) -> BattleArmy:
        """`army` by a scan, keeping the armies by key for the next look-ups (`_BY_KEY`)."""
        armies = self.armies
        by_key: dict[str, BattleArmy] = {}
        places: dict[str, int] = {}
        for i, entry in enumerate(armies):
            if entry.key not in by_key:  # (the first of a key, as the scan finds it)
                by_key[entry.key] = entry
                places[entry.key] = i
        object.__setattr__(self, _BY_KEY, (armies, by_key, places))
        for entry in armies:
            if entry.key == key:
                return entry
        raise KeyError(key)

    def has_army(self, key: object) -> bool:
        try:
            self.army(key)  # type: ignore[arg-type]
        except KeyError:
            return False
        return True

    def fortification(self, key: str) -> Fortification:
        for entry in self.fortifications:
            if entry.key == key:
                return entry
        raise KeyError(key)

    @property
    def current(self) -> str | None:
        """The army whose turn it is (None once the battle is over, while a reaction offered
        at the end of a round waits for its answer, and before round 1 while starting
        positions are chosen)."""
        if self.positions or self.finished or not self.order or self.turn >= len(self.order):
            return None
        return self.order[self.turn]

    @property
    def to_act(self) -> str | None:
        """The army whose controller the board waits for: the reacting army while a reaction
        is offered (`pending`), the army choosing its starting position (`positions`), else
        the army whose turn it is."""
        if self.pending is not None:
            return self.pending.army
        return self.positions[0][0] if self.positions else self.current

    def engaged_with(self, key: str) -> tuple[str, ...]:
        global _ENGAGED
        engagements = self.engagements
        last = _ENGAGED
        if last[0] is not engagements:
            # The answers depend on the pairs only: an equal tuple (another state's, another
            # battle's) shares the answers already found for its pairs.
            try:
                answers = _ENGAGED_BY_VALUE[engagements]
            except KeyError:
                if len(_ENGAGED_BY_VALUE) >= ENGAGEMENTS_KEPT:
                    _ENGAGED_BY_VALUE.clear()
                answers = _ENGAGED_BY_VALUE[engagements] = {}
            except TypeError:  # unhashable engagements: answers for this tuple alone
                answers = {}
            last = _ENGAGED = (engagements, answers)
        try:
            return last[1][key]
        except KeyError:
            found = last[1][key] = tuple(
                sorted(b if a == key else a for a, b in engagements if key in (a, b))
            )
            return found
        except TypeError:  # an unhashable key: engaged with nobody
            return ()

    def is_engaged(self, a: str, b: str) -> bool:
        return pair(a, b) in self.engagements

    def enemies(self, key: str) -> tuple[BattleArmy, ...]:
        side = self.army(key).side
        return tuple([entry for entry in self.armies if entry.side != side])  # (no generator)

    def allies(self, key: str) -> tuple[BattleArmy, ...]:
        side = self.army(key).side
        return tuple([entry for entry in self.armies if entry.side == side])

    def inside(self, fortification: str) -> tuple[BattleArmy, ...]:
        return tuple(
            entry for entry in self.armies if entry.fortification == fortification and entry.present
        )

    # --- changing (new states) -----------------------------------------------------------------

    def with_army(self, updated: BattleArmy, **changes: Any) -> "BattleState":
        """This state with `updated` in place of the army of its key (this very state when
        it is already there and nothing else changes: the armies' stat blocks, kept per
        entry, stay valid), and the other field `changes` made in the same copy."""
        armies, key = self.armies, updated.key
        try:
            held = self._armies_by_key
            if held[0] is not armies:
                raise AttributeError(_BY_KEY)
            places = held[2]
            i = places[key]
        except (AttributeError, KeyError, TypeError):
            return replace(
                self,
                armies=tuple(updated if entry.key == key else entry for entry in armies),
                **changes,
            )
        if armies[i] is updated:
            return replace(self, **changes) if changes else self
        new_armies = (*armies[:i], updated, *armies[i + 1 :])
        new = replace(self, armies=new_armies, **changes)
        by_key = held[1].copy()
        by_key[key] = updated
        object.__setattr__(new, _BY_KEY, (new_armies, by_key, places))
        return new

    def with_fortification(self, updated: Fortification) -> "BattleState":
        return replace(
            self,
            fortifications=tuple(
                updated if entry.key == updated.key else entry for entry in self.fortifications
            ),
        )

    def engage(self, a: str, b: str) -> "BattleState":
        if self.is_engaged(a, b):
            return self
        return replace(self, engagements=tuple(sorted({*self.engagements, pair(a, b)})))

    def disengage(self, a: str, b: str) -> "BattleState":
        return replace(self, engagements=tuple(p for p in self.engagements if p != pair(a, b)))

    def disengage_all(self, key: str) -> "BattleState":
        return replace(self, engagements=tuple(p for p in self.engagements if key not in p))

    # --- storage -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = {
            "system": "pf2e",
            "sides": list(self.sides),
            "armies": [entry.to_dict() for entry in self.armies],
            "order": list(self.order),
            "initiative": [entry.to_dict() for entry in self.initiative],
            "pc_side": self.pc_side,
            "kingdoms": {side: dict(data) for side, data in self.kingdoms.items()},
            "terrain": list(self.terrain),
            "fortifications": [entry.to_dict() for entry in self.fortifications],
            "engagements": [list(p) for p in self.engagements],
            "effects": [entry.to_dict() for entry in self.effects],
            "round": self.round,
            "turn": self.turn,
            "actions_left": self.actions_left,
            "finished": self.finished,
            "winner": self.winner,
            "sequence": self.sequence,
            "opening": [event.to_dict() for event in self.opening],
        }
        if self.pending is not None:  # only while a reaction waits (older snapshots lack it)
            data["pending"] = self.pending.to_dict()
        if self.positions:  # only while starting positions are chosen (idem)
            data["positions"] = [list(entry) for entry in self.positions]
        if self.typed_dice_by_roll:  # idem: older snapshots lack it
            data["typed_dice_by_roll"] = True
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BattleState":
        data = {**_STATE_DEFAULTS, **data}  # (a key an older snapshot lacks: its default)
        return cls(
            sides=tuple(data["sides"]),
            armies=tuple(BattleArmy.from_dict(entry) for entry in data["armies"]),
            order=tuple(data["order"]),
            initiative=tuple(InitiativeRoll.from_dict(e) for e in data["initiative"]),
            pc_side=data["pc_side"],
            kingdoms={side: dict(v) for side, v in (data["kingdoms"] or {}).items()},
            terrain=tuple(data["terrain"]),
            fortifications=tuple(
                Fortification.from_dict(entry) for entry in data["fortifications"]
            ),
            engagements=tuple((str(a), str(b)) for a, b in data["engagements"]),
            effects=tuple(Effect.from_dict(entry) for entry in data["effects"]),
            round=int(data["round"]),
            turn=int(data["turn"]),
            actions_left=int(data["actions_left"]),
            finished=bool(data["finished"]),
            winner=data["winner"],
            sequence=int(data["sequence"]),
            opening=tuple(Event.from_dict(event) for event in data["opening"]),
            pending=Pending.from_dict(data["pending"]) if data["pending"] else None,
            positions=tuple((str(key), start, target) for key, start, target in data["positions"]),
            typed_dice_by_roll=bool(data["typed_dice_by_roll"]),
        )


_STATE_DEFAULTS: dict[str, Any] = {
    "initiative": (), "pc_side": None, "kingdoms": None, "terrain": (), "fortifications": (),
    "engagements": (), "effects": (), "round": 1, "turn": 0, "actions_left": 3,
    "finished": False, "winner": None, "sequence": 0, "opening": (), "pending": None,
    "positions": (), "typed_dice_by_roll": False,
}  # fmt: skip
"""`BattleState.from_dict`'s values for the keys a snapshot may lack (see `_ARMY_DEFAULTS`)."""
