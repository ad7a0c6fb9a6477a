"""Which battle engine runs which rule system: `BATTLE_SYSTEMS` and `get_battle_system`.

Kept apart from `protocol` so that a system's battle package can import the protocol while
this module imports the systems. The four engines of the project are listed here, so the
engine runs without Django (forecasts, bench, replay); another engine (a rule system outside
this package, e.g. the test-only toy system) registers itself with `register_battle_system`.
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


def register_battle_system(system: BattleSystem) -> BattleSystem:
    """Add an engine under its `key` (a rule system's app does it when it is ready)."""
    BATTLE_SYSTEMS[system.key] = system
    return system


def get_battle_system(key: str) -> BattleSystem:
    """The battle engine of rule system `key` (KeyError if it has none yet)."""
    try:
        return BATTLE_SYSTEMS[key]
    except KeyError:
        raise KeyError(f"No battle engine for rule system {key!r}.") from None
