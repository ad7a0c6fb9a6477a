"""An app process freezes its start-up heap (`warfare.heap`): the ASGI and WSGI applications,
once loaded, leave the garbage collector only what requests make to walk."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PROBE = """
import gc, sys
import warfare.{module}
frozen = gc.get_freeze_count()
tracked = len(gc.get_objects())
print(frozen, tracked)
"""


@pytest.mark.parametrize("module", ["asgi", "wsgi"])
def test_the_loaded_application_leaves_its_start_up_frozen(module):
    env = {**os.environ, "DEBUG": "true", "DJANGO_SETTINGS_MODULE": "warfare.settings.base"}
    run = subprocess.run(  # noqa: S603 - this interpreter running our own module
        [sys.executable, "-c", PROBE.format(module=module)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    frozen, tracked = map(int, run.stdout.split())
    assert frozen > 20_000  # Django and the apps: moved to the permanent generation
    assert tracked < frozen / 10  # what a full collection still walks
