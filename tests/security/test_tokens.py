"""API tokens: made on the profile page, shown once, working as `Authorization: Token …`,
revoked there; never shown to anyone else, nor again to their owner."""

import re

from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient


def _new_key(client) -> str:
    response = client.post(reverse("token-create"))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    key = Token.objects.get(user=response.wsgi_request.user).key
    assert key in response.content.decode()
    return key


def _api(key: str | None = None) -> APIClient:
    client = APIClient()
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_profile_is_linked_from_the_header(client, player):
    client.force_login(player)
    page = client.get(reverse("kingdoms:campaign-list")).content.decode()
    assert f'href="{reverse("profile")}"' in page


def test_token_is_made_shown_once_and_works(client, world, player):
    client.force_login(player)
    assert "You have no token." in client.get(reverse("profile")).content.decode()
    key = _new_key(client)
    profile = client.get(reverse("profile"))
    assert profile.status_code == 200
    assert key not in profile.content.decode()  # never again
    assert "You have a token" in profile.content.decode()

    response = _api(key).get(reverse("api:campaign-list"))
    assert response.status_code == 200
    assert [c["id"] for c in response.json()["results"]] == [world.pk]
    assert _api().get(reverse("api:campaign-list")).status_code == 403
    assert _api("0" * 40).get(reverse("api:campaign-list")).status_code == 403


def test_a_token_writes_without_csrf_and_with_its_owners_rights(world, player, militia, kingdom):
    key = Token.objects.create(user=player).key
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    url = reverse("api:army-activities", args=[world.pk, militia.pk])
    body = {"activity": "garrison_army", "location": "settlement", "territory": "own",
            "version": militia.version, "typed_die": 20}  # fmt: skip
    assert client.post(url, body, format="json").status_code == 200
    # …but no more than its owner may: placing an army is the GM's.
    create = reverse("api:faction-army-list", args=[world.pk, militia.faction_id])
    body = {"name": "Levy", "army_type": "infantry", "tactics": ["keen_eyed"]}
    assert client.post(create, body, format="json").status_code == 403


def test_replacing_and_revoking(client, player):
    client.force_login(player)
    first = _new_key(client)
    second = _new_key(client)
    assert first != second
    assert _api(first).get(reverse("api:campaign-list")).status_code == 403
    assert _api(second).get(reverse("api:campaign-list")).status_code == 200
    response = client.post(reverse("token-revoke"))
    assert response.status_code == 302
    assert not Token.objects.filter(user=player).exists()
    assert _api(second).get(reverse("api:campaign-list")).status_code == 403


def test_tokens_are_never_shown_to_others(client, player, gm):
    client.force_login(player)
    key = _new_key(client)
    client.force_login(gm)
    for url in (reverse("profile"), reverse("kingdoms:campaign-list")):
        assert key not in client.get(url).content.decode()
    # The GM's own revoke leaves the player's token alone.
    client.post(reverse("token-revoke"))
    assert Token.objects.filter(user=player, key=key).exists()


def test_token_pages_need_a_post_and_a_login(client, player):
    assert client.post(reverse("token-create")).status_code == 302
    assert not Token.objects.exists()
    client.force_login(player)
    assert client.get(reverse("token-create")).status_code == 405
    assert client.get(reverse("token-revoke")).status_code == 405
    assert not Token.objects.exists()


def test_token_forms_are_csrf_protected(player):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(player)
    page = client.get(reverse("profile")).content.decode()
    assert re.search(r'name="csrfmiddlewaretoken"', page)
    assert client.post(reverse("token-create")).status_code == 403
    assert not Token.objects.exists()
