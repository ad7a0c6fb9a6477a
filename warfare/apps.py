from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WarfareConfig(AppConfig):
    name = "warfare"
    verbose_name = _("Warfare")
