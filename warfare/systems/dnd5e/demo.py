"""The D&D 5e demo campaign of `make run`: the SRD library, two armies and a battle ready on
the board with a ballista and a mangonel, their crews, and the Horde surprised (loading it
again changes nothing)."""

from kingdoms.demo import demo_campaign
from kingdoms.models import Controller, Faction, Membership, Role, RuleSystem
from warfare.systems.dnd5e import services
from warfare.systems.dnd5e.models import Army, Creature, Solo, Unit

from .setup import battle_create

DEMO_CAMPAIGN = "Demo: The Old Ford (D&D 5e, When Armies Clash)"
DEMO_DESCRIPTION = (
    "The Wardens hold the Old Ford against the Red Hand's horde. Open "
    "the battle: the Knights crew the ballista; the Horde is caught by surprise."
)


@demo_campaign(DEMO_CAMPAIGN, rule_system=RuleSystem.DND5E, description=DEMO_DESCRIPTION)
def load_demo(campaign, gm, player) -> None:
    wardens_faction = Faction.objects.create(
        campaign=campaign, name="Wardens of the Ford", controlled_by=Controller.PLAYERS
    )
    red_hand = Faction.objects.create(campaign=campaign, name="Red Hand")
    Membership.objects.create(
        campaign=campaign, user=player, role=Role.PLAYER, faction=wardens_faction
    )
    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    creatures = {c.key: c for c in Creature.objects.filter(campaign=campaign)}
    wardens = Army.objects.create(campaign=campaign, faction=wardens_faction, name="Wardens")
    hero = Solo.objects.create(army=wardens, name="Sir Aldric", creature=creatures["knight"],
                               pc=True)  # fmt: skip
    knights = Unit.objects.create(army=wardens, name="Knights", creature=creatures["knight"],
                                  stands=1, commander=hero)  # fmt: skip
    Unit.objects.create(army=wardens, name="Guards", creature=creatures["guard"], stands=2)
    Unit.objects.create(army=wardens, name="Scouts", creature=creatures["scout"], stands=1,
                        kind="skirmisher")  # fmt: skip
    horde = Army.objects.create(campaign=campaign, faction=red_hand, name="Horde")
    orcs = Unit.objects.create(army=horde, name="Orcs", creature=creatures["orc"], stands=3)
    Unit.objects.create(army=horde, name="Goblins", creature=creatures["goblin"], stands=2,
                        kind="skirmisher")  # fmt: skip
    Unit.objects.create(army=horde, name="Ogres", creature=creatures["ogre"], stands=1)
    battle_create(
        user=gm, campaign_id=campaign.pk, name="Battle of the Old Ford", army_a=wardens,
        army_b=horde, players_may_act=True, width=12, height=8, depth=3, squares=[],
        objectives=[{"key": "destruction", "type": "destruction", "side": "b",
                     "squares": [{"x": 4, "y": 3, "hp": 30, "ac": 15, "vp": 5},
                                 {"x": 4, "y": 4, "hp": 30, "ac": 15, "vp": 5}]},
                    {"key": "protection", "type": "protection", "side": "a",
                     "paired": "destruction", "vp": 1},
                    {"key": "attrition_a", "type": "attrition", "side": "a", "vp": 2}],
        options={}, auto_deploy=True,
        engines=[{"key": "e1", "kind": "ballista", "side": "a", "pos": [0, 0],
                  "crew": f"u{knights.pk}"},
                 {"key": "e2", "kind": "mangonel", "side": "b", "pos": None,
                  "crew": f"u{orcs.pk}"}],
        surprised=["b"],
    )  # fmt: skip
