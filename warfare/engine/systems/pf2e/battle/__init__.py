"""PF2e Kingmaker war encounters (§7-§9) behind the shared battle protocol
(`warfare.engine.battle.protocol`): `SYSTEM.start / legal_actions / apply / outcome`.

Modules: `state` (frozen, JSON-ready battle state), `rules` (effective stat blocks, checks,
damage, conditions), `actions` (the war actions of §8), `engine` (setup, initiative, turns,
rout checks, the end of the encounter, GM corrections, outcome).
"""

from warfare.engine.systems.pf2e.battle.engine import (
    END_TURN,
    GM_CORRECTION,
    apply,
    legal_actions,
    outcome,
    start,
    validate_setup,
)
from warfare.engine.systems.pf2e.battle.state import BattleArmy, BattleState, Effect, Fortification
from warfare.engine.systems.pf2e.battle.system import SYSTEM

__all__ = [
    "END_TURN",
    "GM_CORRECTION",
    "SYSTEM",
    "BattleArmy",
    "BattleState",
    "Effect",
    "Fortification",
    "apply",
    "legal_actions",
    "outcome",
    "start",
    "validate_setup",
]
