"""Role rules: the last GM stays, invites can be revoked or expire, joining makes a player."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.utils import timezone

from kingdoms import services
from kingdoms.access import access_campaign
from kingdoms.models import Membership, Role
from tests.factories import FactionFactory, InviteFactory, MembershipFactory, UserFactory


def test_creating_a_campaign_makes_its_creator_the_gm(db):
    user = UserFactory()
    campaign = services.campaign_create(user=user, name="Brevoy", rule_system="gurps4e")
    assert Membership.objects.get(campaign=campaign, user=user).role == Role.GM


def test_the_last_gm_cannot_be_demoted(campaign, gm):
    own = Membership.objects.get(campaign=campaign, user=gm)
    with pytest.raises(ValidationError, match="only game master"):
        services.membership_update(
            user=gm, campaign_id=campaign.pk, membership_id=own.pk, role=Role.PLAYER, faction=None
        )
    own.refresh_from_db()
    assert own.role == Role.GM


def test_the_last_gm_cannot_leave(campaign, gm):
    own = Membership.objects.get(campaign=campaign, user=gm)
    with pytest.raises(ValidationError, match="only game master cannot leave"):
        services.membership_remove(user=gm, campaign_id=campaign.pk, membership_id=own.pk)
    assert Membership.objects.filter(pk=own.pk).exists()


def test_a_gm_can_step_down_once_there_is_a_second_gm(campaign, gm, player):
    second = Membership.objects.get(campaign=campaign, user=player)
    services.membership_update(
        user=gm, campaign_id=campaign.pk, membership_id=second.pk, role=Role.GM, faction=None
    )
    own = Membership.objects.get(campaign=campaign, user=gm)
    services.membership_update(
        user=gm, campaign_id=campaign.pk, membership_id=own.pk, role=Role.PLAYER, faction=None
    )
    assert set(campaign.memberships.values_list("user__username", "role")) == {
        ("gm", Role.PLAYER),
        ("player", Role.GM),
    }


def test_a_player_can_leave_but_cannot_remove_others(campaign, gm, player, other_player):
    rival = Membership.objects.get(campaign=campaign, user=other_player)
    with pytest.raises(PermissionDenied):
        services.membership_remove(user=player, campaign_id=campaign.pk, membership_id=rival.pk)
    own = Membership.objects.get(campaign=campaign, user=player)
    services.membership_remove(user=player, campaign_id=campaign.pk, membership_id=own.pk)
    assert not campaign.memberships.filter(user=player).exists()
    assert campaign.memberships.filter(user=other_player).exists()


def test_non_members_get_404_and_players_403_on_gm_actions(campaign, player, outsider):
    with pytest.raises(Http404):
        access_campaign(outsider, campaign.pk)
    with pytest.raises(PermissionDenied):
        access_campaign(player, campaign.pk, gm=True)
    assert access_campaign(player, campaign.pk).role == Role.PLAYER


def test_joining_through_an_invite_makes_a_player_of_its_faction(campaign, kingdom_faction):
    invite = InviteFactory(campaign=campaign, faction=kingdom_faction)
    newcomer = UserFactory()
    membership, created = services.invite_accept(user=newcomer, token=invite.token)
    assert created
    assert (membership.role, membership.faction) == (Role.PLAYER, kingdom_faction)
    invite.refresh_from_db()
    assert invite.uses == 1


def test_following_an_invite_never_demotes_a_gm(campaign, gm):
    invite = InviteFactory(campaign=campaign)
    membership, created = services.invite_accept(user=gm, token=invite.token)
    assert not created
    assert membership.role == Role.GM


def test_a_revoked_invite_no_longer_works(campaign, gm):
    invite = InviteFactory(campaign=campaign)
    services.invite_revoke(user=gm, campaign_id=campaign.pk, invite_id=invite.pk)
    with pytest.raises(services.InviteUnusable, match="revoked"):
        services.invite_accept(user=UserFactory(), token=invite.token)
    assert campaign.memberships.count() == 1


def test_an_expired_invite_no_longer_works(campaign):
    invite = InviteFactory(campaign=campaign, expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(services.InviteUnusable, match="expired"):
        services.invite_accept(user=UserFactory(), token=invite.token)


def test_an_invite_with_a_future_expiry_works(campaign):
    invite = InviteFactory(campaign=campaign, expires_at=timezone.now() + timedelta(days=1))
    _membership, created = services.invite_accept(user=UserFactory(), token=invite.token)
    assert created


def test_a_gm_cannot_point_a_member_at_another_campaigns_faction(campaign, gm, player):
    foreign = MembershipFactory(role=Role.GM).campaign

    stranger = FactionFactory(campaign=foreign)
    own = Membership.objects.get(campaign=campaign, user=player)
    with pytest.raises(ValidationError, match="another campaign"):
        services.membership_update(
            user=gm,
            campaign_id=campaign.pk,
            membership_id=own.pk,
            role=Role.PLAYER,
            faction=stranger,
        )
