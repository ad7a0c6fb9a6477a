"""Log-in is throttled after repeated failures (per client address and username; behind
`TRUSTED_PROXY_COUNT` proxies the address they saw); API writes are throttled per user at the
`api-write` rate, reads are not."""

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.factories import PASSWORD


def _login(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def test_ten_failed_logins_then_429_even_with_the_right_password(client, gm, settings):
    assert settings.LOGIN_FAILURE_LIMIT == 10
    for _ in range(10):
        assert _login(client, "gm", "wrong").status_code == 400
    response = _login(client, "gm", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed log-ins" in response.content.decode()
    assert int(response["Retry-After"]) == 15 * 60
    assert "_auth_user_id" not in client.session
    # Another username, or the same one from another address, is not held back.
    assert _login(client, "GM ", "wrong").status_code == 429  # same name, other spelling
    assert _login(client, "player-x", "wrong").status_code == 400
    assert _login(client, "gm", PASSWORD, REMOTE_ADDR="10.0.0.9").status_code == 302


#: The reverse proxy in front of the app (REMOTE_ADDR of every request that comes through it),
#: an attacker's address and the GM's, as the proxy sees them.
PROXY, ATTACKER, GM_HOME = "10.0.0.2", "203.0.113.66", "198.51.100.7"


def test_behind_the_proxy_failures_count_per_client_not_for_everyone(client, gm, settings):
    """Issue 11: behind a proxy every request came from its address, so ten failures from
    anywhere locked the username out for everybody. With TRUSTED_PROXY_COUNT = 1 the count
    is per address the proxy saw (the last one of X-Forwarded-For)."""
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(10):
        assert _login(client, "gm", "wrong", REMOTE_ADDR=PROXY,
                      HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 400  # fmt: skip
    assert _login(client, "gm", PASSWORD, REMOTE_ADDR=PROXY,
                  HTTP_X_FORWARDED_FOR=ATTACKER).status_code == 429  # fmt: skip
    assert _login(client, "gm", PASSWORD, REMOTE_ADDR=PROXY,
                  HTTP_X_FORWARDED_FOR=GM_HOME).status_code == 302  # fmt: skip


@pytest.mark.parametrize("trusted", [0, 1, 2])
def test_a_forged_forwarded_for_does_not_dodge_the_lockout(client, gm, settings, trusted):
    """Whatever the attacker writes into X-Forwarded-For, the addresses the trusted proxies
    appended decide: a new forged address each time is still the same client. With no proxy
    trusted (the default) the header is ignored."""
    settings.TRUSTED_PROXY_COUNT = trusted
    appended = [ATTACKER, "10.0.0.1"][:trusted]  # what the trusted proxies add
    for n in range(10):
        forged = ", ".join([f"192.0.2.{n}", *appended])
        assert _login(client, "gm", "wrong", REMOTE_ADDR=PROXY,
                      HTTP_X_FORWARDED_FOR=forged).status_code == 400  # fmt: skip
    forged = ", ".join(["192.0.2.99", *appended])
    assert _login(client, "gm", PASSWORD, REMOTE_ADDR=PROXY,
                  HTTP_X_FORWARDED_FOR=forged).status_code == 429  # fmt: skip


def test_a_successful_login_starts_the_count_afresh(client, gm):
    for _ in range(9):
        assert _login(client, "gm", "wrong").status_code == 400
    assert _login(client, "gm", PASSWORD).status_code == 302
    client.logout()
    for _ in range(9):
        assert _login(client, "gm", "wrong").status_code == 400
    assert _login(client, "gm", PASSWORD).status_code == 302


def test_only_refused_passwords_count(client, gm):
    for _ in range(12):
        assert _login(client, "gm", "").status_code == 400  # incomplete form: no check made
    assert _login(client, "gm", PASSWORD).status_code == 302


def test_the_window_expires(client, gm, settings):
    from tests.caches import clear_cache

    settings.LOGIN_FAILURE_LIMIT = 2
    for _ in range(2):
        _login(client, "gm", "wrong")
    assert _login(client, "gm", PASSWORD).status_code == 429
    clear_cache()  # what the end of LOGIN_FAILURE_WINDOW does
    assert _login(client, "gm", PASSWORD).status_code == 302


def test_the_admin_login_counts_too(client, db):
    from tests.factories import UserFactory

    UserFactory(username="root", is_staff=True, is_superuser=True)
    url = reverse("admin:login")
    for _ in range(10):
        response = client.post(url, {"username": "root", "password": "wrong"})
        assert response.status_code == 200  # the admin re-shows its form
    response = client.post(url, {"username": "root", "password": PASSWORD})
    assert response.status_code == 429


@pytest.fixture
def low_write_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"api-write": "3/minute"},
    }


def test_api_writes_are_throttled_per_user_and_reads_are_not(low_write_rate, world, gm, militia,
                                                             other_gm):  # fmt: skip
    client = APIClient()
    client.force_login(gm)
    url = reverse("api:army-activities", args=[world.pk, militia.pk])
    for _ in range(3):
        assert client.post(url, {"activity": "nope"}, format="json").status_code == 400
    response = client.post(url, {"activity": "nope"}, format="json")
    assert response.status_code == 429
    assert "Retry-After" in response
    assert response.json()["detail"]
    # Reads go on; another user's writes have their own count.
    detail = reverse("api:army-detail", args=[world.pk, militia.pk])
    for _ in range(5):
        assert client.get(detail).status_code == 200
    other = APIClient()
    other.force_login(other_gm)
    assert other.post(url, {"activity": "nope"}, format="json").status_code == 404
