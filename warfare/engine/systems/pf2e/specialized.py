"""The 18 specialized armies of the AP (§3.4), as printed stat blocks at minimum level.

Secondary data (Foundry pf2e / KMT, not the book): every entry is `verify=True`, numbers the
sources disagree on come from `HOUSE_DEFAULTS`, and the GM can replace any block with a custom
one. Attacks are stored *before* tactics and printed gear, as the reference's implementation
note says (table + adjustment + gear + tactics): e.g. Narlmarch Hunters base +17/+17 derive
to melee +15 / ranged +18 with Sharpshooter; Catspaw Marauders +24/+24 derive to +23/+26 with
Sharpshooter and magic ranged weapons.
"""

from dataclasses import dataclass

from warfare.engine.systems.pf2e.gear import GearChoice, GearSource, Weapon
from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.tables import BASE_SHOTS, ArmyType


@dataclass(frozen=True, slots=True)
class PrintedStats:
    """A stat block as printed at `level`; at other levels each value moves with the level
    table (§3.3: table value for the new level + the printed adjustment). Also the shape of a
    GM's custom stat block."""

    level: int
    scouting: int
    recruitment_dc: int | None
    """None: not recruitable / not given."""
    consumption: int | None
    ac: int
    maneuver: int
    morale: int
    hp: int
    rt: int | None
    """None: no Rout Threshold (immune to fear, Brave)."""
    melee: int | None
    ranged: int | None
    shots: int = BASE_SHOTS
    free_tactics: tuple[str, ...] = ()
    """Known tactics that do not count toward max tactics (§3.3: free Darkvision)."""


@dataclass(frozen=True, slots=True)
class SpecializedArmy:
    key: str
    name_en: str
    type: ArmyType
    stats: PrintedStats
    tactics: tuple[str, ...]
    gear: tuple[GearChoice, ...] = ()
    name_ru: str = ""
    verify: bool = True
    """Secondary data: check against the book before relying on it (§15 item 15)."""

    @property
    def level(self) -> int:
        return self.stats.level

    @property
    def recruitable(self) -> bool:
        return self.stats.recruitment_dc is not None


INF, CAV, SKI, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SKIRMISHER, ArmyType.SIEGE
_DV = ("darkvision",)

# PrintedStats(level, scouting, rec DC, consumption, AC, maneuver, morale, HP, RT, melee, ranged)
SPECIALIZED_ARMIES: dict[str, SpecializedArmy] = {
    army.key: army
    for army in (
        SpecializedArmy(
            "sootscale_warriors", "Sootscale Warriors", INF,
            PrintedStats(3, 9, 20, 1, 20, 14, 5, 4, 3, 12, 12,
                         shots=house_value("sootscale_warriors.shots"), free_tactics=_DV),
            ("darkvision", "accustomed_to_panic"),
        ),
        SpecializedArmy(
            "lizardfolk_defenders", "Lizardfolk Defenders", SKI,
            PrintedStats(5, 14, 22, 1, 23, 9, 15, 4, 2, 15, 15,
                         free_tactics=("live_off_the_land",)),
            ("live_off_the_land", "swamp_dwellers"),
        ),
        SpecializedArmy(
            "narlmarch_hunters", "Narlmarch Hunters", SKI,
            PrintedStats(6, 14, None, 1, 24, 17, 11, 4, 2, 17, 17),
            ("sharpshooter", "increased_ammunition"),
        ),
        SpecializedArmy(
            "drelev_irregulars", "Drelev Irregulars", INF,
            PrintedStats(7, 15, None, 1, 25, 19, 11, 4, 2, 18, None),
            ("tactical_training_drelev", "unpredictable_movement"),
        ),
        SpecializedArmy(
            "greengripe_bombardiers", "Greengripe Bombardiers", SIE,
            PrintedStats(7, 13, 28, 2, house_value("greengripe_bombardiers.ac"), 12, 18, 6, 3,
                         19, 18, free_tactics=_DV),
            ("darkvision", "burning_weaponry", "explosive_defeat"),
        ),
        SpecializedArmy(
            "tatzlford_town_guard", "Tatzlford Town Guard", INF,
            PrintedStats(7, 15, None, 1, 25, 12, 18, 4, 2, 18, None),
            ("hold_the_line", "toughened_soldiers"),
        ),
        SpecializedArmy(
            # Consumption: Self-Sufficient makes it -1 (it reduces kingdom Consumption).
            "nomen_scouts", "Nomen Scouts", CAV,
            PrintedStats(8, 18, 26, None, 27, 14, 19, 4, None, 20, 20, free_tactics=_DV),
            ("darkvision", "brave", "self_sufficient", "trample"),
        ),
        SpecializedArmy(
            "troll_marauders", "Troll Marauders", INF,
            PrintedStats(8, house_value("troll_marauders.scouting"), None, None, 28, 13, 19,
                         5, 1, 20, None, free_tactics=_DV),
            ("darkvision", "regeneration", "brutal_assault", "frightening_foe"),
        ),
        SpecializedArmy(
            "mbotuu_frog_riders", "M'botuu Frog Riders", CAV,
            PrintedStats(10, 19, 32, 2, house_value("mbotuu_frog_riders.ac"), 22, 18, 6, 3,
                         25, 23, free_tactics=_DV),
            ("darkvision", "amphibious", "chorus_of_croaks", "swamp_charge"),
        ),
        SpecializedArmy(
            "pitax_horde", "Pitax Horde", INF,
            PrintedStats(10, 19, None, None, 30, 22, 16, 4, 2, 25, None),
            ("live_off_the_land", "merciless", "toughened_soldiers"),
        ),
        SpecializedArmy(
            "tok_nikrat_scouts", "Tok-Nikrat Scouts", SKI,
            PrintedStats(10, 20, 32, 1, 31, 22, 18, 4, 2, 23, 23, free_tactics=_DV),
            ("darkvision", "hurl_nets", "water_retreat", "water_stride"),
        ),
        SpecializedArmy(
            "catspaw_marauders", "Catspaw Marauders", SKI,
            PrintedStats(11, 21, None, None, 31, 24, 18, 4, 2, 24, 24),
            ("ambush", "low_light_vision", "sharpshooter"),
            gear=(GearChoice("magic_weapons", 1, Weapon.RANGED, source=GearSource.PRINTED),),
        ),
        SpecializedArmy(
            "pitaxian_raiders", "Pitaxian Raiders", SKI,
            PrintedStats(12, 22, None, None, 33, 25, 19, 4, 2, 26, 24,
                         shots=house_value("pitaxian_raiders.shots")),
            ("pitaxian_training",),
        ),
        SpecializedArmy(
            "tiger_lord_berserkers", "Tiger Lord Berserkers", INF,
            PrintedStats(12, 23, 32, 1, 32, 19, 25, 6, 2, 28, None),
            ("furious_charge", "reactive_rally", "revel_in_battle", "warmongers"),
        ),
        SpecializedArmy(
            # Type: Foundry cavalry, KMT skirmisher (§15 item 15); cavalry kept.
            "wyvern_flight", "Wyvern Flight", CAV,
            PrintedStats(12, 23, None, None, 33, 25, 17, 4, 3,
                         house_value("wyvern_flight.melee"), None, free_tactics=_DV),
            ("darkvision", "flight", "wyvern_tactics", "wyvern_venom"),
        ),
        SpecializedArmy(
            # Max HP 8 and 7 shots come from its tactics (Toughened Soldiers ×2, Increased
            # Ammunition); RT 4 is printed.
            "pitax_war_machines", "Pitax War Machines", SIE,
            PrintedStats(14, 25, None, None, 36, 22, 28, 6, 4, None, 29),
            ("explosive_shot", "increased_ammunition", "toughened_soldiers", "toughened_soldiers"),
        ),
        SpecializedArmy(
            # Type: Foundry infantry, KMT cavalry (§15 item 15); infantry kept.
            "tusker_riders", "Tusker Riders", INF,
            PrintedStats(14, 24, None, None, 35, 22, 28, 8, 4,
                         house_value("tusker_riders.melee"), house_value("tusker_riders.ranged"),
                         free_tactics=_DV),
            ("darkvision", "tusker_training", "trampling_charge"),
        ),
        SpecializedArmy(
            "first_world_army", "First World Army", SKI,
            PrintedStats(16, 28, None, None, 38, 30, 25, 6, 3,
                         house_value("first_world_army.melee"),
                         house_value("first_world_army.ranged"), free_tactics=_DV),
            ("darkvision", "tactical_training_first_world", "primal_magic",
             "supernatural_attacks", "swift_recovery", "battlefield_adaptability"),
        ),
    )
}  # fmt: skip
