"""One SQL statement waited for on a helper thread while the request's own thread works.

A board action's write is one statement (`battles.services.ACT_SQL`) of which most of the
time is PostgreSQL's: running it, checking its foreign keys, committing. The answer drawn
after it (the new board) needs only what the action computed, not the database: so the
statement is sent, and waited for, by a helper thread on the request's own connection, and
the new board drawn meanwhile (`statement_meanwhile`); what depends on the write being done
(the board kept for others, the polls and streams told) comes after.

Safe by construction: the helper uses the request's connection (Django's thread sharing,
for the statement's duration) and psycopg serialises every use of a connection under its
lock, so were the work to need the database it would wait for the statement, not run
beside it. The GIL is handed to the helper until it has sent the statement (`started`): it
then waits for PostgreSQL without it, while the work runs here."""

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

from django.db import DEFAULT_DB_ALIAS, connections

from warfare.compiled import prepared_cursor

#: The helper threads (a few: a threaded server's requests may each have a statement out).
_HELPERS = ThreadPoolExecutor(max_workers=4, thread_name_prefix="statement-meanwhile")


def statement_meanwhile(sql: str, params, work: Callable[[], None]) -> tuple | None:
    """The first row of `sql` with `params`, run on this thread's database connection while
    `work()` runs on this one; an error of the statement is raised once `work` is done. The
    statement is done (or failed) when this returns, and no other thread uses the connection
    any more; an error of `work` is raised then too (the statement may have been done: the
    caller's `work` should not fail, `battles.rendering.Answer.draw` does not)."""
    db = connections[DEFAULT_DB_ALIAS]  # (this thread's: the helper's own is another)
    db.ensure_connection()
    started = threading.Event()
    db.inc_thread_sharing()
    try:
        future = _HELPERS.submit(_first_row, db, sql, params, started)
        started.wait()  # (the GIL given up until the helper runs: it sends, then waits)
        try:
            work()
        finally:
            row = future.result()
    finally:
        db.dec_thread_sharing()
    return row


def _first_row(db, sql: str, params, started: threading.Event) -> tuple | None:
    started.set()
    with prepared_cursor(db) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()
