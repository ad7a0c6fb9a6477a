"""Render the main pages of a large campaign and report their time and query count.

Usage: DATABASE_URL=postgres://... python bench/pages.py [--rounds N]
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
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()

    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    setup_test_environment()
    connection.settings_dict.setdefault("TEST", {})["NAME"] = "warfare_bench"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        from tests.factories import (
            CampaignFactory,
            FactionFactory,
            MembershipFactory,
            SettlementFactory,
            UserFactory,
        )

        gm = UserFactory(username="bench-gm")
        campaign = CampaignFactory(created_by=gm)
        MembershipFactory(campaign=campaign, user=gm, role="gm")
        factions = [FactionFactory(campaign=campaign) for _ in range(50)]
        for faction in factions:
            for _ in range(5):
                SettlementFactory(faction=faction)
        for _ in range(30):
            MembershipFactory(campaign=campaign, faction=factions[0])

        client = Client()
        client.force_login(gm)
        pages = {
            "campaign list": reverse("kingdoms:campaign-list"),
            "campaign dashboard": reverse("kingdoms:campaign-detail", args=[campaign.pk]),
            "faction sheet": reverse("kingdoms:faction-detail", args=[campaign.pk, factions[0].pk]),
            "members": reverse("kingdoms:members", args=[campaign.pk]),
        }
        print(f"{'page':<20} {'median ms':>10} {'p95 ms':>8} {'queries':>8}")
        for name, url in pages.items():
            timings = []
            for _ in range(args.rounds):
                with CaptureQueriesContext(connection) as queries:
                    start = time.perf_counter()
                    assert client.get(url).status_code == 200
                    timings.append((time.perf_counter() - start) * 1000)
            p95 = statistics.quantiles(timings, n=20)[18]
            print(
                f"{name:<20} {statistics.median(timings):>10.1f} {p95:>8.1f} "
                f"{len(queries.captured_queries):>8}"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
