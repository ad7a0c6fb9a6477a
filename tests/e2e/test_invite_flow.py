"""The foundation's user story, in a real browser: a GM creates a campaign and invites a
player, who signs up through the link and sees the campaign as a player."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Membership
from tests.factories import PASSWORD, UserFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(page, base, username, password=PASSWORD):
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def test_gm_invites_a_player_who_signs_up_through_the_link(live_server, new_page):
    base = live_server.url
    UserFactory(username="lead")
    gm = new_page()
    log_in(gm, base, "lead")

    gm.get_by_role("link", name="New campaign").first.click()
    gm.fill("#id_name", "Brevoy Border")
    gm.select_option("#id_rule_system", "pf2e")
    gm.get_by_role("button", name="Create campaign").click()
    expect(gm.get_by_role("heading", name="Brevoy Border")).to_be_visible()
    expect(gm.get_by_text("You are a game master")).to_be_visible()

    gm.get_by_role("link", name="Members & invites").click()
    gm.select_option("#id_lifetime", "7d")
    gm.get_by_role("button", name="Create link").click()
    # The invite panel is swapped in place by htmx: the link appears without a reload.
    link_box = gm.get_by_label("Invite link")
    expect(link_box).to_be_visible()
    expect(gm.get_by_text("Invite link created")).to_be_visible()
    link = link_box.input_value()
    assert link.startswith(base + "/join/")

    newcomer = new_page(viewport={"width": 390, "height": 844})  # a phone
    newcomer.goto(link)
    expect(newcomer.get_by_role("heading", name="Join “Brevoy Border”")).to_be_visible()
    newcomer.locator("#main").get_by_role("link", name="Sign up").click()
    newcomer.fill("#id_username", "newcomer")
    newcomer.fill("#id_password1", "a-long-enough-password")
    newcomer.fill("#id_password2", "a-long-enough-password")
    newcomer.get_by_role("button", name="Sign up").click()
    newcomer.get_by_role("button", name="Join as a player").click()
    expect(newcomer.get_by_role("heading", name="Brevoy Border")).to_be_visible()
    expect(newcomer.get_by_text("You are a player")).to_be_visible()
    expect(newcomer.get_by_role("link", name="Members & invites")).to_have_count(0)

    membership = Membership.objects.get(user__username="newcomer")
    assert (membership.campaign.name, membership.role) == ("Brevoy Border", "player")

    gm.reload()
    expect(gm.locator("#member-list").get_by_text("newcomer")).to_be_visible()
    assert gm.console_errors == []
    assert newcomer.console_errors == []


def test_language_switch_on_every_page_turns_the_site_russian(live_server, new_page):
    UserFactory(username="lead")
    page = new_page()
    log_in(page, live_server.url, "lead")
    page.get_by_role("button", name="RU").click()
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.get_by_role("heading", name="Ваши кампании")).to_be_visible()
    page.get_by_role("button", name="EN").click()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert page.console_errors == []
