"""Battle set-ups for the engine benchmarks (pure Python, no database).

* pf2e: three armies a side, the level-3 armies of the Pathfinder demo campaign
  (`kingdoms/demo.py`) plus a third each (archers for the kingdom, skirmishers for the horde);
* gurps4e, gurps3e, dnd5e: the demo battles `make run` loads (`warfare/systems/gurps4e/demo.py`,
  `warfare/systems/gurps3e/demo.py`, `warfare/systems/dnd5e/demo.py`), their set-up JSON captured in
  `fixtures/<system>_demo.json` from a freshly loaded demo.
"""

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from warfare.engine.systems.pf2e.activities.state import new_army_state
from warfare.engine.systems.pf2e.armies import new_basic_spec
from warfare.engine.systems.pf2e.gear import GearChoice
from warfare.engine.systems.pf2e.tables import ArmyType

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SYSTEMS = ("pf2e", "gurps4e", "gurps3e", "dnd5e")


def pf2e_army(key: str, army_type: str, tactics: tuple[str, ...] = (), gear=()) -> dict:
    spec = new_basic_spec(ArmyType(army_type), 3, tactics)
    spec = replace(spec, gear=tuple(GearChoice(g) for g in gear))
    return {"army": new_army_state(key, spec, "C7").to_dict()}


def pf2e_three_vs_three() -> dict[str, Any]:
    return {
        "sides": [
            {"key": "silverrun", "pcs_side": True, "kingdom_level": 3, "armies": [
                pf2e_army("militia", "infantry", ("toughened_soldiers",)),
                pf2e_army("riders", "cavalry"),
                pf2e_army("archers", "skirmisher", (), ("additional_weapon",)),
            ]},
            {"key": "horde", "kingdom_level": 4, "armies": [
                pf2e_army("spears", "infantry", ("hold_the_line",)),
                pf2e_army("outriders", "cavalry", ("keen_eyed",)),
                pf2e_army("raiders", "skirmisher"),
            ]},
        ],
        "terrain": [],
        "fortifications": [],
    }  # fmt: skip


def scenario(system: str) -> tuple[dict[str, Any], int]:
    """(set-up, seed) of the benchmark battle of `system`."""
    if system == "pf2e":
        return pf2e_three_vs_three(), 20261201
    data = json.loads((FIXTURES / f"{system}_demo.json").read_text())
    return data["setup"], int(data["seed"])
