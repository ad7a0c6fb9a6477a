"""Input and output shapes of the API. Output is split by what the reader may see.

Players see a faction or army of another side only by its public face (name, type…); its
numbers (kingdom skills, Control DC, stat block, HP…) go to the GM and the side's own players.
"""

from typing import Any

from django.db import models
from rest_framework import serializers

from kingdoms.forms import CommandStaffForm
from kingdoms.models import SKILL_MESSAGE, Campaign, CommandStaff, Controller, Role, Settlement
from warfare.api.base import OptionalBeyond
from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom
from warfare.systems.pf2e.forms import KingdomForm
from warfare.systems.pf2e.labels import PROFICIENCY_LABELS, STRUCTURE_LABELS
from warfare.systems.pf2e.models import Kingdom

COMMAND_STAFF_FIELDS = CommandStaffForm.Meta.fields

# --- Campaigns ------------------------------------------------------------------------------


class CampaignListOutput(serializers.Serializer):
    """A row of `campaign_list_for` (annotated with my_role and counts)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    rule_system = serializers.CharField()
    narrative_warfare = serializers.BooleanField()
    role = serializers.CharField(source="my_role")
    member_count = serializers.IntegerField()
    faction_count = serializers.IntegerField()


class CampaignDetailOutput(serializers.Serializer):
    """A membership, with its campaign: the campaign as this member sees it."""

    id = serializers.IntegerField(source="campaign.id")
    name = serializers.CharField(source="campaign.name")
    description = serializers.CharField(source="campaign.description")
    rule_system = serializers.CharField(source="campaign.rule_system")
    narrative_warfare = serializers.BooleanField(source="campaign.narrative_warfare")
    role = serializers.CharField()
    faction = serializers.IntegerField(source="faction_id", allow_null=True)
    version = serializers.IntegerField(
        source="campaign.version", help_text="Send it back with an edit (PATCH)."
    )


# --- Factions -------------------------------------------------------------------------------


class FactionPublicOutput(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    controlled_by = serializers.CharField()


class FactionFullOutput(FactionPublicOutput):
    known_to_players = serializers.BooleanField()
    version = serializers.IntegerField()
    kingdom = serializers.SerializerMethodField()
    command_staff = serializers.SerializerMethodField()

    def get_command_staff(self, faction) -> dict[str, Any] | None:
        staff = getattr(faction, "command_staff", None)
        if staff is None:
            return None
        return {
            **{name: getattr(staff, name) for name in COMMAND_STAFF_FIELDS},
            "version": staff.version,
        }

    def get_kingdom(self, faction) -> dict[str, Any] | None:
        kingdom = getattr(faction, "kingdom", None)
        if kingdom is None:
            return None
        control_dc = kingdom.control_dc
        return {
            "level": kingdom.level,
            "xp": kingdom.xp,
            "size_hexes": kingdom.size_hexes,
            "control_dc": {
                "value": control_dc.total,
                "breakdown": [list(term) for term in control_dc.breakdown()],
            },
            "resource_points": kingdom.resource_points,
            "food": kingdom.food,
            "unrest": kingdom.unrest,
            "ruins": {
                ruin: {"value": value, "threshold": threshold}
                for ruin, value, threshold in kingdom.ruins()
            },
            "fame_kind": kingdom.fame_kind,
            "fame_points": kingdom.fame_points,
            "at_war": kingdom.at_war,
            "ruler_vacant": kingdom.ruler_vacant,
            "skills": kingdom.skills,
            "structures": kingdom.structures,
            "turn": kingdom.turn,
            "version": kingdom.version,
        }


# --- Campaigns, factions, settlements and members: input and output -------------------------
# The input shapes check types and bounds; the views then run the HTML pages' forms
# (kingdoms.forms) over the same values, so the rules (a unique name, skills…) are the pages'.

MAX_INT = 2**31 - 1


def _version_field(what: str) -> serializers.IntegerField:
    return serializers.IntegerField(
        min_value=0,
        max_value=MAX_INT,
        required=False,
        help_text=f"The {what}'s `version` as you last read it: an older one is refused (409). "
        "Leave it out to skip the check.",
    )


class CampaignCreateInput(serializers.ModelSerializer):
    class Meta:
        model = Campaign
        fields = ["name", "description", "rule_system", "narrative_warfare"]


class CampaignUpdateInput(CampaignCreateInput):
    """`rule_system` is chosen at creation: sending another one is a 400."""

    version = _version_field("campaign")

    class Meta(CampaignCreateInput.Meta):
        fields = [*CampaignCreateInput.Meta.fields, "version"]


class SkillInput(serializers.Serializer):
    modifier = serializers.IntegerField(min_value=-10, max_value=60, required=False)
    rank = serializers.ChoiceField(choices=list(PROFICIENCY_LABELS), required=False)


KingdomSkillsInput = type(
    "KingdomSkillsInput",
    (serializers.Serializer,),
    {
        "__doc__": "Any of the warfare skills; the ones left out keep their values.",
        **{skill: SkillInput(required=False) for skill in pf2e_kingdom.WARFARE_SKILLS},
    },
)


class KingdomInput(serializers.ModelSerializer):
    """Pathfinder kingdom numbers (as on the faction form). Fields left out keep their value."""

    skills = KingdomSkillsInput(required=False)
    structures = serializers.ListField(
        child=serializers.ChoiceField(choices=list(STRUCTURE_LABELS)), required=False
    )
    version = _version_field("kingdom")

    class Meta:
        model = Kingdom
        fields = [*KingdomForm.Meta.fields, "skills", "version"]


class CommandStaffInput(serializers.ModelSerializer):
    """GURPS command staff (as on the faction form). Fields left out keep their value."""

    version = _version_field("command staff")

    class Meta:
        model = CommandStaff
        fields = [*COMMAND_STAFF_FIELDS, "version"]
        extra_kwargs = {
            name: {"error_messages": {"min_value": SKILL_MESSAGE, "max_value": SKILL_MESSAGE}}
            for name in COMMAND_STAFF_FIELDS
            if isinstance(CommandStaff._meta.get_field(name), models.IntegerField)
        }


class FactionCreateInput(serializers.Serializer):
    """A faction; `kingdom` for Pathfinder campaigns, `command_staff` for GURPS ones."""

    name = serializers.CharField(max_length=120)
    description = serializers.CharField(required=False, allow_blank=True)
    controlled_by = serializers.ChoiceField(choices=Controller.choices, required=False)
    known_to_players = serializers.BooleanField(required=False)
    kingdom = KingdomInput(required=False)
    command_staff = CommandStaffInput(required=False)


class FactionUpdateInput(FactionCreateInput):
    version = _version_field("faction")


class SettlementCreateInput(serializers.ModelSerializer):
    faction = serializers.IntegerField(
        min_value=1, max_value=MAX_INT, help_text="A faction of this campaign."
    )

    class Meta:
        model = Settlement
        fields = ["name", "faction", "hex", "is_capital", "notes"]


class SettlementUpdateInput(SettlementCreateInput):
    version = _version_field("settlement")

    class Meta(SettlementCreateInput.Meta):
        fields = [*SettlementCreateInput.Meta.fields, "version"]


class SettlementPublicOutput(serializers.Serializer):
    """What every member who sees the settlement's faction sees (as on the campaign page)."""

    id = serializers.IntegerField()
    name = serializers.CharField()
    faction = serializers.IntegerField(source="faction_id")
    hex = serializers.CharField()
    is_capital = serializers.BooleanField()


class SettlementFullOutput(SettlementPublicOutput):
    """The GM's view: with the notes and the version to edit it."""

    notes = serializers.CharField()
    version = serializers.IntegerField()


class MemberOutput(serializers.Serializer):
    """A member. `faction` is null when they play none, or one the reader may not see."""

    id = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    role = serializers.ChoiceField(choices=Role.choices)
    faction = serializers.SerializerMethodField()

    def get_faction(self, membership) -> int | None:
        visible = self.context.get("visible_factions")
        if membership.faction_id is None or (
            visible is not None and membership.faction_id not in visible
        ):
            return None
        return membership.faction_id


class MemberUpdateInput(serializers.Serializer):
    """Fields left out keep their value. The campaign's last GM cannot become a player."""

    role = serializers.ChoiceField(choices=Role.choices, required=False)
    faction = serializers.IntegerField(
        min_value=1,
        max_value=MAX_INT,
        allow_null=True,
        required=False,
        help_text="A faction of this campaign, or null for none.",
    )


# --- Shapes for the OpenAPI schema only ---------------------------------------------------
# The views pick the public or the full serializer per row; the schema describes one object
# whose numbers are optional: present only for readers who may see them.


class FactionOutput(OptionalBeyond, FactionFullOutput):
    """A faction. `known_to_players`, `version`, `kingdom` and `command_staff` only for the GM
    and the faction's players."""

    public = FactionPublicOutput
    kingdom = serializers.DictField(
        allow_null=True, help_text="Null in campaigns without kingdoms (other rule systems)."
    )
    command_staff = serializers.DictField(
        allow_null=True, help_text="GURPS campaigns only; null in the others."
    )


class SettlementOutput(OptionalBeyond, SettlementFullOutput):
    """A settlement. `notes` and `version` only for the GM."""

    public = SettlementPublicOutput


class CampaignStaleOutput(serializers.Serializer):
    """The campaign changed since the `version` sent: here it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    campaign = CampaignDetailOutput()


class FactionStaleOutput(serializers.Serializer):
    """The faction (or its kingdom, or command staff) changed since the `version` sent: here
    it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    faction = FactionOutput()


class SettlementStaleOutput(serializers.Serializer):
    """The settlement changed since the `version` sent: here it is now; nothing changed."""

    errors = serializers.ListField(child=serializers.CharField())
    settlement = SettlementOutput()
