"""The D&D 5e demo campaign: two armies of the SRD library and a battle ready on the board."""

from django.db import transaction

from kingdoms.models import Campaign, Controller, Faction, Membership, Role, RuleSystem

from . import services
from .models import Army, Creature, Solo, Unit

DND5E_DEMO_CAMPAIGN = "Demo: The Old Ford (D&D 5e)"


@transaction.atomic
def load_dnd5e_demo(*, gm, player) -> bool:
    """Create the campaign once (False if it exists): the players' Wardens against the Red
    Hand horde, and the Battle of the Old Ford deployed and ready for round 1."""
    from battles.dnd5e.setup import battle_create, parse_map, preset_map

    campaign, created = Campaign.objects.get_or_create(
        name=DND5E_DEMO_CAMPAIGN,
        created_by=gm,
        defaults={
            "rule_system": RuleSystem.DND5E,
            "description": "The Red Hand horde means to burn the ford; the Wardens hold it.",
        },
    )
    if not created:
        return False
    wardens_faction = Faction.objects.create(
        campaign=campaign, name="Wardens of the Ford", controlled_by=Controller.PLAYERS
    )
    horde_faction = Faction.objects.create(campaign=campaign, name="Red Hand")
    Membership.objects.create(campaign=campaign, user=gm, role=Role.GM)
    Membership.objects.create(
        campaign=campaign, user=player, role=Role.PLAYER, faction=wardens_faction
    )
    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    srd = {c.key: c for c in Creature.objects.filter(campaign=campaign)}
    wardens = Army.objects.create(campaign=campaign, faction=wardens_faction, name="Wardens")
    hero = Solo.objects.create(army=wardens, name="Sir Aldric", creature=srd["knight"], pc=True)
    for name, key, kind, stands, commander in (
        ("Knights of the Ford", "knight", "regiment", 2, hero),
        ("Town Guard", "guard", "regiment", 3, None),
        ("Rangers", "scout", "skirmisher", 2, None),
    ):
        Unit.objects.create(army=wardens, name=name, creature=srd[key], kind=kind,
                            stands=stands, commander=commander)  # fmt: skip
    horde = Army.objects.create(campaign=campaign, faction=horde_faction, name="Red Hand Horde")
    for name, key, kind, stands in (
        ("Orc Warband", "orc", "regiment", 3),
        ("Goblin Skirmishers", "goblin", "skirmisher", 2),
        ("Hobgoblin Line", "hobgoblin", "regiment", 2),
        ("Ogre", "ogre", "regiment", 1),
    ):
        Unit.objects.create(army=horde, name=name, creature=srd[key], kind=kind, stands=stands)
    Solo.objects.create(army=horde, name="Vrak the Mage", creature=srd["mage"])
    width, height = 12, 8
    battle_create(
        user=gm, campaign_id=campaign.pk, name="Battle of the Old Ford", army_a=wardens,
        army_b=horde, players_may_act=True, width=width, height=height, depth=3,
        squares=parse_map(preset_map("river", width, height), width, height),
        objectives=[
            {"key": "destruction", "type": "destruction", "side": "b",
             "squares": [{"x": 6, "y": 4, "hp": 30, "ac": 15, "vp": 5},
                         {"x": 5, "y": 4, "hp": 30, "ac": 15, "vp": 5}]},
            {"key": "protection", "type": "protection", "side": "a", "paired": "destruction",
             "vp": 2},
            {"key": "attrition_a", "type": "attrition", "side": "a", "vp": 2},
            {"key": "attrition_b", "type": "attrition", "side": "b", "vp": 2},
        ],
        options={}, auto_deploy=True,
    )  # fmt: skip
    return True
