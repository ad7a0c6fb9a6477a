"""One user action, one transaction, and one lock order for every service.

**The lock order.** A service that locks rows (`SELECT … FOR NO KEY UPDATE`) takes them in
this order, skipping the levels it does not need, and never goes back up:

1. the campaign row (`access_campaign(..., lock=True)`);
2. kingdoms / factions (and their children that are not forces: command staff, a recruitment
   in progress), several of them in primary-key order;
3. the forces: Pathfinder armies, GURPS forces with their units and characters, D&D 5e
   armies with their units and solos, several of them in primary-key order;
4. the battle row (`battles.services`), last.

A `select_for_update` over joined rows locks every joined table unless `of=("self",)` says
which: lock one level per statement.

Two services following it can wait for each other but never deadlock: the kingdom turn
(campaign → kingdom → its armies) and an army activity (kingdom → the army) used to take the
kingdom and the army in opposite orders, and PostgreSQL broke the deadlock with an error.

**One statement.** A write that is a single statement (the board action's, `battles.services`)
needs no `atomic`: outside one, PostgreSQL runs it as its own transaction, all of it or none,
and its `UPDATE` takes the row's lock as `FOR NO KEY UPDATE` does, at the same place in the
order (`write_statement`).

**Retry.** A deadlock or serialization failure that still happens (another order somewhere,
a lock taken by the database itself) rolls the whole transaction back: `write_transaction`
runs it once more, and if that fails too raises `Contention`, which pages and the API answer
with 409 (warfare.middleware). Only the outermost transaction retries: inside another one the
locks already held would meet the same conflict again.
"""

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import OperationalError, connection, transaction

P = ParamSpec("P")
R = TypeVar("R")


class Contention(Exception):
    """The database could not serialise this write with another one, even when retried:
    nothing was saved (HTTP 409, "try again")."""


#: SQLSTATEs of a transaction the database rolled back because of another one: class 40
#: (serialization failure 40001, deadlock 40P01, …) and a lock not granted (55P03).
CONTENTION_STATES = ("40", "55P03")


def is_contention(error: BaseException) -> bool:
    """A deadlock, a serialization failure or a lock not granted: the database rolled the
    transaction back because of another one, not because it is unreachable."""
    state = getattr(error.__cause__, "sqlstate", None) or getattr(error, "sqlstate", None) or ""
    return state.startswith(CONTENTION_STATES)


def write_transaction(func: Callable[P, R]) -> Callable[P, R]:
    """`transaction.atomic` for a service, retried once after a deadlock or serialization
    failure when it is the outermost transaction; then `Contention`."""
    return _retried(func, atomic=True)


def write_statement(func: Callable[P, R]) -> Callable[P, R]:
    """For a write that is one SQL statement, which PostgreSQL runs as its own transaction
    outside `atomic` (no `BEGIN`, no `COMMIT` round trip; inside a caller's transaction it is
    part of that one): retried once after a deadlock or serialization failure when it is not
    inside a transaction; then `Contention`. `func` may read before its statement, never
    write before it (a retry would write twice)."""
    return _retried(func, atomic=False)


def _retried(func: Callable[P, R], *, atomic: bool) -> Callable[P, R]:
    @functools.wraps(func)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        attempts = 1 if connection.in_atomic_block else 2
        for attempt in range(1, attempts + 1):
            try:
                if not atomic:
                    return func(*args, **kwargs)
                with transaction.atomic():
                    return func(*args, **kwargs)
            except OperationalError as error:
                if not is_contention(error):
                    raise
                if attempt == attempts:
                    raise Contention(str(error)) from error
        raise AssertionError("unreachable")  # pragma: no cover

    return run
