"""GURPS Mass Combat 4e in the campaign file (format version 3): the hook
`kingdoms.portability` calls.

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
from typing import Any

from django.utils.translation import gettext as _

from kingdoms import portability as core

from .models import ElementType, Force, ForceElement

EMPTY_SECTION = {"element_types": [], "forces": []}
ELEMENT_TYPE_FIELDS = (
    "name", "tl", "base_ts", "ts_doubles_per_tl", "is_support", "classes", "neutralizes",
    "mobility", "features", "raise_cost", "monthly_cost", "notes", "version",
)  # fmt: skip
FORCE_FIELDS = (
    "name", "mobile", "posture", "strength_percent", "notes", "version", "created_at",
)  # fmt: skip
ELEMENT_FIELDS = ("count", "tl", "troop_quality", "equipment_quality")
SIDE_KEYS = ("a", "b")

_rows = core.LIMITS["system_rows"]
SCHEMA = core._object(
    {
        "element_types": core._list(
            core._object(
                {"ref": core._int, **core._model_checks(ElementType, ELEMENT_TYPE_FIELDS)}
            ),
            limit=_rows,
        ),
        "forces": core._list(
            core._object(
                {
                    "ref": core._int,
                    "faction": core._name,
                    **core._model_checks(Force, FORCE_FIELDS),
                    "elements": core._list(
                        core._object(
                            {
                                "element_type": core._int,
                                **core._model_checks(ForceElement, ELEMENT_FIELDS),
                            }
                        ),
                        limit=_rows,
                    ),
                }
            ),
            limit=_rows,
        ),
    }
)


# --- Export -------------------------------------------------------------------------------------


def export_rows(campaign) -> tuple[dict[str, Any], dict[str, dict]]:
    """(the section, {"forces": {database id: ref}}) in three queries."""
    types = list(ElementType.objects.filter(campaign=campaign).order_by("pk"))
    type_refs = {t.pk: ref for ref, t in enumerate(types, 1)}
    forces = list(
        Force.objects.filter(campaign=campaign)
        .select_related("faction")
        .prefetch_related("elements")
        .order_by("pk")
    )
    refs = {"forces": {force.pk: ref for ref, force in enumerate(forces, 1)}}
    section = {
        "element_types": [
            {"ref": type_refs[t.pk], **core._fields(t, ELEMENT_TYPE_FIELDS)} for t in types
        ],
        "forces": [
            {
                "ref": refs["forces"][force.pk],
                "faction": force.faction.name,
                **core._fields(force, FORCE_FIELDS),
                "elements": [
                    {
                        "element_type": type_refs[row.element_type_id],
                        **core._fields(row, ELEMENT_FIELDS),
                    }
                    for row in force.elements.all()
                ],
            }
            for force in forces
        ],
    }
    return section, refs


def _pcs(side) -> list:
    pcs = side.get("pcs") if isinstance(side, dict) else None
    return [pc for pc in pcs or () if isinstance(pc, dict)]


def _sides(setup) -> list[dict]:
    sides = setup.get("sides") if isinstance(setup, dict) else None
    if not isinstance(sides, dict):
        return []
    return [sides[key] for key in SIDE_KEYS if isinstance(sides.get(key), dict)]


def battle_user_ids(setup) -> set[int]:
    """The players a battle's setup names by id (each PC's owner)."""
    return {
        pc["owner"] for side in _sides(setup) for pc in _pcs(side) if core._is_int(pc.get("owner"))
    }


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


def battle_out(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle as the file holds it: the setup's ids as refs and names."""
    setup = _map_setup_ids(
        doc["setup"], context["forces"], context["factions"], context["users"].get
    )
    return {**doc, "setup": setup}


# --- Validate -----------------------------------------------------------------------------------


def check_references(section: dict[str, Any], factions: set, path: str) -> None:
    """Unique refs and names; every faction and element type in the file."""
    types = core._unique(section["element_types"], "ref", f"{path}.element_types")
    core._unique(
        [{**t, "name": (t["name"], t["tl"])} for t in section["element_types"]],
        "name",
        f"{path}.element_types",
    )
    core._unique(section["forces"], "ref", f"{path}.forces")
    core._unique(
        [{**f, "name": (f["faction"], f["name"])} for f in section["forces"]],
        "name",
        f"{path}.forces",
    )
    for index, force in enumerate(section["forces"]):
        where = f"{path}.forces[{index}]"
        core._check_ref(force["faction"], factions, f"{where}.faction", _("faction"))
        for number, row in enumerate(force["elements"]):
            here = f"{where}.elements[{number}].element_type"
            core._check_ref(row["element_type"], types, here, _("element type"))


def check_battle(battle: dict[str, Any], section: dict[str, Any], factions: set, path: str):
    """The setup's two sides, their forces and factions, and the PCs' factions and owners."""
    sides = battle["setup"].get("sides")
    if not isinstance(sides, dict) or not all(
        isinstance(sides.get(key), dict) for key in SIDE_KEYS
    ):
        raise core._type_error(f"{path}.setup.sides", _("an object with the sides a and b"))
    forces = {force["ref"] for force in section["forces"]}
    for key in SIDE_KEYS:
        side, where = sides[key], f"{path}.setup.sides.{key}"
        core._check_ref(side.get("force_id"), forces, f"{where}.force_id", _("force"))
        if not isinstance(side.get("faction"), str | None):
            raise core._type_error(f"{where}.faction", _("text"))
        core._check_ref(side.get("faction"), factions, f"{where}.faction", _("faction"))
        pcs = side.get("pcs", [])
        if not isinstance(pcs, list) or not all(isinstance(pc, dict) for pc in pcs):
            raise core._type_error(f"{where}.pcs", _("a list"))
        for number, pc in enumerate(pcs):
            for name in ("faction", "owner"):
                if not isinstance(pc.get(name), str | None):
                    raise core._type_error(f"{where}.pcs[{number}].{name}", _("text"))
            here = f"{where}.pcs[{number}].faction"
            core._check_ref(pc.get("faction"), factions, here, _("faction"))


def usernames(section: dict[str, Any], battles: list[dict]) -> set[str]:
    """The usernames the battles name: the PCs' owners."""
    return {
        pc["owner"]
        for battle in battles
        for side in _sides(battle["setup"])
        for pc in _pcs(side)
        if pc.get("owner")
    }


# --- Import -------------------------------------------------------------------------------------


def build_rows(section: dict[str, Any], users: dict, path: str) -> dict[str, Any]:
    """Unsaved rows, each validated by its model."""
    types = [
        (row, core._build(ElementType, row, ELEMENT_TYPE_FIELDS, f"{path}.element_types[{i}]"))
        for i, row in enumerate(section["element_types"])
    ]
    forces = []
    for index, row in enumerate(section["forces"]):
        where = f"{path}.forces[{index}]"
        elements = [
            (element, core._build(ForceElement, element, ELEMENT_FIELDS, f"{where}.elements[{n}]"))
            for n, element in enumerate(row["elements"])
        ]
        forces.append((row, core._build(Force, row, FORCE_FIELDS, where), elements))
    return {"element_types": types, "forces": forces}


def write_rows(campaign, rows: dict[str, Any], factions: dict, users: dict) -> dict[str, dict]:
    """Write the rows (inside the import's transaction); {"forces": {ref: new id}}."""
    for _row, element_type in rows["element_types"]:
        element_type.campaign = campaign
    ElementType.objects.bulk_create([t for _row, t in rows["element_types"]], batch_size=1000)
    types = {row["ref"]: element_type for row, element_type in rows["element_types"]}
    forces = []
    for row, force, _elements in rows["forces"]:
        force.campaign, force.faction = campaign, factions[row["faction"]]
        forces.append(force)
    Force.objects.bulk_create(forces, batch_size=1000)
    core._restore(Force, forces, [row for row, *_rest in rows["forces"]], FORCE_FIELDS)
    elements = []
    for _row, force, force_elements in rows["forces"]:
        for element_row, element in force_elements:
            element.force, element.element_type = force, types[element_row["element_type"]]
            elements.append(element)
    ForceElement.objects.bulk_create(elements, batch_size=1000)
    return {"forces": {row["ref"]: force.pk for row, force, _elements in rows["forces"]}}


def battle_in(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle of the file with this installation's ids (refs from `write_rows`)."""

    def owner(username):
        user = context["users"].get(username)
        return user.pk if user is not None else None

    setup = _map_setup_ids(doc["setup"], context["forces"], context["factions"], owner)
    return {**doc, "setup": setup}
