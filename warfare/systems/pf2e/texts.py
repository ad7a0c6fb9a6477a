"""The English texts of the Pathfinder 2e rules data, marked for makemessages (see
`warfare.systems.pf2e.labels`). Written by `python manage.py pf2e_texts`: do not edit.
"""

# ruff: noqa: E501
from django.utils.translation import pgettext_lazy

TEXTS = (
    pgettext_lazy(
        "pf2e tactic",
        "Overrun",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+1 status to weapon attacks vs infantry and skirmisher armies; -1 status to Maneuver and Morale vs area and mental attacks.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Engines of War",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Cannot take gear; cannot attack engaged armies; higher HP; can damage fortifications with ranged attacks.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Ambush",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Acting before every enemy in round 1, it may start engaged with a lower-initiative enemy and gain +2 status to its first attack against it.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Bloodied but Unbroken",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "While HP <= RT: +1 status to AC, Maneuver, Morale and attacks (+2 at level 10).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Cavalry Experts",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Overrun's bonus becomes +2; from level 12 its penalty is ignored.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Darkvision",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ignores darkness terrain effects.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Defensive Tactics",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+1 status to Maneuver checks to Guard (+2 at level 9, +3 at 17).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Explosive Shot",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "A critical ranged hit on a non-distant army deals 1 damage to another non-distant enemy army.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Field Triage",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Emergency wound treatment.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Flaming Shot",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "A successful ranged Strike forces a Maneuver check vs its attack DC; on a failure, +1 damage.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Flexible Tactics",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Unconventional tactics.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Focused Devotion",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+1 status to Morale checks to Rally (+2 at level 9, +3 at 17).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Hold the Line",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+1 status to Morale checks to resist rout; RT becomes 1/4 of max HP, rounded up.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Increased Ammunition",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+2 ranged Strikes per war encounter; may be taken more than once.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Keen Eyed",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+2 status to initiative checks.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Keep up the Pressure",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Multiple attack penalty against the same target is -4/-8 instead of -5/-10.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Live off the Land",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Consumption -1 during Upkeep in a hex without a settlement, when not garrisoned.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Low-Light Vision",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ignores dim-light terrain effects.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Merciless",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+2 status to its Maneuver DC when enemies Disengage from it.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Opening Salvo",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Acting before every enemy in round 1, it may start distant from all enemy armies.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Reckless Flankers",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "After engaging with Advance, may take -2 circumstance to AC for +1 circumstance to attacks while engaged.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Sharpshooter",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+1 status to ranged Strikes; -2 status to melee Strikes (-1 from level 9, none from level 15).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Toughened Soldiers",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Max HP +1; may be taken more than once.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Accustomed to Panic",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Reaction when its shaken would rise while not routed: reduce weary by 1 instead. Its Disengage results improve one degree.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Swamp Dwellers",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Free Live off the Land; water and swamp are not difficult terrain; +2 circumstance to Scouting in swamp or water hexes.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Tactical Training",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use All-Out Assault, Counterattack and Dirty Fighting.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Unpredictable Movement",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ranged attacks against it take -2 circumstance.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Burning Weaponry",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Can make melee Strikes while engaged; a critical Battle Strike forces a Maneuver check vs its Maneuver DC or +1 damage.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Explosive Defeat",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "When defeated, armies engaged with it make a Maneuver check vs its Maneuver DC: failure 1 damage, critical failure 2.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Brave",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "No Rout Threshold; +2 circumstance to Morale checks vs rout from other sources.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Self-Sufficient",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Never counts toward kingdom Consumption; while not defeated it reduces kingdom Consumption by 1.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Trample",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "3 actions: melee Strike at +20 vs an engaged army's AC; hit 1 damage (critical 2) and it stops being engaged with that army.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Regeneration",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Regains 1 HP at the start of its turn; cannot be destroyed normally.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Brutal Assault",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use All-Out Assault; an army it damages must pass a DC 24 Morale check or become shaken 1 (2 on a critical failure).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Frightening Foe",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use Taunt; +2 status to it if Regeneration was used this turn.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Amphibious",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ignores swamp/water difficult terrain; +2 circumstance to Maneuver checks there.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Chorus of Croaks",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Enemies engaged with it take -2 status to Morale checks; may use Taunt.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Swamp Charge",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "With swamp or water it may start engaged with a chosen enemy and gain +1 circumstance to melee Strikes against it on its first turn.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Hurl Nets",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Net hits deal no damage but give mired +1 (+2 on a critical hit).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Water Retreat",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "+4 circumstance to Maneuver checks to Disengage on battlefields with water.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Water Stride",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ignores water/swamp difficult terrain; +4 circumstance to initiative there.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Pitaxian Training",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use Counterattack, Dirty Fighting and Feint.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Furious Charge",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Once per encounter: Advance, and if it engages, a melee Strike as a reaction.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Reactive Rally",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "While routed, may attempt Rally instead of the forced Retreat.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Revel in Battle",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Reaction to its critical melee hit: regains 1 HP.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Warmongers",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use All-Out Assault, Counterattack and Taunt.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Flight",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Ignores ground difficult terrain; its Disengage vs non-flyers improves one degree; non-flyers take -2 circumstance to Advance against it.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Wyvern Tactics",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use All-Out Assault and Counterattack.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Wyvern Venom",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "An army its melee Strike damages gets weary +1 (1 damage instead past weary 4).",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Tusker Training",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use All-Out Assault, Covering Fire and Taunt.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Trampling Charge",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "3 actions: Maneuver check vs a non-engaged army's Maneuver DC for 1-2 damage; does not trigger Counterattack.",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "May use Counterattack, Dirty Fighting, Feint and Taunt.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Primal Magic",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "2 actions, not engaged: Morale check vs the target's Morale DC, then a d10 primal effect.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Supernatural Attacks",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "Its critical hits also give the target weary +1.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Swift Recovery",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "2 actions, once per battle: regain 2 HP or reduce weary by 2.",
    ),
    pgettext_lazy(
        "pf2e tactic",
        "Battlefield Adaptability",
    ),
    pgettext_lazy(
        "pf2e tactic effect",
        "1 action: until its next turn, ignore ground difficult terrain, end mired, become concealed, or +2 circumstance to Advance and Disengage.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Concealed",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "+2 circumstance to its Maneuver checks; attacks against it take -2 circumstance.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Defeated",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "At 0 HP; no war actions; DC 16 flat check when damaged or destroyed.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Destroyed",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Gone for good, with all its gear.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Distant",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Ranged Strikes against it take -5 (doubled in wind); it can flee with Retreat.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Efficient",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "May take a second Army activity at -5 (cannot grant efficient again).",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Engaged",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "In melee with up to 4 armies; leaving by a maneuver action provokes reactions.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Fortified",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Cannot engage or be engaged; +4 item bonus to AC and to Morale checks to Rally.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Lost",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "No Army activity except Recover Army.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Mired",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Circumstance penalty = value to maneuver actions/checks and Deploy Army; pinned at 4.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Outflanked",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "-2 circumstance to AC.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Pinned",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Outflanked; no maneuver war actions; cannot be deployed.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Routed",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Must Retreat; -2 circumstance to Morale checks.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Shaken",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Circumstance penalty = value to Morale checks; DC 11 flat check when damaged or shaken +1; routed at 4.",
    ),
    pgettext_lazy(
        "pf2e condition",
        "Weary",
    ),
    pgettext_lazy(
        "pf2e condition effect",
        "Circumstance penalty = value to AC, Maneuver checks and Army activity checks (double on Deploy Army).",
    ),
    pgettext_lazy(
        "pf2e gear",
        "Additional Weapon",
    ),
    pgettext_lazy(
        "pf2e gear effect",
        "An army with only a melee or only a ranged Strike gains the other, at the level table's attack (a ranged one with the normal 5 shots).",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Additional Weapon",
    ),
    pgettext_lazy(
        "pf2e gear",
        "Healing Potions",
    ),
    pgettext_lazy(
        "pf2e gear effect",
        "As part of any maneuver war action, spend 1 dose to regain 1 HP. At most 3 doses; they do not refill after an encounter.",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Healing Potions",
    ),
    pgettext_lazy(
        "pf2e gear",
        "Magic Armor",
    ),
    pgettext_lazy(
        "pf2e gear effect",
        "Item bonus to AC.",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Magic Armor",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Greater Magic Armor",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Major Magic Armor",
    ),
    pgettext_lazy(
        "pf2e gear",
        "Magic Weapons",
    ),
    pgettext_lazy(
        "pf2e gear effect",
        "Item bonus to Strikes with one weapon (melee or ranged, chosen at purchase); can be bought once per weapon.",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Magic Weapons",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Greater Magic Weapons",
    ),
    pgettext_lazy(
        "pf2e gear tier",
        "Major Magic Weapons",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Sootscale Warriors",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Lizardfolk Defenders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Narlmarch Hunters",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Drelev Irregulars",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Greengripe Bombardiers",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Tatzlford Town Guard",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Nomen Scouts",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Troll Marauders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "M'botuu Frog Riders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Pitax Horde",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Tok-Nikrat Scouts",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Catspaw Marauders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Pitaxian Raiders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Tiger Lord Berserkers",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Wyvern Flight",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Pitax War Machines",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "Tusker Riders",
    ),
    pgettext_lazy(
        "pf2e specialized army",
        "First World Army",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Advance",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Battle",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Disengage",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Guard",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Rally",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Retreat",
    ),
    pgettext_lazy(
        "pf2e war action",
        "All-Out Assault",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Battlefield Medicine",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Counterattack",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Covering Fire",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Defensive Stance",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Dirty Fighting",
    ),
    pgettext_lazy(
        "pf2e war action",
        "False Retreat",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Feint",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Outflank",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Overwhelming Bombardment",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Taunt",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Trample",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Trampling Charge",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Furious Charge",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Reactive Rally",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Revel in Battle",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Accustomed to Panic",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Swift Recovery",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Battlefield Adaptability",
    ),
    pgettext_lazy(
        "pf2e war action",
        "Primal Magic",
    ),
)
