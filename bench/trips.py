"""What one board action costs, counted rather than timed (issue 13): the database round
trips (each statement, `BEGIN` and `COMMIT` included: Django logs them), the cache round trips
and the Python function calls of `--actions` actions per system, each sent like a click from
the board of the 10-command battle of `bench/board.py` (rendered just before, as a member's
board is, its selection sent along) and taken back afterwards (not counted). The battles'
seeds are fixed, so two versions of the code play and count the same battles; the median
time of the action and of its answer's render (`views._board_response`) are printed too
(profiled, and noisy on a shared machine).

Usage: DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/trips.py
       [--actions 10] [--sql] [--profile N] [--sort tottime] [--phases]
       [SYSTEM...]

`--sql` prints the statements of the last action with their median time, and where each cache
command came from; `--profile N` the N functions of most cumulative time (cProfile). On a
shared machine the counts, unlike the times, do not depend on the load. (`bench.settings`
counts no renders, as production: `BOARD_RENDER_COUNT` would add an INCR to each.)
"""

import argparse
import cProfile
import logging
import pstats
import statistics
import sys
import time
import traceback
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.board import (  # noqa: E402
    _DATA_SEL,
    SYSTEMS,
    copy_battle,
    demo_battles,
    form_post,
    prepare,
    reset,
)
from bench.common import analyze, fixed_seeds, scratch_database, setup_django  # noqa: E402


class _Durations(logging.Handler):
    """The duration (s) of each statement Django logs (`django.db.backends`, DEBUG)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.durations: list[float] = []

    def emit(self, record: logging.LogRecord) -> None:
        if hasattr(record, "duration"):
            self.durations.append(record.duration)


@contextmanager
def statement_times():
    """The durations of the statements run meanwhile, with Django's queries log on."""
    handler, logger = _Durations(), logging.getLogger("django.db.backends")
    saved = logger.level, logger.handlers, logger.propagate
    logger.handlers, logger.propagate = [handler], False
    logger.setLevel(logging.DEBUG)
    try:
        yield handler.durations
    finally:
        logger.setLevel(saved[0])
        logger.handlers, logger.propagate = saved[1], saved[2]


@contextmanager
def cache_trips(*, trace: bool = False):
    """The cache commands sent meanwhile (a list the block can read): every command, or
    pipeline, that redis-py writes to its socket, named by its first command (`trace`: and
    the project's code that sent it)."""
    from redis.connection import AbstractConnection

    commands: list[str] = []
    original = AbstractConnection.send_packed_command

    def send(self, command, check_health=True):
        packed = command if isinstance(command, list | tuple) else [command]
        head = b"".join(bytes(part) for part in packed)[:80].split(b"\r\n")
        name = head[2].decode(errors="replace") if len(head) > 2 else "?"
        commands.append(f"{name} ({_caller()})" if trace else name)
        return original(self, command, check_health)

    AbstractConnection.send_packed_command = send
    try:
        yield commands
    finally:
        AbstractConnection.send_packed_command = original


def _caller() -> str:
    """The innermost frame of this project (not a library) that led to a cache command."""
    root = str(Path(__file__).resolve().parent.parent)
    for frame in reversed(traceback.extract_stack()[:-3]):
        if frame.filename.startswith(root) and "/.venv/" not in frame.filename:
            return f"{Path(frame.filename).relative_to(root)}:{frame.lineno} {frame.name}"
    return "django"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", default=list(SYSTEMS))
    parser.add_argument("--actions", type=int, default=10)
    parser.add_argument("--sql", action="store_true")
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--sort", default="cumulative", help="the profile's order (pstats)")
    parser.add_argument("--phases", action="store_true", help="time the action's parts")
    args = parser.parse_args()
    setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from battles import views
    from kingdoms.demo import demo_accounts
    from warfare import heap

    fixed_seeds(1000)
    answer_ms: list[float] = []
    board_response = views._board_response

    def timed_response(*arguments, **options):
        start = time.perf_counter()
        try:
            return board_response(*arguments, **options)
        finally:
            answer_ms.append((time.perf_counter() - start) * 1000)

    views._board_response = timed_response
    phases = _timed_phases() if args.phases else {}
    with scratch_database("bench_trips"):
        demos = demo_battles()
        client = Client()
        client.force_login(demo_accounts()[0])
        for system in args.systems:
            board = prepare(copy_battle(demos[system]), 10)
            analyze()
            heap.freeze()  # (as a loaded app process has it, and `bench/board.py`)
            battle = board.battle
            board_url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
            act_url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
            htmx = {"HTTP_HX_REQUEST": "true"}
            queries, trips, times, wall = [], [], [], []
            answer_ms.clear()
            profile = cProfile.Profile()
            last_sql: list[str] = []
            for _ in range(args.actions + 1):  # the first one warms up
                response = client.get(board_url, **htmx)
                assert response.status_code == 200
                found = _DATA_SEL.search(response.content.decode())
                headers = {**htmx, "HTTP_X_BOARD_SEL": found[1]} if found else htmx
                with (
                    cache_trips(trace=args.sql) as commands,
                    CaptureQueriesContext(connection) as captured,
                    statement_times() as durations,
                ):
                    start = time.perf_counter()
                    _TIMING.append(True)
                    if not args.phases:  # (the profiler would slow what is timed)
                        profile.enable()
                    response = client.post(act_url, **form_post(board), **headers)
                    profile.disable()
                    _TIMING.clear()
                    wall.append((time.perf_counter() - start) * 1000)
                sql = [query["sql"] for query in captured.captured_queries]
                times.append(list(durations))
                assert response.status_code == 200, (system, response.status_code)
                queries.append(sql)
                trips.append(list(commands))
                last_sql = sql
                reset(board)
                if len(queries) == 1:  # the warm-up
                    profile = cProfile.Profile()
                    for spent in phases.values():
                        spent.clear()
            profile.create_stats()
            stats = pstats.Stats(profile) if profile.stats else None  # type: ignore[attr-defined]
            print(f"\n== {system}: {args.actions} actions ({board.command.kind})")
            print(f"database round trips per action: {_counts(queries[1:])}")
            print(f"cache round trips per action: {_counts(trips[1:])}")
            print(f"  cache commands: {dict(Counter(c.split()[0] for t in trips[1:] for c in t))}")
            traced = " (cache commands traced: more calls)" if args.sql else ""
            if stats is not None:
                calls = stats.total_calls  # type: ignore[attr-defined]
                print(f"Python function calls per action: {calls // args.actions}{traced}")
            profiled = "not profiled" if stats is None else "profiled"
            print(f"median ms ({profiled}): the action {statistics.median(wall[1:]):.1f}, "
                  f"its answer's render {statistics.median(answer_ms[1:]):.1f}; the slowest "
                  f"actions {', '.join(f'{ms:.1f}' for ms in sorted(wall[1:])[-3:])}")  # fmt: skip
            if args.sql:
                same = [
                    t
                    for q, t in zip(queries[1:], times[1:], strict=True)
                    if len(q) == len(last_sql)
                ]
                for index, statement in enumerate(last_sql):
                    ms = statistics.median(t[index] for t in same) * 1000
                    print(f"    {ms:5.2f} ms  {statement[:130]}")
                for command in trips[-1]:
                    print("    cache:", command)
            if args.phases:
                _print_phases(phases, args.actions)
            if args.profile and stats is not None:
                stats.sort_stats(args.sort).print_stats(args.profile)


#: The parts of an action `--phases` times (unprofiled, each call's wall time): module,
#: function, as they are looked up when called (so a view's own call is timed).
PHASES = (
    ("battles.access", "_read_with_user"),  # the access check with the user (a board view's)
    ("battles.services", "access_battle"),
    ("battles.services", "_act"),
    ("battles.services", "_write_act"),
    ("battles.live", "_notify"),
    ("battles.rendering", "board_context"),
    ("battles.rendering", "render_to_string"),
    ("battles.rendering", "changed_fragments"),
    ("battles.rendering", "key_reads"),
    ("battles.rendering", "_render_once"),
    ("battles.rendering", "messages_oob"),
    ("battles.rendering", "board_html_after"),
    ("battles.views", "ActForm"),
    ("battles.live", "remember_seq"),
    ("battles.views", "_board_response"),
    ("battles.templatetags.board_fragments", "key"),
    ("battles.templatetags.board_fragments", "drawn_once"),
    ("battles.rendering", "exchange"),
)


_TIMING: list[bool] = []
"""Not empty while the action is sent (the board's GET before it is not timed)."""


def _timed_phases() -> dict[str, list[float]]:
    """Wrap each of `PHASES` to add up its wall time per action (ms)."""
    import importlib

    spent: dict[str, list[float]] = {}
    for module_name, name in PHASES:
        module = importlib.import_module(module_name)
        original = getattr(module, name)
        times = spent.setdefault(name, [])

        def timed(*arguments, _original=original, _times=times, **options):
            if not _TIMING:
                return _original(*arguments, **options)
            start = time.perf_counter()
            try:
                return _original(*arguments, **options)
            finally:
                _times.append((time.perf_counter() - start) * 1000)

        setattr(module, name, timed)
    return spent


def _print_phases(phases: dict[str, list[float]], actions: int) -> None:
    print("time per action in its parts (ms, mean of the actions, a part's calls added up):")
    for name, times in phases.items():
        if times:
            print(f"    {name:20} {sum(times) / actions:6.2f}  ({len(times) / actions:.0f} calls)")
        times.clear()


def _counts(per_action: list[list]) -> str:
    counts = sorted({len(one) for one in per_action})
    return f"{counts[0]}-{counts[-1]}" if len(counts) > 1 else str(counts[0])


if __name__ == "__main__":
    main()
