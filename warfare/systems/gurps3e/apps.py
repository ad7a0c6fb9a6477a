from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Gurps3eConfig(AppConfig):
    """GURPS 3e mass combat: forces of units and characters (PCs and named NPCs)."""

    name = "warfare.systems.gurps3e"
    label = "gurps3e"
    verbose_name = _("GURPS 3e forces and characters")

    def ready(self) -> None:
        # Imported once the apps are loaded: the board plugin (it registers itself in
        # battles.plugins when imported), the campaign-file section and the demo use the models.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from . import board, demo, portability  # noqa: F401 (board registers)

        rulesystems.register(
            rulesystems.RuleSystemPlugin(
                key=RuleSystem.GURPS3E,
                label=RuleSystem.GURPS3E.label,
                position=30,
                has_battles=True,
                campaign_file=portability.SECTION,
                demo=demo.load_demo,
                uses_command_staff=True,
            )
        )
