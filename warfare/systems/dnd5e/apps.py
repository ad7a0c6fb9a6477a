from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Dnd5eConfig(AppConfig):
    """D&D 5e mass combat ("When Armies Clash"): creature stat blocks, armies of units and
    solos, which battles on the board are set up from."""

    name = "warfare.systems.dnd5e"
    label = "dnd5e"
    verbose_name = _("D&D 5e armies")

    def ready(self) -> None:
        # Imported once the apps are loaded: the board plugin (it registers itself in
        # battles.plugins when imported), the campaign-file section and the demo use the models.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from . import demo, plugin, portability  # noqa: F401 (plugin registers)

        rulesystems.register(
            rulesystems.RuleSystemPlugin(
                key=RuleSystem.DND5E,
                label=RuleSystem.DND5E.label,
                position=40,
                has_battles=True,
                campaign_file=portability.SECTION,
                demo=demo.load_demo,
                uses_command_staff=False,
            )
        )
