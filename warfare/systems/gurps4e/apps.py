from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Gurps4eConfig(AppConfig):
    """GURPS Mass Combat (4e) forces: element types, forces and their element rows."""

    name = "warfare.systems.gurps4e"
    label = "gurps4e"
    verbose_name = _("GURPS Mass Combat forces")

    def ready(self) -> None:
        # Imported once the apps are loaded: the board plugin (it registers itself in
        # battles.plugins when imported), the campaign-file section and the demo use the models.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from . import demo, plugin, portability  # noqa: F401 (plugin registers)

        rulesystems.register(
            rulesystems.RuleSystemPlugin(
                key=RuleSystem.GURPS4E,
                label=RuleSystem.GURPS4E.label,
                position=20,
                has_battles=True,
                campaign_file=portability.SECTION,
                demo=demo.load_demo,
                uses_command_staff=True,
            )
        )
