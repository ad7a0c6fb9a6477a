"""A D&D 5e battle set up with a ballista, a surprised enemy and a typed initiative die, and
the ballista loaded, aimed and fired with clicks only (dnd5e §5.2, §8)."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.dnd5e import services
from warfare.systems.dnd5e.models import Unit

from .helpers import end_turn
from .test_dnd5e_board import _army, _select
from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _click_action(page, label):
    page.locator("button[data-kind]", has_text=label).first.click()


def test_gm_crews_a_ballista_through_the_board(live_server, new_page):
    gm = UserFactory(username="dm")
    campaign = CampaignFactory(name="Sword Coast", created_by=gm, rule_system=RuleSystem.DND5E)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Wardens of the Ford", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Red Hand")
    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    _army(campaign, ours, "Wardens", [("Knights", "knight", "regiment"),
                                      ("Guards", "guard", "regiment")])  # fmt: skip
    _army(campaign, theirs, "Horde", [("Orcs", "orc", "regiment"),
                                      ("Goblins", "goblin", "skirmisher")])  # fmt: skip
    knights = Unit.objects.get(name="Knights")

    board = new_page()
    log_in(board, live_server.url, "dm")
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    board.fill("#id_name", "Siege of the Old Ford")
    board.select_option("#id_army_a", label="Wardens (Wardens of the Ford)")
    board.select_option("#id_army_b", label="Horde (Red Hand)")
    board.fill("#id_width", "8")
    board.fill("#id_height", "5")
    board.fill("#id_depth", "2")
    board.check("#id_auto_deploy")
    board.select_option("#id_engine_1_kind", "ballista")
    board.select_option("#id_engine_1_side", "a")
    board.fill("#id_engine_1_square", "0,0")
    board.select_option("#id_engine_1_crew", label="Knights (Wardens)")
    board.check("#id_surprised_b")
    board.fill(f"#id_initiative_u{knights.pk}", "20")
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_role("heading", name="Siege of the Old Ford")).to_be_visible()
    expect(board.get_by_text("(typed at the table)")).to_be_visible()
    expect(board.locator(".piece.engine")).to_have_count(4)  # a Large engine: 2 × 2 squares

    # The Knights' stand next to the ballista spends one action a round: load, aim, fire.
    steps = ["load", "aim", "fire"]
    for _ in range(30):
        if not steps:
            break
        if board.get_by_text("Knights acts").count():
            _select(board, "Knights #1")
            _click_action(board, f"Ballista, {steps[0]}")
            done = {"load": "Ballista: loaded.", "aim": "Ballista: aimed."}
            if steps[0] in done:
                expect(board.get_by_text(done[steps[0]]).first).to_be_visible()
            else:
                expect(board.get_by_text("Ballista fires at").first).to_be_visible()
            steps.pop(0)
        end_turn(board)
    assert not steps
    expect(board.get_by_text("Orcs is surprised.")).to_be_visible()  # round 1 only
    expect(board.get_by_text("loaded 0/1")).to_be_visible()  # fired: to be loaded again
    assert not board.console_errors
