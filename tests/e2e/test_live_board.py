"""A player's phone follows the board live: the new board pushed by Server-Sent Events from
another app process (ASGI, uvicorn), and by the 2-second poll when the stream is blocked."""

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
        # Swapped in place (no reload), pushed with the board itself (not fetched), and with
        # the stream alive the phone does not poll.
        assert phone.locator("#board[data-first-draw]").count() == 0
        phone.wait_for_timeout(2500)
        assert phone.polls[fetched:] == []
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


def _dnd_end_turn(gm, battle):
    command = {"actor": battle.snapshot["turn"]["actor"], "kind": "end_turn"}
    return services.battle_act(
        user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk, expected_seq=battle.seq,
        command=command,
    )[0]  # fmt: skip


def test_a_phone_showing_a_selection_keeps_it_when_a_change_is_pushed(
    new_page,
    gm,
    player,
    dnd_battle,
    wardens,
    redis_cache,
):
    """The pushed board is the one with nothing asked for (D&D 5e selects the next stand to
    act by itself): a board showing a piece the player selected fetches its own board instead
    (`?sel=` kept), and the selection stays when the turn passes on (the board of that
    selection, as its poll would bring it)."""
    from warfare.systems.dnd5e.models import Unit

    ours = {f"u{unit.pk}": unit.name for unit in Unit.objects.filter(army=wardens)}
    battle = dnd_battle
    while battle.snapshot["turn"]["actor"] not in ours:  # (initiative: the battle's seed)
        battle = _dnd_end_turn(gm, battle)
    piece = f"{ours[battle.snapshot['turn']['actor']]} #1"
    with app_processes(2) as (_first, second):
        phone = _phone(new_page, second, player)
        phone.goto(second + battle.get_absolute_url())
        expect(phone.locator("body[data-live=sse]")).to_have_count(1)
        expect(phone.locator("#board")).to_have_attribute("data-sel", "*")  # chosen by itself
        phone.get_by_label(f"Select {piece}", exact=True).first.click()
        expect(phone.locator("#board")).not_to_have_attribute("data-sel", "*")
        sel = phone.locator("#board").get_attribute("data-sel")
        fetched = len(phone.polls)
        changed = _dnd_end_turn(gm, battle)
        expect(phone.locator("#board")).to_have_attribute(
            "data-seq", str(changed.seq), timeout=3000
        )
        expect(phone.locator("#board")).to_have_attribute("data-sel", sel)  # not the pushed "*"
        assert [url for url in phone.polls[fetched:] if f"sel={sel}" in url]
        assert not phone.console_errors
