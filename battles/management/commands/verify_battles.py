from django.core.management.base import BaseCommand, CommandError

from battles.models import Battle
from battles.services import battle_verify


class Command(BaseCommand):
    help = "Replay every battle from its setup, seed and commands; compare with its snapshot."

    def handle(self, *args, **options):
        bad = []
        count = 0
        for battle in Battle.objects.order_by("pk").iterator():
            count += 1
            if not battle_verify(battle):
                bad.append(battle)
                self.stderr.write(f"Battle #{battle.pk} “{battle.name}”: snapshot differs.")
        if bad:
            raise CommandError(f"{len(bad)} of {count} battles do not replay to their snapshot.")
        self.stdout.write(self.style.SUCCESS(f"All {count} battles replay to their snapshot."))
