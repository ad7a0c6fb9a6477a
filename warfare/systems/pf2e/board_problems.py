"""The battle engine's setup and aftermath problems as sentences in the page's language
(the rest falls back to `warfare.messages`)."""

from django.utils.translation import gettext_lazy as _

from warfare.engine.problems import Problem
from warfare.messages import problem_message

FORTIFICATION_LABELS = {
    "castle": _("castle"),
    "keep": _("keep"),
    "tower": _("tower"),
    "trench": _("trench"),
    "wall_stone": _("stone wall"),
    "wall_wooden": _("wooden wall"),
}

MESSAGES = {
    "battle.setup.two_sides_needed": _("A battle needs two sides."),
    "battle.setup.side_without_armies": _("Put at least one army on each side."),
    "battle.setup.duplicate_army_key": _("An army can fight on one side only."),
    "battle.setup.army_not_active": _("%(army)s is not an active army."),
    "battle.setup.army_defeated": _(
        "%(army)s is defeated (0 HP) and cannot fight until it recovers."
    ),
    "battle.setup.bad_hp": _("%(army)s has more HP than its maximum."),
    "battle.setup.unknown_terrain": _("Unknown terrain: %(terrain)s."),
    "battle.setup.unknown_fortification": _("Unknown fortification."),
    "battle.setup.bad_fortification_side": _("A fortification belongs to one of the two sides."),
    "battle.setup.fortification_needs_garrison": _(
        "%(army)s can occupy a fortification only if it is garrisoned."
    ),
    "battle.setup.fortification_full": _(
        "A %(fortification)s holds at most %(capacity)s armies; %(armies)s are put inside."
    ),
    "battle.setup.bad_start": _("%(army)s cannot start there."),
    "battle.setup.bad_offer_starts": _("Offering the starting positions is on or off."),
    "battle.setup.bad_initiative_bonus": _("%(army)s has a bad initiative bonus."),
    "battle.setup.bad_side_keys": _("The two sides need their own keys."),
    "battle.setup.bad_auto_reactions": _("A side's reactions are automatic or offered."),
    "battle.setup.bad_army": _("An army of the set-up cannot be read."),
    "battle.setup.bad_typed_dice_by_roll": _("Typed dice by roll is on or off."),
    "battle.setup.unknown_army": _("A starting position names an army that does not fight."),
    "battle.aftermath.bad_pc_encounter": _("The PCs' own fight was won, lost or not fought."),
    "battle.aftermath.bad_choice": _("%(army)s gets weary or shaken, nothing else."),
    "battle.aftermath.unknown_army": _("That army did not fight on this side."),
    "kingdom.skill_missing": _("The kingdom has no %(skill)s skill."),
}


def setup_problem_messages(
    problems, names: dict[str, str], fortifications: dict[str, str] | None = None
) -> list[str]:
    """One sentence per problem: army keys replaced by the armies' names, fortification keys
    by their kind (`fortifications` {key: kind})."""
    messages = []
    for problem in problems:
        params = dict(problem.params)
        if isinstance(params.get("army"), str):
            params["army"] = names.get(params["army"], params["army"])
        fortification = params.get("fortification")
        if isinstance(fortification, str):
            kind = (fortifications or {}).get(fortification, fortification)
            params["fortification"] = FORTIFICATION_LABELS.get(kind, kind)
        template = MESSAGES.get(problem.code)
        if template is None:
            messages.append(problem_message(Problem(problem.code, params)))
            continue
        try:
            messages.append(str(template) % params)
        except (KeyError, TypeError, ValueError):
            messages.append(str(template))
    return messages
