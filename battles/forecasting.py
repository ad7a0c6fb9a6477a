"""Forecasts of a battle (issue 14): the odds by Monte Carlo over the pure engine, from the
set-up (before the start: nothing saved) or from any board state (the real battle is never
touched), for every rule system.

A forecast is `warfare.engine.battle.forecast`: `simulations` battles (default 500) played
to their end by the policies, simulation i with its own seed derived from the forecast seed,
so the same forecast seed gives the same numbers, however the work is split. Here it runs in
chunks (`Job.step`: as many simulations as fit in `CHUNK_SECONDS`), the partial results kept
in the cache between the requests, so a long forecast shows a progress bar (the page asks
for the next chunk until it is done) and no request runs for long; the API runs it in one
go.

The last finished forecast of a battle is cached per battle and seq (`cached`): the board
shows its odds bar while the board is as it was forecast.

Hidden numbers: a forecast reads the whole state (every army's HP, a secret strategy), so it
is the GM's; players see it (and may run it) only once the GM shares the battle's forecasts
(`Battle.forecast_shared`, `may_forecast`).
"""

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from kingdoms.access import access_campaign
from kingdoms.models import Membership
from kingdoms.transactions import write_transaction
from warfare.engine.battle.forecast import (
    MAX_ROUNDS,
    SIMULATIONS,
    Forecast,
    simulate,
    simulation_seed,
    summarise,
)
from warfare.engine.battle.registry import get_battle_system

from .models import Battle
from .visibility import GM, battle_view, member_view

MAX_SIMULATIONS = 2000
MAX_SEED = 2**62
CHUNK_SECONDS = 0.7
JOB_TTL = 15 * 60
RESULT_TTL = 24 * 60 * 60


@write_transaction
def battle_share_forecast(*, user, campaign_id: int, battle_id: int, shared: bool) -> Battle:
    """The GM shares the battle's forecasts with the players (`shared`), or takes them back."""
    membership = access_campaign(user, campaign_id, gm=True)
    battle = get_object_or_404(
        Battle.objects.select_for_update(no_key=True), campaign=membership.campaign, pk=battle_id
    )
    battle.forecast_shared = shared
    battle.save(update_fields=["forecast_shared", "updated_at"])
    return battle


def may_forecast(membership: Membership, battle: Battle) -> bool:
    """The GM always; a player once the GM shares the battle's forecasts."""
    return membership.is_gm or battle.forecast_shared


def check_may_forecast(membership: Membership, battle: Battle) -> None:
    if not may_forecast(membership, battle):
        raise PermissionDenied(_("The forecast is the GM's until the GM shares it."))


def parse_options(data) -> tuple[int, int]:
    """(simulations, seed) from a form or a query/body (defaults: 500 and 0); bad values are
    a ValidationError (400)."""

    def number(name: str, default: int, low: int, high: int) -> int:
        value = data.get(name, "")
        if value in ("", None):
            return default
        try:
            number = int(value)
        except (TypeError, ValueError):
            number = None
        if number is None or isinstance(value, bool) or not low <= number <= high:
            raise ValidationError(
                _("%(name)s: a whole number from %(low)s to %(high)s.")
                % {"name": name, "low": low, "high": high}
            )
        return number

    return (
        number("simulations", SIMULATIONS, 1, MAX_SIMULATIONS),
        number("seed", 0, 0, MAX_SEED),
    )


@dataclass
class Job:
    """A forecast being run: what it starts from (an engine `setup`, or a battle's `state`
    as a dict), its `seed` and `simulations`, the simulated battles so far; `owner` and
    `campaign` guard who may go on with it; `battle`/`seq` where the result is cached."""

    system: str
    seed: int
    simulations: int
    owner: int
    campaign: int
    names: dict[str, str]
    side_names: dict[str, str]
    setup: dict | None = None
    state: dict | None = None
    battle: int | None = None
    seq: int | None = None
    token: str = field(default_factory=lambda: secrets.token_urlsafe(12))
    results: list = field(default_factory=list)

    @property
    def done(self) -> int:
        return len(self.results)

    @property
    def finished(self) -> bool:
        return self.done >= self.simulations

    @property
    def percent(self) -> int:
        return int(100 * self.done / self.simulations)

    def step(self, seconds: float | None | str = "chunk") -> Forecast | None:
        """Run simulations for about `seconds` (None: all of them; "chunk": CHUNK_SECONDS);
        the forecast once all are done (cached for the battle and seq), else None (the job
        saved for the next step)."""
        if seconds == "chunk":
            seconds = CHUNK_SECONDS
        system = get_battle_system(self.system)
        state = system.state_from_dict(self.state) if self.state is not None else None
        deadline = time.monotonic() + float(seconds) if seconds is not None else None
        while not self.finished:
            self.results.append(
                simulate(system, simulation_seed(self.seed, self.done), setup=self.setup,
                         state=state, max_rounds=MAX_ROUNDS)
            )  # fmt: skip
            if deadline is not None and time.monotonic() > deadline:
                break
        if not self.finished:
            cache.set(_job_key(self.token), self, JOB_TTL)
            return None
        cache.delete(_job_key(self.token))
        result = summarise(self.system, self.seed, self.results, MAX_ROUNDS)
        if self.battle is not None:
            stored = {"forecast": result.to_dict(), "names": self.names,
                      "side_names": self.side_names, "seq": self.seq}  # fmt: skip
            cache.set(_battle_key(self.battle, self.seq), stored, RESULT_TTL)
        return result


def _job_key(token: str) -> str:
    return f"battles:forecast-job:{token}"


def _battle_key(battle_id: int, seq: int | None) -> str:
    return f"battles:forecast:{battle_id}:{seq}"


def resume(token: str, *, user, campaign_id: int) -> Job:
    """The job `token` of this user in this campaign (else a ValidationError: expired)."""
    job = cache.get(_job_key(str(token)[:40]))
    if not isinstance(job, Job) or job.owner != user.pk or job.campaign != campaign_id:
        raise ValidationError(_("This forecast expired: run it again."))
    return job


def cached(battle: Battle) -> dict | None:
    """The last forecast of the battle as it is now ({forecast, names, side_names, seq}),
    if one was run at this seq: as the board's render key read it for this `battle` and
    seq (`remember_read`: the board shows the odds its key names), else from the cache."""
    key = _battle_key(battle.pk, battle.seq)
    read = battle.__dict__.get(_READ)
    if read is not None and read[0] == key:
        return read[1]
    return cache.get(key)


_READ = "_forecast_read"


def remember_read(battle: Battle, last: dict | None) -> None:
    """The forecast the board's render key read for `battle` at its seq (`cached`)."""
    battle.__dict__[_READ] = (_battle_key(battle.pk, battle.seq), last)


def marker_key(battle: Battle) -> str:
    """The cache key `board_marker` reads (a caller may read it with others at once)."""
    return _battle_key(battle.pk, battle.seq)


def marker_of(last: dict | None) -> str:
    """`board_marker` of the cached forecast `last` (None: none)."""
    if last is None:
        return ""
    return f"-o{last['forecast']['seed']}.{last['forecast']['simulations']}"


def board_marker(battle: Battle) -> str:
    """What the board's version (its ETag, a cached rendering) must add for the odds bar:
    "-o<seed>.<n>" once a forecast was run at this seq (one cache read), else ""."""
    return marker_of(cache.get(marker_key(battle)))


def battle_job(membership: Membership, battle: Battle, *, simulations: int, seed: int) -> Job:
    """A forecast from the battle's current state (checked: the GM, or shared)."""
    check_may_forecast(membership, battle)
    view = member_view(membership, battle)
    return Job(
        system=battle.system, seed=seed, simulations=simulations,
        owner=membership.user_id, campaign=battle.campaign_id,
        names=dict(view.names), side_names=dict(view.side_names),
        state=battle.snapshot, battle=battle.pk, seq=battle.seq,
    )  # fmt: skip


def setup_job(membership: Membership, campaign, setup: dict, *, simulations: int, seed: int):
    """A forecast from an engine setup (the set-up page's, before any battle exists)."""
    system = get_battle_system(campaign.rule_system)
    state = system.start(setup, seed)
    sketch = Battle(campaign=campaign, system=campaign.rule_system, setup=setup, seed=seed,
                    snapshot=state.to_dict(), name="")  # fmt: skip
    view = battle_view(sketch, GM)
    return Job(
        system=campaign.rule_system, seed=seed, simulations=simulations,
        owner=membership.user_id, campaign=campaign.pk,
        names=dict(view.names), side_names=dict(view.side_names), setup=setup,
    )  # fmt: skip


# --- what the page and the API show ---------------------------------------------------------

FLAG_ORDER = ("routed", "destroyed", "defeated", "fled", "retreated", "eliminated", "deserted",
              "broken", "captured", "down", "dead", "unconscious")  # fmt: skip


def seen_by(membership: Membership, battle: Battle):
    """(names, side names, sees(force) -> bool) of the battle as `membership` reads it: a
    shared forecast names what the member may name and hides the numbers (HP, TS…) of the
    forces whose numbers the member does not see on the board."""
    view = member_view(membership, battle)

    def sees(force: dict) -> bool:
        if view.gm:
            return True
        try:
            return bool(view.sees(force["key"]))
        except (KeyError, TypeError, ValueError, AttributeError, NotImplementedError,
                StopIteration):  # fmt: skip
            return force["side"] in view.viewpoint.sides

    return dict(view.names), dict(view.side_names), sees


def for_member(membership: Membership, battle: Battle, data: dict[str, Any]) -> dict:
    """The forecast of `battle` (`Forecast.to_dict()`) for the page, as `membership` reads
    it (`seen_by`)."""
    names, side_names, sees = seen_by(membership, battle)
    return presented(data, names, side_names, sees)


def hide_unseen(data: dict[str, Any], sees) -> dict[str, Any]:
    """The forecast's dict with the numbers of the forces `sees` refuses taken out (the
    API's answer to a player of a shared forecast): their chances stay."""
    forces = []
    for force in data["forces"]:
        if not sees(force):
            force = {**force, "start": None, "left": None, "values": {}, "histogram": []}
        forces.append(force)
    return {**data, "forces": forces}


def presented(
    data: dict[str, Any], names: dict[str, str], side_names: dict[str, str], sees=None
) -> dict:
    """The forecast (`Forecast.to_dict()`) with names and percentages for the page, the SVG
    chart's geometry included (bars in a 0..100 box); `sees(force)`: whether the reader sees
    a force's numbers (None: all)."""
    sides = []
    for odds in data["sides"]:
        key = odds["side"]
        sides.append({
            "key": key,
            "name": side_names.get(key) or names.get(key) or key,
            "win": _pct(odds["win"]), "low": _pct(odds["interval"]["low"]),
            "high": _pct(odds["interval"]["high"]),
            "loss": _pct(odds["loss"]), "loss_low": _pct(odds["loss_interval"]["low"]),
            "loss_high": _pct(odds["loss_interval"]["high"]),
            "score": odds.get("score"),
        })  # fmt: skip
    forces = []
    for force in data["forces"]:
        hidden = sees is not None and not sees(force)
        start = force["start"] or 0
        chances = [(flag, _pct(value)) for flag, value in sorted(
            force["chances"].items(), key=lambda item: _flag_rank(item[0]))]  # fmt: skip
        forces.append({
            "key": force["key"],
            "name": names.get(force["key"], force["key"]),
            "side": side_names.get(force["side"], force["side"]),
            "side_key": force["side"],
            "kind": force["kind"],
            "measure": force["measure"],
            "start": _round(start),
            "left": _round(force["left"]),
            "left_pct": _pct(force["left"] / start) if start else 0,
            "chances": chances,
            "values": [(name, _round(value)) for name, value in sorted(force["values"].items())],
            "hidden": hidden,
        })  # fmt: skip
        if hidden:
            forces[-1].update(start=None, left=None, left_pct=0, values=[])
    draw = {"win": _pct(data["draw"]), "low": _pct(data["draw_interval"]["low"]),
            "high": _pct(data["draw_interval"]["high"])}  # fmt: skip
    return {
        "simulations": data["simulations"],
        "seed": data["seed"],
        "sides": sides,
        "draw": draw,
        "unfinished": data["unfinished"],
        "rounds": _round(data["rounds"]),
        "rounds_unit": data["rounds_unit"],
        "max_rounds": data["max_rounds"],
        "bar": _odds_bar(sides, draw),
        "lengths": _length_chart(data["lengths"], [s["key"] for s in sides]),
        "forces": forces,
    }


def _pct(value: float) -> float:
    return round(100 * value, 1)


def _round(value: float) -> float:
    return round(value, 1)


def _flag_rank(flag: str) -> int:
    return FLAG_ORDER.index(flag) if flag in FLAG_ORDER else len(FLAG_ORDER)


def _odds_bar(sides: list[dict], draw: dict) -> list[dict]:
    """The odds bar's segments: side A's wins, draws, side B's wins (x and width in %)."""
    segments, x = [], 0.0
    parts = [(sides[0], "a")] if sides else []
    parts.append(({"name": None, "win": draw["win"]}, "draw"))
    parts += [(side, f"side-{i}") for i, side in enumerate(sides[1:], 1)]
    for side, css in parts:
        width = side["win"]
        segments.append({"x": round(x, 2), "width": width, "css": css, "name": side["name"],
                         "pct": width})  # fmt: skip
        x += width
    return segments


CHART_WIDTH, CHART_HEIGHT = 600, 150


def _length_chart(lengths: list[dict], sides: list[str]) -> dict:
    """The histogram of the battles' length: one stacked bar per number of rounds (days)
    some battle lasted, in a CHART_WIDTH × CHART_HEIGHT box (the tallest bar full height),
    labels below; where lengths no battle had are left out between two bars (13, then 20),
    a gap mark stands between their labels (`gap_x`), so the axis is not read as even."""
    if not lengths:
        return {"bars": [], "width": CHART_WIDTH, "height": CHART_HEIGHT}
    tallest = max(sum(bar["counts"].values()) for bar in lengths) or 1
    order = [*sides, "draw"]
    width = CHART_WIDTH / len(lengths)
    bars, previous = [], None
    for index, bar in enumerate(lengths):
        gap = previous is not None and bar["rounds"] - previous > 1
        previous = bar["rounds"]
        y, parts = float(CHART_HEIGHT), []
        for key in order:
            count = bar["counts"].get(key, 0)
            if not count:
                continue
            height = CHART_HEIGHT * count / tallest
            y -= height
            css = "draw" if key == "draw" else ("a" if key == order[0] else "side-1")
            parts.append({"y": round(y, 2), "height": round(height, 2), "css": css,
                          "count": count, "key": key})  # fmt: skip
        bars.append({"x": round(index * width + width * 0.1, 2), "width": round(width * 0.8, 2),
                     "middle": round(index * width + width / 2, 2), "rounds": bar["rounds"],
                     "parts": parts, "total": sum(bar["counts"].values()),
                     "gap_x": round(index * width, 2) if gap else None})  # fmt: skip
    return {"bars": bars, "width": CHART_WIDTH, "height": CHART_HEIGHT,
            "label_y": CHART_HEIGHT + 16, "label_every": max(1, len(bars) // 20)}  # fmt: skip
