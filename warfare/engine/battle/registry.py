"""Which battle engine runs which rule system: `BATTLE_SYSTEMS` and `get_battle_system`.

Kept apart from `protocol` so that a system's battle package can import the protocol while
this module imports the systems.
"""

from warfare.engine.battle.protocol import BattleSystem
from warfare.engine.systems.dnd5e.battle import SYSTEM as DND5E
from warfare.engine.systems.gurps3e.battle import SYSTEM as GURPS3E
from warfare.engine.systems.gurps4e.battle import SYSTEM as GURPS4E
from warfare.engine.systems.pf2e.battle import SYSTEM as PF2E

BATTLE_SYSTEMS: dict[str, BattleSystem] = {
    "pf2e": PF2E,
    "gurps4e": GURPS4E,
    "gurps3e": GURPS3E,
    "dnd5e": DND5E,
}


def get_battle_system(key: str) -> BattleSystem:
    """The battle engine of rule system `key` (KeyError if it has none yet)."""
    try:
        return BATTLE_SYSTEMS[key]
    except KeyError:
        raise KeyError(f"No battle engine for rule system {key!r}.") from None
