"""Army pages cost a fixed number of queries, whatever the number of armies and log entries."""

import pytest
from django.urls import reverse

from tests.factories import SettlementFactory
from warfare.systems.pf2e import services
from warfare.systems.pf2e.models import Kingdom, Recruitment


def _army(world, gm, faction, name):
    return services.army_create(user=gm, campaign_id=world.pk, faction_id=faction.pk, name=name,
                                army_type="infantry", tactics=("keen_eyed",), hex="C7")  # fmt: skip


PAGES = {
    "army-detail": (lambda w, a, r: reverse("pf2e:army-detail", args=[w.pk, a.pk]), 9),
    "army-activity": (lambda w, a, r: reverse("pf2e:army-activity", args=[w.pk, a.pk]), 8),
    "recruit-start": (
        lambda w, a, r: reverse("pf2e:recruit-start", args=[w.pk, a.faction_id]),
        8,
    ),
    "recruit-step": (lambda w, a, r: r.get_absolute_url(), 9),
}


@pytest.mark.parametrize("page", PAGES)
def test_army_page_queries_do_not_grow(
    client, world, gm, kingdom_faction, page, django_assert_max_num_queries
):
    Kingdom.objects.filter(faction=kingdom_faction).update(level=3)
    SettlementFactory(faction=kingdom_faction, name="Ford", hex="C7")
    army = _army(world, gm, kingdom_faction, "First")
    recruitment = services.recruitment_start(
        user=gm, campaign_id=world.pk, faction_id=kingdom_faction.pk, army_type="infantry"
    )
    build, limit = PAGES[page]
    url = build(world, army, recruitment)
    client.force_login(gm)

    def count():
        with django_assert_max_num_queries(limit) as captured:
            assert client.get(url).status_code == 200
        return len(captured.captured_queries)

    few = count()
    for i in range(6):
        _army(world, gm, kingdom_faction, f"Extra {i}")
        army.refresh_from_db()
        services.army_adjust_condition(
            user=gm,
            campaign_id=world.pk,
            army_id=army.pk,
            condition="weary",
            delta=1 if i % 2 == 0 else -1,
            version=army.version,
        )
    assert Recruitment.objects.count() == 1
    assert count() == few
