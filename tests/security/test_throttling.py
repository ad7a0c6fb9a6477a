"""Log-in is throttled after repeated failures (per client address and username); API writes
are throttled per user at the `api-write` rate, reads are not."""

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
