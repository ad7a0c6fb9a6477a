"""The battle's snapshot compressed with LZ4 rather than PostgreSQL's default pglz: every board
action writes it again (a Pathfinder snapshot is ~10 KB of JSON), and LZ4 compresses it in
about a third of pglz's time, for a few hundred bytes more (`bench/README.md`). A server built
without LZ4 keeps pglz; other databases have no such setting. A row keeps the compression it
was written with until its next write."""

from django.db import migrations

LZ4 = """
DO $$
BEGIN
    ALTER TABLE battles_battle ALTER COLUMN snapshot SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
    NULL;
END
$$;
"""
PGLZ = "ALTER TABLE battles_battle ALTER COLUMN snapshot SET COMPRESSION pglz;"


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [
        ("battles", "0004_events_in_order"),
    ]

    operations = [
        migrations.RunPython(_on_postgresql(LZ4), _on_postgresql(PGLZ), elidable=False),
    ]
