"""What players must never learn: the numbers of another side's army (the enemy's level 9
infantry, AC 28), its hex, the GM's notes, the other kingdom's treasury, and the very existence
of a hidden faction; in HTML, in htmx partials and in JSON alike."""

import json
import re

import pytest
from django.urls import reverse

from kingdoms.models import Kingdom

SECRET_NOTE = "GM-ONLY-NOTE"
#: The enemy kingdom's RP: a number no database id of a test run reaches (ids climb through
#: the suite) and no CSRF token can hold (tokens are stripped before the check, see below).
SECRET_RP = 987_654
#: CSRF tokens (64 random letters and digits, one per form) may contain the digits by chance.
CSRF_TOKEN = re.compile(r"[A-Za-z0-9]{64}")
#: Keys of an army's numbers and state; absent from what a viewer of another side gets.
#: (Conditions are not among them: on a battle board they are there for all to see.)
HIDDEN_KEYS = {"stat_block", "hp", "max_hp", "level", "level_override", "hex", "notes",
               "version", "rout_threshold", "tactics", "gear", "potions", "shots"}  # fmt: skip


@pytest.fixture
def secrets(world, enemy_faction, hidden_faction, raiders, objects):
    Kingdom.objects.filter(faction=enemy_faction).update(resource_points=SECRET_RP)
    return {"raiders": raiders, "enemy": enemy_faction, "hidden": hidden_faction}


def _html_urls(world, secrets, objects):
    c, enemy, raiders = world.pk, secrets["enemy"].pk, secrets["raiders"].pk
    return [
        reverse("kingdoms:campaign-list"),
        reverse("kingdoms:campaign-detail", args=[c]),
        reverse("kingdoms:faction-detail", args=[c, enemy]),
        reverse("warfare:army-list", args=[c, enemy]),
        reverse("warfare:army-detail", args=[c, raiders]),
        reverse("battles:list", args=[c]),
        reverse("battles:board", args=[c, objects["battle_id"]]),
        reverse("battles:report", args=[c, objects["battle_id"]]),
    ]


def _json_urls(world, secrets, objects):
    c, enemy, raiders = world.pk, secrets["enemy"].pk, secrets["raiders"].pk
    return [
        reverse("api:faction-list", args=[c]),
        reverse("api:faction-army-list", args=[c, enemy]),
        reverse("api:army-detail", args=[c, raiders]),
        reverse("api:battle-list", args=[c]),
        reverse("api:battle-detail", args=[c, objects["battle_id"]]),
        reverse("api:battle-log", args=[c, objects["battle_id"]]),
    ]


def _army_entries(data, army):
    """Every object in `data` that stands for `army` (by its id or key with its name)."""
    if isinstance(data, dict):
        ids = {data.get("id"), data.get("key"), data.get("army")}
        if data.get("name") == army.name and ({army.pk, str(army.pk)} & ids):
            yield data
        for value in data.values():
            yield from _army_entries(value, army)
    elif isinstance(data, list):
        for value in data:
            yield from _army_entries(value, army)


def test_players_html_shows_no_enemy_numbers(client, world, player, gm, secrets, objects):
    client.force_login(player)
    for url in _html_urls(world, secrets, objects):
        for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
            response = client.get(url, **headers)
            assert response.status_code == 200, url
            html = CSRF_TOKEN.sub("", response.content.decode())
            assert SECRET_NOTE not in html, url
            assert str(SECRET_RP) not in html, url
            assert "Hollow Crown" not in html and "Ashfen" not in html, url
    army_pages = _html_urls(world, secrets, objects)[3:5]
    for url in army_pages:
        html = client.get(url).content.decode()
        # Level 9 infantry (§1.2): AC 28, Morale +21; its hex D8.
        for secret in ("<strong>28</strong>", "<strong>21</strong>", "level 9", "stat-table",
                       ">D8<", '<td class="num">9</td>'):  # fmt: skip
            assert secret not in html, (url, secret)
    # The markers are real: the GM sees them.
    client.force_login(gm)
    gm_html = client.get(army_pages[1]).content.decode()
    assert "<strong>28</strong>" in gm_html


def test_players_json_has_no_enemy_numbers(client, world, player, other_player, gm, secrets,
                                           objects):  # fmt: skip
    raiders = secrets["raiders"]
    for user in (player, other_player):
        client.force_login(user)
        for url in _json_urls(world, secrets, objects):
            response = client.get(url)
            assert response.status_code == 200, url
            text = response.content.decode()
            assert SECRET_NOTE not in text, url  # the GM's notes: not even its own side
            if user == player:
                assert str(SECRET_RP) not in text and "Hollow Crown" not in text, url
                for entry in _army_entries(json.loads(text), raiders):
                    assert not HIDDEN_KEYS & set(entry), (url, HIDDEN_KEYS & set(entry))
    # Its own side and the GM do see its numbers (AC 28), so the check above is not vacuous.
    detail = reverse("api:army-detail", args=[world.pk, raiders.pk])
    for user in (other_player, gm):
        client.force_login(user)
        assert client.get(detail).json()["stat_block"]["ac"]["value"] == 28
    assert client.get(detail).json()["notes"].startswith(SECRET_NOTE)
