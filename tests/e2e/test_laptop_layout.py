"""Every system's board on a laptop (issue 14: 1366 × 768): the buttons of whoever acts are on
the screen as the page opens, beside the board, with no scrolling to reach them (the
actions column also sticks to the window while the board is scrolled)."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from battles.models import Battle
from kingdoms.demo import DEMO_GM
from kingdoms.models import Campaign, RuleSystem
from tests.factories import FactionFactory
from warfare.systems.pf2e import services
from warfare.systems.pf2e import setup as pf2e_setup
from warfare.systems.pf2e.models import Army

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
LAPTOP = {"width": 1366, "height": 768}

#: What a GM clicks next on each system's demo board.
BUTTONS = {
    RuleSystem.PF2E: ".board-actions button",
    RuleSystem.DND5E: ".dnd-controls button",
    RuleSystem.GURPS4E: "section.choice-panel button",
    RuleSystem.GURPS3E: "#board form button[type=submit]",
}


def _pf2e_3_vs_3(campaign, gm):
    """The Pathfinder demo campaign's armies, and enough new ones for three a side."""
    factions = list(campaign.factions.order_by("pk"))[:2]
    while len(factions) < 2:
        factions.append(FactionFactory(campaign=campaign, name=f"Host {len(factions)}"))
    sides = {}
    for faction, side in zip(factions, ("a", "b"), strict=True):
        armies = list(Army.objects.active().filter(faction=faction)[:3])
        for n in range(len(armies), 3):
            armies.append(services.army_create(
                user=gm, campaign_id=campaign.pk, faction_id=faction.pk, name=f"Band {side}{n}",
                army_type="infantry", tactics=("keen_eyed",), hex="C7"))  # fmt: skip
        sides[side] = [army.pk for army in armies]
    return pf2e_setup.battle_create(user=gm, campaign_id=campaign.pk, name="Three a side",
                                         sides=sides)  # fmt: skip


def _on_screen(page, selector):
    """The first of `selector`'s buttons lies inside the window (it may be clicked as is)."""
    button = page.locator(selector).first
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= LAPTOP["height"], (selector, box)
    return box


def test_the_buttons_are_beside_every_board_on_a_laptop(live_server, new_page):
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    from django.contrib.auth import get_user_model

    gm = get_user_model().objects.get(username=DEMO_GM[0])
    pf2e = Campaign.objects.filter(rule_system=RuleSystem.PF2E).first()
    Battle.objects.filter(campaign=pf2e, status="active").delete()
    _pf2e_3_vs_3(pf2e, gm)
    page = new_page(viewport=LAPTOP)
    log_in(page, live_server.url, DEMO_GM[0], DEMO_GM[1])
    seen = []
    for system, selector in BUTTONS.items():
        battle = Battle.objects.filter(system=system, status="active").order_by("-pk").first()
        assert battle is not None, system
        page.goto(f"{live_server.url}{battle.get_absolute_url()}")
        assert page.evaluate("window.scrollY") == 0
        _on_screen(page, selector)
        if system in (RuleSystem.PF2E, RuleSystem.DND5E):
            _on_screen(page, "#board button:text-is('End turn')")
        seen.append(system)
    assert seen == list(BUTTONS)
    assert page.console_errors == []
