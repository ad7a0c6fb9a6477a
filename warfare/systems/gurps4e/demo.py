"""The GURPS Mass Combat 4e demo campaign of `make run`: two factions with their command
staff, element types, a force each and a battle ready on the board (loading it again changes
nothing)."""

from decimal import Decimal

from kingdoms.demo import demo_campaign
from kingdoms.models import CommandStaff, Controller, Faction, Membership, Role, RuleSystem
from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

from .setup import BattleInput, PCInput, gurps4e_battle_create

DEMO_CAMPAIGN = "Demo: Border Wars (GURPS Mass Combat)"
DEMO_DESCRIPTION = (
    "The Free City of Varn holds the ford against the Iron Duchy's "
    "host. Open the battle: the players choose Varn's strategy in secret."
)


@demo_campaign(DEMO_CAMPAIGN, rule_system=RuleSystem.GURPS4E, description=DEMO_DESCRIPTION)
def load_demo(campaign, gm, player) -> None:
    varn = Faction.objects.create(
        campaign=campaign, name="Free City of Varn", controlled_by=Controller.PLAYERS,
        description="The players' city: guilds, walls and a proud militia.",
    )  # fmt: skip
    duchy = Faction.objects.create(
        campaign=campaign, name="Iron Duchy", description="A grasping duke and his host."
    )
    CommandStaff.objects.create(
        faction=varn, commander="Marshal Edda", strategy=14, tactics=13, leadership=13,
        intelligence_officer="Captain Rook", intelligence_analysis=12,
        logistics_officer="Quartermaster Bell", administration=11,
    )  # fmt: skip
    CommandStaff.objects.create(
        faction=duchy, commander="Duke Orsk", strategy=13, tactics=12, leadership=12,
        intelligence_analysis=11, administration=12,
    )  # fmt: skip
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=varn)

    def element(name, ts, **extra):
        return ElementType.objects.create(campaign=campaign, name=name, tl=2,
                                          base_ts=Decimal(ts), **extra)  # fmt: skip

    infantry = element("Heavy Infantry", 4, raise_cost=20000)
    artillery = element("Light Artillery", 1, is_support=True, ts_doubles_per_tl=True,
                        classes=["Art"], raise_cost=15000)  # fmt: skip
    archers = element("Horse Archers", 3, classes=["Cav", "F"], mobility="horse",
                      raise_cost=30000)  # fmt: skip
    scouts = element("Scouts", 1, classes=["Rec"], raise_cost=5000)
    guard = Force.objects.create(campaign=campaign, faction=varn, name="Varn City Guard")
    ForceElement.objects.bulk_create(
        [
            ForceElement(force=guard, element_type=infantry, count=8, troop_quality="good"),
            ForceElement(force=guard, element_type=artillery, count=3, tl=3),
            ForceElement(force=guard, element_type=scouts, count=2),
        ]
    )
    host = Force.objects.create(campaign=campaign, faction=duchy, name="Duchy Host")
    ForceElement.objects.bulk_create(
        [
            ForceElement(force=host, element_type=infantry, count=6),
            ForceElement(force=host, element_type=archers, count=5),
        ]
    )
    gurps4e_battle_create(
        user=gm,
        campaign_id=campaign.pk,
        data=BattleInput(
            name="Battle of the Varn Ford",
            forces={"a": guard.pk, "b": host.pk},
            terrain="rural",
            kind="pitched",
            initiative="a",
            db={"a": 2},
            pcs=(
                PCInput(name="Ilse the Bold", side="a", owner=player.pk, hp=12, skill_15=True),
                PCInput(name="Sir Garrick", side="b", hp=13, commands_element=True),
            ),
        ),  # fmt: skip
    )
