"""The GURPS 3e demo campaign of `make run`: two factions with
their commanders, a force each, two PCs and an enemy NPC, and a battle ready to play."""

from kingdoms.demo import demo_campaign
from kingdoms.models import CommandStaff, Controller, Faction, Membership, Role, RuleSystem

from .models import Character, Force, Reputation, TroopType, Unit
from .setup import api_create

DEMO_3E_CAMPAIGN = "Demo: Border Wars (GURPS 3e)"
DEMO_DESCRIPTION = (
    "The Barony of Ravensmoor holds the ford of the Grey river against "
    "an orc warband (GURPS 3e mass combat, Compendium II)."
)


@demo_campaign(DEMO_3E_CAMPAIGN, rule_system=RuleSystem.GURPS3E, description=DEMO_DESCRIPTION)
def load_demo(campaign, gm, player) -> None:
    """The 3e demo: its factions and commanders, forces, characters and battle."""
    barony = Faction.objects.create(campaign=campaign, name="Barony of Ravensmoor",
                                    controlled_by=Controller.PLAYERS)  # fmt: skip
    warband = Faction.objects.create(campaign=campaign, name="Gorsk's Warband")
    for faction, commander, strategy in ((barony, "Baron Aldous", 14), (warband, "Gorsk", 12)):
        CommandStaff.objects.update_or_create(
            faction=faction, defaults={"commander": commander, "strategy": strategy}
        )
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=barony)
    types = {
        name: TroopType.objects.create(campaign=campaign, name=name, ts_per_man=ts)
        for name, ts in (("heavy infantry", 4), ("longbowmen", 3), ("heavy cavalry", 12),
                         ("orc spearmen", 3), ("wolf riders", 6))
    }  # fmt: skip
    host = Force.objects.create(campaign=campaign, faction=barony, name="Ford Guard", tl=3)
    Unit.objects.bulk_create(
        [
            Unit(force=host, name="Ravensmoor Pikes", troop_type=types["heavy infantry"],
                 men=120, armour="heavy", quality="veteran"),
            Unit(force=host, name="Longbowmen", troop_type=types["longbowmen"], men=60,
                 equipment=1, armour="light"),
            Unit(force=host, name="Baron's Knights", troop_type=types["heavy cavalry"], men=20,
                 armour="heavy", quality="elite", morale=14),
        ]
    )  # fmt: skip
    horde = Force.objects.create(campaign=campaign, faction=warband, name="Warband", tl=3)
    Unit.objects.bulk_create(
        [
            Unit(force=horde, name="Orc Spears", troop_type=types["orc spearmen"], men=300,
                 racial=1, armour="medium", morale=11),
            Unit(force=horde, name="Wolf Riders", troop_type=types["wolf riders"], men=40,
                 armour="light", morale=12),
        ]
    )  # fmt: skip
    sir_edric = Character.objects.create(
        campaign=campaign, name="Sir Edric", faction=barony, owner=player, ht_max=12, ht=12,
        iq=11, dr=4, luck=1, tactics=13, weapon_skill=15, role="unit_commander", rank=2,
    )  # fmt: skip
    Reputation.objects.create(character=sir_edric, value=1, expires=6, source="gm")
    Character.objects.create(
        campaign=campaign, name="Mira the Bold", faction=barony, ht_max=11, ht=11, dr=2,
        weapon_skill=14, limits=["overconfident"],
    )  # fmt: skip
    Character.objects.create(
        campaign=campaign, name="Gorsk", is_pc=False, faction=warband, ht_max=14, ht=14,
        dr=3, tactics=12, weapon_skill=15, role="army_commander", limits=["berserk"],
        notes="Will flee if the Wolf Riders rout.",
    )  # fmt: skip

    data = {"name": "Battle of the Grey Ford", "defender": "a", "defensive": ["narrow_passage"],
            "narrow_passage": 4, "days": 2, "month": 1, "casualties": "house", "intensity": 0,
            "players_may_act": True, f"force_{host.pk}": "a", f"force_{horde.pk}": "b",
            "morale_a": ["homeland"]}  # fmt: skip
    for character in Character.objects.filter(campaign=campaign):
        data[f"pc_{character.pk}"] = "a" if character.faction_id == barony.pk else "b"
    api_create(gm, campaign.pk, data)
