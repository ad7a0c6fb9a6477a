from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Dnd5eConfig(AppConfig):
    """D&D 5e mass combat ("When Armies Clash"): creature stat blocks, armies of units and
    solos, which battles on the board are set up from."""

    name = "warfare.systems.dnd5e"
    label = "dnd5e"
    verbose_name = _("D&D 5e armies")
