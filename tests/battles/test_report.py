"""The battle report: a printable page and a Markdown download, with enemy HP hidden."""

from django.conf import settings
from django.urls import reverse

from battles.report import report_markdown


def report_url(battle, **query) -> str:
    url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
    return url + ("?format=md" if query.get("md") else "")


def test_the_board_links_to_the_report(client, gm, battle):
    client.force_login(gm)
    page = client.get(battle.get_absolute_url()).content.decode()
    assert f'href="{report_url(battle)}"' in page


def test_the_report_page_tells_the_battle_round_by_round(client, gm, battle):
    client.force_login(gm)
    response = client.get(report_url(battle))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Battle of the Ford" in page
    assert "Silverrun" in page and "Thornback Horde" in page
    assert "Round 1" in page
    assert "The battle begins." in page
    for event in battle.events.filter(code="battle.initiative"):
        assert f"initiative d20 {event.params['die']} + " in page
    assert "The battle is still in progress." in page
    assert f'href="{report_url(battle, md=True)}"' in page or 'href="?format=md"' in page
    # Printable: the stylesheet has a print block that hides the site's chrome.
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    assert "@media print" in css


def test_players_do_not_see_enemy_hp_in_the_report(client, gm, player, other_player, struck):
    militia_to_act = struck
    client.force_login(player)
    for url in (report_url(militia_to_act), report_url(militia_to_act, md=True)):
        text = client.get(url).content.decode()
        assert "Raiders takes 2 damage." in text
        assert "HP 2" not in text  # the raiders' HP left, after the hit
        assert "HP 5 of 5" in text  # the player's own militia, in full
    client.force_login(other_player)  # the raiders' own side
    text = client.get(report_url(militia_to_act, md=True)).content.decode()
    assert "Raiders takes 2 damage (HP 2)." in text
    assert "HP 2 of 4" in text
    assert "HP 5 of 5" not in text
    client.force_login(gm)
    text = client.get(report_url(militia_to_act)).content.decode()
    assert "Raiders takes 2 damage (HP 2)." in text
    assert "HP 5 of 5" in text and "HP 2 of 4" in text


def test_the_markdown_download(client, player, finished_battle):
    client.force_login(player)
    response = client.get(report_url(finished_battle, md=True))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == (
        'attachment; filename="battle-of-the-ford-report.md"'
    )
    text = response.content.decode()
    assert text.startswith("# Battle of the Ford\n")
    assert "## Sides" in text
    assert "**Silverrun** (with the PCs)" in text
    assert "## Outcome" in text
    assert "**Victory for Silverrun.**" in text
    assert "## Round 1" in text
    assert "- The battle begins." in text
    assert "- The GM corrects Raiders." in text
    assert "HP 0" not in text  # the GM set the raiders' HP: not the player's to read


def test_markdown_escapes_what_users_typed(gm, battle):
    from battles.models import Battle
    from kingdoms.access import access_campaign
    from warfare.systems.pf2e.report import report_context

    Battle.objects.filter(pk=battle.pk).update(name="*Bold* [link](x) #1")
    battle = Battle.objects.get(pk=battle.pk)
    text = report_markdown(report_context(access_campaign(gm, battle.campaign_id), battle))
    assert text.startswith(r"# \*Bold\* \[link\](x) \#1")


def test_the_report_follows_undo(client, gm, battle):
    from battles import services

    actor = battle.snapshot["order"][0]
    services.battle_act(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                        expected_seq=0, command={"actor": actor, "kind": "end_turn"})  # fmt: skip
    client.force_login(gm)
    assert "ends its turn." in client.get(report_url(battle, md=True)).content.decode()
    services.battle_undo(user=gm, campaign_id=battle.campaign_id, battle_id=battle.pk,
                         expected_seq=1)  # fmt: skip
    assert "ends its turn." not in client.get(report_url(battle, md=True)).content.decode()
