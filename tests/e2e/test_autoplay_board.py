"""Issue 14 in a browser: a Pathfinder 3-vs-3 battle from the set-up page to its outcome with
**Resolve the battle**, clicks counted (goal: at most 5), and the set-up page's forecast."""

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from kingdoms.models import Role
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Kingdom

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _three_against_three():
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Thornback")
    Kingdom.objects.filter(faction__in=[ours, theirs]).update(level=3)
    kinds = (("infantry", "Militia"), ("infantry", "Riders"), ("infantry", "Archers"))
    for faction in (ours, theirs):
        for army_type, name in kinds:
            services.army_create(user=gm, campaign_id=campaign.pk, faction_id=faction.pk,
                                 name=f"{faction.name} {name}", army_type=army_type,
                                 tactics=("toughened_soldiers",), hex="C7")  # fmt: skip
    return campaign


class Clicks:
    """Clicks on the page, counted."""

    def __init__(self):
        self.count = 0

    def __call__(self, locator):
        self.count += 1
        locator.click()


def test_resolve_the_battle_from_the_set_up_to_the_outcome_in_five_clicks(live_server, new_page):
    campaign = _three_against_three()
    page = new_page(viewport={"width": 1366, "height": 768})
    log_in(page, live_server.url, "lead")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    click = Clicks()
    page.fill("#id_name", "Battle of the Ford")  # typed, not clicked
    # The page proposes the players' armies on side A and the others on side B.
    expect(page.get_by_label("Silverrun Riders (Silverrun)")).to_have_value("a")
    expect(page.get_by_label("Thornback Archers (Thornback)")).to_have_value("b")
    click(page.get_by_role("button", name="Start the battle"))
    expect(page.get_by_role("heading", name="Battle of the Ford")).to_be_visible()
    click(page.get_by_role("button", name="Resolve the battle"))
    outcome = page.locator(".card.outcome h2")
    expect(outcome).to_be_visible(timeout=60_000)
    assert click.count <= 5, click.count
    battle = Battle.objects.get()
    assert battle.status == "finished" and battle.seq > 6
    expect(page.get_by_role("button", name="Undo the auto-play")).to_be_visible()
    expect(page.locator(".log li").first).to_be_visible()
    assert page.console_errors == []


def test_the_set_up_page_forecasts_the_odds_before_the_battle(live_server, new_page):
    campaign = _three_against_three()
    page = new_page()
    log_in(page, live_server.url, "lead")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    page.fill("#id_name", "Battle of the Ford")
    page.fill("#forecast-simulations", "60")
    page.get_by_role("button", name="Forecast the odds").click()
    result = page.locator("#forecast-result")
    expect(result.locator(".odds-bar")).to_be_visible(timeout=60_000)
    expect(result.get_by_text("Silverrun Riders")).to_be_visible()
    expect(result.get_by_text("60 simulated battles").first).to_be_visible()
    assert not Battle.objects.exists()
    assert page.console_errors == []
