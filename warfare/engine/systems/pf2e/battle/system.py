"""`SYSTEM`: the Pathfinder 2e war encounter behind the shared battle protocol
(`warfare.engine.battle.protocol`), the engine's functions with its auto-play policy.

A module of its own so that neither imports the other upwards: the policy builds on the
engine (`policy` imports `engine`), and this module imports both.
"""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.pf2e.battle.engine import (
    apply,
    awaiting,
    clock,
    forced,
    legal_actions,
    outcome,
    standing,
    start,
)
from warfare.engine.systems.pf2e.battle.policy import suggest
from warfare.engine.systems.pf2e.battle.state import BattleState

SYSTEM = FunctionSystem(
    key="pf2e",
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
