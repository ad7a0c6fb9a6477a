"""What one board action costs, counted rather than timed (issue 13): Python function calls
(cProfile), queries and cache round trips per action, for the 10-command battle of each rule
system, on fixed seeds (the same battles in every run, so two versions of the code compare).

Usage: DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/action_counts.py
       [--actions 10] [--trips] [SYSTEM...]

Set up like `bench/board.py` (its demo battles, played on by its policies), in a scratch
database; each action is sent from the board just drawn (GET, not counted) with the
policy's command, then taken back. Printed per system: calls, queries and cache round trips
per action (the mean), the median wall time of the action and of its answer's render
(`views._board_response`), both noisy on a shared machine; `--trips`: the cache commands of
the first action and where they come from.
"""

import argparse
import cProfile
import itertools
import pstats
import secrets
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import ROOT, median, scratch_database, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("systems", nargs="*", default=["pf2e", "dnd5e", "gurps4e", "gurps3e"])
    parser.add_argument("--actions", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--trips", action="store_true")
    args = parser.parse_args()
    setup_django()
    import redis
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from battles import views
    from bench import board as bench
    from kingdoms.demo import demo_accounts

    seeds = itertools.count(1000)
    secrets.randbits = lambda bits: next(seeds)  # fixed seeds: the same battles every run
    trips, shown = [], [False]
    send, pipeline = redis.Redis.execute_command, redis.client.Pipeline.execute

    def where() -> str:
        frames = [f for f in traceback.extract_stack()[:-2]
                  if f.filename.startswith(str(ROOT)) and "/.venv/" not in f.filename
                  and not f.filename.endswith("action_counts.py")]  # fmt: skip
        return " / ".join(f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in frames[-2:])

    def command(self, *arguments, **options):
        trips.append(arguments[0])
        if shown[0]:
            print(f"    {arguments[0]:<8} {where()}")
        return send(self, *arguments, **options)

    def pipelined(self, *arguments, **options):
        trips.append("PIPELINE")
        if shown[0]:
            print(f"    PIPELINE {where()}")
        return pipeline(self, *arguments, **options)

    redis.Redis.execute_command, redis.client.Pipeline.execute = command, pipelined
    answer_ms = []
    board_response = views._board_response

    def timed_response(*arguments, **options):
        start = time.perf_counter()
        try:
            return board_response(*arguments, **options)
        finally:
            answer_ms.append((time.perf_counter() - start) * 1000)

    views._board_response = timed_response
    with scratch_database("action_counts"):
        demos = bench.demo_battles()
        client = Client()
        client.force_login(demo_accounts()[0])
        htmx = {"HTTP_HX_REQUEST": "true"}
        for system in args.systems:
            board = bench.prepare(bench.copy_battle(demos[system]), 10)
            battle = board.battle
            board_url = reverse("battles:board", args=[battle.campaign_id, battle.pk])
            act_url = reverse("battles:act", args=[battle.campaign_id, battle.pk])
            profile, queries, round_trips, wall = cProfile.Profile(), 0, 0, []
            answer_ms.clear()
            for index in range(args.warmup + args.actions):
                page = client.get(board_url, **htmx).content.decode()
                found = bench._DATA_SEL.search(page)
                headers = {**htmx, "HTTP_X_BOARD_SEL": found[1]} if found else htmx
                counted = index >= args.warmup
                shown[0] = args.trips and index == args.warmup
                if shown[0]:
                    print(f"{system}: the cache round trips of one action")
                trips.clear()
                with CaptureQueriesContext(connection) as captured:
                    start = time.perf_counter()
                    if counted:
                        profile.enable()
                    response = client.post(act_url, data=bench.form_data(board), **headers)
                    if counted:
                        profile.disable()
                    elapsed = (time.perf_counter() - start) * 1000
                shown[0] = False
                assert response.status_code == 200, (system, response.status_code)
                if counted:
                    queries += len(captured.captured_queries)
                    round_trips += len(trips)
                    wall.append(elapsed)
                bench.reset(board)
            calls = pstats.Stats(profile).total_calls / args.actions
            print(f"{system}: {calls:,.0f} Python calls, {queries / args.actions:.1f} queries, "
                  f"{round_trips / args.actions:.1f} cache round trips per action; median "
                  f"{median(wall):.1f} ms (profiled), its answer's render "
                  f"{median(answer_ms[args.warmup:]):.1f} ms")  # fmt: skip


if __name__ == "__main__":
    main()
