"""The only place that knows both ORM rows and engine state (Pathfinder armies)."""

from warfare.engine.systems.pf2e.armies import ArmySpec, StatBlock, spec_from_dict, stat_block

from .models import Army


def army_spec(army: Army, *, level: int | None = None) -> ArmySpec:
    """The engine's view of an army. `level` overrides (e.g. a preview at another level)."""
    return spec_from_dict(
        {
            "type": army.army_type,
            "level": level or army.level,
            "specialized": army.specialized or None,
            "gear": army.gear,
            "tactics": army.tactics,
            "conditions": army.conditions,
            "custom": army.custom_stats,
            "current_hp": army.hp,
        }
    )


def army_stat_block(army: Army) -> StatBlock:
    return stat_block(army_spec(army))
