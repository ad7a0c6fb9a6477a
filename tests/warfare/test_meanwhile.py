"""`warfare.meanwhile.statement_meanwhile`: one statement waited for on a helper thread, on
the request's own connection, while the request's thread works (a board action draws its
answer so: `battles.rendering.Answer`)."""

import threading

import pytest
from django.db import DatabaseError, connection

from tests.backends import running
from warfare.meanwhile import statement_meanwhile

pytestmark = pytest.mark.django_db


def test_the_work_runs_while_the_statement_is_out_and_its_row_comes_back():
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    seen = []

    def work():
        seen.append((threading.current_thread() is threading.main_thread(), running(pid)))

    row = statement_meanwhile("SELECT 41 + 1, pg_sleep(0.3)::text", [], work)
    assert row == (42, "")
    assert seen == [(True, "SELECT 41 + 1, pg_sleep(0.3)::text")]  # the statement in flight
    with connection.cursor() as cursor:  # the connection as usable as before
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_the_database_used_by_the_work_waits_for_the_statement():
    """psycopg serialises a connection's uses: a query of the work runs after the statement,
    and sees what it wrote (here in the test's transaction)."""
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMPORARY TABLE meanwhile_probe (n integer)")
    found = []

    def work():
        with connection.cursor() as cursor:
            cursor.execute("SELECT n FROM meanwhile_probe")
            found.extend(cursor.fetchall())

    sql = "INSERT INTO meanwhile_probe SELECT 7 FROM pg_sleep(0.2) RETURNING n"
    assert statement_meanwhile(sql, [], work) == (7,)
    assert found == [(7,)]


def test_an_error_of_the_statement_is_raised_once_the_work_is_done():
    done = []
    with pytest.raises(DatabaseError, match="division by zero"):
        statement_meanwhile("SELECT 1 / 0", [], lambda: done.append(True))
    assert done == [True]
    assert not connection.allow_thread_sharing  # given back to this thread alone
