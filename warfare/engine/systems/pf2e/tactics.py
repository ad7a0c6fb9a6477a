"""Army tactics (§6): 23 general (§6.1) + 33 unique (§6.2) = 56, and the war-action keys
they unlock (§8)."""

from dataclasses import dataclass

from warfare.engine.systems.pf2e.house_rules import house_value
from warfare.engine.systems.pf2e.specialized import SPECIALIZED_ARMIES
from warfare.engine.systems.pf2e.tables import ArmyType

# §8.1 / §8.2 / §6.2: war-action keys.
BASIC_WAR_ACTIONS = ("advance", "battle", "disengage", "guard", "rally", "retreat")
TACTICAL_WAR_ACTIONS = (
    "all_out_assault", "battlefield_medicine", "counterattack", "covering_fire",
    "defensive_stance", "dirty_fighting", "false_retreat", "feint", "outflank",
    "overwhelming_bombardment", "taunt",
)  # fmt: skip
ARMY_SPECIFIC_ACTIONS = (
    "trample", "trampling_charge", "furious_charge", "reactive_rally", "revel_in_battle",
    "accustomed_to_panic", "swift_recovery", "battlefield_adaptability", "primal_magic",
)  # fmt: skip

WAR_ACTION_NAMES: dict[str, str] = {
    # §8.1 Basic war actions.
    "advance": "Advance",
    "battle": "Battle",
    "disengage": "Disengage",
    "guard": "Guard",
    "rally": "Rally",
    "retreat": "Retreat",
    # §8.2 Tactical war actions.
    "all_out_assault": "All-Out Assault",
    "battlefield_medicine": "Battlefield Medicine",
    "counterattack": "Counterattack",
    "covering_fire": "Covering Fire",
    "defensive_stance": "Defensive Stance",
    "dirty_fighting": "Dirty Fighting",
    "false_retreat": "False Retreat",
    "feint": "Feint",
    "outflank": "Outflank",
    "overwhelming_bombardment": "Overwhelming Bombardment",
    "taunt": "Taunt",
    # §6.2 Army-specific actions and reactions (named after their unique tactics).
    "trample": "Trample",
    "trampling_charge": "Trampling Charge",
    "furious_charge": "Furious Charge",
    "reactive_rally": "Reactive Rally",
    "revel_in_battle": "Revel in Battle",
    "accustomed_to_panic": "Accustomed to Panic",
    "swift_recovery": "Swift Recovery",
    "battlefield_adaptability": "Battlefield Adaptability",
    "primal_magic": "Primal Magic",
}
"""English names of the war actions (§8); the Django side translates them (gettext)."""


@dataclass(frozen=True, slots=True)
class Tactic:
    key: str
    name_en: str
    name_ru: str
    """From the seed/glossary (§12) where it names the tactic; otherwise empty."""
    level: int
    types: frozenset[ArmyType]
    effect: str
    grants: tuple[str, ...] = ()
    """War actions (or army-specific actions/reactions) that knowing it unlocks."""
    repeatable: bool = False
    unique_to: str | None = None
    """Key of the specialized army that owns this unique tactic (§6.2)."""
    mandatory_for: ArmyType | None = None
    """Basic armies of this type must know it and cannot replace it (§2)."""
    actions: int | None = None
    reaction: bool = False

    @property
    def unique(self) -> bool:
        return self.unique_to is not None

    @property
    def mandatory(self) -> bool:
        return self.mandatory_for is not None


INF, CAV, SKI, SIE = ArmyType.INFANTRY, ArmyType.CAVALRY, ArmyType.SKIRMISHER, ArmyType.SIEGE
ALL = frozenset(ArmyType)


GENERAL_TACTICS: tuple[Tactic, ...] = (
    Tactic(
        "overrun", "Overrun", "Конная лава", 3, frozenset({CAV}),
        "+1 status to weapon attacks vs infantry and skirmisher armies; -1 status to Maneuver "
        "and Morale vs area and mental attacks.",
        mandatory_for=CAV,
    ),
    Tactic(
        "engines_of_war", "Engines of War", "Орудие войны", 7, frozenset({SIE}),
        "Cannot take gear; cannot attack engaged armies; higher HP; can damage fortifications "
        "with ranged attacks.",
        mandatory_for=SIE,
    ),
    Tactic(
        "ambush", "Ambush", "Засада", 8, frozenset({SKI}),
        "Acting before every enemy in round 1, it may start engaged with a lower-initiative "
        "enemy and gain +2 status to its first attack against it.",
    ),
    Tactic(
        "bloodied_but_unbroken", "Bloodied but Unbroken", "", 5, frozenset({CAV, INF, SKI}),
        "While HP <= RT: +1 status to AC, Maneuver, Morale and attacks (+2 at level 10).",
    ),
    Tactic(
        "cavalry_experts", "Cavalry Experts", "", 6, frozenset({CAV}),
        "Overrun's bonus becomes +2; from level 12 its penalty is ignored.",
    ),
    Tactic(
        "darkvision", "Darkvision", "Ночное зрение", 1, ALL,
        "Ignores darkness terrain effects.",
    ),
    Tactic(
        "defensive_tactics", "Defensive Tactics", "", 3, ALL,
        "+1 status to Maneuver checks to Guard (+2 at level 9, +3 at 17).",
        grants=("defensive_stance",),
    ),
    Tactic(
        "explosive_shot", "Explosive Shot", "", 11, frozenset({SIE}),
        "A critical ranged hit on a non-distant army deals 1 damage to another non-distant "
        "enemy army.",
        grants=("overwhelming_bombardment",),
    ),
    Tactic(
        "field_triage", "Field Triage", "", 6, frozenset({INF, SKI}),
        "Emergency wound treatment.",
        grants=("battlefield_medicine",),
    ),
    Tactic(
        "flaming_shot", "Flaming Shot", "", 9, ALL,
        "A successful ranged Strike forces a Maneuver check vs its attack DC; on a failure, "
        "+1 damage.",
    ),
    Tactic(
        "flexible_tactics", "Flexible Tactics", "", 5, frozenset({INF, SKI}),
        "Unconventional tactics.",
        grants=("dirty_fighting", "feint", "counterattack", "false_retreat"),
    ),
    Tactic(
        "focused_devotion", "Focused Devotion", "", 3, ALL,
        "+1 status to Morale checks to Rally (+2 at level 9, +3 at 17).",
        grants=("taunt",),
    ),
    Tactic(
        "hold_the_line", "Hold the Line", "", 1, ALL,
        "+1 status to Morale checks to resist rout; RT becomes 1/4 of max HP, rounded up.",
    ),
    Tactic(
        "increased_ammunition", "Increased Ammunition", "Увеличенный боезапас", 5, ALL,
        "+2 ranged Strikes per war encounter; may be taken more than once.",
        repeatable=True,
    ),
    Tactic(
        "keen_eyed", "Keen Eyed", "", house_value("keen_eyed.level"), ALL,
        "+2 status to initiative checks.",
    ),
    Tactic(
        "keep_up_the_pressure", "Keep up the Pressure", "", 3, ALL,
        "Multiple attack penalty against the same target is -4/-8 instead of -5/-10.",
    ),
    Tactic(
        "live_off_the_land", "Live off the Land", "", 1, frozenset({CAV, INF, SKI}),
        "Consumption -1 during Upkeep in a hex without a settlement, when not garrisoned.",
    ),
    Tactic(
        "low_light_vision", "Low-Light Vision", "Сумеречное зрение", 1, ALL,
        "Ignores dim-light terrain effects.",
    ),
    Tactic(
        "merciless", "Merciless", "", 5, frozenset({CAV, INF}),
        "+2 status to its Maneuver DC when enemies Disengage from it.",
        grants=("all_out_assault",),
    ),
    Tactic(
        "opening_salvo", "Opening Salvo", "Приветственный залп", 8, frozenset({CAV, SIE, SKI}),
        "Acting before every enemy in round 1, it may start distant from all enemy armies.",
    ),
    Tactic(
        "reckless_flankers", "Reckless Flankers", "", 5, frozenset({CAV, SKI}),
        "After engaging with Advance, may take -2 circumstance to AC for +1 circumstance to "
        "attacks while engaged.",
        grants=("outflank",),
    ),
    Tactic(
        "sharpshooter", "Sharpshooter", "", 5, frozenset({CAV, INF, SKI}),
        "+1 status to ranged Strikes; -2 status to melee Strikes (-1 from level 9, none from "
        "level 15).",
        grants=("covering_fire",),
    ),
    Tactic(
        "toughened_soldiers", "Toughened Soldiers", "", 1, ALL,
        "Max HP +1; may be taken more than once.",
        repeatable=True,
    ),
)  # fmt: skip


def _unique(
    key: str,
    name_en: str,
    army: str,
    effect: str,
    *,
    grants: tuple[str, ...] = (),
    actions: int | None = None,
    reaction: bool = False,
) -> Tactic:
    owner = SPECIALIZED_ARMIES[army]
    return Tactic(
        key=key,
        name_en=name_en,
        name_ru="",
        level=owner.level,
        types=frozenset({owner.type}),
        effect=effect,
        grants=grants,
        unique_to=army,
        actions=actions,
        reaction=reaction,
    )


UNIQUE_TACTICS: tuple[Tactic, ...] = (
    _unique("accustomed_to_panic", "Accustomed to Panic", "sootscale_warriors",
            "Reaction when its shaken would rise while not routed: reduce weary by 1 instead. "
            "Its Disengage results improve one degree.",
            grants=("accustomed_to_panic",), reaction=True),
    _unique("swamp_dwellers", "Swamp Dwellers", "lizardfolk_defenders",
            "Free Live off the Land; water and swamp are not difficult terrain; +2 circumstance "
            "to Scouting in swamp or water hexes."),
    _unique("tactical_training_drelev", "Tactical Training", "drelev_irregulars",
            "May use All-Out Assault, Counterattack and Dirty Fighting.",
            grants=("all_out_assault", "counterattack", "dirty_fighting")),
    _unique("unpredictable_movement", "Unpredictable Movement", "drelev_irregulars",
            "Ranged attacks against it take -2 circumstance."),
    _unique("burning_weaponry", "Burning Weaponry", "greengripe_bombardiers",
            "Can make melee Strikes while engaged; a critical Battle Strike forces a Maneuver "
            "check vs its Maneuver DC or +1 damage."),
    _unique("explosive_defeat", "Explosive Defeat", "greengripe_bombardiers",
            "When defeated, armies engaged with it make a Maneuver check vs its Maneuver DC: "
            "failure 1 damage, critical failure 2."),
    _unique("brave", "Brave", "nomen_scouts",
            "No Rout Threshold; +2 circumstance to Morale checks vs rout from other sources."),
    _unique("self_sufficient", "Self-Sufficient", "nomen_scouts",
            "Never counts toward kingdom Consumption; while not defeated it reduces kingdom "
            "Consumption by 1."),
    _unique("trample", "Trample", "nomen_scouts",
            "3 actions: melee Strike at +20 vs an engaged army's AC; hit 1 damage (critical 2) "
            "and it stops being engaged with that army.",
            grants=("trample",), actions=3),
    _unique("regeneration", "Regeneration", "troll_marauders",
            "Regains 1 HP at the start of its turn; cannot be destroyed normally."),
    _unique("brutal_assault", "Brutal Assault", "troll_marauders",
            "May use All-Out Assault; an army it damages must pass a DC 24 Morale check or "
            "become shaken 1 (2 on a critical failure).",
            grants=("all_out_assault",)),
    _unique("frightening_foe", "Frightening Foe", "troll_marauders",
            "May use Taunt; +2 status to it if Regeneration was used this turn.",
            grants=("taunt",)),
    _unique("amphibious", "Amphibious", "mbotuu_frog_riders",
            "Ignores swamp/water difficult terrain; +2 circumstance to Maneuver checks there."),
    _unique("chorus_of_croaks", "Chorus of Croaks", "mbotuu_frog_riders",
            "Enemies engaged with it take -2 status to Morale checks; may use Taunt.",
            grants=("taunt",)),
    _unique("swamp_charge", "Swamp Charge", "mbotuu_frog_riders",
            "With swamp or water it may start engaged with a chosen enemy and gain +1 "
            "circumstance to melee Strikes against it on its first turn."),
    _unique("hurl_nets", "Hurl Nets", "tok_nikrat_scouts",
            "Net hits deal no damage but give mired +1 (+2 on a critical hit)."),
    _unique("water_retreat", "Water Retreat", "tok_nikrat_scouts",
            "+4 circumstance to Maneuver checks to Disengage on battlefields with water."),
    _unique("water_stride", "Water Stride", "tok_nikrat_scouts",
            "Ignores water/swamp difficult terrain; +4 circumstance to initiative there."),
    _unique("pitaxian_training", "Pitaxian Training", "pitaxian_raiders",
            "May use Counterattack, Dirty Fighting and Feint.",
            grants=("counterattack", "dirty_fighting", "feint")),
    _unique("furious_charge", "Furious Charge", "tiger_lord_berserkers",
            "Once per encounter: Advance, and if it engages, a melee Strike as a reaction.",
            grants=("furious_charge",), actions=1),
    _unique("reactive_rally", "Reactive Rally", "tiger_lord_berserkers",
            "While routed, may attempt Rally instead of the forced Retreat.",
            grants=("reactive_rally",), actions=3),
    _unique("revel_in_battle", "Revel in Battle", "tiger_lord_berserkers",
            "Reaction to its critical melee hit: regains 1 HP.",
            grants=("revel_in_battle",), reaction=True),
    _unique("warmongers", "Warmongers", "tiger_lord_berserkers",
            "May use All-Out Assault, Counterattack and Taunt.",
            grants=("all_out_assault", "counterattack", "taunt")),
    _unique("flight", "Flight", "wyvern_flight",
            "Ignores ground difficult terrain; its Disengage vs non-flyers improves one degree; "
            "non-flyers take -2 circumstance to Advance against it."),
    _unique("wyvern_tactics", "Wyvern Tactics", "wyvern_flight",
            "May use All-Out Assault and Counterattack.",
            grants=("all_out_assault", "counterattack")),
    _unique("wyvern_venom", "Wyvern Venom", "wyvern_flight",
            "An army its melee Strike damages gets weary +1 (1 damage instead past weary 4)."),
    _unique("tusker_training", "Tusker Training", "tusker_riders",
            "May use All-Out Assault, Covering Fire and Taunt.",
            grants=("all_out_assault", "covering_fire", "taunt")),
    _unique("trampling_charge", "Trampling Charge", "tusker_riders",
            "3 actions: Maneuver check vs a non-engaged army's Maneuver DC for 1-2 damage; "
            "does not trigger Counterattack.",
            grants=("trampling_charge",), actions=3),
    _unique("tactical_training_first_world", "Tactical Training", "first_world_army",
            "May use Counterattack, Dirty Fighting, Feint and Taunt.",
            grants=("counterattack", "dirty_fighting", "feint", "taunt")),
    _unique("primal_magic", "Primal Magic", "first_world_army",
            "2 actions, not engaged: Morale check vs the target's Morale DC, then a d10 "
            "primal effect.",
            grants=("primal_magic",), actions=2),
    _unique("supernatural_attacks", "Supernatural Attacks", "first_world_army",
            "Its critical hits also give the target weary +1."),
    _unique("swift_recovery", "Swift Recovery", "first_world_army",
            "2 actions, once per battle: regain 2 HP or reduce weary by 2.",
            grants=("swift_recovery",), actions=2),
    _unique("battlefield_adaptability", "Battlefield Adaptability", "first_world_army",
            "1 action: until its next turn, ignore ground difficult terrain, end mired, become "
            "concealed, or +2 circumstance to Advance and Disengage.",
            grants=("battlefield_adaptability",), actions=1),
)  # fmt: skip

TACTICS: dict[str, Tactic] = {tactic.key: tactic for tactic in GENERAL_TACTICS + UNIQUE_TACTICS}

MANDATORY_TACTIC: dict[ArmyType, str] = {
    tactic.mandatory_for: tactic.key for tactic in GENERAL_TACTICS if tactic.mandatory_for
}
