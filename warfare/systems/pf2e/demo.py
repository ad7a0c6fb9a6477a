"""The Pathfinder 2e demo campaign of `make run`: a young kingdom, a raiding horde and a
hidden cult, with settlements and four armies (loading it again changes nothing)."""

from kingdoms.demo import demo_campaign
from kingdoms.models import Controller, Faction, Membership, Role, RuleSystem, Settlement
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom

from .models import Kingdom
from .services import army_create

DEMO_CAMPAIGN = "Demo: The Silverrun Marches"
DEMO_DESCRIPTION = (
    "A young kingdom on the edge of the wild holds its border against "
    "a raiding horde, while something stirs in the fens."
)


def _skills(**values: tuple[int, str]) -> dict:
    skills = pf2e_kingdom.default_skills()
    for name, (modifier, rank) in values.items():
        skills[name] = {"modifier": modifier, "rank": rank}
    return skills


@demo_campaign(DEMO_CAMPAIGN, rule_system=RuleSystem.PF2E, description=DEMO_DESCRIPTION)
def load_demo(campaign, gm, player) -> None:
    silverrun = Faction.objects.create(
        campaign=campaign,
        name="Kingdom of Silverrun",
        controlled_by=Controller.PLAYERS,
        description="The players' kingdom: river towns, farmland and a stubborn militia.",
    )
    Kingdom.objects.create(
        faction=silverrun,
        level=3,
        xp=420,
        size_hexes=12,
        resource_points=24,
        food=6,
        unrest=1,
        decay=2,
        skills=_skills(
            warfare=(7, "trained"),
            statecraft=(6, "trained"),
            defense=(7, "trained"),
            trade=(5, "trained"),
            magic=(3, "untrained"),
            exploration=(6, "trained"),
            engineering=(5, "trained"),
            politics=(5, "trained"),
        ),
    )
    horde = Faction.objects.create(
        campaign=campaign,
        name="The Thornback Horde",
        description="Raiders from the hills, led by a warlord who calls himself the Thorn King.",
    )
    Kingdom.objects.create(
        faction=horde, level=4, size_hexes=8, resource_points=10, food=3, at_war=True
    )
    cult = Faction.objects.create(
        campaign=campaign,
        name="Cult of the Hollow Crown",
        description="Nobody at the table knows they exist. Yet.",
        known_to_players=False,
    )
    Kingdom.objects.create(faction=cult, level=5, size_hexes=2)

    Settlement.objects.bulk_create(
        [
            Settlement(campaign=campaign, faction=silverrun, name="Silverrun", hex="C7",
                       is_capital=True),
            Settlement(campaign=campaign, faction=silverrun, name="Millbrook", hex="D9"),
            Settlement(campaign=campaign, faction=silverrun, name="Oakwatch", hex="B5"),
            Settlement(campaign=campaign, faction=horde, name="Thornhold", hex="H3",
                       is_capital=True),
            Settlement(campaign=campaign, faction=cult, name="Ashfen", hex="F11",
                       notes="The cult's hidden shrine."),
        ]
    )  # fmt: skip
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=silverrun)

    for faction, name, army_type, tactics, hex_ in (
        (silverrun, "Silverrun Militia", "infantry", ("toughened_soldiers",), "C7"),
        (silverrun, "Millbrook Riders", "cavalry", (), "D9"),
        (horde, "Thornback Spears", "infantry", ("hold_the_line",), "H3"),
        (horde, "Thorn King's Outriders", "cavalry", ("keen_eyed",), "G4"),
    ):
        army_create(
            user=gm,
            campaign_id=campaign.pk,
            faction_id=faction.pk,
            name=name,
            army_type=army_type,
            tactics=tactics,
            hex=hex_,
        )
