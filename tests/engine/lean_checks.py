"""What the equality tests of the lean play-outs share (each system's `test_*simulation.py`):
a system's lean `play_out` against the forecast's generic loop from the same state and seed."""

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

from warfare.engine.battle import forecast

FIXTURES = Path(__file__).resolve().parents[2] / "bench" / "fixtures"


def generic(system: Any) -> Any:
    """The same system without its lean play-out: the forecast's generic loop."""
    return dataclasses.replace(system, play_out=None)


def both(system: Any, state: Any, seed: int, max_rounds: int = forecast.MAX_ROUNDS):
    """(the lean play-out's last state, the generic loop's) from `state` with dice from `seed`."""
    lean = system.play_out(state, random.Random(seed), max_rounds)
    full = forecast._play_out(generic(system), state, random.Random(seed), max_rounds)
    return lean, full


def demo_setup(system_key: str) -> dict:
    """The set-up of a system's demo battle as `make run` makes it (bench/fixtures)."""
    return json.loads((FIXTURES / f"{system_key}_demo.json").read_text())["setup"]
