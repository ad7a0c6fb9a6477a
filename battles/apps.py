from django.apps import AppConfig
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class BattlesConfig(AppConfig):
    name = "battles"
    verbose_name = _("Battles")

    def ready(self) -> None:
        # Imported at ready, not at the top: an app's models load only once the app registry
        # is being set up (Django's rule for apps.py).
        from django.db.models.signals import post_delete, post_init, post_save

        from kingdoms import portability
        from kingdoms.models import Faction, Membership

        from . import live, rendering
        from . import portability as battles_portability
        from .models import Battle, BattleEvent

        # Every saved change of a board is announced to its live viewers (battles.live).
        post_save.connect(live.announce, sender=Battle, dispatch_uid="battles.live.announce")
        post_delete.connect(live.forget_battle, sender=Battle, dispatch_uid="battles.live.forget")
        # The live poll answers a member from the cache (battles.live.poll_state) until their
        # membership or their account changes.
        for signal in (post_save, post_delete):
            signal.connect(live.forget_viewer, sender=Membership,
                           dispatch_uid=f"battles.live.viewer.{signal is post_save}")  # fmt: skip
        post_save.connect(live.forget_user, sender=settings.AUTH_USER_MODEL,
                          dispatch_uid="battles.live.user")  # fmt: skip
        # The battles are a section of the campaign file, after the rule systems' own.
        portability.register_section(battles_portability.SECTION)
        # A faction shown to players or hidden changes what the campaign's boards may name:
        # their cached renders are out of date (battles.rendering).
        for signal in (post_save, post_delete):
            signal.connect(rendering.faction_changed, sender=Faction,
                           dispatch_uid=f"battles.rendering.{signal is post_save}")  # fmt: skip
        # The event rows a board action writes: its new board's log is drawn from them.
        post_init.connect(rendering.event_made, sender=BattleEvent,
                          dispatch_uid="battles.rendering.event_made")  # fmt: skip
