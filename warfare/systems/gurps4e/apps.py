from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Gurps4eConfig(AppConfig):
    """GURPS Mass Combat (4e) forces: element types, forces and their element rows."""

    name = "warfare.systems.gurps4e"
    label = "gurps4e"
    verbose_name = _("GURPS Mass Combat forces")
