"""A query the ORM compiles once per database, run again with other values (issue 13).

Building a queryset and compiling it to SQL is most of what a small query costs in Django:
the board's access check (`battles.services.access_battle`: the battle, its campaign and the
user's membership with its faction, one row) took about 4 ms on the 2-core machine, 1.2 ms of
it in PostgreSQL. `CompiledQuery` builds the queryset once with stand-in values, keeps its
SQL, where each stand-in went among the parameters and how Django turns the row into model
instances (the converters of each column, the related objects of `select_related`), and then
only runs the SQL with the request's values: the same statement, the same objects, the same
query count (it runs through Django's cursor wrapper), without the build. On PostgreSQL the
statement is prepared (`prepared_cursor`): planning the access check's join took PostgreSQL
four times what running it takes, and a prepared statement is planned once per connection.

Only for a queryset whose SQL depends on nothing but the values given (no other variable
parts, such as a list whose length changes the SQL), and that names each value once as an
exact match (the stand-ins are found among the parameters).
"""

import functools
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators

#: Stand-in values: numbers no real id is.
_STAND_INS = -7_306_151_000


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple[Any, ...]
    slots: dict[str, int]  # value name: its place among the params
    model: type
    init_list: list[str]
    start: int
    end: int
    width: int  # the selected columns (the rest of a row is not the models')
    converters: dict[int, tuple[list, Any]]
    populators: list
    annotations: dict[str, int]


class CompiledQuery:
    """`build(**values)`, a queryset of at most one row, run as SQL compiled once.

    `first(**values)` is `build(**values).first()` (give the queryset its own order, as
    `first` would add one), without building or compiling it again."""

    def __init__(self, build: Callable[..., QuerySet], *names: str) -> None:
        self._build, self._names = build, names
        self._compiled: dict[str, _Compiled] = {}
        self._lock = threading.Lock()

    def _compile(self, alias: str) -> _Compiled:
        stand_ins = {name: _STAND_INS - i for i, name in enumerate(self._names)}
        queryset = self._build(**stand_ins)[:1]
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        places = {
            name: [i for i, param in enumerate(params) if param == value]
            for name, value in stand_ins.items()
        }
        if any(len(found) != 1 for found in places.values()):
            raise ValueError(f"each value must appear once among the parameters: {places}")
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        start, end = fields[0], fields[-1] + 1
        width = compiler.col_count
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots={name: found[0] for name, found in places.items()},
            model=klass_info["model"],
            init_list=[column[0].target.attname for column in select[start:end]],
            start=start,
            end=end,
            width=width,
            converters=compiler.get_converters([column[0] for column in select[:width]]),
            populators=get_related_populators(klass_info, select, alias),
            annotations=dict(compiler.annotation_col_map or {}),
        )

    def compiled(self, alias: str = "default") -> _Compiled:
        found = self._compiled.get(alias)
        if found is None:
            with self._lock:
                found = self._compiled.get(alias) or self._compile(alias)
                self._compiled[alias] = found
        return found

    def first(self, alias: str = "default", **values: Any):
        """The model instance of the row, as the queryset's `first()` gives it; None when
        there is none."""
        compiled = self.compiled(alias)
        params = list(compiled.params)
        for name, place in compiled.slots.items():
            params[place] = values[name]
        connection = connections[alias]
        with prepared_cursor(connection) as cursor:
            cursor.execute(compiled.sql, params)
            row = cursor.fetchone()
        if row is None:
            return None
        row = list(row[: compiled.width])
        for place, (converters, expression) in compiled.converters.items():
            value = row[place]
            for converter in converters:
                value = converter(value, expression, connection)
            row[place] = value
        instance = compiled.model.from_db(
            alias, compiled.init_list, row[compiled.start : compiled.end]
        )
        for populator in compiled.populators:
            populator.populate(row, instance)
        for name, place in compiled.annotations.items():
            setattr(instance, name, row[place])
        return instance


def prepared_cursor(connection):
    """A cursor of `connection` (Django's, its queries logged and counted as any) that runs
    a statement as a prepared statement on PostgreSQL: planned once per connection, not at
    every run (the access check's join of five tables took PostgreSQL 0.38 ms to plan and
    0.09 ms to run). Elsewhere, and with `settings.DATABASE_PREPARE` off (behind a pooler
    that shares server connections between clients, such as PgBouncer's transaction mode),
    its ordinary cursor."""
    if connection.vendor != "postgresql" or not settings.DATABASE_PREPARE:
        return connection.cursor()
    connection.ensure_connection()
    raw = connection.connection
    if raw.prepare_threshold is None:  # (Django's: none prepared; only those asked for, here)
        raw.prepare_threshold = _ASKED_ONLY
    with connection.wrap_database_errors:
        # (the connection's adapters, its time zone's among them, are the cursor's)
        return connection._prepare_cursor(_preparing_cursor()(raw))


#: A connection's `prepare_threshold` for statements prepared when asked (`prepare=True`),
#: never by count (Django's client-side binding cursors prepare none anyway).
_ASKED_ONLY = 2**31


@functools.cache
def _preparing_cursor() -> type:
    """Django's server-side binding cursor for psycopg, each statement prepared."""
    from django.db.backends.postgresql.base import ServerBindingCursor  # (psycopg's only)

    class PreparingCursor(ServerBindingCursor):
        def execute(self, query, params=None, *, prepare=None, binary=None):
            done = super().execute(query, params, prepare=True, binary=binary)
            if self._query is None:  # (psycopg keeps none for a prepared one; Django logs it)
                self._query = self._convert_query(query, params)
            return done

    return PreparingCursor
