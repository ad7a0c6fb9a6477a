"""A GURPS 3e battle with two PCs played in the browser (gurps §B.2): the GM sets it up from
the campaign's forces and characters, a player chooses his own PC's Risk and readies his
side's commander, the GM the rest; the last choice resolves the day, the player's screen
follows without a reload, and the GM writes the results back."""

import pytest
from playwright.sync_api import expect

from battles.models import Battle
from kingdoms.models import CommandStaff, Membership, Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.gurps3e.models import Character, Force, TroopType, Unit

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_3e_battle_with_two_pcs(live_server, new_page):
    gm = UserFactory(username="lead")
    campaign = CampaignFactory(name="Border Wars", created_by=gm, rule_system=RuleSystem.GURPS3E)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Silverrun", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Thornback")
    player = UserFactory(username="aldric_player")
    Membership.objects.create(campaign=campaign, user=player, role=Role.PLAYER, faction=ours)
    CommandStaff.objects.update_or_create(faction=ours, defaults={"strategy": 14})
    CommandStaff.objects.update_or_create(faction=theirs, defaults={"strategy": 12})
    host = Force.objects.create(campaign=campaign, faction=ours, name="Host", tl=3)
    heavy = TroopType.objects.create(campaign=campaign, name="heavy infantry", ts_per_man=4)
    light = TroopType.objects.create(campaign=campaign, name="light infantry", ts_per_man=2)
    Unit.objects.create(force=host, name="Pikes", troop_type=heavy, men=100, armour="heavy",
                        quality="veteran")  # fmt: skip
    horde = Force.objects.create(campaign=campaign, faction=theirs, name="Horde", tl=3)
    Unit.objects.create(force=horde, name="Raiders", troop_type=light, men=150, morale=11)
    aldric = Character.objects.create(
        campaign=campaign, name="Aldric", faction=ours, owner=player, ht_max=12, ht=12,
        tactics=13, weapon_skill=14, role="unit_commander",
    )  # fmt: skip
    brenna = Character.objects.create(campaign=campaign, name="Brenna", faction=ours, ht_max=11,
                                      ht=11, weapon_skill=13, limits=["berserk"])  # fmt: skip

    board = new_page()
    log_in(board, live_server.url, "lead")
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/battles/new/")
    board.fill("#id_name", "Battle of the Ford")
    board.get_by_label("Host (Silverrun, TL 3)").select_option("a")
    board.get_by_label("Horde (Thornback, TL 3)").select_option("b")
    board.get_by_label("Aldric (unit commander)").select_option("a")
    board.get_by_label("Brenna (trooper)").select_option("a")
    board.get_by_label("castle").check()
    board.get_by_label("narrow passage (gorge, pass, ford, bridge)").check()  # needs its size
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_text("Give the narrow passage's modifier.")).to_be_visible()
    assert len(board.console_errors) == 1  # the refused set-up's 400
    board.console_errors.clear()
    board.fill("#id_narrow_passage", "4")
    board.get_by_role("button", name="Start the battle").click()
    expect(board.get_by_role("heading", name="Battle of the Ford")).to_be_visible()
    # §B.7.2: of the castle (+8) and the narrow passage (+4) only the higher counts.
    expect(board.get_by_text("(Strategy 12, castle +8)")).to_be_visible()
    battle_url = board.url

    phone = new_page(viewport={"width": 390, "height": 844})
    log_in(phone, live_server.url, "aldric_player")
    phone.goto(battle_url)
    expect(phone.get_by_text("Day 1 begins: every fit PC chooses Risk.")).to_be_visible()
    # The player chooses only his own PC's Risk: Brenna belongs to the faction as a whole,
    # so he may set hers too; the enemy commander is not his.
    expect(phone.locator(f'tr[data-pc="c{aldric.pk}"] select')).to_be_visible()
    expect(phone.locator('button[data-commit="b"]')).to_have_count(0)
    phone.get_by_label("Risk of Aldric").select_option("2")
    phone.locator(f'tr[data-pc="c{aldric.pk}"]').get_by_role("button", name="Choose Risk").click()
    expect(phone.get_by_text("Aldric chooses Risk +2.")).to_be_visible()
    phone.locator('button[data-commit="a"]').click()
    expect(phone.get_by_text("The commander of Side A: Silverrun is ready")).to_be_visible()

    # The GM sees it (live poll), picks Brenna's Risk — berserk: nothing above 0 on offer.
    expect(board.get_by_text("Aldric chooses Risk +2.")).to_be_visible(timeout=6000)
    # Both of the player's choices must have reached the GM's board before the GM acts on it
    # (acting on an older board is a 409, by design).
    expect(board.get_by_text("The commander of Side A: Silverrun is ready")).to_be_visible(
        timeout=6000
    )
    # …and the board on screen is the battle's last version (its seq, which its forms send).
    seq = Battle.objects.get(pk=int(battle_url.rstrip("/").split("/")[-1])).seq
    expect(board.locator("#board-seq")).to_have_attribute("data-version", str(seq))
    options = board.get_by_label("Risk of Brenna").locator("option").all_inner_texts()
    assert options[-1].startswith("Risk 0:") and len(options) == 7
    board.get_by_label("Risk of Brenna").select_option("-1")
    board.locator(f'tr[data-pc="c{brenna.pk}"]').get_by_role("button", name="Choose Risk").click()
    expect(board.get_by_text("Brenna chooses Risk −1.")).to_be_visible()
    board.locator('button[data-commit="b"]').click()

    # The last choice resolved the day: Survival, Glory, the Quick Contest, casualties.
    expect(board.get_by_role("heading", name="Day 1: results")).to_be_visible()
    expect(board.get_by_role("heading", name="Quick Contest of Strategy")).to_be_visible()
    expect(board.get_by_text("house default, not a 3e rule")).to_be_visible()
    # The player's phone follows without a reload.
    expect(phone.get_by_role("heading", name="Survival rolls")).to_be_visible(timeout=6000)
    expect(phone.get_by_role("button", name="Apply the results")).to_have_count(0)

    board.get_by_role("button", name="Apply the results").click()
    expect(board.get_by_text("Results applied", exact=True)).to_be_visible()
    battle = Battle.objects.get()
    left = {u["key"]: u["men"] for f in battle.outcome["details"]["forces"] for u in f["units"]}
    after = {c["key"]: c["ht"] for c in battle.outcome["details"]["characters"]}
    pikes = Unit.objects.get(name="Pikes")
    assert (pikes.battles, pikes.men) == (1, left[f"u{pikes.pk}"])
    aldric.refresh_from_db()
    assert aldric.ht == after[f"c{aldric.pk}"]
    board.goto(f"{live_server.url}/campaigns/{campaign.pk}/3e/forces/{host.pk}/")
    expect(board.get_by_text(f"TS {pikes.men * 4}")).to_be_visible()
    assert board.console_errors == []
    assert phone.console_errors == []
