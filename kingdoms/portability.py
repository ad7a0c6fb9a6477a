"""Campaign export and import: one versioned JSON document with everything of a campaign.

Format ``warfare-campaign``, version 4. Top-level keys::

    format, version, exported_at
    campaign      {name, description, rule_system, narrative_warfare, created_by,
                   created_at, updated_at, version}
    members       [{username, role, faction, joined_at}]
    factions      [{name, description, controlled_by, known_to_players, created_at, version,
                    kingdom: {...} | null, command_staff: {...} | null}]
    settlements   [{faction, name, hex, is_capital, notes, version}]
    armies        [{ref, faction, name, army_type, ..., status, notes, version,
                    created_at, updated_at}]
    log           [{faction, army, turn, code, data, actor, created_at}]
    recruitments  [{faction, started_by, army_type, ..., army, created_at, updated_at}]
    gurps4e       {element_types, forces}               (warfare.systems.gurps4e.portability)
    gurps3e       {troop_types, forces, characters}     (warfare.systems.gurps3e.portability)
    dnd5e         {creatures, armies}                   (warfare.systems.dnd5e.portability)
    battles       [{name, system, setup, seed, snapshot, seq, status, players_may_act,
                    outcome, created_by, created_at, updated_at,
                    commands: [{position, command, actor, created_at, undone_at}],
                    events: [{command, round, code, params, created_at}]}]

References inside the file are natural keys, never database ids of the source installation:
factions and settlements by name (unique in a campaign), users by username, armies by `ref`,
a number local to the file (armies may share a name). Log parameters that name armies
(`ARMY_PARAMS`) hold army refs as well. Invite links (their tokens are secrets) and passwords
are not exported.

Battles (version 2). The engine keys armies by their database id as a string; in the file
every such key in a battle's setup, snapshot, outcome, commands and events is the army's ref
as a string ("3"), found by one walk (`_map_battle_json`) that knows which JSON keys hold army
keys (`BATTLE_ARMY_VALUES`, `BATTLE_ARMY_KEYED`). A setup's "faction" (an id) is the faction's
name in the file. An event names its command by its index in the battle's "commands" (not
by position: an undone command and its replacement share a position). The armies keep their
order in every list, which initiative ties depend on.

The engine also derives each army's initiative die from its key, which an import changes, so
the export writes every seeded initiative die into the setup's "initiative_dice" (the snapshot
then calls those rolls "typed"; the battle log keeps its events as they were). A replay of the
imported battle thus rolls the same initiative. Import replays every battle with the new keys
and refuses the file unless the board comes out as stored. Engagement pairs are the one
exception: the engine orders them by the text of the keys ("10" < "9"), so the file orders
them by ref text, and an import keeps the order its replay gives.

Import reads a file in four steps, all before anything is written: parse (size, JSON, an
object, the format), upgrade (older format versions, `UPGRADES`), validate (the schema below,
every reference, the models' own validation and, for Pathfinder, the rules), write (one
transaction). A damaged or hostile file raises `ImportRefused` naming the problem.

Other rule systems (version 3). Each of GURPS 4e, GURPS 3e and D&D 5e has a hook module,
`warfare.<system>.portability` (`SYSTEM_HOOKS`), whose docstring describes its section and
how its battles name their rows; this module orchestrates and calls, per system:
``SCHEMA`` and ``EMPTY_SECTION`` (the section's shape, and what an upgrade from version 2
adds); ``export_rows(campaign) -> (section, refs)`` ({kind: {database id: ref}}, a fixed
number of queries); ``battle_user_ids(setup)`` (the users a setup names by id);
``battle_out(battle, context)`` (a battle's JSON with ids as refs, names and usernames);
``check_references(section, factions, path)`` and ``check_battle(battle, section, factions,
path)`` (validation, before anything is written); ``usernames(section, battles)``;
``build_rows(section, users, path)`` (unsaved rows, each validated); ``write_rows(campaign,
rows, factions, users) -> refs`` ({kind: {ref: new id}}, inside the one transaction); and
``battle_in(battle, context)`` (a battle's JSON with this installation's ids). Every section
is written whatever the campaign's rule system (as the database holds them), and so is every
battle of a system with a board. None of those engines derives dice from keys, so no roll
needs pinning; a battle that names its pieces by key text ("u12") may order them by that
text, so its import, like Pathfinder's engagement pairs, keeps the order its replay gives
when nothing else differs (`_key_order_free`). Every imported battle is replayed and must
give the board of the file.
Version 2 files import with empty sections (`upgrade_2_to_3`).
"""

import copy
import importlib
import json
import re
from collections.abc import Callable
from datetime import UTC, datetime
from decimal import Decimal
from types import ModuleType
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from battles.models import Battle, BattleCommand, BattleEvent
from warfare.engine.battle.protocol import Command, replay
from warfare.engine.battle.registry import get_battle_system
from warfare.engine.systems.pf2e.armies import stat_block
from warfare.engine.systems.pf2e.validation import validate_army
from warfare.messages import problem_messages
from warfare.systems.pf2e.mapping import army_spec
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry, Recruitment

from .models import Campaign, CommandStaff, Faction, Membership, Role, RuleSystem, Settlement

FORMAT = "warfare-campaign"
VERSION = 4
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 32
MAX_TEXT = 100_000
LIMITS = {
    "members": 1_000,
    "factions": 1_000,
    "settlements": 10_000,
    "armies": 10_000,
    "log": 200_000,
    "recruitments": 10_000,
    "battles": 2_000,
    # Totals over all battles of the file (each battle's own list has the same limit).
    "battle_commands": 100_000,
    "battle_events": 100_000,
    # Each list of a rule system's section (forces, units, characters, creatures...).
    "system_rows": 10_000,
}

# The rule systems whose persistent data and battles a hook module exports and imports: the
# module `warfare.<key>.portability` (see `_systems`). Pathfinder is built in here.
SYSTEM_HOOKS = ("gurps4e", "gurps3e", "dnd5e")

# The model fields each section carries, beyond its references. A test checks that every
# concrete field of these models is either here or a reference: a new column must be added
# to the format (and, if older files lack it, to an upgrade step).
CAMPAIGN_FIELDS = (
    "name", "description", "rule_system", "narrative_warfare", "created_at", "updated_at",
    "version",
)  # fmt: skip
MEMBER_FIELDS = ("role", "joined_at")
FACTION_FIELDS = (
    "name", "description", "controlled_by", "known_to_players", "created_at", "version",
)  # fmt: skip
KINGDOM_FIELDS = (
    "level", "xp", "size_hexes", "resource_points", "food", "unrest", "corruption", "crime",
    "decay", "strife", "corruption_threshold", "crime_threshold", "decay_threshold",
    "strife_threshold", "fame_kind", "fame_points", "at_war", "ruler_vacant", "skills",
    "structures", "turn", "recruit_blocked_until_turn", "version",
)  # fmt: skip
COMMAND_STAFF_FIELDS = (
    "commander", "strategy", "tactics", "leadership", "intelligence_officer",
    "intelligence_analysis", "logistics_officer", "administration", "version",
)  # fmt: skip
SETTLEMENT_FIELDS = ("name", "hex", "is_capital", "notes", "version")
ARMY_FIELDS = (
    "name", "army_type", "specialized", "level_override", "hp", "conditions", "tactics", "gear",
    "custom_stats", "potion_doses", "hex", "garrison", "garrison_consumption_cut", "timers",
    "activities_this_turn", "fought_this_turn", "initiative_bonus", "status", "notes",
    "version", "created_at", "updated_at",
)  # fmt: skip
LOG_FIELDS = ("turn", "code", "data", "created_at")
RECRUITMENT_FIELDS = (
    "army_type", "specialized", "step", "check_result", "efficient", "tactics", "hex",
    "created_at", "updated_at",
)  # fmt: skip
BATTLE_FIELDS = (
    "name", "system", "seed", "seq", "status", "players_may_act", "created_at", "updated_at",
)  # fmt: skip
BATTLE_JSON_FIELDS = ("setup", "snapshot", "outcome")  # army keys inside become refs
BATTLE_COMMAND_FIELDS = ("position", "created_at", "undone_at")  # and "command" (army refs)
BATTLE_EVENT_FIELDS = ("round", "code", "created_at")  # and "params" (army refs)

# Log parameters that name an army: a database id in the log, an army ref in the file.
# "*" applies to every event code.
ARMY_PARAMS = {
    "*": ("army",),
    "army.gear_transferred": ("from", "to"),
    "war.encounter_pending": ("armies", "enemies"),
}


# Battle JSON (setup, snapshot, outcome, commands, event params): the keys whose value is an
# army key, a list of them, or a list of lists of them (engagement pairs), wherever they occur.
# Only strings are army keys: numbers under the same names are amounts ("by": 2 damage), and
# strings that are not army keys (side keys "a"/"b", fortification keys) are left as they are.
BATTLE_ARMY_VALUES = frozenset({
    "key",               # an army state (setup, snapshot, outcome); also sides, fortifications
    "army", "actor", "target", "ally", "explosive_target", "start_target",  # commands, events
    "by", "against", "owner",                                               # effects, checks
    "order", "attacks", "engagements", "engage", "disengage", "engaged_with",
    "next_attack_bonus",                                                    # [army, bonus]
    "armies", "took_damage", "damaged", "defeated", "destroyed", "fled",    # outcome lists
})  # fmt: skip
# ... and the keys whose value is an object keyed by army keys.
BATTLE_ARMY_KEYED = frozenset({"initiative_dice", "armies"})  # outcome "armies": {key: state}
_DIGITS = re.compile(r"[0-9]+")


class ImportRefused(ValidationError):
    """The file cannot be imported; the message names the problem. Nothing was written."""


# --- Export -------------------------------------------------------------------------------------


def _systems() -> dict[str, ModuleType]:
    """{rule system: its hook module}. Imported on first use: the hooks import this module."""
    return {
        key: importlib.import_module(f"warfare.systems.{key}.portability") for key in SYSTEM_HOOKS
    }


def _value(instance, name: str) -> Any:
    value = getattr(instance, name)
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _fields(instance, names) -> dict[str, Any]:
    return {name: _value(instance, name) for name in names}


def _username(user) -> str | None:
    return user.get_username() if user is not None else None


def _map_army_params(code: str, data, refs: dict[int, int | None], *, on_unknown) -> Any:
    """`data` with its army-valued parameters looked up in `refs`; `on_unknown(key, value)`
    answers a value that is not in `refs`."""
    if not isinstance(data, dict):
        return data
    result = dict(data)
    for key in (*ARMY_PARAMS["*"], *ARMY_PARAMS.get(code, ())):
        value = result.get(key)
        if _is_int(value):
            result[key] = refs[value] if value in refs else on_unknown(key, value)
        elif isinstance(value, list):
            result[key] = [
                (refs[v] if v in refs else on_unknown(key, v)) if _is_int(v) else v for v in value
            ]
    return result


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _map_battle_json(value, keys: Callable[[str, str], str], path: str = "", *, army=False):
    """A copy of battle JSON `value` with each army key `k` (a string) replaced by
    `keys(k, path)`. `army`: `value` sits under a `BATTLE_ARMY_VALUES` key."""
    if isinstance(value, str):
        return keys(value, path) if army else value
    if isinstance(value, list):
        return [_map_battle_json(v, keys, f"{path}[{i}]", army=army) for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    result = {}
    for name, child in value.items():
        where = f"{path}.{name}"
        if name in BATTLE_ARMY_KEYED and isinstance(child, dict):
            result[name] = {
                keys(key, where): _map_battle_json(v, keys, f"{where}.{key}")
                for key, v in child.items()
            }
        else:
            result[name] = _map_battle_json(child, keys, where, army=name in BATTLE_ARMY_VALUES)
    return result


def _lookup(table: dict[str, str]) -> Callable[[str, str], str]:
    """Army keys found in `table` are replaced; any other string stays as it is."""
    return lambda key, path: table.get(key, key)


def _pin_initiative(setup, snapshot) -> tuple[Any, Any]:
    """(setup, snapshot) with every seeded initiative die written into the setup's
    "initiative_dice", as if typed in: the engine derives those dice from the army keys,
    which change on import (see the module docstring)."""
    if not isinstance(setup, dict) or not isinstance(snapshot, dict):
        return setup, snapshot
    rolls = snapshot.get("initiative")
    seeded = [
        r
        for r in (rolls if isinstance(rolls, list) else ())
        if isinstance(r, dict) and r.get("source") == "seeded" and isinstance(r.get("army"), str)
    ]
    if not seeded:
        return setup, snapshot
    setup, snapshot = copy.deepcopy(setup), copy.deepcopy(snapshot)
    pins = {r["army"]: r["die"] for r in seeded}
    setup["initiative_dice"] = {**(setup.get("initiative_dice") or {}), **pins}
    for roll in snapshot["initiative"]:
        if isinstance(roll, dict) and roll.get("source") == "seeded":
            roll["source"] = "typed"
    for event in snapshot.get("opening") or ():
        if not isinstance(event, dict) or event.get("code") != "battle.initiative":
            continue
        params = event.get("params")
        was_seeded = isinstance(params, dict) and params.get("source") == "seeded"
        if was_seeded and params.get("army") in pins:
            params["source"] = "typed"
    return setup, snapshot


def _engagements_by_ref(snapshot):
    """The engine keeps engagement pairs ordered by the text of the army keys; in the file
    they are ordered the same way by the refs, so that the file does not depend on ids."""
    pairs = snapshot.get("engagements") if isinstance(snapshot, dict) else None
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(k, str) for k in p) for p in pairs
    ):
        return snapshot
    return {**snapshot, "engagements": sorted(sorted(p) for p in pairs)}


def _export_battles(
    campaign: Campaign, army_refs: dict[int, int | None], factions, hooks: dict[str, Any]
) -> list:
    """Every battle of `campaign`: a Pathfinder battle's army keys become army refs here,
    another system's database ids are mapped by its hook (`battle_out`, with the refs of
    its section in `hooks[system]`)."""
    battles = list(
        Battle.objects.filter(campaign=campaign).select_related("created_by").order_by("pk")
    )
    commands: dict[int, list[BattleCommand]] = {}
    for command in (
        BattleCommand.objects.filter(battle__campaign=campaign)
        .select_related("actor")
        .order_by("battle_id", "pk")
    ):
        commands.setdefault(command.battle_id, []).append(command)
    events: dict[int, list[BattleEvent]] = {}
    for event in BattleEvent.objects.filter(battle__campaign=campaign).order_by("battle_id", "pk"):
        events.setdefault(event.battle_id, []).append(event)
    keys = _lookup({str(pk): str(ref) for pk, ref in army_refs.items()})
    faction_names = {f.pk: f.name for f in factions}
    systems = _systems()
    user_ids = {
        pk
        for battle in battles
        if battle.system in systems
        for pk in systems[battle.system].battle_user_ids(battle.setup)
    }
    usernames = (
        dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
        if user_ids
        else {}
    )

    def setup_doc(setup):
        setup = _map_battle_json(setup, keys)
        for side in setup.get("sides") or () if isinstance(setup, dict) else ():
            for entry in side.get("armies") or () if isinstance(side, dict) else ():
                if isinstance(entry, dict) and "faction" in entry:
                    entry["faction"] = faction_names.get(entry["faction"])
        return setup

    result = []
    for battle in battles:
        index = {c.pk: i for i, c in enumerate(commands.get(battle.pk, []))}
        doc = {
            **_fields(battle, BATTLE_FIELDS),
            "created_by": _username(battle.created_by),
            "setup": battle.setup,
            "snapshot": battle.snapshot,
            "outcome": battle.outcome,
            "commands": [
                {
                    **_fields(c, BATTLE_COMMAND_FIELDS),
                    "command": c.command,
                    "actor": _username(c.actor),
                }
                for c in commands.get(battle.pk, [])
            ],
            "events": [
                {
                    "command": index[e.command_id] if e.command_id is not None else None,
                    **_fields(e, BATTLE_EVENT_FIELDS),
                    "params": e.params,
                }
                for e in events.get(battle.pk, [])
            ],
        }
        if battle.system in systems:
            context = {"factions": faction_names, "users": usernames, **hooks[battle.system]}
            result.append(systems[battle.system].battle_out(doc, context))
            continue
        doc["setup"], doc["snapshot"] = _pin_initiative(
            setup_doc(battle.setup), _engagements_by_ref(_map_battle_json(battle.snapshot, keys))
        )
        doc["outcome"] = _map_battle_json(battle.outcome, keys)
        for command in doc["commands"]:
            command["command"] = _map_battle_json(command["command"], keys)
        for event in doc["events"]:
            event["params"] = _map_battle_json(event["params"], keys)
        result.append(doc)
    return result


def map_piece_keys(value, pattern: re.Pattern, convert, skip=frozenset(), path: str = ""):
    """A copy of battle JSON `value` with every string (value or object key) that matches
    `pattern` in full replaced by `convert(match, path)`; the values under the names in `skip`
    (free text, stat blocks) are left as they are. For a system whose board keys are a
    letter and a database id ("u12", "u12.1", "s3")."""
    if isinstance(value, str):
        match = pattern.fullmatch(value)
        return convert(match, path) if match else value
    if isinstance(value, list):
        return [
            map_piece_keys(v, pattern, convert, skip, f"{path}[{i}]") for i, v in enumerate(value)
        ]
    if not isinstance(value, dict):
        return value
    result = {}
    for name, child in value.items():
        where = f"{path}.{name}"
        key = map_piece_keys(name, pattern, convert, skip, where)
        if name not in skip:
            child = map_piece_keys(child, pattern, convert, skip, where)
        result[key] = child
    return result


def map_battle_parts(doc: dict[str, Any], mapper) -> dict[str, Any]:
    """A copy of battle `doc` (as in the file) with `mapper(value, path)` applied to its
    setup, snapshot, outcome, every command and every event's params."""
    return {
        **doc,
        "setup": mapper(doc["setup"], "setup"),
        "snapshot": mapper(doc["snapshot"], "snapshot"),
        "outcome": mapper(doc["outcome"], "outcome"),
        "commands": [
            {**c, "command": mapper(c["command"], f"commands[{i}].command")}
            for i, c in enumerate(doc["commands"])
        ],
        "events": [
            {**e, "params": mapper(e["params"], f"events[{i}].params")}
            for i, e in enumerate(doc["events"])
        ],
    }


def campaign_export(campaign: Campaign) -> dict[str, Any]:
    """Everything of `campaign` as one JSON-ready document (a read: nothing is written)."""
    factions = list(
        Faction.objects.filter(campaign=campaign)
        .select_related("kingdom", "command_staff")
        .order_by("pk")
    )
    armies = list(
        Army.objects.filter(faction__campaign=campaign).select_related("faction").order_by("pk")
    )
    army_refs: dict[int, int | None] = {army.pk: ref for ref, army in enumerate(armies, 1)}

    def faction_doc(faction: Faction) -> dict[str, Any]:
        kingdom = getattr(faction, "kingdom", None)
        staff = getattr(faction, "command_staff", None)
        return {
            **_fields(faction, FACTION_FIELDS),
            "kingdom": _fields(kingdom, KINGDOM_FIELDS) if kingdom else None,
            "command_staff": _fields(staff, COMMAND_STAFF_FIELDS) if staff else None,
        }

    log = (
        LogEntry.objects.filter(faction__campaign=campaign)
        .select_related("faction", "actor")
        .order_by("pk")
    )
    recruitments = (
        Recruitment.objects.filter(faction__campaign=campaign)
        .select_related("faction", "started_by")
        .order_by("pk")
    )
    members = (
        Membership.objects.filter(campaign=campaign)
        .select_related("user", "faction")
        .order_by("pk")
    )
    sections, hooks = {}, {}
    for key, hook in _systems().items():
        sections[key], hooks[key] = hook.export_rows(campaign)
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().astimezone(UTC).isoformat(),
        "campaign": {
            **_fields(campaign, CAMPAIGN_FIELDS),
            "created_by": _username(campaign.created_by),
        },
        "members": [
            {
                "username": m.user.get_username(),
                "faction": m.faction.name if m.faction else None,
                **_fields(m, MEMBER_FIELDS),
            }
            for m in members
        ],
        "factions": [faction_doc(f) for f in factions],
        "settlements": [
            {"faction": s.faction.name, **_fields(s, SETTLEMENT_FIELDS)}
            for s in Settlement.objects.filter(campaign=campaign)
            .select_related("faction")
            .order_by("pk")
        ],
        "armies": [
            {"ref": army_refs[a.pk], "faction": a.faction.name, **_fields(a, ARMY_FIELDS)}
            for a in armies
        ],
        "log": [
            {
                "faction": entry.faction.name,
                "army": army_refs.get(entry.army_id),
                "actor": _username(entry.actor),
                **_fields(entry, LOG_FIELDS),
                "data": _map_army_params(
                    entry.code, entry.data, army_refs, on_unknown=lambda key, value: None
                ),
            }
            for entry in log
        ],
        "recruitments": [
            {
                "faction": r.faction.name,
                "started_by": _username(r.started_by),
                "army": army_refs.get(r.army_id),
                **_fields(r, RECRUITMENT_FIELDS),
            }
            for r in recruitments
        ],
        **sections,
        "battles": _export_battles(campaign, army_refs, factions, hooks),
    }


def campaign_export_bytes(campaign: Campaign) -> bytes:
    return json.dumps(campaign_export(campaign), ensure_ascii=False, indent=1).encode()


# --- Parse --------------------------------------------------------------------------------------


def _refuse(message: str, **params) -> ImportRefused:
    return ImportRefused(message % params if params else message, code="bad_campaign_file")


def _no_constants(name: str):
    raise ValueError(_("%(name)s is not a number JSON allows") % {"name": name})


def _finite_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(_("%(number)s is too large a number") % {"number": text[:20]})
    return value


def _no_duplicate_keys(pairs):
    result = {}
    for key, value in pairs:
        if key in result:
            raise ValueError(_("the key “%(key)s” appears twice in one object") % {"key": key})
        result[key] = value
    return result


def parse_document(raw: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES) -> dict[str, Any]:
    """The JSON object in `raw`, or ImportRefused (too large, not JSON, not an object)."""
    if len(raw) > max_bytes:
        raise _refuse(
            _("The file is too large: at most %(limit)s MB."), limit=max_bytes // (1024 * 1024)
        )
    try:
        document = json.loads(
            raw.decode("utf-8-sig"),
            parse_constant=_no_constants,
            parse_float=_finite_float,
            object_pairs_hook=_no_duplicate_keys,
        )
    except RecursionError:
        raise _refuse(_("The file is nested too deeply to be a campaign file.")) from None
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise _refuse(_("The file is not valid JSON: %(error)s."), error=error) from None
    if not isinstance(document, dict):
        raise _refuse(_("The file is JSON but not an object: it is not a campaign file."))
    return document


# --- Upgrade ------------------------------------------------------------------------------------


def upgrade_0_to_1(document: dict[str, Any]) -> dict[str, Any]:
    """Version 0 was written before rows had versions, before the kingdom log, recruitments
    and memberships were exported, and while armies had `idle_last_turn` (no refs, no
    `fought_this_turn`, no `initiative_bonus`) and kingdoms no turn or structures."""
    doc = dict(document)
    campaign = dict(doc["campaign"])
    campaign.setdefault("updated_at", campaign.get("created_at"))
    campaign.setdefault("version", 1)
    campaign.setdefault("created_by", None)
    doc["campaign"] = campaign
    factions = []
    for faction in doc["factions"]:
        faction = {**faction, "version": 1}
        if faction.get("kingdom") is not None:
            faction["kingdom"] = {
                "turn": 1,
                "structures": [],
                "recruit_blocked_until_turn": None,
                **faction["kingdom"],
                "version": 1,
            }
        if faction.get("command_staff") is not None:
            faction["command_staff"] = {**faction["command_staff"], "version": 1}
        factions.append(faction)
    doc["factions"] = factions
    doc["settlements"] = [{**s, "version": 1} for s in doc["settlements"]]
    armies = []
    for ref, army in enumerate(doc["armies"], 1):
        army = {"ref": ref, **army, "fought_this_turn": False, "initiative_bonus": 0}
        army.pop("idle_last_turn", None)
        armies.append(army)
    doc["armies"] = armies
    for key in ("members", "log", "recruitments", "battles"):
        doc.setdefault(key, [])
    doc["version"] = 1
    return doc


def upgrade_1_to_2(document: dict[str, Any]) -> dict[str, Any]:
    """Version 2 added battles; version 1 wrote none (an empty list, or nothing)."""
    doc = dict(document)
    doc.setdefault("battles", [])
    doc["version"] = 2
    return doc


def upgrade_2_to_3(document: dict[str, Any]) -> dict[str, Any]:
    """Version 3 added the GURPS 4e, GURPS 3e and D&D 5e sections and those systems'
    battles; version 2 wrote Pathfinder battles only, and no such rows."""
    doc = dict(document)
    for key in SYSTEM_HOOKS:
        doc.setdefault(key, copy.deepcopy(_systems()[key].EMPTY_SECTION))
    doc["version"] = 3
    return doc


def upgrade_3_to_4(document: dict[str, Any]) -> dict[str, Any]:
    """Version 4 added the HP a D&D 5e unit's surviving stands lost in battle
    (`stand_damage`); version 3 wrote none: every stand at full HP."""
    doc = copy.deepcopy(document)
    for army in (doc.get("dnd5e") or {}).get("armies") or ():
        for unit in army.get("units") or ():
            unit.setdefault("stand_damage", [])
    doc["version"] = 4
    return doc


UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {
    0: upgrade_0_to_1,
    1: upgrade_1_to_2,
    2: upgrade_2_to_3,
    3: upgrade_3_to_4,
}
"""{version: step to version + 1}. A new format version adds its step here."""


def upgrade(document: dict[str, Any]) -> dict[str, Any]:
    """The document in the current format version, or ImportRefused."""
    version = document.get("version")
    if not _is_int(version):
        raise _refuse(_("The file's “version” must be a whole number."))
    if version > VERSION:
        raise _refuse(
            _(
                "The file was written by a newer Warfare (format version %(version)s); "
                "this installation reads versions up to %(current)s."
            ),
            version=version,
            current=VERSION,
        )
    if version != VERSION and version not in UPGRADES:
        raise _refuse(_("Unknown format version %(version)s."), version=version)
    while version < VERSION:
        try:
            document = UPGRADES[version](document)
        except (KeyError, TypeError, AttributeError, ValueError):
            raise _refuse(
                _("The format version %(version)s file is damaged: it cannot be upgraded."),
                version=version,
            ) from None
        version = document["version"]
    return document


# --- Validate -----------------------------------------------------------------------------------

Check = Callable[[Any, str], None]


def _type_error(path: str, expected: str) -> ImportRefused:
    return _refuse(_("%(path)s: expected %(expected)s."), path=path, expected=expected)


def _check_text(value, path: str) -> None:
    """Every string in the file: no NUL characters, no lone surrogates (PostgreSQL refuses
    both), and no nesting deeper than MAX_DEPTH."""
    stack = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise _refuse(_("%(path)s: nested too deeply."), path=where)
        if isinstance(item, str):
            _check_string(item, where)
        elif isinstance(item, dict):
            for key, child in item.items():
                _check_string(key, where)
                stack.append((child, f"{where}.{key}", depth + 1))
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{i}]", depth + 1) for i, child in enumerate(item))


def _check_string(text: str, path: str) -> None:
    if "\x00" in text:
        raise _refuse(_("%(path)s: text contains a NUL character."), path=path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise _refuse(_("%(path)s: text is not valid Unicode."), path=path) from None


def _str(max_length: int | None) -> Check:
    def check(value, path):
        if not isinstance(value, str):
            raise _type_error(path, _("text"))
        if len(value) > (max_length or MAX_TEXT):
            raise _refuse(_("%(path)s: text is too long."), path=path)

    return check


def _int(value, path) -> None:
    if not _is_int(value):
        raise _type_error(path, _("a whole number"))


def _bool(value, path) -> None:
    if not isinstance(value, bool):
        raise _type_error(path, _("true or false"))


def _datetime(value, path) -> None:
    parsed = parse_datetime(value) if isinstance(value, str) else None
    if parsed is None or timezone.is_naive(parsed):
        raise _type_error(path, _("a date and time with a time zone (ISO 8601)"))


def _json(value, path) -> None:
    """Any JSON value (its text and depth are checked by _check_text)."""


def _json_object(value, path) -> None:
    if not isinstance(value, dict):
        raise _type_error(path, _("an object"))


def _json_list(value, path) -> None:
    if not isinstance(value, list):
        raise _type_error(path, _("a list"))


def _nullable(check: Check) -> Check:
    def nullable(value, path):
        if value is not None:
            check(value, path)

    return nullable


def _object(fields: dict[str, Check]) -> Check:
    def check(value, path):
        if not isinstance(value, dict):
            raise _type_error(path, _("an object"))
        missing = [name for name in fields if name not in value]
        if missing:
            raise _refuse(_("%(path)s: missing field “%(field)s”."), path=path, field=missing[0])
        unknown = sorted(set(value) - set(fields))
        if unknown:
            raise _refuse(_("%(path)s: unexpected field “%(field)s”."), path=path, field=unknown[0])
        for name, field_check in fields.items():
            field_check(value[name], f"{path}.{name}")

    return check


def _list(item: Check, *, limit: int) -> Check:
    def check(value, path):
        if not isinstance(value, list):
            raise _type_error(path, _("a list"))
        if len(value) > limit:
            raise _refuse(
                _("%(path)s: %(count)s entries, more than the %(limit)s a campaign may have."),
                path=path,
                count=len(value),
                limit=limit,
            )
        for index, element in enumerate(value):
            item(element, f"{path}[{index}]")

    return check


def _model_checks(model: type[models.Model], names) -> dict[str, Check]:
    """Type checks for model fields; ranges, choices and lengths come from full_clean."""
    checks = {}
    for name in names:
        field = model._meta.get_field(name)
        if isinstance(field, models.JSONField):
            # A JSON column holds the same kind of JSON as its default: {} or [].
            default = field.get_default() if field.has_default() else None
            check = {dict: _json_object, list: _json_list}.get(type(default), _json)
        elif isinstance(field, models.BooleanField):
            check = _bool
        elif isinstance(field, models.DateTimeField):
            check = _datetime
        elif isinstance(field, models.IntegerField):
            check = _int
        else:
            check = _str(getattr(field, "max_length", None))
        checks[name] = _nullable(check) if field.null else check
    return checks


_name = _str(150)
_optional_name = _nullable(_str(150))
_ref = _nullable(_int)


def _section(key: str) -> Check:
    """The schema of a rule system's section, from its hook (looked up when checked)."""

    def check(value, path):
        _systems()[key].SCHEMA(value, path)

    return check


SCHEMA = _object(
    {
        "format": _str(40),
        "version": _int,
        "exported_at": _datetime,
        "campaign": _object(
            {**_model_checks(Campaign, CAMPAIGN_FIELDS), "created_by": _optional_name}
        ),
        "members": _list(
            _object(
                {
                    "username": _name,
                    "faction": _optional_name,
                    **_model_checks(Membership, MEMBER_FIELDS),
                }
            ),
            limit=LIMITS["members"],
        ),
        "factions": _list(
            _object(
                {
                    **_model_checks(Faction, FACTION_FIELDS),
                    "kingdom": _nullable(_object(_model_checks(Kingdom, KINGDOM_FIELDS))),
                    "command_staff": _nullable(
                        _object(_model_checks(CommandStaff, COMMAND_STAFF_FIELDS))
                    ),
                }
            ),
            limit=LIMITS["factions"],
        ),
        "settlements": _list(
            _object({"faction": _name, **_model_checks(Settlement, SETTLEMENT_FIELDS)}),
            limit=LIMITS["settlements"],
        ),
        "armies": _list(
            _object({"ref": _int, "faction": _name, **_model_checks(Army, ARMY_FIELDS)}),
            limit=LIMITS["armies"],
        ),
        "log": _list(
            _object(
                {
                    "faction": _name,
                    "army": _ref,
                    "actor": _optional_name,
                    **_model_checks(LogEntry, LOG_FIELDS),
                }
            ),
            limit=LIMITS["log"],
        ),
        "recruitments": _list(
            _object(
                {
                    "faction": _name,
                    "started_by": _optional_name,
                    "army": _ref,
                    **_model_checks(Recruitment, RECRUITMENT_FIELDS),
                }
            ),
            limit=LIMITS["recruitments"],
        ),
        **{key: _section(key) for key in SYSTEM_HOOKS},
        "battles": _list(
            _object(
                {
                    **_model_checks(Battle, BATTLE_FIELDS),
                    "created_by": _optional_name,
                    "setup": _json_object,
                    "snapshot": _json_object,
                    "outcome": _nullable(_json_object),
                    "commands": _list(
                        _object(
                            {
                                **_model_checks(BattleCommand, BATTLE_COMMAND_FIELDS),
                                "command": _json_object,
                                "actor": _optional_name,
                            }
                        ),
                        limit=LIMITS["battle_commands"],
                    ),
                    "events": _list(
                        _object(
                            {
                                "command": _ref,
                                **_model_checks(BattleEvent, BATTLE_EVENT_FIELDS),
                                "params": _json_object,
                            }
                        ),
                        limit=LIMITS["battle_events"],
                    ),
                }
            ),
            limit=LIMITS["battles"],
        ),
    }
)


def _unique(rows: list[dict], key: str, path: str) -> set:
    seen = set()
    for index, row in enumerate(rows):
        if row[key] in seen:
            raise _refuse(
                _("%(path)s[%(index)s]: “%(value)s” appears twice."),
                path=path,
                index=index,
                value=row[key],
            )
        seen.add(row[key])
    return seen


def _check_ref(value, known, path: str, what: str) -> None:
    try:
        found = value is None or value in known
    except TypeError:  # a list or an object where a name or a ref belongs
        found = False
    if not found:
        raise _refuse(
            _("%(path)s: no %(what)s “%(value)s” in the file."), path=path, what=what, value=value
        )


def _check_references(doc: dict[str, Any]) -> None:
    factions = _unique(doc["factions"], "name", "factions")
    _unique(doc["settlements"], "name", "settlements")
    _unique(doc["members"], "username", "members")
    armies = _unique(doc["armies"], "ref", "armies")
    what_faction, what_army = _("faction"), _("army")
    for section in ("members", "settlements", "armies", "log", "recruitments"):
        for index, row in enumerate(doc[section]):
            _check_ref(row["faction"], factions, f"{section}[{index}].faction", what_faction)
    for section in ("log", "recruitments"):
        for index, row in enumerate(doc[section]):
            _check_ref(row["army"], armies, f"{section}[{index}].army", what_army)
    recruited = [r["army"] for r in doc["recruitments"] if r["army"] is not None]
    if len(recruited) != len(set(recruited)):
        raise _refuse(_("recruitments: two recruitments name the same army."))
    for index, row in enumerate(doc["log"]):
        path = f"log[{index}].data"

        def dangling(key, value, path=path):
            raise _refuse(
                _("%(path)s: no %(what)s “%(value)s” in the file."),
                path=f"{path}.{key}",
                what=what_army,
                value=value,
            )

        _map_army_params(row["code"], row["data"], {a: a for a in armies}, on_unknown=dangling)
    for key, hook in _systems().items():
        hook.check_references(doc[key], factions, key)
    sections = {key: doc[key] for key in SYSTEM_HOOKS}
    _check_battles(doc["battles"], factions, armies, sections)


def _check_battles(battles: list[dict], factions: set, armies: set, sections: dict) -> None:
    """Totals, each battle's system (one with a board), live positions, event commands; a
    Pathfinder battle's setup and every army key in its JSON (a ref of an army of the file),
    another system's setup and references by its hook (`check_battle`)."""
    for what in ("commands", "events"):
        total = sum(len(b[what]) for b in battles)
        limit = LIMITS[f"battle_{what}"]
        if total > limit:
            raise _refuse(
                _(
                    "battles: %(count)s %(what)s in all, more than the %(limit)s a campaign "
                    "may have."
                ),
                count=total,
                what=what,
                limit=limit,
            )
    refs = {str(ref) for ref in armies}

    def army_key(key, path):
        if _DIGITS.fullmatch(key) and key not in refs:
            raise _refuse(
                _("%(path)s: no %(what)s “%(value)s” in the file."),
                path=path,
                what=_("army"),
                value=key,
            )
        return key

    systems = _systems()
    for index, battle in enumerate(battles):
        path = f"battles[{index}]"
        if battle["system"] not in (RuleSystem.PF2E, *systems):
            raise _refuse(
                _("%(path)s: no battle board for the rule system “%(system)s”."),
                path=path,
                system=battle["system"],
            )
        if battle["system"] in systems:
            hook = systems[battle["system"]]
            hook.check_battle(battle, sections[battle["system"]], factions, path)
        else:
            _check_pf2e_battle(battle, path, factions, refs, army_key)
        live = sorted(c["position"] for c in battle["commands"] if c["undone_at"] is None)
        if len(live) != battle["seq"] or live != list(range(len(live))):
            raise _refuse(
                _("%(path)s: its live commands must hold the positions 0 to seq - 1, once each."),
                path=path,
            )
        for e, event in enumerate(battle["events"]):
            where = f"{path}.events[{e}]"
            if event["command"] is not None and not 0 <= event["command"] < len(battle["commands"]):
                raise _refuse(
                    _("%(path)s.command: no command %(value)s in the battle."),
                    path=where,
                    value=event["command"],
                )


def _check_pf2e_battle(battle: dict, path: str, factions: set, refs: set, army_key) -> None:
    """A Pathfinder battle: its setup's sides and armies, and every army key in its JSON."""
    sides = battle["setup"].get("sides")
    if not isinstance(sides, list) or not sides:
        raise _type_error(f"{path}.setup.sides", _("a list of sides"))
    seen = set()
    for s, side in enumerate(sides):
        entries = side.get("armies") if isinstance(side, dict) else None
        if not isinstance(entries, list):
            raise _type_error(f"{path}.setup.sides[{s}].armies", _("a list"))
        for e, entry in enumerate(entries):
            where = f"{path}.setup.sides[{s}].armies[{e}]"
            state = entry.get("army") if isinstance(entry, dict) else None
            key = state.get("key") if isinstance(state, dict) else None
            if not isinstance(key, str) or key not in refs:
                raise _refuse(
                    _("%(path)s: no %(what)s “%(value)s” in the file."),
                    path=f"{where}.army.key",
                    what=_("army"),
                    value=key,
                )
            if key in seen:
                raise _refuse(_("%(path)s: army “%(value)s” appears twice."), path=where, value=key)
            seen.add(key)
            if not isinstance(entry.get("faction"), str | None):
                raise _type_error(f"{where}.faction", _("text"))
            _check_ref(entry.get("faction"), factions, f"{where}.faction", _("faction"))
    map_battle_parts(
        battle, lambda value, where: _map_battle_json(value, army_key, f"{path}.{where}")
    )


def _clean(instance: models.Model, path: str) -> None:
    """The model's own validation (choices, lengths, ranges, `clean()`), without queries."""
    exclude = [
        f.name
        for f in instance._meta.concrete_fields
        if f.is_relation or isinstance(f, models.JSONField)
    ]
    try:
        instance.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except (TypeError, AttributeError, KeyError, ValueError):
        raise _refuse(_("%(path)s: the values cannot be read."), path=path) from None
    except ValidationError as error:
        problems = "; ".join(
            f"{field}: {' '.join(messages)}" if field != "__all__" else " ".join(messages)
            for field, messages in error.message_dict.items()
        )
        raise _refuse(_("%(path)s: %(problems)s"), path=path, problems=problems) from None


def validate_document(document: dict[str, Any]) -> dict[str, Any]:
    """The current-version document checked in full, or ImportRefused. Nothing is written."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise _refuse(
            _("This is not a Warfare campaign file (its “format” is not “%(format)s”)."),
            format=FORMAT,
        )
    _check_text(document, "file")
    document = upgrade(document)
    SCHEMA(document, "file")
    _check_references(document)
    return document


# --- Import -------------------------------------------------------------------------------------


def _build(model, row: dict[str, Any], names, path: str, **extra) -> models.Model:
    values = {name: row[name] for name in names}
    for name in names:
        if isinstance(model._meta.get_field(name), models.DateTimeField) and values[name]:
            values[name] = parse_datetime(values[name])
    instance = model(**values, **extra)
    _clean(instance, path)
    return instance


def _check_army_rules(army: Army, level: int | None, path: str) -> None:
    """A Pathfinder army must make sense to the rules engine, or its pages would fail."""
    if level is None:
        raise _refuse(_("%(path)s: its faction has no kingdom to take a level from."), path=path)
    try:
        spec = army_spec(army, level=level)
        problems = validate_army(spec, kingdom_level=None, magic_rank=None)
        if not problems:
            stat_block(spec)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise _refuse(_("%(path)s: the rules cannot read this army."), path=path) from None
    if problems:
        raise _refuse(
            _("%(path)s: %(problems)s"), path=path, problems=" ".join(problem_messages(problems))
        )


def _restore(model, rows: list[models.Model], values: list[dict], names) -> None:
    """Put back the timestamps that auto_now/auto_now_add replaced on insert."""
    names = [n for n in names if isinstance(model._meta.get_field(n), models.DateTimeField)]
    for instance, row in zip(rows, values, strict=True):
        for name in names:
            setattr(instance, name, parse_datetime(row[name]) if row[name] else None)
    if rows and names:
        model.objects.bulk_update(rows, names, batch_size=500)


def campaign_import(*, user, data: dict[str, Any]) -> Campaign:
    """Create a new campaign from an exported document; `user` becomes its game master.

    Members whose username exists on this installation join with their role and faction;
    the others are listed in `campaign.import_skipped` (usernames). Everything is checked
    before one transaction writes it all; a bad file raises ImportRefused and writes nothing.
    """
    doc = validate_document(data)
    usernames = {m["username"] for m in doc["members"]}
    usernames |= {r["actor"] for r in doc["log"] if r["actor"]}
    usernames |= {r["started_by"] for r in doc["recruitments"] if r["started_by"]}
    usernames |= {b["created_by"] for b in doc["battles"] if b["created_by"]}
    usernames |= {c["actor"] for b in doc["battles"] for c in b["commands"] if c["actor"]}
    systems = _systems()
    for key, hook in systems.items():
        battles = [b for b in doc["battles"] if b["system"] == key]
        usernames |= hook.usernames(doc[key], battles)
    users = {
        u.get_username(): u
        for u in get_user_model().objects.filter(**{"username__in": sorted(usernames)})
    }
    rows = _build_rows(doc, user=user, users=users)
    try:
        campaign = _write(doc, rows, user=user, users=users)
    except DatabaseError as error:
        raise _refuse(_("The database refused the file: %(error)s"), error=error) from None
    campaign.import_skipped = [m["username"] for m in doc["members"] if m["username"] not in users]
    return campaign


def _build_rows(doc: dict[str, Any], *, user, users: dict) -> dict[str, Any]:
    """Unsaved model instances for every row, each validated; references still by name."""
    c = doc["campaign"]
    campaign = _build(Campaign, c, CAMPAIGN_FIELDS, "campaign", created_by=user)
    rows: dict[str, Any] = {"campaign": campaign, "factions": {}, "kingdoms": [], "staffs": []}
    levels: dict[str, int | None] = {}
    for index, f in enumerate(doc["factions"]):
        path = f"factions[{index}]"
        faction = _build(Faction, f, FACTION_FIELDS, path, campaign=campaign)
        rows["factions"][f["name"]] = faction
        levels[f["name"]] = f["kingdom"]["level"] if f["kingdom"] else None
        if f["kingdom"] is not None:
            rows["kingdoms"].append(
                (f["name"], _build(Kingdom, f["kingdom"], KINGDOM_FIELDS, f"{path}.kingdom"))
            )
        if f["command_staff"] is not None:
            staff = _build(
                CommandStaff, f["command_staff"], COMMAND_STAFF_FIELDS, f"{path}.command_staff"
            )
            rows["staffs"].append((f["name"], staff))
    rows["members"] = [
        (m, _build(Membership, m, MEMBER_FIELDS, f"members[{i}]", user=users[m["username"]]))
        for i, m in enumerate(doc["members"])
        if m["username"] in users
    ]
    rows["settlements"] = [
        (s, _build(Settlement, s, SETTLEMENT_FIELDS, f"settlements[{i}]"))
        for i, s in enumerate(doc["settlements"])
    ]
    rows["armies"] = []
    for index, a in enumerate(doc["armies"]):
        path = f"armies[{index}]"
        army = _build(Army, a, ARMY_FIELDS, path)
        if c["rule_system"] == RuleSystem.PF2E:
            _check_army_rules(army, a["level_override"] or levels[a["faction"]], path)
        rows["armies"].append((a, army))
    rows["log"] = [
        (e, _build(LogEntry, e, LOG_FIELDS, f"log[{i}]", actor=users.get(e["actor"])))
        for i, e in enumerate(doc["log"])
    ]
    rows["recruitments"] = [
        (
            r,
            _build(
                Recruitment,
                r,
                RECRUITMENT_FIELDS,
                f"recruitments[{i}]",
                started_by=users.get(r["started_by"]),
            ),
        )
        for i, r in enumerate(doc["recruitments"])
    ]
    rows["battles"] = []
    for index, b in enumerate(doc["battles"]):
        path = f"battles[{index}]"
        battle = _build(Battle, b, BATTLE_FIELDS, path, created_by=users.get(b["created_by"]))
        try:
            get_battle_system(b["system"]).state_from_dict(b["snapshot"])
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError):
            raise _refuse(_("%(path)s: the board (snapshot) cannot be read."), path=path) from None
        commands = [
            _build(
                BattleCommand,
                c,
                BATTLE_COMMAND_FIELDS,
                f"{path}.commands[{i}]",
                actor=users.get(c["actor"]),
            )
            for i, c in enumerate(b["commands"])
        ]
        events = [
            _build(BattleEvent, e, BATTLE_EVENT_FIELDS, f"{path}.events[{i}]")
            for i, e in enumerate(b["events"])
        ]
        rows["battles"].append((b, battle, commands, events))
    for key, hook in _systems().items():
        rows[key] = hook.build_rows(doc[key], users, key)
    return rows


def _key_order_free(value):
    """`value` with every list of strings sorted: an engine may order board keys by their
    text ("u10" < "u9"), which new database ids change; nothing else may differ. (Only for
    the hook systems: the stored board is then the replay's, never the file's.)"""
    if isinstance(value, dict):
        return {k: _key_order_free(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [_key_order_free(v) for v in value]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    return value


def _replayed_snapshot(battle: Battle, commands: list[BattleCommand], path: str) -> dict:
    """The snapshot to store: the file's, checked by replaying the battle with this
    installation's army keys (the engine orders engagement pairs by key text, so those may
    come out in another order: the replay's is kept, or battle_verify would fail)."""
    live = sorted((c for c in commands if c.undone_at is None), key=lambda c: c.position)
    try:
        system = get_battle_system(battle.system)
        state, _events = replay(
            system, battle.setup, battle.seed, [Command.from_dict(c.command) for c in live]
        )
        replayed = state.to_dict()
    except (
        KeyError,
        TypeError,
        ValueError,
        AttributeError,
        IndexError,
        RuntimeError,
        ArithmeticError,
    ):
        replayed = None
    if replayed == battle.snapshot:
        return battle.snapshot
    if replayed is not None and _engagements_by_ref(replayed) == _engagements_by_ref(
        battle.snapshot
    ):
        return replayed
    if (
        replayed is not None
        and battle.system in SYSTEM_HOOKS
        and _key_order_free(replayed) == _key_order_free(battle.snapshot)
    ):
        return replayed
    raise _refuse(
        _(
            "%(path)s: replaying the commands of the battle “%(name)s” does not give its "
            "board (the file is damaged, or the battle did not verify where it was exported: "
            "see the verify_battles command)."
        ),
        path=path,
        name=battle.name,
    )


def _write_battles(
    rows, campaign: Campaign, factions: dict, by_ref: dict, users: dict, hooks: dict
) -> None:
    """The battles, their commands and events, each battle's JSON with this installation's
    ids (a Pathfinder battle's army keys here, another system's by its hook's `battle_in`
    with `hooks[system]`, the refs of its section), checked by replay."""
    keys = _lookup({str(ref): str(army.pk) for ref, army in by_ref.items()})
    faction_ids = {name: faction.pk for name, faction in factions.items()}
    systems = _systems()
    battles = []
    for index, (file_row, battle, commands, _events) in enumerate(rows):
        battle.campaign = campaign
        row = file_row
        if battle.system in systems:
            context = {"factions": faction_ids, "users": users, **hooks[battle.system]}
            row = systems[battle.system].battle_in(file_row, context)
            rows[index] = (row, battle, commands, _events)
            battle.setup = row["setup"]
            battle.snapshot = row["snapshot"]
            battle.outcome = row["outcome"]
            for command, command_row in zip(commands, row["commands"], strict=True):
                command.command = command_row["command"]
            battle.snapshot = _replayed_snapshot(battle, commands, f"battles[{index}]")
            battles.append(battle)
            continue
        battle.setup = _map_battle_json(row["setup"], keys)
        for side in battle.setup["sides"]:
            for entry in side["armies"]:
                if "faction" in entry:
                    entry["faction"] = faction_ids.get(entry["faction"])
        battle.snapshot = _map_battle_json(row["snapshot"], keys)
        battle.outcome = _map_battle_json(row["outcome"], keys)
        for command, command_row in zip(commands, row["commands"], strict=True):
            command.command = _map_battle_json(command_row["command"], keys)
        battle.snapshot = _replayed_snapshot(battle, commands, f"battles[{index}]")
        battles.append(battle)
    Battle.objects.bulk_create(battles, batch_size=500)
    _restore(Battle, battles, [row for row, *_rest in rows], BATTLE_FIELDS)
    commands, command_rows, events, event_rows = [], [], [], []
    for row, battle, battle_commands, _battle_events in rows:
        for command, command_row in zip(battle_commands, row["commands"], strict=True):
            command.battle = battle
            commands.append(command)
            command_rows.append(command_row)
    BattleCommand.objects.bulk_create(commands, batch_size=1000)
    _restore(BattleCommand, commands, command_rows, BATTLE_COMMAND_FIELDS)
    for row, battle, battle_commands, battle_events in rows:
        for event, event_row in zip(battle_events, row["events"], strict=True):
            event.battle = battle
            index = event_row["command"]
            event.command = battle_commands[index] if index is not None else None
            event.params = (
                event_row["params"]
                if battle.system in systems
                else _map_battle_json(event_row["params"], keys)
            )
            events.append(event)
            event_rows.append(event_row)
    BattleEvent.objects.bulk_create(events, batch_size=1000)
    _restore(BattleEvent, events, event_rows, BATTLE_EVENT_FIELDS)


@transaction.atomic(durable=True)
def _write(doc: dict[str, Any], rows: dict[str, Any], *, user, users: dict) -> Campaign:
    campaign = rows["campaign"]
    campaign.save()
    campaign.created_at = parse_datetime(doc["campaign"]["created_at"])
    campaign.updated_at = parse_datetime(doc["campaign"]["updated_at"])
    Campaign.objects.filter(pk=campaign.pk).update(
        created_at=campaign.created_at, updated_at=campaign.updated_at
    )

    factions = rows["factions"]
    for faction in factions.values():
        faction.campaign = campaign
    Faction.objects.bulk_create(factions.values())
    _restore(Faction, list(factions.values()), doc["factions"], FACTION_FIELDS)
    for name, kingdom in rows["kingdoms"]:
        kingdom.faction = factions[name]
    Kingdom.objects.bulk_create([kingdom for _name, kingdom in rows["kingdoms"]])
    for name, staff in rows["staffs"]:
        staff.faction = factions[name]
    CommandStaff.objects.bulk_create([staff for _name, staff in rows["staffs"]])

    members = []
    for row, member in rows["members"]:
        member.campaign = campaign
        member.faction = factions.get(row["faction"])
        if member.user == user:
            member.role = Role.GM
        members.append((row, member))
    if not any(member.user == user for _row, member in members):
        members.insert(0, ({}, Membership(campaign=campaign, user=user, role=Role.GM)))
    Membership.objects.bulk_create([member for _row, member in members])
    restored = [(row, member) for row, member in members if row]
    _restore(Membership, [m for _r, m in restored], [r for r, _m in restored], MEMBER_FIELDS)

    for row, settlement in rows["settlements"]:
        settlement.campaign = campaign
        settlement.faction = factions[row["faction"]]
    Settlement.objects.bulk_create([s for _row, s in rows["settlements"]])

    for row, army in rows["armies"]:
        army.faction = factions[row["faction"]]
    armies = [army for _row, army in rows["armies"]]
    Army.objects.bulk_create(armies, batch_size=1000)
    _restore(Army, armies, [row for row, _army in rows["armies"]], ARMY_FIELDS)
    by_ref = {row["ref"]: army for row, army in rows["armies"]}
    pks = {ref: army.pk for ref, army in by_ref.items()}

    entries = []
    for row, entry in rows["log"]:
        entry.faction = factions[row["faction"]]
        entry.army = by_ref.get(row["army"])
        entry.data = _map_army_params(
            row["code"], row["data"], pks, on_unknown=lambda key, value: None
        )
        entries.append(entry)
    LogEntry.objects.bulk_create(entries, batch_size=1000)
    _restore(LogEntry, entries, [row for row, _entry in rows["log"]], LOG_FIELDS)

    recruitments = []
    for row, recruitment in rows["recruitments"]:
        recruitment.faction = factions[row["faction"]]
        recruitment.army = by_ref.get(row["army"])
        recruitments.append(recruitment)
    Recruitment.objects.bulk_create(recruitments)
    _restore(Recruitment, recruitments, [r for r, _x in rows["recruitments"]], RECRUITMENT_FIELDS)
    hooks = {
        key: hook.write_rows(campaign, rows[key], factions, users)
        for key, hook in _systems().items()
    }
    _write_battles(rows["battles"], campaign, factions, by_ref, users, hooks)
    return campaign
