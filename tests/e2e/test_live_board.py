"""A player's phone follows the board live: pushed by Server-Sent Events from another app
process (ASGI, uvicorn), and by the 2-second poll when the stream is blocked."""

import pytest
from django.conf import settings
from playwright.sync_api import expect

from battles import services
from tests.servers import app_processes, session_cookie
from warfare.systems.pf2e import setup as pf2e_setup

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def battle(world, gm, militia, enemy_faction):
    from warfare.systems.pf2e import services as army_services

    raiders = army_services.army_create(
        user=gm, campaign_id=world.pk, faction_id=enemy_faction.pk, name="Raiders",
        army_type="infantry", tactics=("keen_eyed",), hex="C7", level_override=3,
    )  # fmt: skip
    return pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Ford",
        sides={"a": [militia.pk], "b": [raiders.pk]}, pcs_side="a",
    )  # fmt: skip


def _phone(new_page, url: str, user):
    page = new_page(viewport={"width": 390, "height": 844})
    cookie = session_cookie(user)[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": url}])
    page.polls = []
    page.on("request", lambda r: page.polls.append(r.url) if "since=" in r.url else None)
    return page


def _gm_ends_the_turn(gm, battle):
    battle.refresh_from_db()
    actor = battle.snapshot["order"][battle.snapshot["turn"]]
    battle, _events = services.battle_act(
        user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": actor, "kind": "end_turn"},
    )  # fmt: skip
    return battle


def test_the_players_phone_updates_from_the_event_stream_without_reload(
    new_page, gm, player, battle, redis_cache
):
    with app_processes(2) as (first, second):
        phone = _phone(new_page, second, player)
        phone.goto(second + battle.get_absolute_url())
        expect(phone.locator("body[data-live=sse]")).to_have_count(1)
        expect(phone.locator("#board")).to_have_attribute("data-seq", str(battle.seq))
        phone.evaluate("document.querySelector('#board').dataset.firstDraw = 'yes'")
        fetched = len(phone.polls)
        changed = _gm_ends_the_turn(gm, battle)  # written on this process, seen on the other
        expect(phone.locator("#board")).to_have_attribute(
            "data-seq", str(changed.seq), timeout=3000
        )
        # Swapped in place (no reload), fetched once because the stream said so, and with the
        # stream alive the phone does not poll.
        assert phone.locator("#board[data-first-draw]").count() == 0
        phone.wait_for_timeout(2500)
        assert phone.polls[fetched:] == [
            second + battle.get_absolute_url() + f"?since={battle.seq}"
        ]
        assert phone.locator("body[data-live=sse]").count() == 1


def test_with_the_event_stream_blocked_the_phone_falls_back_to_polling(
    new_page, gm, player, battle, redis_cache
):
    with app_processes(1) as (server,):
        phone = _phone(new_page, server, player)
        phone.route("**/live/**", lambda route: route.abort())
        phone.goto(server + battle.get_absolute_url())
        expect(phone.locator("body[data-live=poll]")).to_have_count(1)
        changed = _gm_ends_the_turn(gm, battle)
        expect(phone.locator("#board")).to_have_attribute(
            "data-seq", str(changed.seq), timeout=5000
        )
        assert any(f"since={battle.seq}" in url for url in phone.polls)
