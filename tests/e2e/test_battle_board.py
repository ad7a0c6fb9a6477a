"""A battle played on the board with clicks only; a player's screen follows without reloads."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Membership, Role
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.pf2e import services
from warfare.systems.pf2e import setup as pf2e_setup
from warfare.systems.pf2e.models import Army, Kingdom

from .helpers import end_turn
from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_gm_plays_a_battle_to_its_end_while_a_player_watches(live_server, new_page):
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Thornback")
    Kingdom.objects.filter(faction__in=[ours, theirs]).update(level=3)
    player = UserFactory(username="watcher")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=ours)
    for faction, name in ((ours, "Militia"), (theirs, "Raiders")):
        services.army_create(user=gm, campaign_id=campaign.pk, faction_id=faction.pk, name=name,
                             army_type="infantry", tactics=("keen_eyed",), hex="C7")  # fmt: skip

    board = new_page()
    log_in(board, live_server.url, "lead")
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    board.fill("#id_name", "Battle of the Ford")
    board.get_by_label("Militia (Silverrun)").select_option("a")
    board.get_by_label("Raiders (Thornback)").select_option("b")
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_role("heading", name="Battle of the Ford")).to_be_visible()
    battle_url = board.url

    watcher = new_page(viewport={"width": 390, "height": 844})
    log_in(watcher, live_server.url, "watcher")
    watcher.goto(battle_url)
    expect(watcher.get_by_text("Round 1 begins.")).to_be_visible()

    # The GM knocks the enemy army out, then ends turns until the battle is decided.
    board.locator("details summary").click()
    board.select_option("#fix-army", label="Raiders")
    board.fill("#fix-hp", "0")
    board.get_by_role("button", name="Correct").click()
    expect(board.get_by_text("The GM corrects Raiders.")).to_be_visible()
    for _ in range(6):
        if board.get_by_role("heading", name="The battle is over").count():
            break
        end_turn(board)
    expect(board.get_by_role("heading", name="The battle is over")).to_be_visible()

    # The player's phone shows the end without a reload (the board polls every 2 s).
    expect(watcher.get_by_role("heading", name="The battle is over")).to_be_visible(timeout=6000)

    # §7.6: the kingdom checks, with the d20s rolled at the table typed in (a natural 20 for
    # the winners' Warfare check: a critical success).
    board.fill("#id_die_a", "20")
    board.fill("#id_die_b", "10")
    board.get_by_role("button", name="Apply the results").click()
    expect(board.get_by_text("Results applied", exact=True)).to_be_visible()
    expect(board.get_by_text("Critical success").first).to_be_visible()
    raiders = Army.objects.get(name="Raiders")
    assert raiders.hp == 0
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/armies/{raiders.pk}/")
    expect(board.get_by_text("HP 0/4")).to_be_visible()
    assert board.console_errors == []
    assert watcher.console_errors == []


def knock_out(board, name):
    """The GM sets an army's HP to 0 from the board's correction form."""
    expect(board.locator(".htmx-request, .htmx-settling")).to_have_count(0)
    seq = board.locator("#board input[name=seq]").first.get_attribute("value")
    gm_tools = board.locator("details", has=board.locator("#fix-army"))
    if gm_tools.get_attribute("open") is None:  # an action leaves it as it was (open)
        gm_tools.locator("summary").click()
    board.select_option("#fix-army", label=name)
    board.fill("#fix-hp", "0")
    board.get_by_role("button", name="Correct").click()
    expect(board.locator(f"#board input[name=seq][value='{seq}']")).to_have_count(0)


def test_the_board_tells_engaged_beaten_armies_and_the_aftermath(live_server, new_page):
    """§7.2 engaged armies are not "near"; §9 defeated and destroyed armies are badged; §8.1
    Rally is offered only to a shaken army; after §7.6 is applied there is no Undo, and the
    report tells each kingdom's check with its effect (Unrest)."""
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Stolen Lands", created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Thornback")
    Kingdom.objects.filter(faction__in=[ours, theirs]).update(level=3)
    armies = {}
    for faction, name in ((ours, "Militia"), (theirs, "Raiders"), (theirs, "Reserves")):
        armies[name] = services.army_create(
            user=gm, campaign_id=campaign.pk, faction_id=faction.pk, name=name,
            army_type="infantry", tactics=("keen_eyed",), hex="C7",
        )  # fmt: skip
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=campaign.pk, name="Battle of the Ford",
        sides={"a": [armies["Militia"].pk], "b": [armies["Raiders"].pk, armies["Reserves"].pk]},
        initiative_dice={armies["Militia"].pk: 20, armies["Raiders"].pk: 2,
                         armies["Reserves"].pk: 1},
    )  # fmt: skip

    board = new_page(viewport={"width": 390, "height": 844})
    log_in(board, live_server.url, "lead")
    board.goto(f"{live_server.url}{battle.get_absolute_url()}")
    actions = board.locator("section", has=board.get_by_role("heading", name="Actions of Militia"))
    expect(actions.get_by_text("Advance").first).to_be_visible()
    assert actions.get_by_text("Rally", exact=True).count() == 0  # nothing to rally from
    advance = actions.locator("li", has=board.get_by_text("Advance")).filter(has_text="Raiders")
    advance.get_by_placeholder("d20").fill("20")
    advance.get_by_role("button", name="Go").click()
    militia = board.locator("article", has=board.get_by_role("heading", name="Militia"))
    expect(militia.locator(".card-badges").get_by_text("engaged", exact=True)).to_be_visible()
    assert militia.locator(".card-badges").get_by_text("near", exact=True).count() == 0

    knock_out(board, "Reserves")
    reserves = board.locator("article", has=board.get_by_role("heading", name="Reserves"))
    expect(reserves.get_by_text("defeated", exact=True)).to_be_visible()
    knock_out(board, "Raiders")
    for _ in range(6):
        if board.get_by_role("heading", name="The battle is over").count():
            break
        seq = board.locator("#board input[name=seq]").first.get_attribute("value")
        board.get_by_role("button", name="End turn").click()
        expect(board.locator(f"#board input[name=seq][value='{seq}']")).to_have_count(0)
    expect(board.get_by_role("heading", name="The battle is over")).to_be_visible()
    expect(reserves.get_by_text("destroyed", exact=True)).to_be_visible()  # §9 all defeated

    # §7.6 at Control DC 16 (level 3, 1 hex): the losers' Defense +0 with a 10, a failure.
    board.fill("#id_die_a", "10")
    board.fill("#id_die_b", "10")
    board.get_by_role("button", name="Apply the results").click()
    expect(board.get_by_text("Results applied", exact=True)).to_be_visible()
    assert board.get_by_role("button", name="Undo last action").count() == 0
    board.get_by_role("link", name="Battle report").click()
    expect(board.get_by_text("Defense: die typed in 10 + 0 = 10 vs DC 16")).to_be_visible()
    expect(board.get_by_text("Unrest +1 (now 1).")).to_be_visible()
    assert board.console_errors == []
