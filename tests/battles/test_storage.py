"""How PostgreSQL keeps the battle tables (migrations 0004 and 0005): the events indexed in
their order per battle, the snapshot, written again by every action, compressed with LZ4."""

import pytest
from django.db import connection

from battles.models import Battle, BattleEvent

pytestmark = pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's catalog")


def _indexes(table: str) -> dict[str, str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = %s", [table])
        return dict(cursor.fetchall())


@pytest.mark.django_db
def test_a_battles_events_are_indexed_with_their_id_and_not_by_the_battle_alone():
    indexes = _indexes(BattleEvent._meta.db_table)
    assert "(battle_id, id)" in indexes["battle_events_in_order"]
    by_battle_alone = [name for name, sql in indexes.items() if sql.endswith("(battle_id)")]
    assert by_battle_alone == []  # the composite index serves those look-ups (and cascades)


@pytest.mark.django_db
def test_the_snapshot_is_compressed_with_lz4():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attcompression FROM pg_attribute "
            "WHERE attrelid = %s::regclass AND attname = 'snapshot'",
            [Battle._meta.db_table],
        )
        assert cursor.fetchone() == ("l",)
