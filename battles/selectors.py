"""What the battle pages read (the board itself is drawn by each rule system's plugin)."""

from django.db.models import QuerySet

from kingdoms.models import Membership

from .models import Battle


def battle_list(*, membership: Membership) -> QuerySet[Battle]:
    return Battle.objects.filter(campaign_id=membership.campaign_id).only(
        "pk", "name", "system", "status", "created_at", "seq", "campaign_id"
    )
