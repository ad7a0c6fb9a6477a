"""What a Pathfinder board and report tell at a glance: engaged armies (§7.2), defeated and
destroyed ones (§9), Rally only where it can do something (§8.1), no Undo after the results are
applied, and the §7.6 kingdom checks with their effects in the report."""

import pytest
from django.urls import reverse

from battles import services
from tests.battles import test_aftermath
from tests.battles.test_aftermath import _apply

# The battle of tests/battles/test_aftermath.py, its results not yet applied.
bloodied, enemy_kingdom = test_aftermath.bloodied, test_aftermath.enemy_kingdom
reserves = test_aftermath.reserves


def _board(client, battle):
    return client.get(reverse("battles:board", args=[battle.campaign_id, battle.pk]))


def _card(page, name):
    """The HTML of the army card headed `name`."""
    start = page.index(f"<h3>{name}</h3>")
    return page[start : page.index("</article>", start)]


def test_an_engaged_army_shows_engaged_not_near(client, gm, struck, militia, raiders):
    """§7.2: the militia advanced on the raiders with a 20: both engaged, neither "near"."""
    client.force_login(gm)
    page = _board(client, struck).content.decode()
    for name in ("Silverrun Militia", "Raiders"):
        card = _card(page, name)
        assert '<span class="badge">engaged</span>' in card
        assert '<span class="badge">near</span>' not in card


def test_a_defeated_army_gets_a_badge(client, gm, player, bloodied):
    """§9: the reserves at 0 HP are defeated."""
    client.force_login(player)
    reserves_card = _card(_board(client, bloodied).content.decode(), "Reserves")
    assert '<span class="badge bad">defeated</span>' in reserves_card


def test_a_destroyed_army_gets_a_badge(client, gm, player, finished_battle):
    """§9: a side whose armies are all defeated is destroyed (the raiders of the finished
    battle; a battle of its own, as an army fights one battle at a time)."""
    client.force_login(player)
    raiders_card = _card(_board(client, finished_battle).content.decode(), "Raiders")
    assert '<span class="badge bad">destroyed</span>' in raiders_card


def test_rally_is_offered_only_to_a_shaken_army(client, gm, world, battle, militia, raiders):
    """§8.1 Rally lowers shaken: a fresh army is not offered it, a shaken one is."""
    client.force_login(gm)
    while battle.snapshot["order"][battle.snapshot["turn"]] != str(militia.pk):
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": battle.snapshot["order"][battle.snapshot["turn"]],
                     "kind": "end_turn"},
        )  # fmt: skip
    assert "<strong>Rally</strong>" not in _board(client, battle).content.decode()
    battle, _events = services.battle_act(
        user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
        command={"actor": None, "kind": "gm_correction",
                 "params": {"army": str(militia.pk), "conditions": {"shaken": 1}}},
    )  # fmt: skip
    assert "<strong>Rally</strong>" in _board(client, battle).content.decode()


def test_undo_is_hidden_once_the_results_are_applied(client, gm, bloodied, kingdom, enemy_kingdom):
    client.force_login(gm)
    assert "Undo last action" in _board(client, bloodied).content.decode()
    battle = _apply(gm, bloodied, typed_dice={"a": (10, None), "b": (5, None)})
    assert "Undo last action" not in _board(client, battle).content.decode()


def test_the_report_tells_the_kingdom_checks_and_their_effects(
    client, gm, bloodied, kingdom, enemy_kingdom
):
    """§7.6: the victors' Warfare +7, typed 10 = 17 vs DC 17, a success: every damaged army
    regains 1 HP; the losers' Defense +7, typed 5 = 12, a failure: Unrest +1 (1 -> 2)."""
    battle = _apply(gm, bloodied, typed_dice={"a": (10, None), "b": (5, None)})
    client.force_login(gm)
    url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
    page = client.get(url).content.decode()
    assert "Silverrun Militia regains 1 HP" in page
    assert "Unrest +1 (now 2)." in page
    assert page.count('class="aftermath"') == 2
    markdown = client.get(url, {"format": "md"}).content.decode()
    assert "Defense: die typed in 5 + 7 = 12 vs DC 17 → Failure" in markdown
    assert "Warfare: die typed in 10 + 7 = 17 vs DC 17 → Success" in markdown
    assert "- Unrest +1 (now 2)." in markdown
    board = _board(client, battle).content.decode()
    assert "Unrest +1 (now 2)." in board


@pytest.fixture
def other_side_sees_only_its_check(client, player, bloodied, kingdom, enemy_kingdom, gm):
    return _apply(gm, bloodied, typed_dice={"a": (10, None), "b": (5, None)})


def test_a_player_reads_only_their_own_sides_check_in_the_report(
    client, player, other_side_sees_only_its_check
):
    battle = other_side_sees_only_its_check
    client.force_login(player)
    page = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    text = page.content.decode()
    assert "Silverrun Militia regains 1 HP" in text
    assert "Unrest +1 (now 2)." not in text


@pytest.mark.parametrize("system", ["dnd5e", "gurps3e", "gurps4e"])
def test_no_board_offers_undo_once_its_results_are_applied(db, client, system):
    """Applied results are written to the armies: every system's board stops offering Undo
    (the service refuses it anyway)."""
    from django.core.management import call_command

    from battles.models import Battle, BattleStatus

    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    client.login(username="gm", password="warfare-gm")
    Battle.objects.filter(system=system).update(seq=1)  # as if one command had been taken
    battle = Battle.objects.get(system=system)
    assert "Undo last action" in _board(client, battle).content.decode()
    Battle.objects.filter(pk=battle.pk).update(status=BattleStatus.APPLIED)
    assert "Undo last action" not in _board(client, battle).content.decode()
