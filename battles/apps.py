from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        # Imported at ready, not at the top: an app's models load only once the app registry
        # is being set up (Django's rule for apps.py).
        from django.db.models.signals import post_save

        from . import live
        from .models import Battle

        # Every saved change of a board is announced to its live viewers (battles.live).
        post_save.connect(live.announce, sender=Battle, dispatch_uid="battles.live.announce")

        # Until every rule system registers itself in kingdoms.rulesystems from its own app
        # (issue 12, the portability branch), a system with a board counts as one there. The
        # systems' apps come before this one in INSTALLED_APPS: their plugins are registered.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem

        from .plugins import PLUGINS

        for key in PLUGINS:
            if rulesystems.get(key) is None and key in RuleSystem.values:
                label = RuleSystem(key).label
                rulesystems.register(
                    rulesystems.RuleSystemPlugin(key=key, label=label, has_battles=True)
                )
