"""`SYSTEM`: the D&D 5e battle behind the shared battle protocol
(`warfare.engine.battle.protocol`), the engine's functions with its auto-play policy.

A module of its own so that neither imports the other upwards: the policy builds on the
engine (`policy` imports `engine`), and this module imports both.
"""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.dnd5e.battle.engine import (
    apply,
    awaiting,
    clock,
    forced,
    legal_actions,
    outcome,
    standing,
    start,
)
from warfare.engine.systems.dnd5e.battle.policy import suggest
from warfare.engine.systems.dnd5e.state import BattleState

SYSTEM = FunctionSystem(
    key="dnd5e",
    start=start,
    legal_actions=legal_actions,
    apply=apply,
    outcome=outcome,
    state_from_dict=BattleState.from_dict,
    awaiting=awaiting,
    suggest=suggest,
    clock=clock,
    standing=standing,
    forced=forced,
)
