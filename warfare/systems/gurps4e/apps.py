from django.utils.translation import gettext_lazy as _

from kingdoms import rulesystems


class Gurps4eConfig(rulesystems.RuleSystemConfig):
    """GURPS Mass Combat (4e) forces: element types, forces and their element rows."""

    name = "warfare.systems.gurps4e"
    label = "gurps4e"
    verbose_name = _("GURPS Mass Combat forces")
    position = 20
    uses_command_staff = True
