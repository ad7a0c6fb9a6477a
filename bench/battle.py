"""Battle board benchmark: action round-trip latency and board render throughput.

Usage: DATABASE_URL=postgres://... python bench/battle.py [--actions N] [--renders N]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "warfare.settings.test")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--actions", type=int, default=40)
    parser.add_argument("--renders", type=int, default=100)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.urls import reverse

    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["NAME"] = "warfare_bench"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from battles import services as battle_services
        from battles.models import Battle
        from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
        from warfare.systems.pf2e import services
        from warfare.systems.pf2e.models import Kingdom

        gm = UserFactory(username="bench-gm")
        campaign = CampaignFactory(created_by=gm)
        MembershipFactory(campaign=campaign, user=gm, role="gm")
        sides = {"a": [], "b": []}
        for side in sides:
            faction = FactionFactory(campaign=campaign)
            Kingdom.objects.filter(faction=faction).update(level=8)
            for i in range(4):
                army = services.army_create(
                    user=gm, campaign_id=campaign.pk, faction_id=faction.pk,
                    name=f"{side}{i}", army_type="infantry", tactics=("keen_eyed",),
                )  # fmt: skip
                sides[side].append(army.pk)
        battle = battle_services.battle_create(
            user=gm, campaign_id=campaign.pk, name="Bench", sides=sides
        )
        client = Client()
        client.force_login(gm)
        act_url = reverse("battles:act", args=[campaign.pk, battle.pk])
        board_url = reverse("battles:board", args=[campaign.pk, battle.pk])

        timings = []
        for _ in range(args.actions):
            battle = Battle.objects.get(pk=battle.pk)
            if battle.status != "active":
                break
            actor = battle.snapshot["order"][battle.snapshot["turn"]]
            data = {"seq": battle.seq, "actor": actor, "kind": "end_turn", "params": "{}"}
            start = time.perf_counter()
            response = client.post(act_url, data, HTTP_HX_REQUEST="true")
            timings.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, response.status_code
        p95 = statistics.quantiles(timings, n=20)[18]
        print(f"action round trip: median {statistics.median(timings):.1f} ms, p95 {p95:.1f} ms "
              f"over {len(timings)} actions")  # fmt: skip

        start = time.perf_counter()
        for _ in range(args.renders):
            assert client.get(board_url, HTTP_HX_REQUEST="true").status_code == 200
        elapsed = time.perf_counter() - start
        print(f"board render: {args.renders / elapsed:.1f} boards/s "
              f"({elapsed / args.renders * 1000:.1f} ms each)")  # fmt: skip
        etag = client.get(board_url, HTTP_HX_REQUEST="true")["ETag"]
        start = time.perf_counter()
        for _ in range(args.renders):
            response = client.get(board_url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
            assert response.status_code == 304
        elapsed = time.perf_counter() - start
        print(f"unchanged board (304): {args.renders / elapsed:.1f} polls/s")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
