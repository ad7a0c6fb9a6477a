"""D&D 5e "When Armies Clash" battles behind the shared protocol: `SYSTEM` (key "dnd5e"),
not registered here. Modules: `actions` (the turn's actions, §4.3-§5.7, §8) and `engine`
(setup, deployment, initiative, turns, the end of the round, the outcome, the board rows).
"""

from warfare.engine.systems.dnd5e.battle.engine import (
    apply,
    board,
    legal_actions,
    outcome,
    start,
    validate_setup,
)
from warfare.engine.systems.dnd5e.battle.system import SYSTEM

__all__ = [
    "SYSTEM",
    "apply",
    "board",
    "legal_actions",
    "outcome",
    "start",
    "validate_setup",
]
