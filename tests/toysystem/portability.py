"""The toy rule system's section of the campaign file (`kingdoms.portability.SystemSection`),
built only on the core's public pieces: the toy has no rows of its own, and its battles'
setup names each side's faction by id, which the file names by the faction's name."""

import copy

from battles.portability import check_sides, check_text_ref
from kingdoms import portability as core

from .engine import KEY


def _map_factions(setup: dict, look_up) -> dict:
    """A copy of `setup` with each side's faction looked up (unknown: null)."""
    setup = copy.deepcopy(setup)
    for side in setup.get("sides") or ():
        if isinstance(side, dict) and side.get("faction") is not None:
            side["faction"] = look_up(side["faction"])
    return setup


class ToySection(core.SystemSection):
    key = KEY
    optional = True  # a file written where the toy system is not installed has no toy battle

    def battle_out(self, battle, context):
        return {**battle, "setup": _map_factions(battle["setup"], context["factions"].get)}

    def check_battle(self, battle, path, document, context):
        """Two sides, each naming a faction of the file (or none)."""
        sides = battle["setup"].get("sides")
        check_sides(sides, f"{path}.setup.sides", "a list of sides")
        for number, side in enumerate(sides):
            where = f"{path}.setup.sides[{number}].faction"
            check_text_ref(side.get("faction"), context["factions"], where, "faction")

    def battle_in(self, battle, context):
        return {**battle, "setup": _map_factions(battle["setup"], context["factions"].get)}


SECTION = ToySection()
