from django.core.management.base import BaseCommand

from kingdoms.demo import DEMO_GM, DEMO_PLAYER, load_demo


class Command(BaseCommand):
    help = (
        "Load the demo campaigns (one per rule system: Pathfinder 2e, GURPS 4e, GURPS 3e, "
        "D&D 5e) and their two accounts (does nothing if they already exist)."
    )

    def handle(self, *args, **options):
        results = load_demo()
        names = ", ".join(f"“{result.campaign.name}”" for result in results)
        if any(result.created for result in results):
            self.stdout.write(self.style.SUCCESS(f"Loaded the demo campaigns: {names}."))
        else:
            self.stdout.write(f"The demo campaigns are already loaded; nothing changed: {names}.")
        self.stdout.write(
            f"Demo accounts: GM {DEMO_GM[0]} / {DEMO_GM[1]}, "
            f"player {DEMO_PLAYER[0]} / {DEMO_PLAYER[1]}"
        )
