"""Kingdom XP for each enemy army the kingdom defeated (§7.6)."""

from warfare.engine.systems.pf2e.house_rules import house_value

# §7.6: (army level - kingdom level) -> kingdom XP (PF2e creature XP by level difference).
KINGDOM_XP_BY_DIFFERENCE: dict[int, int] = {
    -4: 10, -3: 15, -2: 20, -1: 30, 0: 40, 1: 60, 2: 80, 3: 120, 4: 160,
}  # fmt: skip


def kingdom_xp_for_defeated_army(army_level: int, kingdom_level: int) -> int:
    """XP the kingdom gains for one defeated enemy army (§7.6; beyond ±4: house defaults)."""
    difference = army_level - kingdom_level
    if difference < -4:
        return house_value("kingdom_xp.below_minus_4")
    if difference > 4:
        return house_value("kingdom_xp.above_plus_4")
    return KINGDOM_XP_BY_DIFFERENCE[difference]
