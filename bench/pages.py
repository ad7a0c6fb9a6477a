"""Render the main pages of a large campaign and report their time and query count.

Usage: DATABASE_URL=postgres://... python bench/pages.py [--rounds N]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import median, p95, scratch_database, setup_django  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=50)
    args = parser.parse_args()

    setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    with scratch_database("bench_pages"):
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
            print(
                f"{name:<20} {median(timings):>10.1f} {p95(timings):>8.1f} "
                f"{len(queries.captured_queries):>8}"
            )


if __name__ == "__main__":
    main()
