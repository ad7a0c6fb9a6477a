"""What the database benchmarks share: Django set up on the bench settings, a scratch
database (created, migrated and dropped afterwards), the median and 95th percentile."""

import itertools
import os
import secrets
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def setup_django() -> None:
    """Django on `bench.settings` (the test settings, plus the bare logged-in view)."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
    import django

    django.setup()


@contextmanager
def scratch_database(name: str) -> Iterator[None]:
    """A fresh database `<DATABASE_URL's name>_<name>` for the run, dropped afterwards (its
    own name per benchmark and branch: benchmarks of one machine's worktrees run side by
    side), and this run's keys taken out of the cache."""
    from django.db import connection

    from tests.caches import clear_cache

    connection.settings_dict.setdefault("TEST", {})["NAME"] = (
        f"{connection.settings_dict['NAME']}_{name}"
    )
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    clear_cache()
    try:
        yield
    finally:
        clear_cache()
        connection.creation.destroy_test_db(old_name, verbosity=0)


def analyze() -> None:
    """The planner's statistics of the tables just filled (PostgreSQL's `ANALYZE`), as a
    database in use has them (autovacuum): without them, the few seconds of a set-up leave
    it planning for empty tables."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


def median(values: list[float]) -> float:
    return statistics.median(values)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def fixed_seeds(first: int) -> None:
    """The battles' seeds (`secrets.randbits`: the demo battles', a set-up's) drawn as
    `first`, `first` + 1, …: every run plays and measures the same battles, so two versions
    of the code compare, and a run cannot draw a battle the benchmark cannot play on."""
    from warfare import seeds as battle_seeds

    seeds = itertools.count(first)
    secrets.randbits = battle_seeds.draw = lambda bits: next(seeds)
