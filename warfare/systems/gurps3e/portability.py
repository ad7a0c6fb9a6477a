"""GURPS 3e in the campaign file (format version 3 on): its `SystemSection`.

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
id is the row's ref (`PIECES`, shared with D&D 5e). Text that is not a key (`SKIP`: names,
troop types, commanders, reputation sources) is never read as one; a deleted piece keeps a
negative number. The setup's own ids are mapped too: a side's `factions` (names) and
`forces` (refs), a PC's `character` (ref), `faction` (name) and `owner` (username). The
engine derives no dice from keys; it may order keys by their text (routed units), so an
import keeps the order its replay gives.
"""

import re
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from battles.portability import (
    PieceKeys,
    check_sides,
    check_text_ref,
    same_board_but_key_order,
    user_id,
)
from kingdoms import portability as core
from kingdoms.fileschema import Name, Row, Whole

from .models import Character, Force, Reputation, TroopType, Unit

KEY = "gurps3e"
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
PIECES = PieceKeys(
    PATTERN,
    {"u": "units", "c": "characters"},
    {"u": gettext_lazy("unit"), "c": gettext_lazy("character")},
    SKIP,
)


def _map_setup_ids(setup, context: dict[str, Any], owners) -> None:
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
                pc["owner"] = owners(pc["owner"])


class Gurps3eSection(core.SystemSection):
    key = KEY
    keys = (KEY,)
    since = 3
    same_board = staticmethod(same_board_but_key_order)
    owns = {
        TroopType: (TROOP_TYPE_FIELDS, ("campaign",)),
        Force: (FORCE_FIELDS, ("campaign", "faction")),
        Unit: (UNIT_FIELDS, ("force", "troop_type")),
        Character: (CHARACTER_FIELDS, ("campaign", "faction", "owner")),
        Reputation: (REPUTATION_FIELDS, ("character",)),
    }

    def empty(self):
        return {KEY: {"troop_types": [], "forces": [], "characters": []}}

    def fields(self):
        unit = Row({"ref": Whole(), "troop_type": Name()}, model=Unit, names=UNIT_FIELDS)
        force = Row(
            {"ref": Whole(), "faction": Name(), "units": core.system_rows(unit)},
            model=Force,
            names=FORCE_FIELDS,
        )
        reputation = Row(model=Reputation, names=REPUTATION_FIELDS)
        character = Row(
            {
                "ref": Whole(),
                "faction": Name(allow_null=True),
                "owner": Name(allow_null=True),
                "reputation": core.system_rows(reputation),
            },
            model=Character,
            names=CHARACTER_FIELDS,
        )
        troop_type = Row(model=TroopType, names=TROOP_TYPE_FIELDS)
        return {
            KEY: Row(
                {
                    "troop_types": core.system_rows(troop_type),
                    "forces": core.system_rows(force),
                    "characters": core.system_rows(character),
                }
            )
        }

    # --- Export ---

    def export(self, campaign, context):
        """(the section, {"forces"/"units"/"characters": {database id: ref}}) in five
        queries."""
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
        refs = {
            "forces": core.numbered(forces),
            "units": core.numbered(u for f in forces for u in f.units.all()),
            "characters": core.numbered(characters),
        }
        units = ("units", UNIT_FIELDS, lambda unit: {
            "ref": refs["units"][unit.pk], "troop_type": type_names[unit.troop_type_id],
        })  # fmt: skip
        section = {
            "troop_types": core.export_rows(troop_types, TROOP_TYPE_FIELDS),
            "forces": core.export_rows(
                forces, FORCE_FIELDS,
                lambda force: {"ref": refs["forces"][force.pk], "faction": force.faction.name},
                (units,),
            ),
            "characters": core.export_rows(
                characters, CHARACTER_FIELDS,
                lambda c: {"ref": refs["characters"][c.pk],
                           "faction": c.faction.name if c.faction else None,
                           "owner": core.username(c.owner)},
                (("reputation", REPUTATION_FIELDS, None),),
            ),
        }  # fmt: skip
        return {KEY: section}, refs

    def battle_user_ids(self, setup):
        """The players a battle's setup names by id (each PC's owner)."""
        pcs = setup.get("pcs") if isinstance(setup, dict) else None
        return {
            pc["owner"] for pc in pcs or () if isinstance(pc, dict) and core.is_int(pc.get("owner"))
        }

    def battle_out(self, battle, context):
        doc = PIECES.out(battle, context)
        _map_setup_ids(doc["setup"], context, context["users"].get)
        return doc

    # --- Validate ---

    def check(self, document, context):
        """Unique names and refs; every faction and troop type in the file."""
        section, factions, path = document[KEY], context["factions"], KEY
        types = core.unique(section["troop_types"], "name", f"{path}.troop_types")
        forces = core.check_forces(
            section["forces"], factions, f"{path}.forces",
            [("units", "troop_type", types, _("troop type"))],
        )  # fmt: skip
        units = core.unique(
            [u for f in section["forces"] for u in f["units"]], "ref", f"{path}.units"
        )
        characters = core.unique(section["characters"], "ref", f"{path}.characters")
        for index, character in enumerate(section["characters"]):
            where = f"{path}.characters[{index}].faction"
            core.check_ref(character["faction"], factions, where, _("faction"))
        context[KEY] = {"pieces": {"u": units, "c": characters}, "forces": forces}

    def check_battle(self, battle, path, document, context):
        """The setup's sides and PCs, and every board key and setup id a ref of the file (or
        a deleted row's negative number)."""
        refs, factions = context[KEY]["pieces"], context["factions"]
        PIECES.check(battle, refs, path)
        setup = battle["setup"]
        sides, pcs = setup.get("sides"), setup.get("pcs", [])
        check_sides(sides, f"{path}.setup.sides", _("a list"))
        check_sides(pcs, f"{path}.setup.pcs", _("a list"))
        forces = context[KEY]["forces"]
        for s, side in enumerate(sides):
            where = f"{path}.setup.sides[{s}]"
            for name, known, label in (("factions", factions, _("faction")),
                                       ("forces", forces, _("force"))):  # fmt: skip
                values = side.get(name, [])
                if not isinstance(values, list):
                    raise core.type_error(f"{where}.{name}", _("a list"))
                for number, found in enumerate(values):
                    core.check_ref(found, known, f"{where}.{name}[{number}]", label)
        for p, pc in enumerate(pcs):
            where = f"{path}.setup.pcs[{p}]"
            core.check_ref(pc.get("character"), refs["c"], f"{where}.character", PIECES.what["c"])
            if not isinstance(pc.get("owner"), str | None):
                raise core.type_error(f"{where}.owner", _("text"))
            check_text_ref(pc.get("faction"), factions, f"{where}.faction", _("faction"))

    def usernames(self, document):
        """The characters' owners."""
        return {c["owner"] for c in document[KEY]["characters"] if c["owner"]}

    def battle_usernames(self, battles):
        """The PCs' owners."""
        return {
            pc["owner"] for b in battles for pc in b["setup"].get("pcs") or () if pc.get("owner")
        }

    # --- Import ---

    def build(self, document, context):
        """Unsaved rows, each validated; a unit or reputation entry already holds its
        (unsaved) force or character."""
        section, path, users = document[KEY], KEY, context["users"]
        forces, units = core.build_nested(
            Force, section["forces"], FORCE_FIELDS, f"{path}.forces",
            (("units", Unit, UNIT_FIELDS, "force"),),
        )  # fmt: skip
        characters, reputation = core.build_nested(
            Character, section["characters"], CHARACTER_FIELDS, f"{path}.characters",
            (("reputation", Reputation, REPUTATION_FIELDS, "character"),),
            lambda row: {"owner": users.get(row["owner"])},
        )  # fmt: skip
        rows = {
            "troop_types": core.build_all(
                TroopType, section["troop_types"], TROOP_TYPE_FIELDS, f"{path}.troop_types"
            ),
            "forces": forces,
            "characters": characters,
            **units,
            **reputation,
        }
        return rows

    def write(self, campaign, rows, context):
        """{"forces"/"units"/"characters": {ref: new id}} for the battles."""
        factions = context["factions"]
        core.save_all(
            TroopType, rows["troop_types"], TROOP_TYPE_FIELDS, lambda row: {"campaign": campaign}
        )
        types = {troop_type.name: troop_type for _row, troop_type in rows["troop_types"]}
        core.save_all(
            Force, rows["forces"], FORCE_FIELDS,
            lambda row: {"campaign": campaign, "faction": factions[row["faction"]]},
        )  # fmt: skip
        core.save_all(
            Unit, rows["units"], UNIT_FIELDS, lambda row: {"troop_type": types[row["troop_type"]]}
        )
        core.save_all(
            Character, rows["characters"], CHARACTER_FIELDS,
            lambda row: {"campaign": campaign, "faction": factions.get(row["faction"])},
        )  # fmt: skip
        core.save_all(Reputation, rows["reputation"], REPUTATION_FIELDS)
        return {
            kind: {row["ref"]: obj.pk for row, obj in rows[kind]}
            for kind in ("forces", "units", "characters")
        }

    def battle_in(self, battle, context):
        doc = PIECES.into(battle, context)
        _map_setup_ids(doc["setup"], context, user_id(context["users"]))
        return doc


SECTION = Gurps3eSection()
