"""The 3e engine's set-up problems as sentences in the page's language."""

from django.utils.translation import gettext_lazy as _

from warfare.engine.problems import Problem
from warfare.messages import problem_message

MESSAGES = {
    "battle.setup.two_sides_needed": _("A battle needs two sides."),
    "battle.setup.side_without_units": _("%(side)s has no units."),
    "battle.setup.no_troop_strength": _("%(side)s has no Troop Strength."),
    "battle.setup.one_attacker_one_defender": _("One side attacks, the other defends."),
    "battle.setup.two_army_commanders": _("%(side)s has two army commanders."),
    "battle.setup.bad_tl": _("%(side)s: TL must be 0-16."),
    "battle.setup.bad_defensive_value": _("That defensive item's modifier is out of range."),
    "battle.setup.duplicate_pc_key": _("A character can fight on one side only."),
    "battle.setup.bad_pc_number": _("%(pc)s has an impossible %(field)s."),
    "battle.setup.bad_unit_number": _("%(unit)s has an impossible %(field)s."),
}


def setup_problem_messages(problems: list[Problem], names: dict[str, str]) -> list[str]:
    out = []
    for problem in problems:
        template = MESSAGES.get(problem.code)
        if template is None:
            out.append(problem_message(problem))
            continue
        params = {k: names.get(v, v) if isinstance(v, str) else v
                  for k, v in problem.params.items()}  # fmt: skip
        try:
            out.append(str(template) % params)
        except (KeyError, TypeError, ValueError):
            out.append(str(template))
    return out
