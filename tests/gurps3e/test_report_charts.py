"""The GURPS 3e report's charts (issue 14 "Pictures"): TS and casualties per force, day by
day (§B.2: one resolution a day); a player sees the enemy's casualties in per cent, never
its TS (as on the board and in the report)."""

import re

import pytest
from django.urls import reverse

from battles.charts import samples
from tests.gurps3e.test_board import _play

pytestmark = pytest.mark.django_db


def _dots(svg: str, series: str) -> list[str]:
    group = re.search(rf'<g data-series="{series}">(.*?)</g>', svg)
    return re.findall(r'data-value="([^"]+)"', group.group(1)) if group else []


def test_ts_and_casualties_per_force_day_by_day(client, gm, player, g3_battle):
    client.force_login(gm)
    battle = _play(client, g3_battle)
    points = samples(battle)
    assert [p.round for p in points] == [0, 1]
    assert points[0].values == {"ts": {"a": 600, "b": 1000}, "casualties": {"a": 0, "b": 0}}
    # The day's casualties as the log has them (§B.9): men lost of the men before, per side.
    for side in ("a", "b"):
        event = battle.events.get(code="battle.casualties", params__side=side)
        lost = sum(unit["men_lost"] for unit in event.params["units"])
        before = sum(unit["men_before"] for unit in event.params["units"])
        assert points[1].values["casualties"][side] == round(100 * lost / before)
    ts = {force["key"]: force["ts"] for force in battle.snapshot["forces"]}
    assert points[1].values["ts"] == ts
    url = reverse("battles:report", args=[battle.campaign_id, battle.pk])
    page = client.get(url).content.decode()
    assert "TS per force" in page and "day 1" in page and "round 1" not in page
    client.force_login(player)  # the player's faction fights on side A
    chart = reverse("battles:report-chart", args=[battle.campaign_id, battle.pk, "ts"])
    svg = client.get(chart).content.decode()
    assert _dots(svg, "a") == ["600", str(ts["a"])] and _dots(svg, "b") == []
    chart = reverse("battles:report-chart", args=[battle.campaign_id, battle.pk, "casualties"])
    svg = client.get(chart).content.decode()
    assert len(_dots(svg, "a")) == 2 and len(_dots(svg, "b")) == 2
