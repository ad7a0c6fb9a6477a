"""Campaign export and import: one versioned JSON document with everything of a campaign.

Format ``warfare-campaign``, version 5. Top-level keys::

    format, version, exported_at
    campaign      {name, description, rule_system, narrative_warfare, created_by,
                   created_at, updated_at, version}
    members       [{username, role, faction, joined_at}]
    factions      [{name, description, controlled_by, known_to_players, created_at, version,
                    <each section's faction objects>, command_staff: {...} | null}]
    <each section's keys>

This module writes and reads the core (campaign, members, factions and their command staff)
and knows no rule system. Everything else is a `Section` an app owns: each rule system's
rows (its `RuleSystemPlugin.campaign_file` in `kingdoms.rulesystems`, a `SystemSection`) in
the order of the systems' `position`, then the sections other apps register here
(`register_section`: the battles, `battles.portability`). Version 5 writes::

    settlements, armies, log, recruitments, factions[].kingdom   Pathfinder 2e (pf2e)
    gurps4e {element_types, forces}                              GURPS 4e
    gurps3e {troop_types, forces, characters}                    GURPS 3e
    dnd5e   {creatures, armies}                                  D&D 5e
    battles [{name, system, setup, snapshot, ..., commands, events}]   (battles app)

Each section's module describes its keys. References inside the file are natural keys,
never database ids of the source installation: factions by name (unique in a campaign),
users by username, other rows by a name or by `ref`, a number local to the file. Invite
links (their tokens are secrets) and passwords are not exported.

Import reads a file in four steps, all before anything is written: parse (size, JSON, an
object, the format), upgrade (older format versions, `UPGRADES` and the sections' own
steps), validate (the shape: DRF serializers, `kingdoms.fileschema`; every reference; the
models' own validation; each system's rules), write (one durable transaction). A damaged or
hostile file raises `ImportRefused` naming the problem and the path of the bad value.
"""

import copy
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any
from uuid import UUID

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework import serializers

from . import rulesystems
from .fileschema import Moment, Name, Row, Rows, Text, Whole, problems
from .models import Campaign, CommandStaff, Faction, Invite, Membership, Role

FORMAT = "warfare-campaign"
VERSION = 5
MAX_UPLOAD_BYTES = 5 * 1024 * 1024
MAX_DEPTH = 32
#: Problems of the file's shape named at once (each list reports its first ten bad entries).
MAX_MESSAGES = 20
LIMITS = {
    "members": 1_000,
    "factions": 1_000,
    # Each list of a rule system's section (forces, units, characters, creatures...).
    "system_rows": 10_000,
}

# The model fields each core row carries, beyond its references. A test checks that every
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
COMMAND_STAFF_FIELDS = (
    "commander", "strategy", "tactics", "leadership", "intelligence_officer",
    "intelligence_analysis", "logistics_officer", "administration", "version",
)  # fmt: skip


#: The row types the core owns: {model: (the fields the file carries, its references)}.
CORE_ROWS = {
    Campaign: (CAMPAIGN_FIELDS, ("created_by",)),
    Membership: (MEMBER_FIELDS, ("campaign", "user", "faction")),
    Faction: (FACTION_FIELDS, ("campaign",)),
    CommandStaff: (COMMAND_STAFF_FIELDS, ("faction",)),
}
#: Rows no campaign file carries, and why.
NOT_EXPORTED = {Invite: "an invite link's token is a secret"}


class ImportRefused(ValidationError):
    """The file cannot be imported; the message names the problem. Nothing was written."""


# --- Sections -----------------------------------------------------------------------------------


class Section:
    """A part of the campaign file an app owns: some top-level keys of the document (and
    objects of its own inside each faction). Every method has a do-nothing default.

    The `context` dicts the methods share::

        export   {"campaign", "factions": [Faction] (by pk, with `faction_related`),
                  "faction_names": {id: name}, "refs": {section key: what its export
                  returned as refs}}
        check    {"factions": {names}, <section key>: what its check keeps for its battles}
        build    {"users": {username: user}, "factions": {name: unsaved Faction}}
        write    {"campaign", "users", "factions": {name: saved Faction},
                  "faction_ids": {name: id}, "refs": {section key: refs its write returned}}
    """

    #: Who owns it: a rule system's key, or an app's name ("battles").
    key: str = ""
    #: The top-level keys it owns, in the order the file writes them.
    keys: tuple[str, ...] = ()
    #: The format version that added its keys: older files get `empty()` on upgrade.
    since: int = 0
    #: True: a file without its keys reads as `empty()` (a rule system added to an
    #: installation after files were written), not as a damaged file.
    optional: bool = False
    #: {version: step(document) in place to version + 1} for its own keys.
    upgrades: Mapping[int, Callable[[dict], None]] = {}
    #: Relations of Faction the export reads with the factions (select_related).
    faction_related: tuple[str, ...] = ()
    #: The row types it owns: {model: (the fields the file carries, the fields that are
    #: references, written as names or refs)}. A test checks that these are all the
    #: model's columns, and that every model of their apps is owned by some section.
    owns: Mapping[type[models.Model], tuple[tuple[str, ...], tuple[str, ...]]] = {}

    def empty(self) -> dict[str, Any]:
        """Its keys as a campaign without any of its rows has them."""
        return {}

    def fields(self) -> dict[str, serializers.Field]:
        """The shape of its keys (`kingdoms.fileschema`)."""
        return {}

    def faction_fields(self) -> dict[str, serializers.Field]:
        """The shape of the objects it adds to each faction."""
        return {}

    def export(self, campaign: Campaign, context: dict) -> tuple[dict[str, Any], Any]:
        """(its keys' values, refs for later sections: {kind: {database id: ref}})."""
        return {}, {}

    def export_faction(self, faction: Faction) -> dict[str, Any]:
        """Its objects inside `faction`'s row."""
        return {}

    def check(self, document: dict, context: dict) -> None:
        """Refuse (ImportRefused) dangling or duplicate references in its keys."""

    def usernames(self, document: dict) -> set[str]:
        """The usernames its keys name (looked up on this installation)."""
        return set()

    def build(self, document: dict, context: dict) -> Any:
        """Its rows, unsaved and each validated (by the model; by the rules)."""
        return None

    def write(self, campaign: Campaign, rows: Any, context: dict) -> Any:
        """Write `rows` (inside the import's transaction); refs for later sections
        ({kind: {ref: new id}})."""
        return {}


class SystemSection(Section):
    """A rule system's section, with how its battles' JSON names its rows. The battles
    section (`battles.portability`) calls these for every battle of the system; the defaults
    suit a system whose battles name nothing by database id."""

    def battle_user_ids(self, setup) -> set[int]:
        """The users a battle's setup names by id."""
        return set()

    def battle_out(self, battle: dict, context: dict) -> dict:
        """`battle` (as the file holds it, ids still of this database) with ids as refs.
        `context`: {"factions": {id: name}, "users": {id: username}, **its export refs}."""
        return battle

    def check_battle(self, battle: dict, path: str, document: dict, context: dict) -> None:
        """Refuse a battle whose setup or JSON names what the file does not hold (`context`
        is the check's: its own `check` may have left its refs there)."""

    def battle_usernames(self, battles: list[dict]) -> set[str]:
        """The usernames its battles name."""
        return set()

    def battle_in(self, battle: dict, context: dict) -> dict:
        """`battle` of the file with this installation's ids. `context`: {"factions": {name:
        id}, "users": {username: user}, **its write refs}."""
        return battle

    def same_board(self, replayed: dict, stored: dict) -> bool:
        """Whether a replayed board that differs from the file's is the same board (its
        engine orders something by the text of database ids); the replay's is then kept."""
        return False


_APP_SECTIONS: list[Section] = []


def register_section(section: Section) -> Section:
    """Add a section that is not a rule system's (after them, in registration order)."""
    _APP_SECTIONS[:] = [s for s in _APP_SECTIONS if s.key != section.key] + [section]
    return section


def sections() -> list[Section]:
    """Every section of the file, in its order: the rule systems', then the apps'."""
    systems = [p.campaign_file for p in rulesystems.all() if p.campaign_file is not None]
    return [*systems, *_APP_SECTIONS]


def system_section(key: str) -> SystemSection | None:
    """The section of rule system `key`: its own, a do-nothing one when it has none, None
    for an unknown system."""
    plugin = rulesystems.get(key)
    if plugin is None:
        return None
    return plugin.campaign_file or SystemSection()


# --- Shared helpers (for the sections) -----------------------------------------------------------


def value(instance, name: str) -> Any:
    """A model field's value as the file writes it (times in UTC ISO 8601, decimals and
    UUIDs as text)."""
    found = getattr(instance, name)
    if isinstance(found, datetime):
        return found.astimezone(UTC).isoformat()
    if isinstance(found, Decimal | UUID):
        return str(found)
    return found


def fields(instance, names) -> dict[str, Any]:
    return {name: value(instance, name) for name in names}


def export_rows(rows, names, head=None, children=()) -> list[dict[str, Any]]:
    """The file's rows of `rows` (what `build_all` and `build_nested` read back): each is
    `head(row)` (its ref and references), its fields `names`, then, per (key, child names,
    child head) of `children`, its children `row.<key>.all()` (prefetched) in the same way."""
    return [
        {
            **(head(row) if head else {}),
            **fields(row, names),
            **{key: export_rows(getattr(row, key).all(), child_names, child_head)
               for key, child_names, child_head in children},
        }
        for row in rows
    ]  # fmt: skip


def username(user) -> str | None:
    return user.get_username() if user is not None else None


def is_int(found) -> bool:
    return isinstance(found, int) and not isinstance(found, bool)


def refuse(message: str, **params) -> ImportRefused:
    return ImportRefused(message % params if params else message, code="bad_campaign_file")


def type_error(path: str, expected: str) -> ImportRefused:
    return refuse(_("%(path)s: expected %(expected)s."), path=path, expected=expected)


def unique(rows: list[dict], key, path: str) -> set:
    """The values of `key` (a field's name, or a function of the row) in `rows`; refused
    when one appears twice."""
    seen = set()
    for index, row in enumerate(rows):
        found = key(row) if callable(key) else row[key]
        if found in seen:
            raise refuse(
                _("%(path)s[%(index)s]: “%(value)s” appears twice."),
                path=path,
                index=index,
                value=found,
            )
        seen.add(found)
    return seen


def check_ref(found, known, path: str, what: str) -> None:
    """Refuse a reference (not null) that is not in `known`."""
    try:
        ok = found is None or found in known
    except TypeError:  # a list or an object where a name or a ref belongs
        ok = False
    if not ok:
        raise refuse(
            _("%(path)s: no %(what)s “%(value)s” in the file."), path=path, what=what, value=found
        )


def check_forces(rows: list[dict], factions, path: str, children=()) -> set:
    """A section's forces (a rule system's armies) at `path`: their refs (returned) unique,
    no two of one faction with one name, each faction one of the file's (`factions`); per
    (key, field, known, what) of `children`, each of a force's `key` rows names one of
    `known` in its `field`."""
    refs = unique(rows, "ref", path)
    unique(rows, lambda row: (row["faction"], row["name"]), path)
    for index, row in enumerate(rows):
        where = f"{path}[{index}]"
        check_ref(row["faction"], factions, f"{where}.faction", _("faction"))
        for key, field, known, what in children:
            for number, child in enumerate(row[key]):
                check_ref(child[field], known, f"{where}.{key}[{number}].{field}", what)
    return refs


def clean(instance: models.Model, path: str) -> None:
    """The model's own validation (choices, lengths, ranges, `clean()`), without queries."""
    exclude = [
        f.name
        for f in instance._meta.concrete_fields
        if f.is_relation or isinstance(f, models.JSONField)
    ]
    try:
        instance.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
    except (TypeError, AttributeError, KeyError, ValueError):
        raise refuse(_("%(path)s: the values cannot be read."), path=path) from None
    except ValidationError as error:
        found = "; ".join(
            f"{field}: {' '.join(messages)}" if field != "__all__" else " ".join(messages)
            for field, messages in error.message_dict.items()
        )
        raise refuse(_("%(path)s: %(problems)s"), path=path, problems=found) from None


def build(model, row: dict[str, Any], names, path: str, **extra) -> models.Model:
    """An unsaved `model` row from the file's `row` (its fields `names`), validated."""
    values = {name: row[name] for name in names}
    for name in names:
        if isinstance(model._meta.get_field(name), models.DateTimeField) and values[name]:
            values[name] = parse_datetime(values[name])
    instance = model(**values, **extra)
    clean(instance, path)
    return instance


def restore(model, rows: list[models.Model], values: list[dict], names) -> None:
    """Put back the timestamps that auto_now/auto_now_add replaced on insert."""
    names = [n for n in names if isinstance(model._meta.get_field(n), models.DateTimeField)]
    for instance, row in zip(rows, values, strict=True):
        for name in names:
            setattr(instance, name, parse_datetime(row[name]) if row[name] else None)
    if rows and names:
        model.objects.bulk_update(rows, names, batch_size=500)


def build_all(model, rows: list[dict], names, path: str, extra=None) -> list[tuple]:
    """[(file row, unsaved validated instance)] for the rows of the list at `path`;
    `extra(row)`: more constructor arguments (references already looked up)."""
    return [
        (row, build(model, row, names, f"{path}[{i}]", **(extra(row) if extra else {})))
        for i, row in enumerate(rows)
    ]


def build_nested(model, rows: list[dict], names, path: str, children, extra=None):
    """`build_all` for rows that hold lists of child rows (a force's units): `children` is
    ((key, child model, child names, link), ...): each `row[key]` is built too, at
    `<path>[i].<key>`, its instances linked to their (unsaved) parent by the attribute
    `link`. ([(row, parent)], {key: [(child row, child)] of all parents})."""
    parents, nested = [], {key: [] for key, *_ in children}
    for index, row in enumerate(rows):
        where = f"{path}[{index}]"
        parent = build(model, row, names, where, **(extra(row) if extra else {}))
        parents.append((row, parent))
        for key, child_model, child_names, link in children:
            pairs = build_all(child_model, row[key], child_names, f"{where}.{key}")
            for _child_row, child in pairs:
                setattr(child, link, parent)
            nested[key] += pairs
    return parents, nested


def save_all(model, pairs: list[tuple], names, links=None) -> list[models.Model]:
    """Insert the instances of `pairs` ((file row, instance), from `build_all`) after
    setting `links(row)` on each (their references, as saved rows), and put back their
    timestamps; the saved instances, in order."""
    instances = []
    for row, instance in pairs:
        for name, found in (links(row) if links else {}).items():
            setattr(instance, name, found)
        instances.append(instance)
    model.objects.bulk_create(instances, batch_size=1000)
    restore(model, instances, [row for row, _instance in pairs], names)
    return instances


def numbered(instances) -> dict[int, int]:
    """{database id: ref}: refs numbered from 1 in the order given."""
    return {instance.pk: ref for ref, instance in enumerate(instances, 1)}


def system_rows(child: serializers.Field) -> Rows:
    """A list of a rule system's section (at most `LIMITS["system_rows"]` entries)."""
    return Rows(child, limit=LIMITS["system_rows"])


# --- Export -------------------------------------------------------------------------------------


def campaign_export(campaign: Campaign) -> dict[str, Any]:
    """Everything of `campaign` as one JSON-ready document (a read: nothing is written)."""
    parts = sections()
    related = {"command_staff", *(name for s in parts for name in s.faction_related)}
    factions = list(
        Faction.objects.filter(campaign=campaign).select_related(*sorted(related)).order_by("pk")
    )
    members = (
        Membership.objects.filter(campaign=campaign)
        .select_related("user", "faction")
        .order_by("pk")
    )

    def faction_doc(faction: Faction) -> dict[str, Any]:
        staff = getattr(faction, "command_staff", None)
        return {
            **fields(faction, FACTION_FIELDS),
            **{k: v for s in parts for k, v in s.export_faction(faction).items()},
            "command_staff": fields(staff, COMMAND_STAFF_FIELDS) if staff else None,
        }

    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": timezone.now().astimezone(UTC).isoformat(),
        "campaign": {
            **fields(campaign, CAMPAIGN_FIELDS),
            "created_by": username(campaign.created_by),
        },
        "members": [
            {
                "username": m.user.get_username(),
                "faction": m.faction.name if m.faction else None,
                **fields(m, MEMBER_FIELDS),
            }
            for m in members
        ],
        "factions": [faction_doc(f) for f in factions],
    }
    context = {
        "campaign": campaign,
        "factions": factions,
        "faction_names": {f.pk: f.name for f in factions},
        "refs": {},
    }
    for section in parts:
        found, context["refs"][section.key] = section.export(campaign, context)
        document.update({key: found[key] for key in section.keys})
    return document


def campaign_export_bytes(campaign: Campaign) -> bytes:
    return json.dumps(campaign_export(campaign), ensure_ascii=False, indent=1).encode()


# --- Parse --------------------------------------------------------------------------------------


def _no_constants(name: str):
    raise ValueError(_("%(name)s is not a number JSON allows") % {"name": name})


def _finite_float(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):
        raise ValueError(_("%(number)s is too large a number") % {"number": text[:20]})
    return number


def _no_duplicate_keys(pairs):
    result = {}
    for key, item in pairs:
        if key in result:
            raise ValueError(_("the key “%(key)s” appears twice in one object") % {"key": key})
        result[key] = item
    return result


def parse_document(raw: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES) -> dict[str, Any]:
    """The JSON object in `raw`, or ImportRefused (too large, not JSON, not an object)."""
    if len(raw) > max_bytes:
        raise refuse(
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
        raise refuse(_("The file is nested too deeply to be a campaign file.")) from None
    except ValueError as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise refuse(_("The file is not valid JSON: %(error)s."), error=error) from None
    if not isinstance(document, dict):
        raise refuse(_("The file is JSON but not an object: it is not a campaign file."))
    return document


# --- Upgrade ------------------------------------------------------------------------------------


def upgrade_0_to_1(doc: dict[str, Any]) -> None:
    """Version 0 was written before rows had versions and before memberships were exported
    (the sections' own version 0 steps do the rest)."""
    campaign = doc["campaign"]
    campaign.setdefault("updated_at", campaign.get("created_at"))
    campaign.setdefault("version", 1)
    campaign.setdefault("created_by", None)
    for faction in doc["factions"]:
        faction["version"] = 1
        if faction.get("command_staff") is not None:
            faction["command_staff"]["version"] = 1
    doc.setdefault("members", [])


def _unchanged(doc: dict[str, Any]) -> None:
    """The core rows did not change in this version (its sections' rows may have)."""


UPGRADES: dict[int, Callable[[dict[str, Any]], None]] = {
    0: upgrade_0_to_1,
    1: _unchanged,  # version 2 added battles
    2: _unchanged,  # version 3 added the GURPS 4e, GURPS 3e and D&D 5e sections
    3: _unchanged,  # version 4 added the HP of D&D 5e stands
    4: _unchanged,  # version 5 added the battles' auto-play columns
}
"""{version: the core's step to version + 1, in place}. A new format version adds its step
here; each section's steps (`Section.upgrades`, `Section.since`) run after the core's."""


def upgrade(document: dict[str, Any]) -> dict[str, Any]:
    """The document in the current format version, or ImportRefused."""
    version = document.get("version")
    if not is_int(version):
        raise refuse(_("The file's “version” must be a whole number."))
    if version > VERSION:
        raise refuse(
            _(
                "The file was written by a newer Warfare (format version %(version)s); "
                "this installation reads versions up to %(current)s."
            ),
            version=version,
            current=VERSION,
        )
    if version != VERSION and version not in UPGRADES:
        raise refuse(_("Unknown format version %(version)s."), version=version)
    if version < VERSION:
        document = copy.deepcopy(document)
    while version < VERSION:
        try:
            UPGRADES[version](document)
            for section in sections():
                if section.since == version + 1:
                    for key, empty in section.empty().items():
                        document.setdefault(key, empty)
                if version in section.upgrades:
                    section.upgrades[version](document)
        except (KeyError, TypeError, AttributeError, ValueError):
            raise refuse(
                _("The format version %(version)s file is damaged: it cannot be upgraded."),
                version=version,
            ) from None
        version += 1
        document["version"] = version
    return document


# --- Validate -----------------------------------------------------------------------------------


def _check_text(found, path: str) -> None:
    """Every string in the file: no NUL characters, no lone surrogates (PostgreSQL refuses
    both), and no nesting deeper than MAX_DEPTH."""
    stack = [(found, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise refuse(_("%(path)s: nested too deeply."), path=where)
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
        raise refuse(_("%(path)s: text contains a NUL character."), path=path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise refuse(_("%(path)s: text is not valid Unicode."), path=path) from None


def document_schema(parts: list[Section] | None = None) -> Row:
    """The serializer of the whole document (current version): the core and every section."""
    parts = sections() if parts is None else parts
    staff = Row(model=CommandStaff, names=COMMAND_STAFF_FIELDS, allow_null=True)
    faction = Row(
        {
            **{k: v for s in parts for k, v in s.faction_fields().items()},
            "command_staff": staff,
        },
        model=Faction,
        names=FACTION_FIELDS,
    )
    member = Row(
        {"username": Name(), "faction": Name(allow_null=True)},
        model=Membership,
        names=MEMBER_FIELDS,
    )
    return Row(
        {
            "format": Text(40),
            "version": Whole(),
            "exported_at": Moment(),
            "campaign": Row(
                {"created_by": Name(allow_null=True)}, model=Campaign, names=CAMPAIGN_FIELDS
            ),
            "members": Rows(member, limit=LIMITS["members"]),
            "factions": Rows(faction, limit=LIMITS["factions"]),
            **{k: v for s in parts for k, v in s.fields().items()},
        }
    )


def _check_core(document: dict[str, Any]) -> set[str]:
    """Unique faction names and usernames, each member's faction; the faction names."""
    factions = unique(document["factions"], "name", "factions")
    unique(document["members"], "username", "members")
    for index, row in enumerate(document["members"]):
        check_ref(row["faction"], factions, f"members[{index}].faction", _("faction"))
    return factions


def validate_document(document: dict[str, Any]) -> dict[str, Any]:
    """The current-version document checked in full, or ImportRefused. Nothing is written."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise refuse(
            _("This is not a Warfare campaign file (its “format” is not “%(format)s”)."),
            format=FORMAT,
        )
    _check_text(document, "file")
    document = upgrade(document)
    parts = sections()
    for section in parts:
        if section.optional and not any(key in document for key in section.keys):
            document = {**document, **copy.deepcopy(section.empty())}
    try:
        document_schema(parts).run_validation(document)
    except serializers.ValidationError as error:
        found = problems(error.detail)
        if len(found) > MAX_MESSAGES:
            more = len(found) - MAX_MESSAGES
            tail = ngettext("… and %(count)s more problem.", "… and %(count)s more problems.", more)
            found = [*found[:MAX_MESSAGES], tail % {"count": more}]
        raise ImportRefused([ValidationError(m, code="bad_campaign_file") for m in found]) from None
    context = {"factions": _check_core(document)}
    for section in parts:
        section.check(document, context)
    return document


# --- Import -------------------------------------------------------------------------------------


def campaign_import(*, user, data: dict[str, Any]) -> Campaign:
    """Create a new campaign from an exported document; `user` becomes its game master.

    Members whose username exists on this installation join with their role and faction;
    the others are listed in `campaign.import_skipped` (usernames). Everything is checked
    before one transaction writes it all; a bad file raises ImportRefused and writes nothing.
    """
    doc = validate_document(data)
    parts = sections()
    usernames = {m["username"] for m in doc["members"]}
    for section in parts:
        usernames |= section.usernames(doc)
    users = {
        u.get_username(): u
        for u in get_user_model().objects.filter(**{"username__in": sorted(usernames)})
    }
    core = _build_core(doc, user=user, users=users)
    context = {"users": users, "factions": core["factions"]}
    rows = {section.key: section.build(doc, context) for section in parts}
    try:
        campaign = _write(doc, core, parts, rows, user=user, users=users)
    except DatabaseError as error:
        raise refuse(_("The database refused the file: %(error)s"), error=error) from None
    campaign.import_skipped = [m["username"] for m in doc["members"] if m["username"] not in users]
    return campaign


def _build_core(doc: dict[str, Any], *, user, users: dict) -> dict[str, Any]:
    """Unsaved core rows, each validated; references still by name."""
    campaign = build(Campaign, doc["campaign"], CAMPAIGN_FIELDS, "campaign", created_by=user)
    rows: dict[str, Any] = {"campaign": campaign, "factions": {}, "staffs": []}
    for index, f in enumerate(doc["factions"]):
        path = f"factions[{index}]"
        rows["factions"][f["name"]] = build(Faction, f, FACTION_FIELDS, path, campaign=campaign)
        if f["command_staff"] is not None:
            staff = build(
                CommandStaff, f["command_staff"], COMMAND_STAFF_FIELDS, f"{path}.command_staff"
            )
            rows["staffs"].append((f["name"], staff))
    rows["members"] = [
        (m, build(Membership, m, MEMBER_FIELDS, f"members[{i}]", user=users[m["username"]]))
        for i, m in enumerate(doc["members"])
        if m["username"] in users
    ]
    return rows


@transaction.atomic(durable=True)
def _write(doc, core: dict, parts: list[Section], rows: dict, *, user, users: dict) -> Campaign:
    campaign = core["campaign"]
    campaign.save()
    campaign.created_at = parse_datetime(doc["campaign"]["created_at"])
    campaign.updated_at = parse_datetime(doc["campaign"]["updated_at"])
    Campaign.objects.filter(pk=campaign.pk).update(
        created_at=campaign.created_at, updated_at=campaign.updated_at
    )

    factions = core["factions"]
    for faction in factions.values():
        faction.campaign = campaign
    Faction.objects.bulk_create(factions.values())
    restore(Faction, list(factions.values()), doc["factions"], FACTION_FIELDS)
    for name, staff in core["staffs"]:
        staff.faction = factions[name]
    CommandStaff.objects.bulk_create([staff for _name, staff in core["staffs"]])

    members = []
    for row, member in core["members"]:
        member.campaign = campaign
        member.faction = factions.get(row["faction"])
        if member.user == user:
            member.role = Role.GM
        members.append((row, member))
    if not any(member.user == user for _row, member in members):
        members.insert(0, ({}, Membership(campaign=campaign, user=user, role=Role.GM)))
    Membership.objects.bulk_create([member for _row, member in members])
    restored = [(row, member) for row, member in members if row]
    restore(Membership, [m for _r, m in restored], [r for r, _m in restored], MEMBER_FIELDS)

    context = {
        "campaign": campaign,
        "users": users,
        "factions": factions,
        "faction_ids": {name: faction.pk for name, faction in factions.items()},
        "refs": {},
    }
    for section in parts:
        context["refs"][section.key] = section.write(campaign, rows[section.key], context)
    return campaign
