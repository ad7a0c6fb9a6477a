"""All the benchmarks (`make bench`), each in its own Python process, one after the other.

Usage: DATABASE_URL=postgres://... [REDIS_URL=redis://...] python bench/run.py [NAME...]

NAME: board, replay, forecast, pages, live (default: all; live only when `bench/live.py`
exists). Each benchmark prints its own table and its goals ("goal reached" / "GOAL MISSED");
at the end a line per benchmark says whether it reached all of its goals (its exit status).
"""

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = {
    "board": ["board.py"],
    "replay": ["replay.py"],
    "forecast": ["forecast.py", "--repeat", "1"],
    "pages": ["pages.py"],
    "live": ["live.py"],
}


def main() -> None:
    names = sys.argv[1:] or list(BENCHMARKS)
    unknown = [name for name in names if name not in BENCHMARKS]
    if unknown:
        sys.exit(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    results = []
    for name in names:
        script, *args = BENCHMARKS[name]
        if not (HERE / script).exists():
            results.append((name, f"not there (bench/{script})", 0.0))
            continue
        print(f"\n===== {name}: bench/{script} {' '.join(args)}", flush=True)
        start = time.perf_counter()
        code = subprocess.call([sys.executable, str(HERE / script), *args])  # noqa: S603
        status = "all goals reached" if code == 0 else f"GOALS MISSED or failed (exit {code})"
        results.append((name, status, time.perf_counter() - start))
    print("\n===== summary")
    for name, status, seconds in results:
        print(f"{name:<9} {status}" + (f"  ({seconds:.0f} s)" if seconds else ""))
    sys.exit(0 if all(status == "all goals reached" for _n, status, _s in results
                      if not status.startswith("not there")) else 1)  # fmt: skip


if __name__ == "__main__":
    main()
