"""GURPS 3e battles (gurps §B.2) behind the shared battle protocol
(`warfare.engine.battle.protocol`): `SYSTEM.start / legal_actions / apply / outcome`.

Modules: `state` (frozen, JSON-ready battle state and events), `engine` (setup, the actors'
choices, the resolution of a battle or of each day of an extended battle, outcome).
`SYSTEM` is registered in `warfare.engine.battle.registry` as "gurps3e".
"""

from warfare.engine.systems.gurps3e.battle.engine import (
    CHOOSE_RISK,
    COMMIT,
    GM_CASUALTIES,
    GM_MODIFIERS,
    apply,
    legal_actions,
    outcome,
    start,
    validate_setup,
)
from warfare.engine.systems.gurps3e.battle.state import BattleState, Event
from warfare.engine.systems.gurps3e.battle.system import SYSTEM

__all__ = [
    "CHOOSE_RISK",
    "COMMIT",
    "GM_CASUALTIES",
    "GM_MODIFIERS",
    "SYSTEM",
    "BattleState",
    "Event",
    "apply",
    "legal_actions",
    "outcome",
    "start",
    "validate_setup",
]
