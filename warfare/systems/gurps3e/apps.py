from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Gurps3eConfig(AppConfig):
    """GURPS 3e mass combat: forces of units and characters (PCs and named NPCs)."""

    name = "warfare.systems.gurps3e"
    label = "gurps3e"
    verbose_name = _("GURPS 3e forces and characters")
