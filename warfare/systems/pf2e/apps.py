from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Pf2eConfig(AppConfig):
    """Pathfinder 2e Kingmaker warfare: kingdoms, armies, the kingdom turn and its log."""

    name = "warfare.systems.pf2e"
    label = "pf2e"
    verbose_name = _("Pathfinder 2e warfare")
