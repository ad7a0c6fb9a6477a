"""`warfare.csrf.masked_token`: the board's CSRF token masked in fewer steps than Django's
`get_token` (issue 13), and still Django's token: it unmasks to the request's secret, is masked
anew for each response, sends the cookie, and a form posted with it passes
`CsrfViewMiddleware` (a board action, CSRF checks enforced)."""

import re
from collections import Counter

import pytest
from django.middleware.csrf import (
    CSRF_ALLOWED_CHARS,
    CSRF_SECRET_LENGTH,
    _unmask_cipher_token,
    get_token,
)
from django.test import Client, RequestFactory
from django.urls import reverse

from battles.models import Battle
from warfare import csrf

SECRET = "abcdefghijklmnopqrstuvwxyzABCDEF"  # (32 characters Django's secrets are made of)


def _request(secret=SECRET):
    request = RequestFactory().get("/")
    if secret is not None:
        request.META["CSRF_COOKIE"] = secret
    return request


def test_the_token_unmasks_to_the_secret_and_sends_the_cookie():
    request = _request()
    token = csrf.masked_token(request)
    assert len(token) == 2 * CSRF_SECRET_LENGTH
    assert set(token) <= set(CSRF_ALLOWED_CHARS)
    assert _unmask_cipher_token(token) == SECRET
    assert request.META["CSRF_COOKIE_NEEDS_UPDATE"] is True


def test_each_token_is_masked_anew():
    request = _request()
    tokens = {csrf.masked_token(request) for _ in range(50)}
    assert len(tokens) == 50
    assert {_unmask_cipher_token(token) for token in tokens} == {SECRET}


def test_the_mask_leaves_out_the_bytes_past_the_last_whole_62(monkeypatch):
    """Bytes 248..255 are left out (taken modulo 62 they would make the first 8 characters
    more likely), the others taken modulo 62, read again until 32 are drawn."""
    reads = iter([bytes([255] * 30 + [0, 61, 62, 247] + [248] * 6), bytes(range(40))])
    monkeypatch.setattr(csrf.secrets, "token_bytes", lambda count: next(reads))
    assert csrf._mask() == [0, 61, 0, 61] + list(range(28))


def test_the_mask_draws_every_character_evenly():
    """62,000 draws: each character about 1,000 times (sd ~31; a byte taken modulo 62
    without leaving out 248..255 would draw the first 8 about 1,210 times each)."""
    counts = Counter(index for _ in range(62_000 // CSRF_SECRET_LENGTH) for index in csrf._mask())
    assert set(counts) == set(range(len(CSRF_ALLOWED_CHARS)))
    assert max(counts.values()) < 1_160 and min(counts.values()) > 840  # (5 sd)


def test_without_a_secret_django_makes_it():
    request = _request(None)
    token = csrf.masked_token(request)
    made = request.META["CSRF_COOKIE"]
    assert len(made) == CSRF_SECRET_LENGTH
    assert _unmask_cipher_token(token) == made
    assert _unmask_cipher_token(get_token(request)) == made


@pytest.mark.django_db
def test_a_board_action_posted_with_the_boards_token_passes_the_csrf_check(world, gm, battle):
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    board = client.get(battle.get_absolute_url(), HTTP_HX_REQUEST="true")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', board.content.decode())[1]
    assert _unmask_cipher_token(token) == client.cookies["csrftoken"].value  # (the secret)
    url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    data = {"seq": battle.seq, "actor": actor, "kind": "end_turn"}
    refused = client.post(url, data, HTTP_HX_REQUEST="true")
    assert refused.status_code == 403
    assert Battle.objects.get(pk=battle.pk).seq == battle.seq
    answer = client.post(url, {**data, "csrfmiddlewaretoken": token}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert Battle.objects.get(pk=battle.pk).seq > battle.seq
