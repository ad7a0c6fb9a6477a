from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from . import live
        from .models import Battle

        # Every saved change of a board is announced to its live viewers (battles.live).
        post_save.connect(live.announce, sender=Battle, dispatch_uid="battles.live.announce")
        # Each rule system's board registers its plugin (battles.plugins) when imported.
        import warfare.systems.dnd5e.plugin  # noqa: F401
        import warfare.systems.gurps3e.board  # noqa: F401
        import warfare.systems.gurps4e.plugin  # noqa: F401
