"""D&D 5e on the board, in a browser: a commander joined to a unit acts on the unit's turn
(dnd5e §5.2, §4.5) — selecting its stand offers the commander's attack, and its commander
benefits are bonus actions named after it — and two units whose names begin alike get
different labels on the grid."""

import pytest
from playwright.sync_api import expect

from kingdoms.models import Role, RuleSystem
from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
from warfare.systems.dnd5e import services
from warfare.systems.dnd5e.models import Army, Creature, Solo, Unit
from warfare.systems.dnd5e.setup import battle_create

from .test_invite_flow import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _unit(army, name, key, stands, kind="regiment", commander=None):
    creature = Creature.objects.get(campaign=army.campaign, key=key)
    return Unit.objects.create(army=army, name=name, creature=creature, kind=kind,
                               stands=stands, commander=commander)  # fmt: skip


@pytest.fixture
def ford(live_server, new_page):
    """The Knights (commanded by Sir Aldric, joined at set-up) against the Goblin Horde and
    the Goblin Archers, deployed; the Knights act first; the GM's board open."""
    gm = UserFactory(username="dm")
    campaign = CampaignFactory(name="Sword Coast", created_by=gm, rule_system=RuleSystem.DND5E)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    ours = FactionFactory(campaign=campaign, name="Wardens of the Ford", controlled_by="players")
    theirs = FactionFactory(campaign=campaign, name="Red Hand")
    services.library_load_srd(user=gm, campaign_id=campaign.pk)
    wardens = Army.objects.create(campaign=campaign, faction=ours, name="Wardens")
    hero = Solo.objects.create(
        army=wardens,
        name="Sir Aldric",
        pc=True,
        creature=Creature.objects.get(campaign=campaign, key="knight"),
    )
    knights = _unit(wardens, "Knights", "knight", 1, commander=hero)
    horde = Army.objects.create(campaign=campaign, faction=theirs, name="Red Hand")
    goblins = _unit(horde, "Goblin Horde", "goblin", 2)
    archers = _unit(horde, "Goblin Archers", "goblin", 2, kind="skirmisher")
    battle = battle_create(
        user=gm, campaign_id=campaign.pk, name="Battle of the Old Ford", army_a=wardens,
        army_b=horde, players_may_act=True, width=6, height=4, depth=2, squares=[],
        objectives=[], options={}, auto_deploy=True,
        initiative_dice={f"u{knights.pk}": 20, f"s{hero.pk}": 1, f"u{goblins.pk}": 2,
                         f"u{archers.pk}": 3},
    )  # fmt: skip
    assert battle.snapshot["turn"]["actor"] == f"u{knights.pk}"
    board = new_page()
    log_in(board, live_server.url, "dm")
    board.goto(f"{live_server.url}{battle.get_absolute_url()}")
    return board


def test_units_whose_names_begin_alike_have_their_own_labels_on_the_grid(ford):
    """Goblin Horde and Goblin Archers both read "Go1, Go2" on the grid: now GH and GA."""
    labels = ford.locator("table.dnd-grid .piece").evaluate_all(
        "pieces => pieces.map(p => p.firstChild ? p.firstChild.textContent : '')"
    )
    assert sorted(label for label in labels if label) == ["GA1", "GA2", "GH1", "GH2", "Kn1★"]


def test_a_joined_commander_acts_on_its_units_turn(ford):
    """dnd5e §5.2 (joined solos act on their unit's turn), §4.5 (commander benefits are
    bonus actions): the Actions list Sir Aldric's Incite as his bonus action; selecting the
    Knights' stand he rides with offers his own attack; both are taken and logged."""
    board = ford
    expect(board.get_by_role("button", name="Sir Aldric: Incite (bonus action)")).to_be_visible()
    board.locator('td[title*="with Sir Aldric"] a.piece-link').click()
    expect(board.get_by_role("heading", name="Selected: Knights #1")).to_be_visible()
    # The self-selecting board already shows that heading: wait for the selection's own
    # answer (the board then names the piece asked for), or it may land after the attack.
    expect(board.locator("#board")).not_to_have_attribute("data-sel", "*")
    shot = board.get_by_role("button", name="Sir Aldric: Attack: heavy crossbow, Goblin Horde #1")
    expect(shot).to_be_visible()
    shot.click()
    log = board.locator("ol.log")
    expect(log.get_by_text("Sir Aldric attacks Goblin Horde #1")).to_be_visible()
    board.get_by_role("button", name="Sir Aldric: Incite (bonus action)").click()
    expect(log.get_by_text("Sir Aldric incites Knights: d20")).to_be_visible()
    expect(board.get_by_role("button", name="Sir Aldric: Incite (bonus action)")).to_have_count(0)
    assert not board.console_errors
