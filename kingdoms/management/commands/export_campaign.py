from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from kingdoms.models import Campaign
from kingdoms.portability import campaign_export_bytes


class Command(BaseCommand):
    help = "Write a campaign, with everything in it, as one Warfare campaign file (JSON)."

    def add_arguments(self, parser):
        parser.add_argument("campaign_id", type=int)
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(self, *args, campaign_id, output=None, **options):
        try:
            campaign = Campaign.objects.get(pk=campaign_id)
        except Campaign.DoesNotExist:
            raise CommandError(f"There is no campaign {campaign_id}.") from None
        data = campaign_export_bytes(campaign)
        if output:
            Path(output).write_bytes(data)
            self.stderr.write(self.style.SUCCESS(f"Exported “{campaign}” to {output}."))
        else:
            self.stdout.write(data.decode())
