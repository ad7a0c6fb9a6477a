"""What every rule system's lean play-out for the forecast shares (the protocol's optional
`play_out`; each system's `battle/simulation.py`). The dice are `warfare.engine.dice.LeanDice`.
"""

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector waits while a simulated battle is played: a simulation
    makes no reference cycles (a forecast's collections found nothing to free), yet its
    thousands of short-lived states would set off collections that walk the engines' caches
    (a tenth of the time). Afterwards what the battle left alive goes to the oldest
    generation unexamined (`freeze` empties the young generations, `unfreeze` hands them all
    to the oldest), so the collection the counts then call for walks nothing either."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.freeze()
            gc.unfreeze()
            gc.enable()
