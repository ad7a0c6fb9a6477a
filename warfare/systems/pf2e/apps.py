from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Pf2eConfig(AppConfig):
    """Pathfinder 2e Kingmaker warfare: kingdoms, armies, the kingdom turn and its log."""

    name = "warfare.systems.pf2e"
    label = "pf2e"
    verbose_name = _("Pathfinder 2e Kingmaker warfare")

    def ready(self) -> None:
        # Imported once the apps are loaded: the forms and services use the models.
        from kingdoms import rulesystems
        from kingdoms.models import RuleSystem
        from warfare import messages

        from . import forms, problems, selectors, services

        messages.register(problems.MESSAGES, problems.display)

        rulesystems.register(
            rulesystems.RuleSystemPlugin(
                key=RuleSystem.PF2E,
                label=RuleSystem.PF2E.label,
                position=10,
                has_battles=True,
                faction_records=(
                    rulesystems.FactionRecord(
                        key="kingdom",
                        form=forms.KingdomForm.for_faction,
                        save=services.kingdom_save,
                        sheet=selectors.kingdom_sheet,
                    ),
                ),
                templates={
                    "faction_card": "pf2e/_faction_card.html",
                    "faction_detail": "pf2e/_faction_detail.html",
                    "faction_form": "pf2e/_faction_form.html",
                    "faction_links": "pf2e/_faction_links.html",
                },
                before_campaign_delete=services.campaign_delete_armies,
            )
        )
