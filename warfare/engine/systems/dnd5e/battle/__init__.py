"""D&D 5e "When Armies Clash" battles behind the shared protocol: `SYSTEM` (key "dnd5e"),
not registered here. Modules: `actions` (the turn's actions, §4.3-§5.7, §8) and `engine`
(setup, deployment, initiative, turns, the end of the round, the outcome, the board rows).
"""

from warfare.engine.systems.dnd5e.battle.engine import (
    SYSTEM,
    DnD5eBattleSystem,
    apply,
    board,
    legal_actions,
    outcome,
    start,
    validate_setup,
)

__all__ = [
    "SYSTEM",
    "DnD5eBattleSystem",
    "apply",
    "board",
    "legal_actions",
    "outcome",
    "start",
    "validate_setup",
]
