from django.utils.translation import gettext_lazy as _

from kingdoms import rulesystems


class Dnd5eConfig(rulesystems.RuleSystemConfig):
    """D&D 5e mass combat ("When Armies Clash"): creature stat blocks, armies of units and
    solos, which battles on the board are set up from."""

    name = "warfare.systems.dnd5e"
    label = "dnd5e"
    verbose_name = _("D&D 5e armies")
    position = 40
