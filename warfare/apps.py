from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WarfareConfig(AppConfig):
    name = "warfare"
    verbose_name = _("Warfare")

    def ready(self) -> None:
        # Pathfinder 2e registers here until its own app (warfare.systems.pf2e, label
        # "pf2e") holds its models; its campaign-file section and demo already live there.
        # Imported once the apps are loaded: the section and the demo use the models.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from .systems.pf2e import demo, portability

        rulesystems.register(
            rulesystems.RuleSystemPlugin(
                key=RuleSystem.PF2E,
                label=RuleSystem.PF2E.label,
                position=10,
                has_battles=True,
                campaign_file=portability.SECTION,
                demo=demo.load_demo,
            )
        )
