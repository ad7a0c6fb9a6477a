"""GURPS 3e in the campaign file (format version 3): the hook `kingdoms.portability` calls.

Section ``gurps3e``::

    troop_types  [{name, ts_per_man, notes}]
    forces       [{ref, faction, name, tl, notes, version, created_at,
                   units: [{ref, troop_type, name, men, racial, equipment, armour, quality,
                            morale, battles}]}]
    characters   [{ref, faction, owner, name, is_pc, ht_max, ht, ..., status, notes, version,
                   reputation: [{value, expires, source}]}]

A troop type is named by its name (unique in a campaign), a faction by its name, a
character's owner by username (null when that user has no account here); forces, units and
characters by refs, numbers local to the file (units numbered over the whole file).

Battles. The board keys a unit "u<unit id>" and a character "c<character id>", wherever they
occur (setup, snapshot, outcome, commands, event params; values and object keys alike, and
inside a code: a Glory term "glory.c<id>", a roll's purpose "morale:u<id>"): in the file the
id is the row's ref. Text that is not a key (`SKIP`: names, troop types,
commanders, reputation sources) is never read as one. A unit or character deleted after the
battle keeps a key with a negative number ("u-1", numbered per battle), which no row has:
the battle still replays, and applying its results skips it. The setup's own ids are mapped
too: a side's `factions` (names) and `forces` (refs), a PC's `character` (ref), `faction`
(name) and `owner` (username). The engine derives no dice from keys; it may order keys by
their text (routed units), so an import keeps the order its replay gives.
"""

import re
from typing import Any

from django.utils.translation import gettext as _

from kingdoms import portability as core

from .models import Character, Force, Reputation, TroopType, Unit

EMPTY_SECTION = {"troop_types": [], "forces": [], "characters": []}
TROOP_TYPE_FIELDS = ("name", "ts_per_man", "notes")
FORCE_FIELDS = ("name", "tl", "notes", "version", "created_at")
UNIT_FIELDS = ("name", "men", "racial", "equipment", "armour", "quality", "morale", "battles")
CHARACTER_FIELDS = (
    "name", "is_pc", "ht_max", "ht", "iq", "dr", "toughness", "luck", "tactics",
    "weapon_skill", "limits", "role", "rank", "status", "notes", "version",
)  # fmt: skip
REPUTATION_FIELDS = ("value", "expires", "source")

#: A board key, alone or inside a code: "u12", "c3", "glory.c3" (a Glory term), "morale:u12"
#: (a roll's purpose).
PATTERN = re.compile(r"(?P<pre>(?:[a-z_]+[.:])?)(?P<kind>[uc])(?P<id>-?[0-9]+)(?P<post>)")
SKIP = frozenset({"name", "troop_type", "commander", "source", "notes"})

_rows = core.LIMITS["system_rows"]
SCHEMA = core._object(
    {
        "troop_types": core._list(
            core._object(core._model_checks(TroopType, TROOP_TYPE_FIELDS)), limit=_rows
        ),
        "forces": core._list(
            core._object(
                {
                    "ref": core._int,
                    "faction": core._name,
                    **core._model_checks(Force, FORCE_FIELDS),
                    "units": core._list(
                        core._object(
                            {
                                "ref": core._int,
                                "troop_type": core._name,
                                **core._model_checks(Unit, UNIT_FIELDS),
                            }
                        ),
                        limit=_rows,
                    ),
                }
            ),
            limit=_rows,
        ),
        "characters": core._list(
            core._object(
                {
                    "ref": core._int,
                    "faction": core._optional_name,
                    "owner": core._optional_name,
                    **core._model_checks(Character, CHARACTER_FIELDS),
                    "reputation": core._list(
                        core._object(core._model_checks(Reputation, REPUTATION_FIELDS)),
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
    """(the section, {"forces"/"units"/"characters": {database id: ref}}) in five queries."""
    troop_types = list(TroopType.objects.filter(campaign=campaign).order_by("pk"))
    type_names = {t.pk: t.name for t in troop_types}
    forces = list(
        Force.objects.filter(campaign=campaign)
        .select_related("faction")
        .prefetch_related("units")
        .order_by("pk")
    )
    characters = list(
        Character.objects.filter(campaign=campaign)
        .select_related("faction", "owner")
        .prefetch_related("reputation")
        .order_by("pk")
    )
    refs: dict[str, dict] = {
        "forces": {force.pk: ref for ref, force in enumerate(forces, 1)},
        "units": {},
        "characters": {c.pk: ref for ref, c in enumerate(characters, 1)},
    }
    for force in forces:
        for unit in force.units.all():
            refs["units"][unit.pk] = len(refs["units"]) + 1
    section = {
        "troop_types": [core._fields(t, TROOP_TYPE_FIELDS) for t in troop_types],
        "forces": [
            {
                "ref": refs["forces"][force.pk],
                "faction": force.faction.name,
                **core._fields(force, FORCE_FIELDS),
                "units": [
                    {
                        "ref": refs["units"][unit.pk],
                        "troop_type": type_names[unit.troop_type_id],
                        **core._fields(unit, UNIT_FIELDS),
                    }
                    for unit in force.units.all()
                ],
            }
            for force in forces
        ],
        "characters": [
            {
                "ref": refs["characters"][c.pk],
                "faction": c.faction.name if c.faction else None,
                "owner": core._username(c.owner),
                **core._fields(c, CHARACTER_FIELDS),
                "reputation": [core._fields(r, REPUTATION_FIELDS) for r in c.reputation.all()],
            }
            for c in characters
        ],
    }
    return section, refs


def battle_user_ids(setup) -> set[int]:
    """The players a battle's setup names by id (each PC's owner)."""
    pcs = setup.get("pcs") if isinstance(setup, dict) else None
    return {
        pc["owner"] for pc in pcs or () if isinstance(pc, dict) and core._is_int(pc.get("owner"))
    }


def _map_setup_ids(setup, context: dict[str, Any]) -> None:
    """Map, in place, the setup's own ids (`context[...]` tables; unknown: null)."""
    if not isinstance(setup, dict):
        return
    for side in setup.get("sides") or ():
        if isinstance(side, dict):
            for name, table in (("factions", "factions"), ("forces", "forces")):
                if isinstance(side.get(name), list):
                    side[name] = [context[table].get(value) for value in side[name]]
    for pc in setup.get("pcs") or ():
        if isinstance(pc, dict):
            for name, table in (("character", "characters"), ("faction", "factions")):
                if name in pc:
                    pc[name] = context[table].get(pc[name])
            if "owner" in pc:
                pc["owner"] = context["owners"](pc["owner"])


def battle_out(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle as the file holds it: board keys and setup ids as refs (module docstring)."""
    tables = {"u": context["units"], "c": context["characters"]}
    orphans: dict[str, dict[int, int]] = {"u": {}, "c": {}}

    def convert(match, path):
        kind, number = match["kind"], int(match["id"])
        ref = tables[kind].get(number)
        if ref is None:
            ref = orphans[kind].setdefault(number, -len(orphans[kind]) - 1)
        return f"{match['pre']}{kind}{ref}{match['post']}"

    doc = core.map_battle_parts(
        doc, lambda value, path: core.map_piece_keys(value, PATTERN, convert, SKIP)
    )
    _map_setup_ids(doc["setup"], {**context, "owners": context["users"].get})
    return doc


# --- Validate -----------------------------------------------------------------------------------


def check_references(section: dict[str, Any], factions: set, path: str) -> None:
    """Unique names and refs; every faction and troop type in the file."""
    types = core._unique(section["troop_types"], "name", f"{path}.troop_types")
    core._unique(section["forces"], "ref", f"{path}.forces")
    core._unique(
        [{**f, "name": (f["faction"], f["name"])} for f in section["forces"]],
        "name",
        f"{path}.forces",
    )
    core._unique([u for f in section["forces"] for u in f["units"]], "ref", f"{path}.units")
    core._unique(section["characters"], "ref", f"{path}.characters")
    for index, force in enumerate(section["forces"]):
        where = f"{path}.forces[{index}]"
        core._check_ref(force["faction"], factions, f"{where}.faction", _("faction"))
        for number, unit in enumerate(force["units"]):
            here = f"{where}.units[{number}].troop_type"
            core._check_ref(unit["troop_type"], types, here, _("troop type"))
    for index, character in enumerate(section["characters"]):
        where = f"{path}.characters[{index}].faction"
        core._check_ref(character["faction"], factions, where, _("faction"))


def check_battle(battle: dict[str, Any], section: dict[str, Any], factions: set, path: str):
    """The setup's sides and PCs, and every board key and setup id a ref of the file (or a
    deleted row's negative number)."""
    tables = {
        "u": {u["ref"] for f in section["forces"] for u in f["units"]},
        "c": {c["ref"] for c in section["characters"]},
    }
    what = {"u": _("unit"), "c": _("character")}

    def convert(match, where):
        prefix, number = match["kind"], int(match["id"])
        if number > 0 and number not in tables[prefix]:
            raise core._refuse(
                _("%(path)s: no %(what)s “%(value)s” in the file."),
                path=f"{path}.{where}",
                what=what[prefix],
                value=match.group(0),
            )
        return match.group(0)

    core.map_battle_parts(
        battle,
        lambda value, where: core.map_piece_keys(value, PATTERN, convert, SKIP, where),
    )
    setup = battle["setup"]
    sides, pcs = setup.get("sides"), setup.get("pcs", [])
    for name, value in (("sides", sides), ("pcs", pcs)):
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise core._type_error(f"{path}.setup.{name}", _("a list"))
    forces = {f["ref"] for f in section["forces"]}
    for s, side in enumerate(sides):
        where = f"{path}.setup.sides[{s}]"
        for name, known, label in (("factions", factions, _("faction")),
                                   ("forces", forces, _("force"))):  # fmt: skip
            values = side.get(name, [])
            if not isinstance(values, list):
                raise core._type_error(f"{where}.{name}", _("a list"))
            for number, value in enumerate(values):
                core._check_ref(value, known, f"{where}.{name}[{number}]", label)
    for p, pc in enumerate(pcs):
        where = f"{path}.setup.pcs[{p}]"
        core._check_ref(pc.get("character"), tables["c"], f"{where}.character", what["c"])
        for name in ("faction", "owner"):
            if not isinstance(pc.get(name), str | None):
                raise core._type_error(f"{where}.{name}", _("text"))
        core._check_ref(pc.get("faction"), factions, f"{where}.faction", _("faction"))


def usernames(section: dict[str, Any], battles: list[dict]) -> set[str]:
    """The usernames the section and its battles name: characters' and PCs' owners."""
    names = {c["owner"] for c in section["characters"] if c["owner"]}
    return names | {
        pc["owner"] for b in battles for pc in b["setup"].get("pcs") or () if pc.get("owner")
    }


# --- Import -------------------------------------------------------------------------------------


def build_rows(section: dict[str, Any], users: dict, path: str) -> dict[str, Any]:
    """Unsaved rows, each validated by its model."""
    troop_types = [
        (row, core._build(TroopType, row, TROOP_TYPE_FIELDS, f"{path}.troop_types[{i}]"))
        for i, row in enumerate(section["troop_types"])
    ]
    forces = []
    for index, row in enumerate(section["forces"]):
        where = f"{path}.forces[{index}]"
        units = [
            (unit, core._build(Unit, unit, UNIT_FIELDS, f"{where}.units[{n}]"))
            for n, unit in enumerate(row["units"])
        ]
        forces.append((row, core._build(Force, row, FORCE_FIELDS, where), units))
    characters = []
    for index, row in enumerate(section["characters"]):
        where = f"{path}.characters[{index}]"
        character = core._build(
            Character, row, CHARACTER_FIELDS, where, owner=users.get(row["owner"])
        )
        reputation = [
            core._build(Reputation, entry, REPUTATION_FIELDS, f"{where}.reputation[{n}]")
            for n, entry in enumerate(row["reputation"])
        ]
        characters.append((row, character, reputation))
    return {"troop_types": troop_types, "forces": forces, "characters": characters}


def write_rows(campaign, rows: dict[str, Any], factions: dict, users: dict) -> dict[str, dict]:
    """Write the rows (inside the import's transaction); {"forces"/"units"/"characters":
    {ref: new id}} for the battles."""
    for _row, troop_type in rows["troop_types"]:
        troop_type.campaign = campaign
    TroopType.objects.bulk_create([t for _row, t in rows["troop_types"]], batch_size=1000)
    types = {t.name: t for _row, t in rows["troop_types"]}
    forces = []
    for row, force, _units in rows["forces"]:
        force.campaign, force.faction = campaign, factions[row["faction"]]
        forces.append(force)
    Force.objects.bulk_create(forces, batch_size=1000)
    core._restore(Force, forces, [row for row, *_rest in rows["forces"]], FORCE_FIELDS)
    units = {}
    for _row, force, force_units in rows["forces"]:
        for unit_row, unit in force_units:
            unit.force, unit.troop_type = force, types[unit_row["troop_type"]]
            units[unit_row["ref"]] = unit
    Unit.objects.bulk_create(units.values(), batch_size=1000)
    characters = []
    for row, character, _reputation in rows["characters"]:
        character.campaign = campaign
        character.faction = factions.get(row["faction"])
        characters.append(character)
    Character.objects.bulk_create(characters, batch_size=1000)
    entries = []
    for _row, character, reputation in rows["characters"]:
        for entry in reputation:
            entry.character = character
            entries.append(entry)
    Reputation.objects.bulk_create(entries, batch_size=1000)
    return {
        "forces": {row["ref"]: force.pk for row, force, _units in rows["forces"]},
        "units": {ref: unit.pk for ref, unit in units.items()},
        "characters": {row["ref"]: c.pk for row, c, _rep in rows["characters"]},
    }


def battle_in(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle of the file with this installation's ids (refs from `write_rows`)."""
    tables = {"u": context["units"], "c": context["characters"]}

    def convert(match, path):
        kind, number = match["kind"], int(match["id"])
        if number <= 0:
            return match.group(0)
        return f"{match['pre']}{kind}{tables[kind][number]}{match['post']}"

    def owner(username):
        user = context["users"].get(username)
        return user.pk if user is not None else None

    doc = core.map_battle_parts(
        doc, lambda value, path: core.map_piece_keys(value, PATTERN, convert, SKIP)
    )
    _map_setup_ids(doc["setup"], {**context, "owners": owner})
    return doc
