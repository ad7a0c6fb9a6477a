"""The board's views read the log-in's user in the access check's query (`battles.access`,
issue 13) and answer exactly as `login_required` and Django's `get_user` did before: logged
out, a session of before a password change (flushed), an inactive user or a session of
another backend are sent to log in; a non-member, or a member of another campaign, gets 404;
the GM and the players act as before, each action one query fewer."""

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware
from django.contrib.sessions.backends.cached_db import SessionStore
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse
from django.urls import reverse

from battles import services
from battles.access import _MEMBER_BATTLE_USER, board_member, member_battle
from battles.models import Battle, BattleStatus

pytestmark = pytest.mark.django_db

LOGIN = "/accounts/login/"
VIEWS = ("board", "act", "undo", "apply")


class RefusingBackend(ModelBackend):
    """A backend that reads the user row its own way (here: never finds one)."""

    def get_user(self, user_id):
        return None


def _send(client, view: str, battle: Battle, **extra):
    """The request of `view` a member's board sends for `battle` as it is now."""
    url = reverse(f"battles:{view}", args=[battle.campaign_id, battle.pk])
    if view == "board":
        return client.get(url, **extra)
    data = {"seq": battle.seq}
    if view == "act":
        data.update(actor=battle.snapshot["order"][battle.snapshot["turn"]], kind="end_turn")
    return client.post(url, data, **extra)


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def _sent_to_log_in(response) -> bool:
    return response.status_code == 302 and response["Location"].startswith(LOGIN)


@pytest.mark.parametrize("view", VIEWS)
def test_logged_out_is_sent_to_log_in(client, world, battle, view):
    assert _sent_to_log_in(_send(client, view, battle))
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_of_before_a_password_change_is_logged_out_and_flushed(
    client, world, gm, battle, view
):
    client.force_login(gm)
    old_session = client.session.session_key
    gm.set_password("a-new-password-0")  # (elsewhere: this session is of before it)
    gm.save()
    assert _sent_to_log_in(_send(client, view, battle))
    assert SESSION_KEY not in client.session
    assert not SessionStore().exists(old_session)  # flushed, as Django's `get_user` does
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_without_its_auth_hash_is_logged_out(client, world, gm, battle, view):
    client.force_login(gm)
    session = client.session
    del session[HASH_SESSION_KEY]
    session.save()
    assert _sent_to_log_in(_send(client, view, battle))
    assert SESSION_KEY not in client.session


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_of_a_deleted_user_is_sent_to_log_in(client, world, player, battle, view):
    client.force_login(player)
    player.delete()
    assert _sent_to_log_in(_send(client, view, battle))


@pytest.mark.parametrize("view", VIEWS)
def test_an_inactive_user_is_sent_to_log_in(client, world, gm, battle, view):
    client.force_login(gm)
    gm.is_active = False
    gm.save()
    assert _sent_to_log_in(_send(client, view, battle))
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_of_a_backend_that_reads_the_user_otherwise_goes_its_way(
    client, settings, world, gm, battle, view
):
    """The user is read with the access check only for a session of a backend whose
    `get_user` is `ModelBackend`'s: another backend's own `get_user` decides."""
    refusing = f"{__name__}.RefusingBackend"
    settings.AUTHENTICATION_BACKENDS = [*settings.AUTHENTICATION_BACKENDS, refusing]
    client.force_login(gm, backend=refusing)
    assert client.session[BACKEND_SESSION_KEY] == refusing
    assert _sent_to_log_in(_send(client, view, battle))


@pytest.mark.parametrize("view", VIEWS)
def test_a_non_member_gets_404(client, world, outsider, battle, view):
    client.force_login(outsider)
    assert _send(client, view, battle).status_code == 404


@pytest.mark.parametrize("view", VIEWS)
def test_a_member_of_another_campaign_gets_404(client, world, other_gm, battle, view):
    """Through their own campaign's URL or this one's: the battle is not there for them."""
    client.force_login(other_gm)
    other_campaign = other_gm.memberships.get().campaign_id
    assert _send(client, view, battle).status_code == 404
    url = reverse(f"battles:{view}", args=[other_campaign, battle.pk])
    answer = client.get(url) if view == "board" else client.post(url, {"seq": battle.seq})
    assert answer.status_code == 404


@pytest.mark.parametrize("view", VIEWS)
def test_no_such_battle_gets_the_non_members_404(client, world, gm, battle, view):
    client.force_login(gm)
    missing = Battle(pk=battle.pk + 1000, campaign_id=battle.campaign_id, seq=0)
    url = reverse(f"battles:{view}", args=[missing.campaign_id, missing.pk])
    answer = client.get(url) if view == "board" else client.post(url, {"seq": 0})
    assert answer.status_code == 404


def test_the_gm_applies_the_results_as_before(client, world, gm, finished_battle):
    battle = Battle.objects.get(pk=finished_battle.pk)
    client.force_login(gm)
    assert _send(client, "board", battle).status_code == 200
    assert _send(client, "apply", battle).status_code == 302
    assert Battle.objects.get(pk=battle.pk).status == BattleStatus.APPLIED


def test_the_gm_acts_and_undoes_as_before(client, world, gm, battle):
    client.force_login(gm)
    assert _send(client, "board", battle).status_code == 200
    answer = _send(client, "act", battle)
    assert answer.status_code == 302 and answer["Location"] == battle.get_absolute_url()
    battle.refresh_from_db()
    assert battle.seq == 1
    assert _send(client, "undo", battle).status_code == 302
    assert Battle.objects.get(pk=battle.pk).seq == 0


def test_a_player_acts_as_before(client, world, player, militia_to_act):
    battle = militia_to_act
    client.force_login(player)
    assert _send(client, "board", battle).status_code == 200
    answer = _send(client, "act", battle, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq + 1
    battle.refresh_from_db()
    assert _send(client, "undo", battle).status_code == 403  # the GM's, as before
    assert _send(client, "apply", battle).status_code == 403


@pytest.mark.parametrize("view", VIEWS)
def test_a_session_of_a_retired_secret_key_is_let_in_and_rotated(
    client, settings, world, gm, finished_battle, view
):
    """A session hash made with a key of `SECRET_KEY_FALLBACKS`: Django lets the user in and
    gives the session the current key's hash (under a new session key)."""
    battle = Battle.objects.get(pk=finished_battle.pk)
    client.force_login(gm)
    old_session, old_hash = client.session.session_key, client.session[HASH_SESSION_KEY]
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "y" * 40
    answer = _send(client, view, battle)
    # The view answered (an action on the finished board is refused there: 400).
    assert answer.status_code == {"board": 200, "act": 400, "undo": 302, "apply": 302}[view]
    session = client.session
    assert session[HASH_SESSION_KEY] == gm.get_session_auth_hash() != old_hash
    assert session.session_key != old_session


def test_an_action_takes_three_queries(client, world, gm, battle, django_assert_num_queries):
    """The user, the member and the battle in one read; the write; the log's newest page."""
    client.force_login(gm)
    client.get(reverse("kingdoms:campaign-list"))  # (the session in the cache)
    with django_assert_num_queries(3):
        assert _send(client, "act", battle, HTTP_HX_REQUEST="true").status_code == 200


def test_the_board_takes_one_query_fewer(client, world, gm, battle, django_assert_num_queries):
    """The user, the member and the battle in one read; the log's newest page."""
    client.force_login(gm)
    client.get(reverse("kingdoms:campaign-list"))
    with django_assert_num_queries(2):
        assert _send(client, "board", battle, HTTP_HX_REQUEST="true").status_code == 200


def test_the_read_gives_what_the_access_check_and_the_backend_give(world, player, outsider,
                                                                   battle):  # fmt: skip
    membership, found = services.access_battle(player, world.pk, battle.pk)
    read = _MEMBER_BATTLE_USER.first(user=player.pk, campaign=world.pk, battle=battle.pk)
    assert _fields(read) == _fields(membership)
    assert _fields(read.campaign) == _fields(membership.campaign)
    assert _fields(read.faction) == _fields(membership.faction)
    assert _fields(read.the_battle) == _fields(found)  # its JSON decoded, its times aware
    assert _fields(read.user) == _fields(ModelBackend().get_user(player.pk))
    for user, campaign, battle_id in (
        (outsider, world.pk, battle.pk),  # not a member
        (player, world.pk, battle.pk + 1000),  # no such battle
        (player, world.pk + 1000, battle.pk),  # not in that campaign
    ):
        assert _MEMBER_BATTLE_USER.first(user=user.pk, campaign=campaign, battle=battle_id) is None


def test_a_user_loaded_before_is_not_read_again(rf, client, settings, world, gm, battle,
                                                django_assert_num_queries):  # fmt: skip
    """When the request's user was loaded already (here by `request.user`), the view gets
    that user and the usual access check: nothing replaces it."""
    client.force_login(gm)
    request = rf.get("/")
    request.COOKIES[settings.SESSION_COOKIE_NAME] = client.session.session_key
    SessionMiddleware(lambda request: None).process_request(request)
    AuthenticationMiddleware(lambda request: None).process_request(request)
    loaded = request.user
    assert loaded.pk == gm.pk  # (loaded now)
    seen = []

    @board_member
    def view(request, campaign_id, battle_id):
        seen.append((request.user, *member_battle(request, campaign_id, battle_id)))
        return HttpResponse()

    with django_assert_num_queries(1):  # the access check
        view(request, battle.campaign_id, battle.pk)
    (user, membership, found), = seen  # fmt: skip
    assert user is loaded and request._cached_user is loaded._wrapped
    assert (membership.user_id, found) == (gm.pk, battle)
