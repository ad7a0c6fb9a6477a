"""GURPS Mass Combat 4e battles behind the shared battle protocol: `SYSTEM` (key "gurps4e").

Modules: `state` (frozen, JSON-ready battle state), `engine` (setup and reconnaissance, the
rounds, the end, `public_state` for what a viewer may see). The rules themselves live in the
parent package (`prebattle`, `rounds`, `aftermath`, `forces`, `strategies`).
"""

from warfare.engine.systems.gurps4e.battle.engine import (
    GM_COMMANDS,
    KEY,
    apply,
    legal_actions,
    outcome,
    public_state,
    start,
    validate_setup,
)
from warfare.engine.systems.gurps4e.battle.state import BattleState
from warfare.engine.systems.gurps4e.battle.system import SYSTEM

__all__ = [
    "GM_COMMANDS",
    "KEY",
    "SYSTEM",
    "BattleState",
    "apply",
    "legal_actions",
    "outcome",
    "public_state",
    "start",
    "validate_setup",
]
