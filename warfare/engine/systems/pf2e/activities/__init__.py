"""PF2e Kingmaker Army activities (§4) and the kingdom turn's army upkeep (§9, §10.2, §7.8).

Pure functions over frozen state: plan an activity (`plan_activity` -> `ActivityPlan` or
problems), resolve it with injected dice (`resolve_activity` -> `ActivityOutcome`), begin a
Kingdom turn (`start_kingdom_turn` -> `TurnOutcome`). Every change is an `Event` (a code with
params); every bad input is a `Problem`.
"""

from warfare.engine.systems.pf2e.activities.events import Event
from warfare.engine.systems.pf2e.activities.plan import (
    ACTIVITIES,
    ARMY_ACTIVITIES,
    DEPLOY_RANGE,
    GARRISON_SKILL,
    RECOVER_SKILLS,
    ActivityPlan,
    plan_activity,
)
from warfare.engine.systems.pf2e.activities.resolve import (
    ActivityCheck,
    ActivityOutcome,
    resolve_activity,
)
from warfare.engine.systems.pf2e.activities.state import (
    ACTIVE,
    DESTROYED,
    DISBANDED,
    UNTIL_DEPLOYED,
    UNTIL_NEXT_TURN,
    ArmyState,
    KingdomState,
    new_army_state,
)
from warfare.engine.systems.pf2e.activities.structures import (
    STRUCTURES,
    Structure,
    item_bonuses_from_structures,
)
from warfare.engine.systems.pf2e.activities.upkeep import (
    TurnOutcome,
    army_consumption,
    follow_kingdom_level,
    mark_fought,
    receive_gear,
    start_kingdom_turn,
    transfer_gear,
)

__all__ = [
    "ACTIVE",
    "ACTIVITIES",
    "ARMY_ACTIVITIES",
    "DEPLOY_RANGE",
    "DESTROYED",
    "DISBANDED",
    "GARRISON_SKILL",
    "RECOVER_SKILLS",
    "STRUCTURES",
    "UNTIL_DEPLOYED",
    "UNTIL_NEXT_TURN",
    "ActivityCheck",
    "ActivityOutcome",
    "ActivityPlan",
    "ArmyState",
    "Event",
    "KingdomState",
    "Structure",
    "TurnOutcome",
    "army_consumption",
    "follow_kingdom_level",
    "item_bonuses_from_structures",
    "mark_fought",
    "new_army_state",
    "plan_activity",
    "receive_gear",
    "resolve_activity",
    "start_kingdom_turn",
    "transfer_gear",
]
