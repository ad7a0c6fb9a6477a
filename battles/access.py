"""The board's access check with the log-in's user read in the same query (issue 13).

A board view used to be `login_required`: the session's user row was read (its own query),
then the access check (`services.access_battle`: the battle, its campaign, the membership and
its faction, one query). `board_member` reads the user with the access check: the membership
row names the user, so the user's row is joined to it (`_MEMBER_BATTLE_USER`), and the user
is then checked exactly as `django.contrib.auth.get_user` checks the user it loads (through
the session's backend, `ModelBackend.get_user`: the backend's `user_can_authenticate`, then
the session's auth hash against `get_session_auth_hash()` with `constant_time_compare`).

Only a request whose answer is certain takes that road: the user not loaded yet, a session
naming a user and a backend that reads the user row as `ModelBackend` does, a row found (a
member of the battle's campaign), the user active, the session's hash the current one. Any
other request goes the way it always went (`login_required`, then `access_battle`), where
Django's own `get_user` decides: logged out or refused (a hash of before a password change:
the session flushed; a hash of a `SECRET_KEY_FALLBACKS` key: the session's hash rotated, the
user let in) is sent to log in, a non-member gets 404. So nothing answers differently, and a
non-member's request and one naming no battle take the same road (no leak of which battles
exist).
"""

from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib.auth import (
    BACKEND_SESSION_KEY,
    HASH_SESSION_KEY,
    SESSION_KEY,
    get_user_model,
    load_backend,
)
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import FilteredRelation, Q
from django.db.models.manager import BaseManager
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from kingdoms.models import Membership
from warfare.compiled import CompiledQuery

from . import services
from .models import Battle


def _member_battle_user(*, user: int, campaign: int, battle: int):
    """The user's membership of the campaign with its campaign, faction and user, and the
    campaign's battle (`the_battle`), if they are a member: what `services._member_battle`
    reads, and the user. (From the membership's side: selecting the user through that
    query's filtered `member` join, Django puts the user's join before `member`'s own, and
    PostgreSQL refuses the SQL.)"""
    the_battle = FilteredRelation("campaign__battles", condition=Q(campaign__battles__pk=battle))
    return (
        Membership.objects.annotate(the_battle=the_battle)
        .select_related("campaign", "faction", "user", "the_battle")
        .filter(user=user, campaign_id=campaign, the_battle__isnull=False)
        .order_by("pk")
    )


_MEMBER_BATTLE_USER = CompiledQuery(_member_battle_user, "user", "campaign", "battle")


@dataclass(frozen=True)
class _Read:
    """What `board_member` read for the view, and for which battle."""

    campaign_id: int
    battle_id: int
    membership: Membership
    battle: Battle


_READ = "_board_member_read"


def board_member(view):
    """`login_required` for a board view `(request, campaign_id, battle_id)`, with the user
    read in the access check's query when that is certain to give Django's answer (see the
    module docstring); the view then finds the (membership, battle) read (`member_battle`)."""
    guarded = login_required(view)

    @wraps(view)
    def wrapper(request, campaign_id: int, battle_id: int, *args, **kwargs):
        read = _read_with_user(request, int(campaign_id), int(battle_id))
        if read is None:
            return guarded(request, campaign_id, battle_id, *args, **kwargs)
        user = read.membership.user
        request._cached_user = request._acached_user = user  # (`AuthenticationMiddleware`'s)
        request.user = user
        setattr(request, _READ, read)
        return view(request, campaign_id, battle_id, *args, **kwargs)

    return wrapper


def member_battle(request, campaign_id: int, battle_id: int) -> tuple[Membership, Battle]:
    """(membership, battle) of a member (404 otherwise): as `board_member` read them before
    the view ran, or else in one query (`services.access_battle`)."""
    read = read_before(request, campaign_id, battle_id)
    if read is not None:
        return read.membership, read.battle
    return services.access_battle(request.user, campaign_id, battle_id)


def read_before(request, campaign_id: int, battle_id: int) -> _Read | None:
    """What `board_member` read for this battle, if it did."""
    read = getattr(request, _READ, None)
    if read is None or (read.campaign_id, read.battle_id) != (int(campaign_id), int(battle_id)):
        return None
    return read


def _read_with_user(request, campaign_id: int, battle_id: int) -> _Read | None:
    """The access check with the session's user, when Django's `get_user` would certainly
    give that very user (else None: the usual road)."""
    if hasattr(request, "_cached_user") or not isinstance(
        request.__dict__.get("user"), SimpleLazyObject
    ):
        return None  # the user is loaded already (or not by `AuthenticationMiddleware`)
    session = request.session
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except (KeyError, ValidationError):
        return None
    if backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    backend = load_backend(backend_path)
    if not _reads_the_user_row(backend):
        return None
    membership = _MEMBER_BATTLE_USER.first(user=user_id, campaign=campaign_id, battle=battle_id)
    if membership is None:
        return None  # not a member, no such battle, or no such user: Django's road says which
    battle = membership.the_battle
    del membership.the_battle  # (the battle is the caller's, as `access_battle` gives it)
    battle.campaign = membership.campaign
    user = membership.user
    if not backend.user_can_authenticate(user) or not _session_verified(session, user):
        return None  # Django's road refuses the user (and flushes the session, or rotates it)
    return _Read(campaign_id, battle_id, membership, battle)


def _reads_the_user_row(backend) -> bool:
    """Does the backend's `get_user` read the user as the joined row does: `ModelBackend`'s
    (by pk, through the user model's default manager, which must filter nothing), for the
    user model the membership names?"""
    user_model = get_user_model()
    return (
        isinstance(backend, ModelBackend)
        and type(backend).get_user is ModelBackend.get_user
        and Membership.user.field.related_model is user_model
        and type(user_model._default_manager).get_queryset is BaseManager.get_queryset
    )


def _session_verified(session, user) -> bool:
    """`django.contrib.auth.get_user`'s check of the session against the user's current auth
    hash (a fallback key's hash is not enough here: Django's road rotates the session)."""
    if not hasattr(user, "get_session_auth_hash"):
        return False
    session_hash = session.get(HASH_SESSION_KEY)
    return bool(session_hash) and constant_time_compare(session_hash, user.get_session_auth_hash())
