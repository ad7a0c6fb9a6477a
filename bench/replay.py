"""Replay benchmark: the time to replay 10,000 events per rule system (issue 13's goal: ≤ 1 s).

Usage: python bench/replay.py [--events 10000] [--repeat 5] [SYSTEM...]

Battles of the benchmark scenarios (`bench/scenarios.py`) are played to their end by the
auto-play policies (seeds 0, 1, 2…), as many as it takes to reach `--events` events (an event
log of real battles: every strategy, strike, rout check, casualty and roll); then their stored
commands are replayed from set-up + seed (`warfare.engine.battle.protocol.replay`, what undo
and the board's check do) and timed, best of `--repeat` (the machine is shared).
"""

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOAL = 1.0  # seconds per 10,000 events


def build(system, events: int):
    """[(setup, seed, commands)] of policy-played battles with at least `events` events."""
    from bench.scenarios import scenario
    from warfare.engine.battle.autoplay import autoplay
    from warfare.engine.battle.protocol import command_dice

    setup, base = scenario(system.key)
    battles, total, n = [], 0, 0
    while total < events:
        seed = base + n
        state = system.start(setup, seed)
        total += len(system.start_events(state))
        commands = []
        for step in autoplay(system, state, lambda p, s=seed: command_dice(s, p)):
            commands.append(step.command)
            total += len(step.events)
        battles.append((setup, seed, commands))
        n += 1
    return battles, total


def main() -> None:
    from warfare.engine.battle.protocol import replay
    from warfare.engine.battle.registry import BATTLE_SYSTEMS

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("systems", nargs="*", default=list(BATTLE_SYSTEMS))
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"replay of >= {args.events} events, best of {args.repeat}")
    print(f"{'system':8} {'battles':>7} {'commands':>8} {'events':>7} {'best s':>7} "
          f"{'s/10k ev':>8} {'goal':>5}  result")  # fmt: skip
    reached = True
    for key in args.systems:
        system = BATTLE_SYSTEMS[key]
        battles, events = build(system, args.events)
        commands = sum(len(b[2]) for b in battles)
        best = None
        for _ in range(args.repeat):
            start = time.process_time()
            for setup, seed, log in battles:
                replay(system, setup, seed, log)
            elapsed = time.process_time() - start
            best = elapsed if best is None else min(best, elapsed)
        per = best / events * 10_000
        ok = per <= GOAL
        reached &= ok
        print(f"{key:8} {len(battles):>7} {commands:>8} {events:>7} {best:7.3f} {per:8.3f} "
              f"{GOAL:5.1f}  {'goal reached' if ok else 'GOAL MISSED'}")  # fmt: skip
    sys.exit(0 if reached else 1)


if __name__ == "__main__":
    main()
