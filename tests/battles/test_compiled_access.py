"""`warfare.compiled.CompiledQuery` (issue 13): the board's access check, compiled once, gives
what the queryset it was compiled from gives — the same row, the same related objects read
with it — in one query, and nothing for another user, campaign or battle."""

import pytest
from django.db import connection
from django.db.models import Q
from django.http import Http404

from battles.services import _member_battle, access_battle
from kingdoms.models import Campaign
from warfare.compiled import CompiledQuery

pytestmark = pytest.mark.django_db


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def test_it_gives_the_querysets_row_with_its_related_objects(
    battle, player, kingdom_faction, django_assert_num_queries
):
    query = CompiledQuery(_member_battle, "user", "campaign", "battle")
    values = {"user": player.pk, "campaign": battle.campaign_id, "battle": battle.pk}
    expected = _member_battle(**values).first()
    query.first(**values)  # compiled on the first call
    with django_assert_num_queries(1):
        found = query.first(**values)
    assert _fields(found) == _fields(expected)
    assert found.snapshot == battle.snapshot and found.setup == battle.setup  # JSON decoded
    assert found.updated_at == battle.updated_at and found.updated_at.tzinfo is not None
    with django_assert_num_queries(0):  # read with it
        assert _fields(found.campaign) == _fields(expected.campaign)
        assert _fields(found.member) == _fields(expected.member)
        assert found.member.user_id == player.pk
        assert found.member.faction == kingdom_faction


def test_another_user_campaign_or_battle_finds_nothing(battle, player, outsider, other_gm):
    query = CompiledQuery(_member_battle, "user", "campaign", "battle")
    values = {"user": player.pk, "campaign": battle.campaign_id, "battle": battle.pk}
    assert query.first(**values) is not None
    for user in (outsider, other_gm):  # not members of the campaign
        assert query.first(**{**values, "user": user.pk}) is None
    other = Campaign.objects.create(name="Elsewhere", created_by=other_gm)
    assert query.first(**{**values, "campaign": other.pk}) is None
    assert query.first(**{**values, "battle": battle.pk + 1000}) is None


def test_access_battle_gives_the_membership_and_the_battle(battle, player, outsider):
    membership, found = access_battle(player, battle.campaign_id, battle.pk)
    assert found == battle and membership.user == player and membership.campaign == found.campaign
    assert not hasattr(found, "member")  # the membership is the caller's
    with pytest.raises(Http404):
        access_battle(outsider, battle.campaign_id, battle.pk)


def test_a_value_the_sql_does_not_name_once_is_refused(battle):
    def twice(*, user):
        return Campaign.objects.filter(Q(pk=user) | Q(created_by=user)).order_by("pk")

    with pytest.raises(ValueError, match="once"):
        CompiledQuery(twice, "user").first(user=battle.created_by_id)


def _prepared() -> list[str]:
    """The statements prepared on this connection (PostgreSQL's `pg_prepared_statements`)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_it_runs_as_a_statement_prepared_once_per_connection(battle, player, settings):
    """Planned once per connection, not at every run (`warfare.compiled.prepared_cursor`); not
    prepared with `DATABASE_PREPARE` off (a pooler sharing server connections)."""
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements: PostgreSQL's")
    query = CompiledQuery(_member_battle, "user", "campaign", "battle")
    values = {"user": player.pk, "campaign": battle.campaign_id, "battle": battle.pk}
    settings.DATABASE_PREPARE = False
    query.first(**values)
    assert not [sql for sql in _prepared() if "battles_battle" in sql]
    settings.DATABASE_PREPARE = True
    found = [query.first(**values) for _ in range(3)]
    assert found[0] == found[1] == found[2] == battle
    assert len([sql for sql in _prepared() if "battles_battle" in sql]) == 1
    assert query.first(**{**values, "user": player.pk + 1000}) is None  # other values, same
