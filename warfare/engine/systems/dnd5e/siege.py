"""Siege equipment (DMG 2014 pp. 255-256, dnd5e §8): objects with AC, HP and a crew.

Loading, aiming and firing are separate actions; on the 20-ft grid [inferred, §8] a crewing
stand spends its unit's action on one step per round, ranges convert as in §5.4 and the
60-ft minimum range becomes 4 squares (`min_squares`).
"""

from dataclasses import dataclass

from warfare.engine.systems.dnd5e.creatures import footprint, range_squares
from warfare.engine.systems.dnd5e.house_rules import house_value


@dataclass(frozen=True)
class SiegeEngine:
    """One engine's DMG numbers. `load`/`aim`/`fire`: actions per step (cauldron: fill 3,
    tip 1); `save_dc` for the cauldron's Dex save; `reach_ft` for the ram; `min_ft` the range
    inside which it cannot hit; `indirect`: can hit targets behind cover."""

    key: str
    size: str
    ac: int
    hp: int
    load: int = 0
    aim: int = 0
    fire: int = 0
    to_hit: int | None = None
    range_ft: int | None = None
    long_ft: int | None = None
    damage: str | None = None
    damage_type: str = ""
    save_dc: int | None = None
    reach_ft: int | None = None
    min_ft: int = 0
    indirect: bool = False
    immunities: tuple[str, ...] = ("poison", "psychic")

    @property
    def space(self) -> int:
        """Squares per side on the grid: a solo's space (§8 [inferred]) or 1 square."""
        return 1 if house_value("siege.one_square") else footprint(self.size)

    @property
    def range_squares(self) -> tuple[int, int] | None:
        if self.range_ft is None or self.long_ft is None:
            return None
        return range_squares(self.range_ft), range_squares(self.long_ft)

    @property
    def min_squares(self) -> int:
        """60 ft → targets must be at least 4 squares away (§8)."""
        return range_squares(self.min_ft) + 1 if self.min_ft else 0


SIEGE_ENGINES: dict[str, SiegeEngine] = {
    e.key: e
    for e in (
        SiegeEngine("ballista", "large", 15, 50, 1, 1, 1, 6, 120, 480, "3d10", "piercing"),
        SiegeEngine("cannon", "large", 19, 75, 1, 1, 1, 6, 600, 2400, "8d10", "bludgeoning"),
        SiegeEngine("cauldron", "large", 19, 20, 3, 0, 1, None, None, None, "3d6", "fire",
                    save_dc=15),
        SiegeEngine("mangonel", "large", 15, 100, 2, 2, 1, 5, 200, 800, "5d10", "bludgeoning",
                    min_ft=60, indirect=True),
        SiegeEngine("ram", "large", 15, 100, 0, 0, 1, 8, None, None, "3d10", "bludgeoning",
                    reach_ft=5),
        SiegeEngine("siege_tower", "gargantuan", 15, 200),
        SiegeEngine("trebuchet", "huge", 15, 150, 2, 2, 1, 5, 300, 1200, "8d10",
                    "bludgeoning", min_ft=60, indirect=True),
    )
}  # fmt: skip
"""§8's table, in its order."""
