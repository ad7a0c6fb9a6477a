from django.core.management.base import BaseCommand

from kingdoms.demo import DEMO_CAMPAIGN, DEMO_GM, DEMO_PLAYER, load_demo


class Command(BaseCommand):
    help = (
        "Load the four demo campaigns (Pathfinder 2e, GURPS 4e, GURPS 3e, D&D 5e) and their two "
        "accounts (does nothing if they already exist)."
    )

    def handle(self, *args, **options):
        from warfare.systems.dnd5e.demo import DEMO_CAMPAIGN as DND5E
        from warfare.systems.dnd5e.demo import load_demo as dnd5e_demo
        from warfare.systems.gurps3e.demo import DEMO_3E_CAMPAIGN as GURPS3E
        from warfare.systems.gurps4e.demo import DEMO_CAMPAIGN as GURPS4E
        from warfare.systems.gurps4e.demo import load_demo as gurps4e_demo

        # load_demo() also loads the GURPS 3e campaign beside the Pathfinder one.
        created = load_demo().created
        created = gurps4e_demo().created or created
        created = dnd5e_demo().created or created
        names = ", ".join(f"“{name}”" for name in (DEMO_CAMPAIGN, GURPS4E, GURPS3E, DND5E))
        if created:
            self.stdout.write(self.style.SUCCESS(f"Loaded the demo campaigns: {names}."))
        else:
            self.stdout.write(f"The demo campaigns are already loaded; nothing changed: {names}.")
        self.stdout.write(
            f"Demo accounts: GM {DEMO_GM[0]} / {DEMO_GM[1]}, "
            f"player {DEMO_PLAYER[0]} / {DEMO_PLAYER[1]}"
        )
