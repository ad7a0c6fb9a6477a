"""What the PostgreSQL server sees of this test's connection, asked from another one."""

import psycopg
from django.db import connection


def running(backend_pid: int) -> str | None:
    """The statement the backend `backend_pid` is running (None: it runs none)."""
    with psycopg.connect(**connection.get_connection_params()) as other:
        row = other.execute(
            "SELECT query FROM pg_stat_activity WHERE pid = %s AND state = 'active'",
            [backend_pid],
        ).fetchone()
    return row[0] if row else None
