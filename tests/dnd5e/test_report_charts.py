"""The D&D 5e report's charts (issue 14 "Pictures"): stands on the field and VP per side,
round by round (dnd5e §6.2: casualties leave at the end of the round; §7.1 VP)."""

import re

import pytest
from django.urls import reverse

from battles.charts import samples
from tests.dnd5e.test_board import _act, _end_turns_until, _gm
from warfare.systems.dnd5e.models import Unit

pytestmark = pytest.mark.django_db


def _dots(svg: str, series: str) -> list[str]:
    group = re.search(rf'<g data-series="{series}">(.*?)</g>', svg)
    assert group, f"no series {series}"
    return re.findall(r'data-value="([^"]+)"', group.group(1))


def test_stands_and_vp_per_side_round_by_round(client, gm, player, dnd_battle):
    """The GM drops an orc stand to 0 HP in round 1: a casualty, removed at the end of the
    round (§6.2 step 1), so side B has 4 stands at the start and 3 after round 1."""
    orcs = f"u{Unit.objects.get(name='Orcs').pk}"
    battle = _gm(gm, dnd_battle, "gm_correction", piece=f"{orcs}.1", hp=0)
    assert battle.snapshot["round"] == 1
    battle = _end_turns_until(gm, battle, lambda b: b.snapshot["round"] == 2)
    points = samples(battle)
    assert [p.round for p in points] == [0, 1]
    assert [p.values["stands"] for p in points] == [{"a": 4, "b": 4}, {"a": 4, "b": 3}]
    vp = battle.snapshot["vp"]
    assert points[1].values["vp"] == {"a": vp.get("a", 0), "b": vp.get("b", 0)}
    assert points[0].values["vp"] == {"a": 0, "b": 0}
    # Stands on the field and VP are on the board for everyone: a player sees both charts.
    client.force_login(player)
    url = reverse("battles:report-chart", args=[battle.campaign_id, battle.pk, "stands"])
    svg = client.get(url).content.decode()
    assert _dots(svg, "a") == ["4", "4"] and _dots(svg, "b") == ["4", "3"]
    page = client.get(reverse("battles:report", args=[battle.campaign_id, battle.pk]))
    text = page.content.decode()
    assert 'data-chart="stands"' in text and 'data-chart="vp"' in text
    assert "Stands on the field per side" in text and "HP per army" not in text
    _act(gm, battle, battle.snapshot["turn"]["actor"], "end_turn")
    battle.refresh_from_db()
    assert [p.round for p in samples(battle)] == [0, 1, 2]
