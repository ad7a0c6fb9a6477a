"""One campaign per rule system with two forces ready to fight, and the battle-create body of
the API that sets them against each other (POST /api/v1/campaigns/<id>/battles/).

In each campaign `gm` is the GM, `player` plays side A's faction (with a PC or character of
their own where the system has them) and `rival` plays side B's. Used by the API contract
test and the API fuzzing, which need a battle of every system.
"""

from decimal import Decimal

from kingdoms.models import CommandStaff, Controller, Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, SettlementFactory

SYSTEMS = (RuleSystem.PF2E, RuleSystem.DND5E, RuleSystem.GURPS4E, RuleSystem.GURPS3E)


def system_campaign(system: str, *, gm, player, rival) -> tuple:
    """(campaign, create body) of a new campaign of `system`."""
    campaign = CampaignFactory(name=f"Contract ({system})", rule_system=system, created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by=Controller.PLAYERS)
    theirs = FactionFactory(campaign=campaign, name="Thornback Horde")
    for faction in (ours, theirs):
        SettlementFactory(faction=faction)
    MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER, faction=ours)
    MembershipFactory(campaign=campaign, user=rival, role=Role.PLAYER, faction=theirs)
    body = _FORCES[system](campaign, gm, player, ours, theirs)
    return campaign, {"name": f"Battle of the Ford ({system})", **body}


def _pf2e(campaign, gm, player, ours, theirs) -> dict:
    from warfare.systems.pf2e import services

    armies = [
        services.army_create(user=gm, campaign_id=campaign.pk, faction_id=faction.pk,
                             name=name, army_type="infantry", level_override=3,
                             tactics=("toughened_soldiers",), hex="C7")
        for faction, name in ((ours, "Silverrun Militia"), (theirs, "Thornback Raiders"))
    ]  # fmt: skip
    return {"sides": {"a": [armies[0].pk], "b": [armies[1].pk]}, "pcs_side": "a"}


def _dnd5e(campaign, gm, player, ours, theirs) -> dict:
    """Guards with the players' PC against orcs; side A has a custom objective worth 10 VP
    (awarding it wins the battle)."""
    from warfare.systems.dnd5e import services
    from warfare.systems.dnd5e.models import Army, Creature, Solo, Unit

    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    creatures = {c.key: c for c in Creature.objects.filter(campaign=campaign)}
    wardens = Army.objects.create(campaign=campaign, faction=ours, name="Wardens")
    Unit.objects.create(army=wardens, name="Guards", creature=creatures["guard"], stands=2)
    Solo.objects.create(army=wardens, name="Sir Aldric", creature=creatures["knight"], pc=True)
    horde = Army.objects.create(campaign=campaign, faction=theirs, name="Horde")
    Unit.objects.create(army=horde, name="Orcs", creature=creatures["orc"], stands=2)
    return {"army_a": wardens.pk, "army_b": horde.pk, "auto_deploy": True,
            "custom_a": "Hold the ford", "custom_a_vp": 10}  # fmt: skip


def _gurps4e(campaign, gm, player, ours, theirs) -> dict:
    from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

    infantry = ElementType.objects.create(
        campaign=campaign, name="Heavy Infantry", tl=2, base_ts=Decimal(4), classes=[]
    )
    forces = []
    for faction, name, count in ((ours, "Legion", 10), (theirs, "Horde", 8)):
        force = Force.objects.create(campaign=campaign, faction=faction, name=name)
        ForceElement.objects.create(force=force, element_type=infantry, count=count)
        forces.append(force)
    return {"forces": {"a": forces[0].pk, "b": forces[1].pk},
            "pcs": [{"name": "Ann", "side": "a", "owner": player.pk}]}  # fmt: skip


def _gurps3e(campaign, gm, player, ours, theirs) -> dict:
    from warfare.systems.gurps3e.models import Character, Force, TroopType, Unit

    for faction, strategy in ((ours, 14), (theirs, 12)):
        CommandStaff.objects.filter(faction=faction).update(strategy=strategy)
    infantry = TroopType.objects.create(campaign=campaign, name="infantry", ts_per_man=3)
    forces = []
    for faction, name, men in ((ours, "Host", 100), (theirs, "Horde", 120)):
        force = Force.objects.create(campaign=campaign, faction=faction, name=name, tl=3)
        Unit.objects.create(force=force, name="Pikes", troop_type=infantry, men=men)
        forces.append(force)
    aldric = Character.objects.create(
        campaign=campaign, name="Aldric", faction=ours, owner=player, ht_max=12, ht=12,
        weapon_skill=14,
    )  # fmt: skip
    return {"defender": "b", "days": 1, "month": 1, "casualties": "house", "intensity": 0,
            "players_may_act": True, f"force_{forces[0].pk}": "a", f"force_{forces[1].pk}": "b",
            f"pc_{aldric.pk}": "a"}  # fmt: skip


_FORCES = {
    RuleSystem.PF2E: _pf2e,
    RuleSystem.DND5E: _dnd5e,
    RuleSystem.GURPS4E: _gurps4e,
    RuleSystem.GURPS3E: _gurps3e,
}
