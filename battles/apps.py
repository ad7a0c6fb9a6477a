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

        # Until every rule system registers itself in kingdoms.rulesystems from its own app
        # (issue 12, the portability branch), a system with a board counts as one there.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from .plugins import PLUGINS

        for key in PLUGINS:
            if rulesystems.get(key) is None:
                label = RuleSystem(key).label
                rulesystems.register(
                    rulesystems.RuleSystemPlugin(key=key, label=label, has_battles=True)
                )
