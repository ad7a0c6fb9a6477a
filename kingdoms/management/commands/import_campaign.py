from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from kingdoms.portability import (
    MAX_UPLOAD_BYTES,
    ImportRefused,
    campaign_import,
    parse_document,
)


class Command(BaseCommand):
    help = (
        "Create a new campaign from a Warfare campaign file; --user becomes its game master. "
        "A damaged file is refused and nothing is written."
    )

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--user", required=True, help="Username of the new campaign's GM.")
        parser.add_argument(
            "--max-bytes",
            type=int,
            default=MAX_UPLOAD_BYTES,
            help=f"Refuse larger files (default {MAX_UPLOAD_BYTES}, the upload limit).",
        )

    def handle(self, *args, file, user, max_bytes, **options):
        try:
            gm = get_user_model().objects.get_by_natural_key(user)
        except get_user_model().DoesNotExist:
            raise CommandError(f"There is no user “{user}”.") from None
        path = Path(file)
        try:
            with path.open("rb") as handle:
                raw = handle.read(max_bytes + 1)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error}") from None
        try:
            campaign = campaign_import(user=gm, data=parse_document(raw, max_bytes=max_bytes))
        except ImportRefused as refused:
            raise CommandError(" ".join(refused.messages)) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported “{campaign}” as campaign {campaign.pk}; GM: {user}.")
        )
        if campaign.import_skipped:
            self.stdout.write(
                "Members without an account here, left out: " + ", ".join(campaign.import_skipped)
            )
