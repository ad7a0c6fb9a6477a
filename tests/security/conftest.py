"""The security net's cast and world: every object a URL of the site can name, one of each."""

import pytest

from tests.conftest import make_army
from warfare.systems.pf2e import setup as pf2e_setup


@pytest.fixture
def raiders(world, gm, enemy_faction):
    """The enemy's level 9 infantry: AC 28, which only the GM and its own side may see."""
    return make_army(world, enemy_faction.pk, "Thornback Raiders", level_override=9, hex="D8",
                     notes="GM-ONLY-NOTE ambush at the ford")  # fmt: skip


@pytest.fixture
def objects(world, gm, player, kingdom, kingdom_faction, militia, raiders):
    """Keyword arguments for every URL pattern of the site, pointing at the players' side."""
    from kingdoms.models import Membership, Role
    from tests.factories import InviteFactory, MembershipFactory, UserFactory
    from warfare.systems.pf2e import services

    bystander = MembershipFactory(
        campaign=world, user=UserFactory(username="bystander"), role=Role.PLAYER,
        faction=kingdom_faction,
    )  # fmt: skip
    invite = InviteFactory(campaign=world)
    recruitment = services.recruitment_start(
        user=gm, campaign_id=world.pk, faction_id=kingdom_faction.pk, army_type="infantry"
    )
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Ford",
        sides={"a": [militia.pk], "b": [raiders.pk]}, pcs_side="a",
    )  # fmt: skip
    assert Membership.objects.filter(pk=bystander.pk).exists()
    # GURPS Mass Combat rows: the matrix switches the campaign to that rule system for them.
    from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

    element_type = ElementType.objects.create(campaign=world, name="Pikemen", base_ts=2)
    force = Force.objects.create(campaign=world, faction=kingdom_faction, name="Host")
    row = ForceElement.objects.create(force=force, element_type=element_type, count=3)
    # GURPS 3e rows: a force of the players' faction with a unit, the player's own character
    # with a reputation entry.
    from warfare.systems.gurps3e import models as g3

    g3force = g3.Force.objects.create(campaign=world, faction=kingdom_faction, name="Host")
    troop_type = g3.TroopType.objects.create(campaign=world, name="pikes", ts_per_man=3)
    g3unit = g3.Unit.objects.create(force=g3force, name="Pikes", troop_type=troop_type, men=50)
    character = g3.Character.objects.create(campaign=world, name="Aldric",
                                            faction=kingdom_faction, owner=player)  # fmt: skip
    entry = g3.Reputation.objects.create(character=character, value=1)
    # D&D 5e rows: the matrix switches the campaign to that rule system for them.
    from warfare.systems.dnd5e.models import Army as Dnd5eArmy
    from warfare.systems.dnd5e.models import Creature, Solo, Unit

    creature = Creature.objects.create(campaign=world, key="guard", name="Guard", ac=16, hp=11)
    dnd_army = Dnd5eArmy.objects.create(campaign=world, faction=kingdom_faction, name="Guards")
    dnd_unit = Unit.objects.create(army=dnd_army, name="Watch", creature=creature, stands=2)
    solo = Solo.objects.create(army=dnd_army, name="Captain", creature=creature)
    return {
        # Keyword arguments that two apps name alike, by URL namespace.
        "by_namespace": {"gurps3e": {"unit_id": g3unit.pk}, "dnd5e": {"unit_id": dnd_unit.pk}},
        "g3force_id": g3force.pk,
        "troop_type_id": troop_type.pk,
        "character_id": character.pk,
        "entry_id": entry.pk,
        "creature_id": creature.pk,
        "dnd_army_id": dnd_army.pk,
        "solo_id": solo.pk,
        "element_type_id": element_type.pk,
        "force_id": force.pk,
        "row_id": row.pk,
        "campaign_id": world.pk,
        "faction_id": kingdom_faction.pk,
        "settlement_id": kingdom_faction.settlements.first().pk,
        "membership_id": bystander.pk,
        "invite_id": invite.pk,
        "token": invite.token,
        "recruitment_id": recruitment.pk,
        "army_id": militia.pk,
        "battle_id": battle.pk,
        "chart": "hp",
    }
