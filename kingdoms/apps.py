from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KingdomsConfig(AppConfig):
    name = "kingdoms"
    verbose_name = _("Campaigns and kingdoms")
