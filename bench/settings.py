"""The benchmarks' settings: the test settings with the bare logged-in view mounted
(`bench.urls`), the floor every board request pays."""

from warfare.settings.test import *  # noqa: F403

ROOT_URLCONF = "bench.urls"

# Production does not count board renders (an INCR in Redis after every render): the board
# benchmarks measure the requests as production serves them (bench/live.py counts them with
# its own servers' `BOARD_RENDER_COUNT=true`).
BOARD_RENDER_COUNT = False
