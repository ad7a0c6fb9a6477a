"""A GURPS Mass Combat 4e battle played to its end by a GM and a player in two browsers, with
secret strategies (gurps §A.6.3): neither screen is reloaded by hand."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from kingdoms.models import CommandStaff, Membership, Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.gurps4e.models import ElementType, Force, ForceElement

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ALL_OUT_ATTACK = '{"desperate": false, "strategy": "all_out_attack"}'
FULL_RETREAT = '{"desperate": false, "strategy": "full_retreat"}'


def _panel(page, actor):
    return page.locator(f"section.choice-panel:has(#panel-{actor})")


def test_gm_and_player_fight_a_battle_with_secret_strategies(live_server, new_page):
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Border Wars", created_by=gm, rule_system=RuleSystem.GURPS4E)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Thornback")
    CommandStaff.objects.filter(faction=ours).update(commander="Lady Ilse", strategy=14)
    player = UserFactory(username="captain")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=ours)
    infantry = ElementType.objects.create(
        campaign=campaign, name="Heavy Infantry", tl=2, base_ts=Decimal(4)
    )
    archers = ElementType.objects.create(
        campaign=campaign, name="Horse Archers", tl=2, base_ts=Decimal(3), classes=["Cav", "F"]
    )
    legion = Force.objects.create(campaign=campaign, faction=ours, name="Legion")
    ForceElement.objects.create(force=legion, element_type=infantry, count=10)
    horde = Force.objects.create(campaign=campaign, faction=theirs, name="Horde")
    ForceElement.objects.create(force=horde, element_type=archers, count=6)

    board = new_page()
    log_in(board, live_server.url, "lead")
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    board.fill("#id_name", "Battle of the Fords")
    board.select_option("#id_force_a", label="Legion (Silverrun)")
    board.select_option("#id_force_b", label="Horde (Thornback)")
    board.select_option("#id_initiative", "a")
    board.fill("#id_pc1_name", "Ann")
    board.select_option("#id_pc1_side", "a")
    board.select_option("#id_pc1_owner", label="captain (Silverrun)")
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_role("heading", name="Battle of the Fords")).to_be_visible()
    battle_url = board.url

    phone = new_page(viewport={"width": 390, "height": 844})
    log_in(phone, live_server.url, "captain")
    phone.goto(battle_url)
    expect(phone.get_by_text("Round 1 begins.")).to_be_visible()
    # The player chooses for Legion and Ann only; the Horde is the GM's.
    expect(_panel(phone, "a")).to_be_visible()
    expect(_panel(phone, "pc1")).to_be_visible()
    assert _panel(phone, "b").count() == 0

    # The GM chooses the Horde's strategy in secret: a Full Retreat.
    horde_panel = _panel(board, "b")
    horde_panel.locator(f"input[value='{FULL_RETREAT}']").check()
    horde_panel.get_by_role("button", name="Choose in secret").click()
    expect(board.get_by_text("Chosen (secret until both are in): Full Retreat")).to_be_visible()

    # The player's phone learns only that the Horde has chosen (live, without a reload).
    horde_card = phone.locator("section.side-card[aria-label='Horde']")
    expect(horde_card.get_by_text("The commander has chosen.")).to_be_visible(timeout=6000)
    assert "Full Retreat" not in phone.locator("#board").inner_text().split("Choices of")[0]
    assert phone.get_by_text("Chosen (secret until both are in)").count() == 0

    # The player: Ann takes Risk +1, then Legion attacks all out (its effects shown first).
    pc_panel = _panel(phone, "pc1")
    pc_panel.get_by_label("Risk").select_option("1")
    pc_panel.get_by_role("button", name="Take this Risk").click()
    expect(phone.get_by_text("Ann takes Risk +1.")).to_be_visible()
    legion_panel = _panel(phone, "a")
    all_out = legion_panel.locator("li", has=phone.locator(f"input[value='{ALL_OUT_ATTACK}']"))
    expect(all_out.get_by_text("own casualties ×2")).to_be_hidden()  # collapsed on a phone
    all_out.get_by_text("effects").click()
    expect(all_out.get_by_text("own casualties ×2")).to_be_visible()
    legion_panel.locator(f"input[value='{ALL_OUT_ATTACK}']").check()
    legion_panel.get_by_role("button", name="Choose in secret").click()

    # Both are in: revealed, fought, and the Horde leaves the field.
    revealed = "Strategies revealed: Legion: All-Out Attack; Horde: Full Retreat."
    expect(phone.get_by_text(revealed)).to_be_visible()
    expect(phone.get_by_text("Horde leaves the field.")).to_be_visible()
    # §A.7.1: if the victor's Leadership succeeds, the player chooses the pursuit.
    pursue = phone.get_by_role("button", name="Hold the field")
    if pursue.count():
        pursue.click()
    expect(phone.get_by_role("heading", name="The battle is over")).to_be_visible()
    expect(board.get_by_role("heading", name="The battle is over")).to_be_visible(timeout=6000)
    expect(board.get_by_text("Victory for Legion.").first).to_be_visible()

    # The GM writes the new TS back to the forces (§A.7.3).
    board.get_by_role("button", name="Apply the results").click()
    expect(board.get_by_text("Results applied", exact=True)).to_be_visible()
    battle = Battle.objects.get(name="Battle of the Fords")
    assert battle.status == "applied"
    for key, force in (("a", legion), ("b", horde)):
        force.refresh_from_db()
        assert force.strength_percent == battle.outcome["applied"][key]["strength_after"]
    board.goto(battle_url + "report/")
    expect(board.get_by_text("Strategy contest (All-Out Attack / Full Retreat)")).to_be_visible()
    assert board.console_errors == []
    assert phone.console_errors == []
