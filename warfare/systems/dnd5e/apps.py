from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Dnd5eConfig(AppConfig):
    """D&D 5e mass combat ("When Armies Clash"): creature stat blocks, armies of units and
    solos, which battles on the board are set up from."""

    name = "warfare.systems.dnd5e"
    label = "dnd5e"
    verbose_name = _("D&D 5e armies")

    def ready(self) -> None:
        # The board plugin (battles.plugins) registers itself when its module is imported:
        # at ready, once every app's models are loaded (it reads them).
        from . import plugin  # noqa: F401
