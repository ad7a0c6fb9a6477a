"""Army activities in a real browser (§4): the check shows before the activity is taken and
follows the choices; Train Army offers only what the army may learn (§4.8)."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Membership, Role
from tests.conftest import KINGDOM_SKILLS
from tests.factories import (
    CampaignFactory,
    FactionFactory,
    MembershipFactory,
    SettlementFactory,
    UserFactory,
)
from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Army, Kingdom

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def settled(page):
    """Wait until htmx has swapped and processed what it loaded (a person is never faster)."""
    expect(page.locator(".htmx-request, .htmx-settling")).to_have_count(0)


def test_the_check_is_shown_before_the_activity_is_taken(live_server, new_page):
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    faction = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    # Level 3, 12 hexes: Control DC 17 (§10.4).
    Kingdom.objects.filter(faction=faction).update(
        level=3, size_hexes=12,
        skills={k: {"modifier": v, "rank": "trained"} for k, v in KINGDOM_SKILLS.items()},
    )  # fmt: skip
    SettlementFactory(faction=faction, name="Tatzlford", hex="C7")
    player = UserFactory(username="captain")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=faction)
    army = services.army_create(user=gm, campaign_id=campaign.pk, faction_id=faction.pk,
                                name="Militia", army_type="infantry", tactics=("keen_eyed",),
                                hex="C7")  # fmt: skip

    page = new_page(viewport={"width": 390, "height": 844})
    log_in(page, live_server.url, "captain")
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/armies/{army.pk}/activity/")
    box = page.locator(f"#activity-box-{army.pk}")
    expect(box.get_by_text("Exploration +6 vs DC 17")).to_be_visible()  # Deploy Army, §4.2
    box.get_by_label("Activity").select_option(label="Garrison Army")
    settled(page)
    expect(box.get_by_text("Politics +5 vs DC 17")).to_be_visible()  # §4.4
    box.get_by_label("The hex is").select_option("outside")
    settled(page)
    expect(box.get_by_text("Politics +5 vs DC 22")).to_be_visible()  # +5 outside
    box.get_by_label("The hex has").select_option("refuge")
    settled(page)
    expect(box.get_by_text("Defense +7 vs DC 22")).to_be_visible()
    assert Army.objects.get(pk=army.pk).activities_this_turn == 0

    # §4.8: Keen Eyed is known; level 3 holds one tactic, so the new one replaces it.
    box.get_by_label("Activity").select_option(label="Train Army")
    settled(page)
    expect(box.get_by_text("Scholarship +4 vs DC 17")).to_be_visible()
    offered = box.get_by_label("Tactic", exact=True).locator("option").all_inner_texts()
    assert "Keen Eyed" not in offered and "Toughened Soldiers" in offered
    assert "Overrun" not in offered and "Sharpshooter" not in offered
    replaced = box.get_by_label("Replacing (when at max tactics)").locator("option")
    assert replaced.all_inner_texts() == ["Keen Eyed"]
    box.get_by_label("Tactic", exact=True).select_option(label="Toughened Soldiers")
    box.get_by_label("Die rolled at the table").fill("15")  # 19 vs 17: a success
    box.get_by_role("button", name="Take Train Army").click()
    expect(page.get_by_text("Train Army: Success")).to_be_visible()
    assert Army.objects.get(pk=army.pk).tactics == ["toughened_soldiers"]
    assert page.console_errors == []
