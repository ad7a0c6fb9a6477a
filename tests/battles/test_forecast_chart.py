"""The forecast's histogram of battle lengths (`battles.forecasting._length_chart`, drawn by
`templates/battles/_forecast.html`): one bar per length some battle had; where lengths no
battle had are left out between two bars, a gap mark stands between their labels."""

import re

from django.template.loader import render_to_string

from battles.forecasting import CHART_WIDTH, _length_chart


def _bar(rounds: int, a: int, b: int = 0) -> dict:
    return {"rounds": rounds, "counts": {"a": a, "b": b, "draw": 0}}


def test_a_gap_is_marked_only_where_lengths_are_left_out():
    chart = _length_chart([_bar(4, 3), _bar(5, 10, 2), _bar(6, 1), _bar(20, 0, 1)], ["a", "b"])
    width = CHART_WIDTH / 4
    assert [bar["rounds"] for bar in chart["bars"]] == [4, 5, 6, 20]
    assert [bar["gap_x"] for bar in chart["bars"]] == [None, None, None, 3 * width]
    tallest = chart["bars"][1]  # 12 battles: the full height
    assert [part["height"] for part in tallest["parts"]] == [125.0, 25.0]


def test_consecutive_lengths_have_no_gap_mark():
    chart = _length_chart([_bar(2, 1), _bar(3, 1), _bar(4, 1)], ["a", "b"])
    assert all(bar["gap_x"] is None for bar in chart["bars"])


def test_the_svg_draws_a_gap_mark_before_each_bar_after_left_out_lengths():
    chart = _length_chart([_bar(4, 3), _bar(5, 1), _bar(13, 1), _bar(20, 1)], ["a", "b"])
    forecast = {"lengths": chart, "sides": [], "forces": [], "simulations": 6}
    html = render_to_string("battles/_forecast.html", {"forecast": forecast})
    marks = re.findall(r'<text x="([\d.]+)"[^>]*class="chart-label chart-gap">', html)
    assert marks == ["300.0", "450.0"]  # between 5 and 13, between 13 and 20
    assert html.count("…</text>") == 2
