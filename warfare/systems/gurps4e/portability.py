"""GURPS Mass Combat 4e in the campaign file (format version 3 on): its `SystemSection`.

Section ``gurps4e``::

    element_types  [{ref, name, tl, base_ts, ts_doubles_per_tl, ..., notes, version}]
    forces         [{ref, faction, name, mobile, posture, strength_percent, notes, version,
                     created_at,
                     elements: [{element_type, count, tl, troop_quality, equipment_quality}]}]

A faction is named by its name; element types and forces by refs, numbers local to the file
(an element row names its type by ref). `base_ts` (a decimal) is text: "12.50".

Battles. A battle's setup names its two forces by `force_id` (a ref in the file) and
`faction` (a name), and each PC its `owner` (a username; null when that user has no account
here) and `faction` (a name). The setup also carries a copy of each force as it went into
battle, whose element rows are keyed by the id their row had then; those keys are labels
inside the battle (nothing on this installation looks them up, the row may be gone) and stay
as they are: the engine's JSON holds numbers as text too ("ts": "12"), so no walk could tell
a row key from a number. The engine derives no dice from keys, so an imported battle replays
exactly.
"""

import copy

from django.utils.translation import gettext as _

from battles.portability import check_sides, check_text_ref, same_board_but_key_order, user_id
from kingdoms import portability as core
from kingdoms.fileschema import Name, Row, Whole

from .models import ElementType, Force, ForceElement

KEY = "gurps4e"
ELEMENT_TYPE_FIELDS = (
    "name", "tl", "base_ts", "ts_doubles_per_tl", "is_support", "classes", "neutralizes",
    "mobility", "features", "raise_cost", "monthly_cost", "notes", "version",
)  # fmt: skip
FORCE_FIELDS = (
    "name", "mobile", "posture", "strength_percent", "notes", "version", "created_at",
)  # fmt: skip
ELEMENT_FIELDS = ("count", "tl", "troop_quality", "equipment_quality")
SIDE_KEYS = ("a", "b")


def _pcs(side) -> list:
    pcs = side.get("pcs") if isinstance(side, dict) else None
    return [pc for pc in pcs or () if isinstance(pc, dict)]


def _sides(setup) -> list[dict]:
    sides = setup.get("sides") if isinstance(setup, dict) else None
    if not isinstance(sides, dict):
        return []
    return [sides[key] for key in SIDE_KEYS if isinstance(sides.get(key), dict)]


def _map_setup_ids(setup, forces: dict, factions: dict, owners) -> dict:
    """A copy of `setup` with its forces, factions and owners looked up (unknown: null)."""
    setup = copy.deepcopy(setup)
    for side in _sides(setup):
        for name, table in (("force_id", forces), ("faction", factions)):
            if name in side:
                side[name] = table.get(side[name])
        for pc in _pcs(side):
            if "faction" in pc:
                pc["faction"] = factions.get(pc["faction"])
            if "owner" in pc:
                pc["owner"] = owners(pc["owner"])
    return setup


class Gurps4eSection(core.SystemSection):
    key = KEY
    keys = (KEY,)
    since = 3
    same_board = staticmethod(same_board_but_key_order)
    owns = {
        ElementType: (ELEMENT_TYPE_FIELDS, ("campaign",)),
        Force: (FORCE_FIELDS, ("campaign", "faction")),
        ForceElement: (ELEMENT_FIELDS, ("force", "element_type")),
    }

    def empty(self):
        return {KEY: {"element_types": [], "forces": []}}

    def fields(self):
        element = Row({"element_type": Whole()}, model=ForceElement, names=ELEMENT_FIELDS)
        force = Row(
            {"ref": Whole(), "faction": Name(), "elements": core.system_rows(element)},
            model=Force,
            names=FORCE_FIELDS,
        )
        element_type = Row({"ref": Whole()}, model=ElementType, names=ELEMENT_TYPE_FIELDS)
        return {
            KEY: Row(
                {
                    "element_types": core.system_rows(element_type),
                    "forces": core.system_rows(force),
                }
            )
        }

    # --- Export ---

    def export(self, campaign, context):
        """(the section, {"forces": {database id: ref}}) in three queries."""
        types = list(ElementType.objects.filter(campaign=campaign).order_by("pk"))
        type_refs = core.numbered(types)
        forces = list(
            Force.objects.filter(campaign=campaign)
            .select_related("faction")
            .prefetch_related("elements")
            .order_by("pk")
        )
        refs = {"forces": core.numbered(forces)}
        elements = ("elements", ELEMENT_FIELDS, lambda row: {
            "element_type": type_refs[row.element_type_id],
        })  # fmt: skip
        section = {
            "element_types": core.export_rows(
                types, ELEMENT_TYPE_FIELDS, lambda t: {"ref": type_refs[t.pk]}
            ),
            "forces": core.export_rows(
                forces, FORCE_FIELDS,
                lambda force: {"ref": refs["forces"][force.pk], "faction": force.faction.name},
                (elements,),
            ),
        }  # fmt: skip
        return {KEY: section}, refs

    def battle_user_ids(self, setup):
        """The players a battle's setup names by id (each PC's owner)."""
        return {
            pc["owner"]
            for side in _sides(setup)
            for pc in _pcs(side)
            if core.is_int(pc.get("owner"))
        }

    def battle_out(self, battle, context):
        setup = _map_setup_ids(
            battle["setup"], context["forces"], context["factions"], context["users"].get
        )
        return {**battle, "setup": setup}

    # --- Validate ---

    def check(self, document, context):
        """Unique refs and names; every faction and element type in the file."""
        section, factions, path = document[KEY], context["factions"], KEY
        types = core.unique(section["element_types"], "ref", f"{path}.element_types")
        core.unique(
            section["element_types"], lambda t: (t["name"], t["tl"]), f"{path}.element_types"
        )  # fmt: skip
        forces = core.check_forces(
            section["forces"], factions, f"{path}.forces",
            [("elements", "element_type", types, _("element type"))],
        )  # fmt: skip
        context[KEY] = {"forces": forces}

    def check_battle(self, battle, path, document, context):
        """The setup's two sides, their forces and factions, and the PCs' factions and
        owners."""
        sides, factions = battle["setup"].get("sides"), context["factions"]
        if not isinstance(sides, dict) or not all(
            isinstance(sides.get(key), dict) for key in SIDE_KEYS
        ):
            raise core.type_error(f"{path}.setup.sides", _("an object with the sides a and b"))
        for key in SIDE_KEYS:
            side, where = sides[key], f"{path}.setup.sides.{key}"
            forces = context[KEY]["forces"]
            core.check_ref(side.get("force_id"), forces, f"{where}.force_id", _("force"))
            check_text_ref(side.get("faction"), factions, f"{where}.faction", _("faction"))
            pcs = side.get("pcs", [])
            check_sides(pcs, f"{where}.pcs", _("a list"))
            for number, pc in enumerate(pcs):
                if not isinstance(pc.get("owner"), str | None):
                    raise core.type_error(f"{where}.pcs[{number}].owner", _("text"))
                here = f"{where}.pcs[{number}].faction"
                check_text_ref(pc.get("faction"), factions, here, _("faction"))

    def battle_usernames(self, battles):
        """The PCs' owners."""
        return {
            pc["owner"]
            for battle in battles
            for side in _sides(battle["setup"])
            for pc in _pcs(side)
            if pc.get("owner")
        }

    # --- Import ---

    def build(self, document, context):
        """Unsaved rows, each validated; an element row already holds its (unsaved) force."""
        section, path = document[KEY], KEY
        forces, nested = core.build_nested(
            Force, section["forces"], FORCE_FIELDS, f"{path}.forces",
            (("elements", ForceElement, ELEMENT_FIELDS, "force"),),
        )  # fmt: skip
        rows = {
            "element_types": core.build_all(
                ElementType, section["element_types"], ELEMENT_TYPE_FIELDS, f"{path}.element_types"
            ),
            "forces": forces,
            **nested,
        }
        return rows

    def write(self, campaign, rows, context):
        """{"forces": {ref: new id}} for the battles."""
        factions = context["factions"]
        core.save_all(
            ElementType, rows["element_types"], ELEMENT_TYPE_FIELDS,
            lambda row: {"campaign": campaign},
        )  # fmt: skip
        types = {row["ref"]: element_type for row, element_type in rows["element_types"]}
        core.save_all(
            Force, rows["forces"], FORCE_FIELDS,
            lambda row: {"campaign": campaign, "faction": factions[row["faction"]]},
        )  # fmt: skip
        core.save_all(
            ForceElement, rows["elements"], ELEMENT_FIELDS,
            lambda row: {"element_type": types[row["element_type"]]},
        )  # fmt: skip
        return {"forces": {row["ref"]: force.pk for row, force in rows["forces"]}}

    def battle_in(self, battle, context):
        owner = user_id(context["users"])
        setup = _map_setup_ids(battle["setup"], context["forces"], context["factions"], owner)
        return {**battle, "setup": setup}


SECTION = Gurps4eSection()
