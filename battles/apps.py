from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        from django.db.models.signals import post_save

        from kingdoms import portability

        from . import live
        from . import portability as battles_portability
        from .models import Battle

        # Every saved change of a board is announced to its live viewers (battles.live).
        post_save.connect(live.announce, sender=Battle, dispatch_uid="battles.live.announce")
        # The battles are a section of the campaign file, after the rule systems' own.
        portability.register_section(battles_portability.SECTION)
        # Each rule system's board registers its plugin (battles.plugins) when imported.
        import warfare.systems.dnd5e.plugin  # noqa: F401
        import warfare.systems.gurps3e.board  # noqa: F401
        import warfare.systems.gurps4e.plugin  # noqa: F401
