from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        import battles.dnd5e.plugin  # noqa: F401 - registers the D&D 5e board
