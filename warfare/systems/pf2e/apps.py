from django.utils.translation import gettext_lazy as _

from kingdoms import rulesystems


class Pf2eConfig(rulesystems.RuleSystemConfig):
    """Pathfinder 2e Kingmaker warfare: kingdoms, armies, the kingdom turn and its log."""

    name = "warfare.systems.pf2e"
    label = "pf2e"
    verbose_name = _("Pathfinder 2e Kingmaker warfare")
    position = 10

    def ready(self) -> None:
        # Imported once the apps are loaded: the forms, services and selectors use the models.
        from warfare import messages

        from . import forms, problems, selectors, services

        messages.register(problems.MESSAGES, problems.display)
        self.register_system(
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
