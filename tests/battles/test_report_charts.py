"""The battle report's charts (issue 14 "Pictures"): HP per army round by round, as SVG in
the report page and at a URL the Markdown links, with the numbers of the log, and hidden
numbers hidden from players as the report hides them."""

import re

import pytest
from django.urls import reverse

from battles import services
from battles.charts import battle_charts, samples
from battles.report import report_markdown
from battles.visibility import GM, battle_view
from tests.battles.conftest import end_turn
from warfare import seeds
from warfare.systems.pf2e import setup as pf2e_setup

pytestmark = pytest.mark.django_db
SEED = 1414


@pytest.fixture
def struck(monkeypatch, as_role, world, gm, militia, raiders):
    """The Battle of the Ford with a fixed seed and initiative dice typed in (the raiders
    first): the raiders end their turn, the militia
    advances and strikes with typed-in 20s (critical hit: the raiders' HP 4 -> 2), round 1."""
    monkeypatch.setattr(seeds, "draw", lambda bits: SEED)
    battle = pf2e_setup.battle_create(
        user=gm, campaign_id=world.pk, name="Battle of the Ford",
        sides={"a": [militia.pk], "b": [raiders.pk]}, pcs_side="a",
        initiative_dice={raiders.pk: 20, militia.pk: 1},
    )  # fmt: skip
    assert battle.snapshot["order"] == [str(raiders.pk), str(militia.pk)]
    battle = end_turn(gm, battle)
    target = {"target": str(raiders.pk)}
    for kind, params in (("advance", target), ("battle", {**target, "weapon": "melee"})):
        battle, _events = services.battle_act(
            user=gm, campaign_id=world.pk, battle_id=battle.pk, expected_seq=battle.seq,
            command={"actor": str(militia.pk), "kind": kind, "params": params,
                     "typed_dice": [20]},
        )  # fmt: skip
    return battle


def chart_url(battle, chart="hp"):
    return reverse("battles:report-chart", args=[battle.campaign_id, battle.pk, chart])


def report_url(battle):
    return reverse("battles:report", args=[battle.campaign_id, battle.pk])


def dots(svg: str, series: str) -> list[str]:
    """The values of a series' dots in an SVG chart."""
    group = re.search(rf'<g data-series="{series}">(.*?)</g>', svg)
    assert group, f"no series {series}"
    return re.findall(r'data-value="([^"]+)"', group.group(1))


def test_the_hp_chart_has_the_numbers_of_the_log(gm, struck, militia, raiders):
    """Round 1: the militia's critical hit takes the raiders from 4 to 2 HP (the log's
    "Raiders takes 2 damage (HP 2)."); the militia keeps its 5 HP."""
    battle = struck
    damage = battle.events.get(code="battle.damaged", params__army=str(raiders.pk))
    assert (damage.round, damage.params["now"]) == (1, 2)
    points = samples(battle)
    assert [p.round for p in points] == [0, 1]
    assert [p.values["hp"] for p in points] == [
        {str(militia.pk): 5, str(raiders.pk): 4},
        {str(militia.pk): 5, str(raiders.pk): 2},
    ]
    (chart,) = battle_charts(battle, battle_view(battle, GM))
    assert chart.key == "hp" and chart.rounds == (0, 1)
    assert {s.name: s.values for s in chart.series} == {"Silverrun Militia": (5, 5),
                                                         "Raiders": (4, 2)}  # fmt: skip


def test_rounds_are_sampled_at_their_end(gm, struck, militia, raiders):
    """Once round 1 is over its numbers stay; the round being fought is drawn as it is."""
    battle = end_turn(gm, struck)  # the militia's: round 1 ends
    assert battle.snapshot["round"] == 2
    points = samples(battle)
    assert [p.round for p in points] == [0, 1]
    assert points[1].values["hp"][str(raiders.pk)] == 2
    battle = end_turn(gm, battle)  # the raiders' first turn of round 2
    assert [p.round for p in samples(battle)] == [0, 1, 2]


def test_the_report_draws_the_chart_and_the_markdown_links_it(client, gm, struck, raiders):
    client.force_login(gm)
    page = client.get(report_url(struck)).content.decode()
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="report-chart"' in page
    charts = page.split("report-charts")[1]
    assert "HP per army" in page and "<script" not in charts
    assert "<style" not in charts and " style=" not in charts  # the CSP allows none inline
    assert dots(page, str(raiders.pk)) == ["4", "2"]
    markdown = client.get(report_url(struck), {"format": "md"}).content.decode()
    assert f"- [HP per army](http://testserver{chart_url(struck)})" in markdown
    svg = client.get(chart_url(struck))
    assert svg.status_code == 200 and svg["Content-Type"] == "image/svg+xml; charset=utf-8"
    assert dots(svg.content.decode(), str(raiders.pk)) == ["4", "2"]


def test_players_see_only_their_own_armies_hp(client, player, other_player, struck, militia,
                                               raiders):  # fmt: skip
    """As in the report, a player sees the HP of their own faction's armies only."""
    client.force_login(player)
    for url in (report_url(struck), chart_url(struck)):
        text = client.get(url).content.decode()
        assert dots(text, str(militia.pk)) == ["5", "5"]
        assert f'data-series="{raiders.pk}"' not in text
    client.force_login(other_player)
    text = client.get(chart_url(struck)).content.decode()
    assert f'data-series="{militia.pk}"' not in text and dots(text, str(raiders.pk)) == ["4", "2"]


def test_a_non_member_gets_404_and_an_unknown_chart_too(client, gm, outsider, struck):
    client.force_login(outsider)
    assert client.get(chart_url(struck)).status_code == 404
    assert client.get(report_url(struck)).status_code == 404
    client.force_login(gm)
    assert client.get(chart_url(struck, "vp")).status_code == 404
    other = reverse("battles:report-chart", args=[struck.campaign_id, 999_999, "hp"])
    assert client.get(other).status_code == 404


def test_the_report_with_its_charts_in_few_queries(client, gm, struck,
                                                   django_assert_max_num_queries):  # fmt: skip
    client.force_login(gm)
    with django_assert_max_num_queries(6):  # the replay's commands: one query
        assert client.get(report_url(struck)).status_code == 200
    with django_assert_max_num_queries(5):
        assert client.get(chart_url(struck)).status_code == 200


def test_the_markdown_without_charts_has_no_charts_heading(finished_battle, gm):
    from battles.report import battle_report
    from kingdoms.models import Membership

    membership = Membership.objects.get(user=gm, campaign=finished_battle.campaign)
    context = battle_report(membership=membership, battle=finished_battle)
    assert "## Charts" not in report_markdown(context)
