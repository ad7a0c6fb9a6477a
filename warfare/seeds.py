"""Where the dice seeds of battles and army activities come from: the operating system's
randomness (`secrets`). The test suite draws them instead from a generator seeded with each
test's name (tests/conftest.py), so a test rolls the same dice on every run and a failure
seen once is seen again."""

import secrets

#: The source of random bits (`secrets.randbits`; the tests put their own in).
draw = secrets.randbits


def new_seed(bits: int) -> int:
    """A new seed of `bits` random bits."""
    return draw(bits)
