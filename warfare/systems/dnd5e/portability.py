"""D&D 5e in the campaign file (format version 4): its `SystemSection`.

Section ``dnd5e``::

    creatures  [{key, name, size, ac, hp, speeds, ..., from_srd, version}]
    armies     [{ref, faction, name, notes, version, created_at,
                 solos: [{ref, creature, name, pc, hp, dead}],
                 units: [{ref, creature, commander, name, kind, configuration, stands,
                          stand_damage}]}]

A creature is named by its `key` (unique in a campaign), a faction by its name; armies, solos
and units by refs, numbers local to the file (each kind numbered from 1 over the whole file);
a unit's `commander` is the ref of a solo of its own army.

Battles. The board keys a unit "u<unit id>", its stands "u<unit id>.<n>" and a solo
"s<solo id>", wherever they occur (setup, snapshot, outcome, commands, event params; values
and object keys alike, and a solo's spell uses "s<id>:<spell>"): in the file the id is the
row's ref (`PIECES`, shared with GURPS 3e). Text that is not a key (`SKIP`: names, labels,
stat blocks) is never read as one; a deleted piece keeps a negative number. The setup's own
ids are mapped too: a side's `army` (ref) and `faction` (name), a unit's `unit_id` and a
solo's `solo_id` (refs; null for a deleted row). The engine derives no dice from keys and
breaks initiative ties by the setup's order, so an imported battle replays exactly.
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
)
from kingdoms import portability as core
from kingdoms.fileschema import Name, Ref, Row, Whole
from warfare.engine.systems.dnd5e.creatures import Creature as EngineCreature

from .models import Army, Creature, Solo, Unit

KEY = "dnd5e"
CREATURE_FIELDS = (
    "key", "name", "size", "ac", "hp", "speeds", "abilities", "saves", "attacks", "spells",
    "stealth", "passive_perception", "immunities", "from_srd", "version",
)  # fmt: skip
ARMY_FIELDS = ("name", "notes", "version", "created_at")
SOLO_FIELDS = ("name", "pc", "hp", "dead")
UNIT_FIELDS = ("name", "kind", "configuration", "stands", "stand_damage")

#: A board key, alone or inside a code: "u12", "u12.3", "s4", "s4:fireball" (spell uses).
PATTERN = re.compile(r"(?P<pre>)(?P<kind>[us])(?P<id>-?[0-9]+)(?P<post>(?:\.[0-9]+)?(?::\S+)?)")
SKIP = frozenset({"name", "label", "creature", "creatures"})
PIECES = PieceKeys(
    PATTERN, {"u": "units", "s": "solos"}, {"u": gettext_lazy("unit"), "s": gettext_lazy("solo")},
    SKIP,
)  # fmt: skip
_SETUP_IDS = (("units", "units", "unit_id"), ("solos", "solos", "solo_id"))


def upgrade_3_to_4(doc: dict[str, Any]) -> None:
    """Version 4 added the HP a unit's surviving stands lost in battle (`stand_damage`);
    version 3 wrote none: every stand at full HP."""
    for army in (doc.get(KEY) or {}).get("armies") or ():
        for unit in army.get("units") or ():
            unit.setdefault("stand_damage", [])


def _map_setup_ids(setup, context: dict[str, Any]) -> None:
    """Map, in place, the setup's own ids: a side's army and faction, units' and solos' ids
    (`context[...]` tables; an id not in them becomes null)."""
    for side in setup.get("sides") or () if isinstance(setup, dict) else ():
        if not isinstance(side, dict):
            continue
        for name, table in (("army", "armies"), ("faction", "factions")):
            if name in side:
                side[name] = context[table].get(side[name])
        for name, table, id_name in _SETUP_IDS:
            for piece in side.get(name) or ():
                if isinstance(piece, dict) and id_name in piece:
                    piece[id_name] = context[table].get(piece[id_name])


class Dnd5eSection(core.SystemSection):
    key = KEY
    keys = (KEY,)
    since = 3
    upgrades = {3: upgrade_3_to_4}
    same_board = staticmethod(same_board_but_key_order)
    owns = {
        Creature: (CREATURE_FIELDS, ("campaign",)),
        Army: (ARMY_FIELDS, ("campaign", "faction")),
        Solo: (SOLO_FIELDS, ("army", "creature")),
        Unit: (UNIT_FIELDS, ("army", "creature", "commander")),
    }

    def empty(self):
        return {KEY: {"creatures": [], "armies": []}}

    def fields(self):
        solo = Row({"ref": Whole(), "creature": Name()}, model=Solo, names=SOLO_FIELDS)
        unit = Row(
            {"ref": Whole(), "creature": Name(), "commander": Ref()},
            model=Unit,
            names=UNIT_FIELDS,
        )
        army = Row(
            {
                "ref": Whole(),
                "faction": Name(),
                "solos": core.system_rows(solo),
                "units": core.system_rows(unit),
            },
            model=Army,
            names=ARMY_FIELDS,
        )
        creature = Row(model=Creature, names=CREATURE_FIELDS)
        return {
            KEY: Row({"creatures": core.system_rows(creature), "armies": core.system_rows(army)})
        }

    # --- Export ---

    def export(self, campaign, context):
        """(the section, {"armies"/"units"/"solos": {database id: ref}}) in four queries."""
        creatures = list(Creature.objects.filter(campaign=campaign).order_by("pk"))
        keys = {c.pk: c.key for c in creatures}
        armies = list(
            Army.objects.filter(campaign=campaign)
            .select_related("faction")
            .prefetch_related("solos", "units")
            .order_by("pk")
        )
        refs = {
            "armies": core.numbered(armies),
            "solos": core.numbered(s for a in armies for s in a.solos.all()),
            "units": core.numbered(u for a in armies for u in a.units.all()),
        }
        solos = ("solos", SOLO_FIELDS, lambda solo: {
            "ref": refs["solos"][solo.pk], "creature": keys[solo.creature_id],
        })  # fmt: skip
        units = ("units", UNIT_FIELDS, lambda unit: {
            "ref": refs["units"][unit.pk], "creature": keys[unit.creature_id],
            "commander": refs["solos"].get(unit.commander_id),
        })  # fmt: skip
        section = {
            "creatures": core.export_rows(creatures, CREATURE_FIELDS),
            "armies": core.export_rows(
                armies, ARMY_FIELDS,
                lambda army: {"ref": refs["armies"][army.pk], "faction": army.faction.name},
                (solos, units),
            ),
        }  # fmt: skip
        return {KEY: section}, refs

    def battle_out(self, battle, context):
        doc = PIECES.out(battle, context)
        _map_setup_ids(doc["setup"], context)
        return doc

    # --- Validate ---

    def check(self, document, context):
        """Unique keys, refs and names; every faction, creature and commander in the file."""
        section, factions, path = document[KEY], context["factions"], KEY
        creatures = core.unique(section["creatures"], "key", f"{path}.creatures")
        armies = core.check_forces(
            section["armies"], factions, f"{path}.armies",
            [(kind, "creature", creatures, _("creature")) for kind in ("solos", "units")],
        )  # fmt: skip
        refs = {}
        for kind in ("solos", "units"):
            rows = [row for army in section["armies"] for row in army[kind]]
            refs[kind[0]] = core.unique(rows, "ref", f"{path}.{kind}")
        commanders = set()
        for index, army in enumerate(section["armies"]):
            where = f"{path}.armies[{index}]"
            solos = {solo["ref"] for solo in army["solos"]}
            for number, unit in enumerate(army["units"]):
                here = f"{where}.units[{number}].commander"
                core.check_ref(unit["commander"], solos, here, _("solo of this army"))
                if unit["commander"] is not None and unit["commander"] in commanders:
                    raise core.refuse(
                        _("%(path)s: solo %(value)s commands two units."),
                        path=here,
                        value=unit["commander"],
                    )
                commanders.add(unit["commander"])
        context[KEY] = {"pieces": refs, "armies": armies}

    def check_battle(self, battle, path, document, context):
        """The setup's sides, and every board key and setup id a ref of the file (or a
        deleted piece's negative number)."""
        refs, factions = context[KEY]["pieces"], context["factions"]
        PIECES.check(battle, refs, path)
        sides = battle["setup"].get("sides")
        check_sides(sides, f"{path}.setup.sides", _("a list of sides"))
        for s, side in enumerate(sides):
            where = f"{path}.setup.sides[{s}]"
            core.check_ref(side.get("army"), context[KEY]["armies"], f"{where}.army", _("army"))
            check_text_ref(side.get("faction"), factions, f"{where}.faction", _("faction"))
            for name, _table, id_name in _SETUP_IDS:
                pieces = side.get(name)
                if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
                    raise core.type_error(f"{where}.{name}", _("a list"))
                kind = name[0]
                for number, piece in enumerate(pieces):
                    here = f"{where}.{name}[{number}].{id_name}"
                    core.check_ref(piece.get(id_name), refs[kind], here, PIECES.what[kind])

    # --- Import ---

    def build(self, document, context):
        """Unsaved rows, each validated (a stat block also by the rules engine); a solo or
        unit already holds its (unsaved) army."""
        section, path = document[KEY], KEY
        creatures = core.build_all(
            Creature, section["creatures"], CREATURE_FIELDS, f"{path}.creatures"
        )
        for index, (_row, creature) in enumerate(creatures):
            try:
                EngineCreature.from_dict(creature.to_engine())
            except (KeyError, TypeError, ValueError, AttributeError, IndexError):
                raise core.refuse(
                    _("%(path)s: the rules cannot read this stat block."),
                    path=f"{path}.creatures[{index}]",
                ) from None
        armies, pieces = core.build_nested(
            Army, section["armies"], ARMY_FIELDS, f"{path}.armies",
            (("solos", Solo, SOLO_FIELDS, "army"), ("units", Unit, UNIT_FIELDS, "army")),
        )  # fmt: skip
        rows = {"creatures": creatures, "armies": armies, **pieces}
        return rows

    def write(self, campaign, rows, context):
        """{"armies"/"units"/"solos": {ref: new id}} for the battles."""
        factions = context["factions"]
        creatures = core.save_all(
            Creature, rows["creatures"], CREATURE_FIELDS, lambda row: {"campaign": campaign}
        )
        by_key = {creature.key: creature for creature in creatures}
        core.save_all(
            Army, rows["armies"], ARMY_FIELDS,
            lambda row: {"campaign": campaign, "faction": factions[row["faction"]]},
        )  # fmt: skip
        core.save_all(
            Solo, rows["solos"], SOLO_FIELDS, lambda row: {"creature": by_key[row["creature"]]}
        )
        solos = {row["ref"]: solo for row, solo in rows["solos"]}
        core.save_all(
            Unit, rows["units"], UNIT_FIELDS,
            lambda row: {"creature": by_key[row["creature"]],
                         "commander": solos.get(row["commander"])},
        )  # fmt: skip
        return {
            kind: {row["ref"]: obj.pk for row, obj in rows[kind]}
            for kind in ("armies", "units", "solos")
        }

    def battle_in(self, battle, context):
        doc = PIECES.into(battle, context)
        _map_setup_ids(doc["setup"], context)
        return doc


SECTION = Dnd5eSection()
