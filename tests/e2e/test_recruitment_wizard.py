"""A player recruits an army through the htmx wizard, in a real browser, on a phone screen."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Membership, Role
from tests.factories import (
    CampaignFactory,
    FactionFactory,
    MembershipFactory,
    SettlementFactory,
    UserFactory,
)
from warfare.systems.pf2e.models import Army, Kingdom, Recruitment

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

REFUSED = "Failed to load resource: the server responded with a status of 400 (Bad Request)"


def test_player_recruits_cavalry_step_by_step(live_server, new_page):
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    faction = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    Kingdom.objects.filter(faction=faction).update(level=3)
    SettlementFactory(faction=faction, name="Tatzlford", hex="D4")
    player = UserFactory(username="rider")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=faction)

    page = new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server.url, "rider")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/factions/{faction.pk}/armies/")
    page.get_by_role("link", name="Recruit an army").click()
    # Siege engines need kingdom level 7 (§1.3): offered but disabled, with the reason.
    siege = page.locator("li", has=page.locator("button[name=army_type][value=siege]"))
    expect(siege.get_by_text("Siege engines can be recruited from kingdom level 7")).to_be_visible()
    expect(siege.locator("button")).to_be_disabled()
    page.locator("button[name=army_type][value=cavalry]").click()

    # Step 2: Recruitment DC 18 at level 3 (§1.2); type in a natural 20.
    expect(page.get_by_text("vs DC 18")).to_be_visible()
    page.fill("#typed_die", "20")
    page.get_by_role("button", name="Roll Recruit Army").click()
    expect(page.get_by_text("Critical success")).to_be_visible()

    # Step 4: cavalry keeps Overrun (mandatory, already chosen); level 3 has one slot.
    expect(page.get_by_text("Overrun")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    page.select_option("#hex", "D4")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("Army consumption rises from 0 to 2")).to_be_visible()
    page.fill("#name", "Tatzlford Lancers")
    page.get_by_role("button", name="Recruit the army").click()

    expect(page.get_by_role("heading", name="Tatzlford Lancers")).to_be_visible()
    army = Army.objects.get(name="Tatzlford Lancers")
    assert (army.army_type, army.hex, army.tactics) == ("cavalry", "D4", ["overrun"])
    assert army.conditions == {"efficient": 1}  # §4.1: critical success
    assert page.console_errors == []


def test_an_unfinished_recruitment_is_resumed_with_its_numbers_shown_first(live_server, new_page):
    """§3.1/§4.1 on a phone: step 1 shows each army's level, check and Consumption before any
    roll; a refused tactics step keeps the ticks; a recruitment left after its roll is listed
    on the armies page and resumed, and step 1 starts no second one."""
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    faction = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    Kingdom.objects.filter(faction=faction).update(
        level=1, skills={"warfare": {"modifier": 8, "rank": "trained"}}
    )
    SettlementFactory(faction=faction, name="Tatzlford", hex="D4")
    player = UserFactory(username="rider")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=faction)

    page = new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server.url, "rider")
    armies_url = f"{live_server.url}/campaigns/{campaign.pk}/factions/{faction.pk}/armies/"
    page.goto(armies_url)
    page.get_by_role("link", name="Recruit an army").click()
    infantry = page.locator("li", has=page.locator("button[name=army_type][value=infantry]"))
    expect(infantry.get_by_text("level 1 · Warfare +8 vs DC 15 · Consumption 1")).to_be_visible()
    infantry.get_by_role("button", name="Recruit").click()
    page.fill("#typed_die", "10")
    page.get_by_role("button", name="Roll Recruit Army").click()
    expect(page.get_by_text("Step 4: starting tactics")).to_be_visible()

    # Level 1 knows one tactic (§1.2): two ticks are refused, and stay ticked.
    page.get_by_label("Keen Eyed").check()
    page.get_by_label("Toughened Soldiers").check()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("alert")).to_be_visible()
    expect(page.get_by_label("Keen Eyed")).to_be_checked()
    expect(page.get_by_label("Toughened Soldiers")).to_be_checked()

    # Left unfinished: listed, and resumed at its step; step 1 offers no second roll.
    page.goto(armies_url)
    in_progress = page.locator("section.in-progress")
    expect(in_progress.get_by_text("Infantry")).to_be_visible()
    page.get_by_role("link", name="Recruit an army").click()
    expect(
        page.get_by_text("Finish the recruitment in progress before starting another.")
    ).to_be_visible()
    expect(page.locator("button[name=army_type][value=infantry]")).to_be_disabled()
    page.locator("section.in-progress").get_by_role("link", name="Resume").click()
    expect(page.get_by_text("Step 4: starting tactics")).to_be_visible()
    page.get_by_label("Keen Eyed").check()
    page.get_by_role("button", name="Next").click()
    page.select_option("#hex", "D4")
    page.get_by_role("button", name="Next").click()
    page.fill("#name", "Tatzlford Levy")
    page.get_by_role("button", name="Recruit the army").click()
    expect(page.get_by_role("heading", name="Tatzlford Levy")).to_be_visible()
    assert Army.objects.get().tactics == ["keen_eyed"]
    assert Recruitment.objects.count() == 1
    page.goto(armies_url)
    assert page.locator("section.in-progress").count() == 0
    assert page.console_errors == [REFUSED]  # the refused tactics step's 400
