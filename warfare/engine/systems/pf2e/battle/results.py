"""What a war encounter changed on an army, applied to the army as it is now (DESIGN.md,
"Results"): never the copy the battle was set up from.

`army_changes(before, after)` compares the army as it went into the battle (its setup) with
the army as it left it (the outcome, after the §7.6 aftermath): HP lost or regained,
conditions gained, raised, lowered or ended (valued ones by their difference), potion doses
used (§5: they do not refill; shots do, §7.3), destroyed (§7.3 step 5, §9), and any other
field the battle set (a timer, a garrison ended). `apply_changes(current, changes)` adds them
to the army's current state: whatever else happened to the row meanwhile (a Train Army, the
activities counted this turn, another battle) stays.
"""

from dataclasses import dataclass, field, replace
from typing import Any

from warfare.engine.systems.pf2e.activities.state import (
    DESTROYED,
    ArmyState,
    destroyed_army,
)
from warfare.engine.systems.pf2e.conditions import CONDITIONS

#: ArmyState fields the battle may set outright (compared as a whole; the others below are
#: added as differences).
_SET_FIELDS = ("garrison", "garrison_consumption_cut", "timers")


@dataclass(frozen=True)
class ArmyChanges:
    """The difference a battle made to one army."""

    hp: int = 0
    conditions: dict[str, int] = field(default_factory=dict)
    potion_doses: int = 0
    destroyed: bool = False
    fields: dict[str, Any] = field(default_factory=dict)


def army_changes(before: ArmyState, after: ArmyState) -> ArmyChanges:
    """What the battle did to the army, from its state going in and coming out."""
    old, new = before.spec.condition_values, after.spec.condition_values
    conditions = {
        key: new.get(key, 0) - old.get(key, 0)
        for key in sorted(set(old) | set(new))
        if new.get(key, 0) != old.get(key, 0)
    }
    fields = {
        name: getattr(after, name)
        for name in _SET_FIELDS
        if getattr(after, name) != getattr(before, name)
    }
    return ArmyChanges(
        hp=after.hp - before.hp,
        conditions=conditions,
        potion_doses=after.potion_doses - before.potion_doses,
        destroyed=after.status == DESTROYED and before.status != DESTROYED,
        fields=fields,
    )


def apply_changes(current: ArmyState, changes: ArmyChanges) -> ArmyState:
    """The army as it is now, with the battle's changes: HP within 0..max, condition values
    never below 0 (one without a value is on or off), potion doses never below 0. A
    destroyed army stays destroyed (and a battle that destroyed it takes its gear, §5)."""
    if changes.destroyed or current.status == DESTROYED:
        return destroyed_army(current) if changes.destroyed else current
    conditions = current.spec.condition_values
    for key, delta in changes.conditions.items():
        value = conditions.get(key, 0) + delta
        info = CONDITIONS.get(key)
        if info is not None and not info.valued:
            value = min(value, 1)
        if value > 0:
            conditions[key] = value
        else:
            conditions.pop(key, None)
    army = replace(current, spec=replace(current.spec, conditions=conditions), **changes.fields)
    hp = max(0, min(army.max_hp, current.hp + changes.hp))
    doses = max(0, current.potion_doses + changes.potion_doses)
    return replace(army, hp=hp, potion_doses=doses)
