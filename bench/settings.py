"""The benchmarks' settings: the test settings with the bare logged-in view mounted
(`bench.urls`), the floor every board request pays."""

from warfare.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench.urls"
