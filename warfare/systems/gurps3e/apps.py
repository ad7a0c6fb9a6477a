from django.utils.translation import gettext_lazy as _

from kingdoms import rulesystems


class Gurps3eConfig(rulesystems.RuleSystemConfig):
    """GURPS 3e mass combat: forces of units and characters (PCs and named NPCs)."""

    name = "warfare.systems.gurps3e"
    label = "gurps3e"
    verbose_name = _("GURPS 3e forces and characters")
    position = 30
    uses_command_staff = True
    board_module = "board"
