from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WarfareConfig(AppConfig):
    name = "warfare"
    verbose_name = _("Warfare")

    def ready(self) -> None:
        # Pathfinder 2e's board plugin (battles.plugins). It moves to the pf2e app's own
        # AppConfig.ready once that app exists (issue 12, the pf2e-app branch); until then the
        # project app, which holds Pathfinder's models, registers it.
        from .systems.pf2e import plugin  # noqa: F401  (registers when imported)
