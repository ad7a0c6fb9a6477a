"""The GURPS 4e report's charts (issue 14 "Pictures"): TS left and casualties per force,
round by round (gurps §A.6.4: the CRT's casualties, cumulative); a side never sees the
enemy's TS (§A.5.1), only its casualties."""

import re

import pytest
from django.urls import reverse

from battles.charts import samples
from battles.models import Battle
from tests.gurps4e.test_battle_board import _play_round, battle, owned_setup  # noqa: F401

pytestmark = pytest.mark.django_db


def _dots(svg: str, series: str) -> list[str]:
    group = re.search(rf'<g data-series="{series}">(.*?)</g>', svg)
    return re.findall(r'data-value="([^"]+)"', group.group(1)) if group else []


def test_ts_and_casualties_per_force_round_by_round(client, gm, player, other_player,
                                                    battle):  # noqa: F811 # fmt: skip
    client.force_login(gm)
    _play_round(client, battle)
    battle = Battle.objects.get(pk=battle.pk)
    points = samples(battle)
    assert [p.round for p in points] == [0, 1]
    contest = battle.events.get(code="gurps4e.strategy_contest", round=1)
    a, b = contest.params["cumulative"]
    assert points[1].values["casualties"] == {"a": a, "b": b}
    assert points[0].values == {"ts": {"a": 41, "b": 36}, "casualties": {"a": 0, "b": 0}}
    assert points[1].values["ts"] == {"a": round(41 * (100 - a) / 100, 1),
                                      "b": round(36 * (100 - b) / 100, 1)}  # fmt: skip
    ts = reverse("battles:report-chart", args=[battle.campaign_id, battle.pk, "ts"])
    casualties = ts.replace("/ts.svg", "/casualties.svg")
    client.force_login(player)  # side A's
    svg = client.get(ts).content.decode()
    assert _dots(svg, "a")[0] == "41" and _dots(svg, "b") == []
    svg = client.get(casualties).content.decode()
    assert _dots(svg, "a") == ["0", str(a)] and _dots(svg, "b") == ["0", str(b)]
    client.force_login(other_player)  # side B's
    svg = client.get(ts).content.decode()
    assert _dots(svg, "a") == [] and _dots(svg, "b")[0] == "36"
    page = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    assert 'data-chart="casualties"' in page.content.decode()
