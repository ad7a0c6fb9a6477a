from django.core.management.base import BaseCommand

from kingdoms.demo import DEMO_CAMPAIGN, DEMO_GM, DEMO_PLAYER, load_demo


class Command(BaseCommand):
    help = "Load the demo campaign and its two accounts (does nothing if they already exist)."

    def handle(self, *args, **options):
        result = load_demo()
        if result.created:
            self.stdout.write(self.style.SUCCESS(f"Loaded “{DEMO_CAMPAIGN}”."))
        else:
            self.stdout.write(f"“{DEMO_CAMPAIGN}” is already loaded; nothing changed.")
        from battles.gurps4e.demo import DEMO_CAMPAIGN as GURPS4E
        from battles.gurps4e.demo import load_demo as gurps4e_demo

        if gurps4e_demo().created:
            self.stdout.write(self.style.SUCCESS(f"Loaded “{GURPS4E}”."))
        from battles.dnd5e.demo import DEMO_CAMPAIGN as DND5E
        from battles.dnd5e.demo import load_demo as dnd5e_demo

        if dnd5e_demo().created:
            self.stdout.write(self.style.SUCCESS(f"Loaded “{DND5E}”."))
        self.stdout.write(
            f"Demo accounts: GM {DEMO_GM[0]} / {DEMO_GM[1]}, "
            f"player {DEMO_PLAYER[0]} / {DEMO_PLAYER[1]}"
        )
