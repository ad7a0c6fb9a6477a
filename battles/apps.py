from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        # Each rule system's board registers its plugin (battles.plugins) when imported.
        import battles.dnd5e.plugin  # noqa: F401
        import battles.gurps3e.board  # noqa: F401
        import battles.gurps4e.plugin  # noqa: F401
