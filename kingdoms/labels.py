"""Translated labels for rule-system keys that live in the pure engine (Russian per §12)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from warfare.engine.systems.pf2e import kingdom as pf2e_kingdom

SKILL_LABELS = {
    "warfare": pgettext_lazy("kingdom skill", "Warfare"),
    "statecraft": pgettext_lazy("kingdom skill", "Statecraft"),
    "intrigue": pgettext_lazy("kingdom skill", "Intrigue"),
    "exploration": pgettext_lazy("kingdom skill", "Exploration"),
    "boating": pgettext_lazy("kingdom skill", "Boating"),
    "magic": pgettext_lazy("kingdom skill", "Magic"),
    "defense": pgettext_lazy("kingdom skill", "Defense"),
    "politics": pgettext_lazy("kingdom skill", "Politics"),
    "engineering": pgettext_lazy("kingdom skill", "Engineering"),
    "trade": pgettext_lazy("kingdom skill", "Trade"),
    "scholarship": pgettext_lazy("kingdom skill", "Scholarship"),
    "folklore": pgettext_lazy("kingdom skill", "Folklore"),
    "wilderness": pgettext_lazy("kingdom skill", "Wilderness"),
    "arts": pgettext_lazy("kingdom skill", "Arts"),
}
assert set(SKILL_LABELS) == set(pf2e_kingdom.WARFARE_SKILLS)

PROFICIENCY_LABELS = {
    "untrained": _("untrained"),
    "trained": _("trained"),
    "expert": _("expert"),
    "master": _("master"),
    "legendary": _("legendary"),
}

RUIN_LABELS = {
    "corruption": _("Corruption"),
    "crime": _("Crime"),
    "decay": _("Decay"),
    "strife": _("Strife"),
}

# Structures that give item bonuses to army activities (Pathfinder §4.9).
STRUCTURE_LABELS = {
    "barracks": _("Barracks"),
    "keep": _("Keep"),
    "garrison": pgettext_lazy("structure", "Garrison"),
    "smithy": _("Smithy"),
    "castle": _("Castle"),
    "military_academy": _("Military Academy"),
    "palace": _("Palace"),
}
