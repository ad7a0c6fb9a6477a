"""A D&D 5e battle played to its end with clicks only (dnd5e §5-§7): two armies of three
units each and one objective square; deployment by clicking squares, the knights destroy the
objective (a damage die typed in from the table), the round ends with 10 VP for side A (total
victory, §7.3), the GM writes the losses back; a player's phone follows without reloads."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Membership, Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.dnd5e import services
from warfare.systems.dnd5e.models import Army, Creature, Unit

from .helpers import end_turn
from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _army(campaign, faction, name, units):
    army = Army.objects.create(campaign=campaign, faction=faction, name=name)
    for unit_name, key, kind in units:
        creature = Creature.objects.get(campaign=campaign, key=key)
        Unit.objects.create(army=army, name=unit_name, creature=creature, kind=kind, stands=1)
    return army


def _square(page, x, y):
    return page.locator(f'td button[data-x="{x}"][data-y="{y}"]')


def _select(page, piece):
    """Select a piece, unless the board has selected it by itself (the next stand to act or
    to deploy): a click then would only draw the same board again."""
    heading = page.get_by_role("heading", name=f"Selected: {piece}")
    if not heading.count():
        page.get_by_label(f"Select {piece}", exact=True).first.click()
    expect(heading).to_be_visible()


def test_gm_plays_a_dnd5e_battle_to_its_end_while_a_player_watches(live_server, new_page):
    gm = UserFactory(username="dm")
    campaign = CampaignFactory(name="Sword Coast", created_by=gm, rule_system=RuleSystem.DND5E)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Wardens of the Ford", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Red Hand")
    player = UserFactory(username="watcher")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=ours)
    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    _army(campaign, ours, "Wardens", [("Knights", "knight", "regiment"),
                                      ("Guards", "guard", "regiment"),
                                      ("Scouts", "scout", "skirmisher")])  # fmt: skip
    horde = _army(campaign, theirs, "Horde", [("Orcs", "orc", "regiment"),
                                              ("Goblins", "goblin", "skirmisher"),
                                              ("Hobgoblins", "hobgoblin", "regiment")])  # fmt: skip

    board = new_page()
    log_in(board, live_server.url, "dm")
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    board.fill("#id_name", "Battle of the Old Ford")
    board.select_option("#id_army_a", label="Wardens (Wardens of the Ford)")
    board.select_option("#id_army_b", label="Horde (Red Hand)")
    board.fill("#id_width", "8")
    board.fill("#id_height", "5")
    board.fill("#id_depth", "2")
    board.select_option("#id_destruction_side", "a")
    board.fill("#id_objective_squares", "2,2")
    board.fill("#id_square_hp", "10")
    board.fill("#id_square_vp", "10")
    board.fill("#id_protection_vp", "0")
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_role("heading", name="Battle of the Old Ford")).to_be_visible()
    battle_url = board.url.split("?")[0]

    watcher = new_page(viewport={"width": 390, "height": 844})
    log_in(watcher, live_server.url, "watcher")
    watcher.goto(battle_url)
    expect(watcher.locator(".page-head .badge", has_text="deployment")).to_be_visible()

    # Deployment: select each stand, then click a green square of its side's zone.
    for piece, (x, y) in (("Knights #1", (1, 2)), ("Guards #1", (0, 0)), ("Scouts #1", (0, 4)),
                          ("Orcs #1", (7, 0)), ("Goblins #1", (7, 2)),
                          ("Hobgoblins #1", (7, 4))):  # fmt: skip
        _select(board, piece)
        _square(board, x, y).click()
        expect(board.get_by_text(f"{piece} deploys at ({x}, {y}).")).to_be_visible()
    board.get_by_role("button", name="Begin the battle").click()
    expect(board.get_by_text("Round 1 begins.")).to_be_visible()

    # Round 1: the knights hack the objective square down; everyone else ends their turn.
    attacked = False
    for _ in range(12):
        if board.get_by_role("heading", name="The battle is over").count():
            break
        if not attacked and board.get_by_text("Knights acts").count():
            _select(board, "Knights #1")
            # A die rolled at the table goes with the next action, here a click on the grid.
            board.get_by_label("dice rolled at the table").fill("6")
            _square(board, 2, 2).click()
            expect(board.get_by_text("Objective square (2, 2) is destroyed.").first).to_be_visible()
            typed = "Knights: the dice of this action were rolled at the table (6)."
            expect(board.get_by_text(typed)).to_be_visible()
            attacked = True
            if board.get_by_role("heading", name="The battle is over").count():
                break  # the knights acted last: their attack ended round 1, and with it the battle
            expect(board.get_by_label("dice rolled at the table")).to_have_value("")
        end_turn(board)
    assert attacked
    expect(board.get_by_role("heading", name="The battle is over")).to_be_visible()
    expect(board.locator(".dnd-ending")).to_have_text("Total victory for Wardens.")
    expect(
        board.get_by_text("The battle is over at 10 : 0 VP: total victory for Wardens.")
    ).to_be_visible()
    expect(board.get_by_text("Wardens scores 10 VP for Destruction (10 in all).")).to_be_visible()

    # The player's phone shows the end without a reload (the board polls every 2 s).
    expect(watcher.get_by_role("heading", name="The battle is over")).to_be_visible(timeout=6000)

    # The GM writes the losses back: deserted units keep no stands (§7.3).
    board.get_by_role("button", name="Apply the results").click()
    expect(board.get_by_text("Results applied", exact=True)).to_be_visible()
    deserted = [u.pk for u in Unit.objects.filter(army=horde) if u.stands == 0]
    log = board.locator(".log").inner_text()
    assert log.count("the unit deserts") == len(deserted)
    assert Unit.objects.get(army__name="Wardens", name="Knights").stands == 1
    assert not board.console_errors and not watcher.console_errors
