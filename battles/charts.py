"""The battle report's pictures: what each side had left, round by round (days for GURPS
3e), as server-rendered SVG line charts (no chart JavaScript).

The numbers come from the battle itself: its live commands replayed from the setup and the
seed, the engine's `standing` taken at the start and at the end of every round (the state
right after the command that began the next round, so a round's end — Pathfinder's rout
checks, D&D 5e's casualties and objectives — is in it), and once more for a round still
being fought. Per rule system (`CHARTS`):

* Pathfinder 2e: HP per army;
* GURPS 4e and 3e: TS per force, and casualties per force in per cent;
* D&D 5e: stands on the field per side, and VP per side.

Visibility: a series is drawn only for what the viewer may see in the report (the report's
own `BattleView.sees`, so a player never gets the enemy's HP or TS from a chart); casualties
in per cent, stands on the field and VP are public, as on the board.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from warfare.engine.battle.protocol import Command, command_dice
from warfare.engine.battle.registry import get_battle_system

from .models import Battle, BattleCommand

# --- the numbers ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """The numbers at one point: `round` the round (day) that just ended (0: the start),
    `values` {chart key: {series key: value}}."""

    round: int
    values: dict[str, dict[str, float]]


def _pf2e(state, standing) -> dict[str, dict[str, float]]:
    return {"hp": {f.key: f.left for f in standing.forces if f.kind == "army"}}


def _gurps4e(state, standing) -> dict[str, dict[str, float]]:
    forces = [f for f in standing.forces if f.kind == "force"]
    return {
        "ts": {f.key: round(f.left, 1) for f in forces},
        "casualties": {f.key: float(f.values.get("casualties", 0)) for f in forces},
    }


def _gurps3e(state, standing) -> dict[str, dict[str, float]]:
    lost = {}
    for force in state.forces:
        start = sum(unit.men_start for unit in force.units)
        lost[force.key] = round(100 * (start - force.men) / start) if start else 0
    return {"ts": {f.key: f.left for f in standing.forces if f.kind == "force"},
            "casualties": lost}  # fmt: skip


def _dnd5e(state, standing) -> dict[str, dict[str, float]]:
    stands = dict.fromkeys(standing.sides, 0.0)
    for force in standing.forces:
        if force.kind == "unit":
            stands[force.side] = stands.get(force.side, 0.0) + force.left
    return {"stands": stands, "vp": {side: float(vp) for side, vp in standing.scores.items()}}


@dataclass(frozen=True)
class ChartKind:
    key: str
    title: Any  # a lazy translatable title
    per_side: bool  # one series per side (else per army / force)
    public: bool  # every viewer sees it (else only the series `view.sees`)
    percent: bool = False


HP = ChartKind("hp", gettext_lazy("HP per army"), per_side=False, public=False)
TS = ChartKind("ts", gettext_lazy("TS per force"), per_side=False, public=False)
CASUALTIES = ChartKind(
    "casualties", gettext_lazy("Casualties per force (%)"), per_side=False, public=True,
    percent=True,
)  # fmt: skip
STANDS = ChartKind("stands", gettext_lazy("Stands on the field per side"), True, True)
VP = ChartKind("vp", gettext_lazy("Victory points per side"), per_side=True, public=True)

#: {system: (the charts, the numbers of one state for them)}.
CHARTS: dict[str, tuple[tuple[ChartKind, ...], Callable[..., dict[str, dict[str, float]]]]] = {
    "pf2e": ((HP,), _pf2e),
    "gurps4e": ((TS, CASUALTIES), _gurps4e),
    "gurps3e": ((TS, CASUALTIES), _gurps3e),
    "dnd5e": ((STANDS, VP), _dnd5e),
}


def chart_kinds(system: str) -> tuple[ChartKind, ...]:
    return CHARTS.get(system, ((), None))[0]


def samples(battle: Battle) -> list[Sample]:
    """The numbers at the start and at the end of every round (see the module docstring),
    from a replay of the live commands (one query), kept in the cache per battle version."""
    key = f"battle-chart:{battle.pk}:{battle.seq}:{battle.updated_at.timestamp()}"
    found = cache.get(key)
    if found is not None:
        return [Sample(round_, values) for round_, values in found]
    result = _replay_samples(battle)
    cache.set(key, [(s.round, s.values) for s in result], 24 * 3600)
    return result


def _replay_samples(battle: Battle) -> list[Sample]:
    kinds = CHARTS.get(battle.system)
    if kinds is None:
        return []
    numbers = kinds[1]
    system = get_battle_system(battle.system)
    state = system.start(battle.setup, battle.seed)
    points = [Sample(0, numbers(state, system.standing(state)))]
    rows = BattleCommand.objects.filter(battle=battle, undone_at__isnull=True).order_by("position")
    current, pending = system.clock(state)[0], False
    for index, data in enumerate(rows.values_list("command", flat=True)):
        command = Command.from_dict(data)
        result = system.apply(state, command, command_dice(battle.seed, index, command.typed_dice))
        if not isinstance(result, tuple):  # a stored log always replays (battle_verify)
            break
        state, pending = result[0], True
        now = system.clock(state)[0]
        if now != current:
            sample = Sample(current, numbers(state, system.standing(state)))
            if current == 0:  # D&D 5e's deployment: the start is what the armies deploy
                points[-1] = sample
            else:
                points.append(sample)
            current, pending = now, False
    if pending:
        points.append(Sample(current, numbers(state, system.standing(state))))
    return points


# --- the charts as a viewer sees them --------------------------------------------------------


@dataclass(frozen=True)
class Series:
    key: str
    name: str
    values: tuple[float, ...]


@dataclass(frozen=True)
class Chart:
    key: str
    title: str
    by_day: bool
    rounds: tuple[int, ...]
    series: tuple[Series, ...]
    percent: bool = False

    def svg(self) -> SafeString:
        return render_svg(self)


def battle_charts(battle: Battle, view) -> list[Chart]:
    """The report's charts of `battle` as `view` (the report's `BattleView`) may see them;
    a chart with nothing the viewer may see is left out."""
    kinds = chart_kinds(battle.system)
    if not kinds:
        return []
    points = samples(battle)
    by_day = battle.system == "gurps3e"
    names = view.names
    charts = []
    for kind in kinds:
        keys = list(dict.fromkeys(k for p in points for k in p.values.get(kind.key, {})))
        series = []
        for key in keys:
            if not kind.public and not view.sees(key):
                continue
            name = names.get(f"side:{key}") if kind.per_side else None
            name = name or names.get(key) or view.side_names.get(key) or key
            values = tuple(p.values.get(kind.key, {}).get(key, 0.0) for p in points)
            series.append(Series(key, str(name), values))
        if series:
            rounds = tuple(p.round for p in points)
            charts.append(Chart(kind.key, str(kind.title), by_day, rounds, tuple(series),
                                kind.percent))  # fmt: skip
    return charts


# --- SVG ---------------------------------------------------------------------------------------

WIDTH, HEIGHT = 640, 250
LEFT, RIGHT, TOP, BOTTOM = 48, 24, 30, 52
#: Distinct and readable in print; side A red and side B blue as on the boards.
COLOURS = ("#c0392b", "#2c5aa0", "#1f6f43", "#8a5a00", "#6b3fa0", "#0f7c8c", "#a4161a", "#555")


def _nice_top(value: float) -> float:
    """A round top for the value axis (1, 2, 2.5, 5 × 10ⁿ at or above `value`)."""
    if value <= 0:
        return 1
    step = 1.0
    while step * 10 <= value:
        step *= 10
    while step > value * 10:
        step /= 10
    for factor in (1, 2, 2.5, 5, 10):
        if step * factor >= value:
            return step * factor
    return step * 10  # pragma: no cover


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def round_label(chart: Chart, number: int) -> str:
    """A point's name in its tooltip: "start", "round 2", "day 2"."""
    if number == 0:
        return _("start")
    if chart.by_day:
        return _("day %(day)s") % {"day": number}
    return _("round %(round)s") % {"round": number}


def render_svg(chart: Chart) -> SafeString:
    """The chart as one standalone SVG element (a line per series, a dot per round with its
    number as a tooltip, the axes and a legend), its text escaped."""
    top = _nice_top(max(max(s.values) for s in chart.series))
    top = min(top, 100.0) if chart.percent else top
    width = WIDTH - LEFT - RIGHT
    plot = HEIGHT - TOP - BOTTOM
    base = TOP + plot
    legend_top = HEIGHT + 4
    height = legend_top + 20 * ((len(chart.series) + 2) // 3)
    count = len(chart.rounds)

    def x(i: int) -> float:
        return LEFT + (width * i / (count - 1) if count > 1 else width / 2)

    def y(value: float) -> float:
        return TOP + plot - plot * min(value, top) / top

    title = escape(chart.title)
    axis = escape(_("day") if chart.by_day else _("round"))
    # Presentation attributes only, no <style>: the site's CSP allows no inline styles.
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="report-chart" role="img" '
        f'viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'aria-labelledby="chart-{chart.key}-title" data-chart="{chart.key}" '
        f'font-family="system-ui, sans-serif" font-size="12" fill="#1f2328">',
        f'<title id="chart-{chart.key}-title">{title}</title>',
        f'<text x="{LEFT}" y="18" font-size="14" font-weight="700">{title}</text>',
    ]
    for tick in (0, top / 2, top):
        ty = y(tick)
        out.append(f'<line stroke="#d9dde3" x1="{LEFT}" x2="{LEFT + width}" y1="{ty:.1f}" '
                   f'y2="{ty:.1f}"/>')  # fmt: skip
        out.append(f'<text x="{LEFT - 6}" y="{ty + 4:.1f}" text-anchor="end">'
                   f"{_number(tick)}{'%' if chart.percent else ''}</text>")  # fmt: skip
    out.append(f'<line stroke="#5b6470" x1="{LEFT}" x2="{LEFT + width}" y1="{base}" '
               f'y2="{base}"/>')  # fmt: skip
    step = max(1, (count + 11) // 12)
    for i, number in enumerate(chart.rounds):
        if i % step == 0 or i == count - 1:
            label = escape(_("start")) if number == 0 else str(number)
            out.append(f'<text x="{x(i):.1f}" y="{base + 16}" text-anchor="middle">{label}</text>')
    out.append(f'<text x="{LEFT + width / 2:.1f}" y="{base + 34}" text-anchor="middle">'
               f"{axis}</text>")  # fmt: skip
    for n, series in enumerate(chart.series):
        colour = COLOURS[n % len(COLOURS)]
        name = escape(series.name)
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(series.values))
        out.append(f'<g data-series="{escape(series.key)}"><polyline fill="none" '
                   f'stroke="{colour}" stroke-width="2.5" points="{points}"/>')  # fmt: skip
        for i, value in enumerate(series.values):
            tip = f"{name}, {escape(round_label(chart, chart.rounds[i]))}: {_number(value)}"
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(value):.1f}" r="3.5" fill="{colour}" '
                       f'data-value="{_number(value)}"><title>{tip}</title></circle>')  # fmt: skip
        out.append("</g>")
        lx = LEFT + (n % 3) * (width / 3)
        ly = legend_top + 20 * (n // 3)
        out.append(f'<rect x="{lx:.1f}" y="{ly - 10}" width="12" height="12" fill="{colour}"/>'
                   f'<text x="{lx + 18:.1f}" y="{ly}">{name}</text>')  # fmt: skip
    out.append("</svg>")
    return mark_safe("".join(out))  # noqa: S308 - every text in it is escaped above
