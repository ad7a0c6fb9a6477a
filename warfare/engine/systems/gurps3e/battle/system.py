"""`SYSTEM`: the GURPS 3e battle behind the shared battle protocol
(`warfare.engine.battle.protocol`), the engine's functions with its auto-play policy.

A module of its own so that neither imports the other upwards: the policy builds on the
engine (`policy` imports `engine`), and this module imports both.
"""

from warfare.engine.battle.protocol import FunctionSystem
from warfare.engine.systems.gurps3e.battle.engine import (
    apply,
    awaiting,
    clock,
    legal_actions,
    outcome,
    standing,
    start,
)
from warfare.engine.systems.gurps3e.battle.policy import suggest
from warfare.engine.systems.gurps3e.battle.state import BattleState

SYSTEM = FunctionSystem(
    key="gurps3e",
    start=start,
    legal_actions=legal_actions,
    apply=apply,
    outcome=outcome,
    state_from_dict=BattleState.from_dict,
    awaiting=awaiting,
    suggest=suggest,
    clock=clock,
    standing=standing,
)
