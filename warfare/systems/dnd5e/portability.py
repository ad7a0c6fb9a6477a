"""D&D 5e in the campaign file (format version 4): the hook `kingdoms.portability` calls.

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
row's ref. Text that is not a key (`SKIP`:
names, labels, stat blocks) is never read as one. A piece whose row was deleted after the
battle keeps a key with a negative number ("u-1", numbered per battle), which no row has:
the battle still replays, and applying its results skips that piece. The setup's own ids are
mapped too: a side's `army` (ref) and `faction` (name), a unit's `unit_id` and a solo's
`solo_id` (refs; null for a deleted row). The engine derives no dice from keys and breaks
initiative ties by the setup's order, so an imported battle replays exactly.
"""

import re
from typing import Any

from django.utils.translation import gettext as _

from kingdoms import portability as core
from warfare.engine.systems.dnd5e.creatures import Creature as EngineCreature

from .models import Army, Creature, Solo, Unit

EMPTY_SECTION = {"creatures": [], "armies": []}
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

_rows = core.LIMITS["system_rows"]
SCHEMA = core._object(
    {
        "creatures": core._list(
            core._object(core._model_checks(Creature, CREATURE_FIELDS)), limit=_rows
        ),
        "armies": core._list(
            core._object(
                {
                    "ref": core._int,
                    "faction": core._name,
                    **core._model_checks(Army, ARMY_FIELDS),
                    "solos": core._list(
                        core._object(
                            {
                                "ref": core._int,
                                "creature": core._name,
                                **core._model_checks(Solo, SOLO_FIELDS),
                            }
                        ),
                        limit=_rows,
                    ),
                    "units": core._list(
                        core._object(
                            {
                                "ref": core._int,
                                "creature": core._name,
                                "commander": core._ref,
                                **core._model_checks(Unit, UNIT_FIELDS),
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
    """(the section, {"armies"/"units"/"solos": {database id: ref}}) in four queries."""
    creatures = list(Creature.objects.filter(campaign=campaign).order_by("pk"))
    keys = {c.pk: c.key for c in creatures}
    armies = list(
        Army.objects.filter(campaign=campaign)
        .select_related("faction")
        .prefetch_related("solos", "units")
        .order_by("pk")
    )
    refs: dict[str, dict] = {"armies": {}, "units": {}, "solos": {}}
    for army in armies:
        refs["armies"][army.pk] = len(refs["armies"]) + 1
        for solo in army.solos.all():
            refs["solos"][solo.pk] = len(refs["solos"]) + 1
        for unit in army.units.all():
            refs["units"][unit.pk] = len(refs["units"]) + 1
    section = {
        "creatures": [core._fields(c, CREATURE_FIELDS) for c in creatures],
        "armies": [
            {
                "ref": refs["armies"][army.pk],
                "faction": army.faction.name,
                **core._fields(army, ARMY_FIELDS),
                "solos": [
                    {
                        "ref": refs["solos"][solo.pk],
                        "creature": keys[solo.creature_id],
                        **core._fields(solo, SOLO_FIELDS),
                    }
                    for solo in army.solos.all()
                ],
                "units": [
                    {
                        "ref": refs["units"][unit.pk],
                        "creature": keys[unit.creature_id],
                        "commander": refs["solos"].get(unit.commander_id),
                        **core._fields(unit, UNIT_FIELDS),
                    }
                    for unit in army.units.all()
                ],
            }
            for army in armies
        ],
    }
    return section, refs


def battle_user_ids(setup) -> set[int]:
    """The users a battle's setup names by id: none (sides are factions)."""
    return set()


def _map_setup_ids(setup, context: dict[str, Any]) -> None:
    """Map, in place, the setup's own ids: a side's army and faction, units' and solos' ids
    (`context[...]` tables; an id not in them becomes null)."""
    for side in setup.get("sides") or () if isinstance(setup, dict) else ():
        if not isinstance(side, dict):
            continue
        for name, table in (("army", "armies"), ("faction", "factions")):
            if name in side:
                side[name] = context[table].get(side[name])
        for name, table, id_name in (("units", "units", "unit_id"), ("solos", "solos", "solo_id")):
            for piece in side.get(name) or ():
                if isinstance(piece, dict) and id_name in piece:
                    piece[id_name] = context[table].get(piece[id_name])


def battle_out(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle as the file holds it: board keys and setup ids as refs (module docstring)."""
    tables = {"u": context["units"], "s": context["solos"]}
    orphans: dict[str, dict[int, int]] = {"u": {}, "s": {}}

    def convert(match, path):
        kind, number = match["kind"], int(match["id"])
        ref = tables[kind].get(number)
        if ref is None:
            ref = orphans[kind].setdefault(number, -len(orphans[kind]) - 1)
        return f"{match['pre']}{kind}{ref}{match['post']}"

    doc = core.map_battle_parts(
        doc, lambda value, path: core.map_piece_keys(value, PATTERN, convert, SKIP)
    )
    _map_setup_ids(doc["setup"], context)
    return doc


# --- Validate -----------------------------------------------------------------------------------


def _refs(section: dict[str, Any], kind: str) -> set[int]:
    return {row["ref"] for army in section["armies"] for row in army[kind]}


def check_references(section: dict[str, Any], factions: set, path: str) -> None:
    """Unique keys, refs and names; every faction, creature and commander in the file."""
    creatures = core._unique(section["creatures"], "key", f"{path}.creatures")
    core._unique(section["armies"], "ref", f"{path}.armies")
    core._unique(
        [{**a, "name": (a["faction"], a["name"])} for a in section["armies"]],
        "name",
        f"{path}.armies",
    )
    for kind in ("solos", "units"):
        rows = [row for army in section["armies"] for row in army[kind]]
        core._unique(rows, "ref", f"{path}.{kind}")
    commanders = set()
    for index, army in enumerate(section["armies"]):
        where = f"{path}.armies[{index}]"
        core._check_ref(army["faction"], factions, f"{where}.faction", _("faction"))
        solos = {solo["ref"] for solo in army["solos"]}
        for kind in ("solos", "units"):
            for number, row in enumerate(army[kind]):
                here = f"{where}.{kind}[{number}]"
                core._check_ref(row["creature"], creatures, f"{here}.creature", _("creature"))
        for number, unit in enumerate(army["units"]):
            here = f"{where}.units[{number}].commander"
            core._check_ref(unit["commander"], solos, here, _("solo of this army"))
            if unit["commander"] is not None and unit["commander"] in commanders:
                raise core._refuse(
                    _("%(path)s: solo %(value)s commands two units."),
                    path=here,
                    value=unit["commander"],
                )
            commanders.add(unit["commander"])


def check_battle(battle: dict[str, Any], section: dict[str, Any], factions: set, path: str):
    """The setup's sides, and every board key and setup id a ref of the file (or a deleted
    piece's negative number)."""
    tables = {"u": _refs(section, "units"), "s": _refs(section, "solos")}
    what = {"u": _("unit"), "s": _("solo")}

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
    sides = battle["setup"].get("sides")
    if not isinstance(sides, list) or not all(isinstance(side, dict) for side in sides):
        raise core._type_error(f"{path}.setup.sides", _("a list of sides"))
    armies = {army["ref"] for army in section["armies"]}
    for s, side in enumerate(sides):
        where = f"{path}.setup.sides[{s}]"
        core._check_ref(side.get("army"), armies, f"{where}.army", _("army"))
        if not isinstance(side.get("faction"), str | None):
            raise core._type_error(f"{where}.faction", _("text"))
        core._check_ref(side.get("faction"), factions, f"{where}.faction", _("faction"))
        for name, kind, id_name in (("units", "u", "unit_id"), ("solos", "s", "solo_id")):
            pieces = side.get(name)
            if not isinstance(pieces, list) or not all(isinstance(p, dict) for p in pieces):
                raise core._type_error(f"{where}.{name}", _("a list"))
            for number, piece in enumerate(pieces):
                here = f"{where}.{name}[{number}].{id_name}"
                core._check_ref(piece.get(id_name), tables[kind], here, what[kind])


def usernames(section: dict[str, Any], battles: list[dict]) -> set[str]:
    """The usernames the section and its battles name: none."""
    return set()


# --- Import -------------------------------------------------------------------------------------


def build_rows(section: dict[str, Any], users: dict, path: str) -> dict[str, Any]:
    """Unsaved rows, each validated (a stat block also by the rules engine)."""
    creatures = []
    for index, row in enumerate(section["creatures"]):
        where = f"{path}.creatures[{index}]"
        creature = core._build(Creature, row, CREATURE_FIELDS, where)
        try:
            EngineCreature.from_dict(creature.to_engine())
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise core._refuse(
                _("%(path)s: the rules cannot read this stat block."), path=where
            ) from None
        creatures.append((row, creature))
    armies = []
    for index, row in enumerate(section["armies"]):
        where = f"{path}.armies[{index}]"
        solos = [
            (solo, core._build(Solo, solo, SOLO_FIELDS, f"{where}.solos[{n}]"))
            for n, solo in enumerate(row["solos"])
        ]
        units = [
            (unit, core._build(Unit, unit, UNIT_FIELDS, f"{where}.units[{n}]"))
            for n, unit in enumerate(row["units"])
        ]
        armies.append((row, core._build(Army, row, ARMY_FIELDS, where), solos, units))
    return {"creatures": creatures, "armies": armies}


def write_rows(campaign, rows: dict[str, Any], factions: dict, users: dict) -> dict[str, dict]:
    """Write the rows (inside the import's transaction); {"armies"/"units"/"solos": {ref:
    new id}} for the battles."""
    for _row, creature in rows["creatures"]:
        creature.campaign = campaign
    Creature.objects.bulk_create([c for _row, c in rows["creatures"]], batch_size=1000)
    by_key = {creature.key: creature for _row, creature in rows["creatures"]}
    armies = []
    for row, army, _solos, _units in rows["armies"]:
        army.campaign, army.faction = campaign, factions[row["faction"]]
        armies.append(army)
    Army.objects.bulk_create(armies, batch_size=1000)
    core._restore(Army, armies, [row for row, *_rest in rows["armies"]], ARMY_FIELDS)
    solos = {}
    for _row, army, army_solos, _units in rows["armies"]:
        for solo_row, solo in army_solos:
            solo.army, solo.creature = army, by_key[solo_row["creature"]]
            solos[solo_row["ref"]] = solo
    Solo.objects.bulk_create(solos.values(), batch_size=1000)
    units = {}
    for _row, army, _solos, army_units in rows["armies"]:
        for unit_row, unit in army_units:
            unit.army, unit.creature = army, by_key[unit_row["creature"]]
            unit.commander = solos.get(unit_row["commander"])
            units[unit_row["ref"]] = unit
    Unit.objects.bulk_create(units.values(), batch_size=1000)
    return {
        "armies": {row["ref"]: army.pk for row, army, _solos, _units in rows["armies"]},
        "units": {ref: unit.pk for ref, unit in units.items()},
        "solos": {ref: solo.pk for ref, solo in solos.items()},
    }


def battle_in(doc: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """A battle of the file with this installation's ids (refs from `write_rows`)."""
    tables = {"u": context["units"], "s": context["solos"]}

    def convert(match, path):
        kind, number = match["kind"], int(match["id"])
        if number <= 0:
            return match.group(0)
        return f"{match['pre']}{kind}{tables[kind][number]}{match['post']}"

    doc = core.map_battle_parts(
        doc, lambda value, path: core.map_piece_keys(value, PATTERN, convert, SKIP)
    )
    _map_setup_ids(doc["setup"], context)
    return doc
