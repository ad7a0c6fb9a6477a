import factory
from django.contrib.auth import get_user_model

from kingdoms.models import (
    Campaign,
    CommandStaff,
    Controller,
    Faction,
    Invite,
    Membership,
    Role,
    RuleSystem,
    Settlement,
)
from warfare.systems.pf2e.models import Kingdom

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password(PASSWORD)


class CampaignFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Campaign

    name = factory.Sequence(lambda n: f"Campaign {n}")
    rule_system = RuleSystem.PF2E
    created_by = factory.SubFactory(UserFactory)


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    campaign = factory.SubFactory(CampaignFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.PLAYER


class FactionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Faction
        skip_postgeneration_save = True

    campaign = factory.SubFactory(CampaignFactory)
    name = factory.Sequence(lambda n: f"Faction {n}")
    controlled_by = Controller.GM

    @factory.post_generation
    def system_records(obj, create, extracted, **kwargs):  # noqa: N805
        if create and obj.campaign.rule_system == RuleSystem.PF2E:
            Kingdom.objects.create(faction=obj, **kwargs)
        if create and obj.campaign.uses_command_staff:
            CommandStaff.objects.create(faction=obj)


class SettlementFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Settlement

    faction = factory.SubFactory(FactionFactory)
    campaign = factory.SelfAttribute("faction.campaign")
    name = factory.Sequence(lambda n: f"Settlement {n}")
    hex = "C7"


class InviteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Invite

    campaign = factory.SubFactory(CampaignFactory)
    created_by = factory.SelfAttribute("campaign.created_by")


def overlapping_battle(gm, campaign, name: str, setup: dict, *, players_may_act=True):
    """A battle started straight from an engine `setup` (any rule system), past the set-up
    services' checks: how a force came to be on two unfinished boards before one battle at a
    time (battles.holds), as older databases and campaign files may still hold."""
    from battles import services

    return services.battle_start(
        user=gm, campaign=campaign, name=name, setup=setup, problem_messages=list,
        players_may_act=players_may_act,
    )  # fmt: skip
