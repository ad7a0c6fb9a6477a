"""The battles in the campaign file (format version 2 on), and the helpers the rule systems'
sections use for their battles' JSON.

Key ``battles`` (after every rule system's section)::

    battles  [{name, system, seed, seq, status, players_may_act, created_at, updated_at,
               auto_sides, forecast_shared, autoplay_batch, created_by, setup, snapshot,
               outcome, commands: [{position, created_at, undone_at, batch, command, actor}],
               events: [{command, round, code, created_at, params}]}]

A battle's JSON (setup, snapshot, outcome, commands, event params) names its pieces by the
database ids of its rule system's rows: the system's section (`SystemSection.battle_out` /
`battle_in`, found through `kingdoms.rulesystems`) turns them into refs of the file and back.
An event names its command by its index in the battle's "commands" (not by position: an
undone command and its replacement share a position). Users are named by username.

Import replays every battle with this installation's ids and refuses the file unless the
board comes out as stored, or as the system's `same_board` allows (an engine that orders
something by the text of database ids: "10" < "9"); the replay's board is then kept.
"""

import re
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from kingdoms import portability as core
from kingdoms import rulesystems
from kingdoms.fileschema import JSONObject, Name, Ref, Row, Rows
from warfare.engine.battle.protocol import Command, replay
from warfare.engine.battle.registry import get_battle_system

from .autoplay import parse_auto_sides
from .models import Battle, BattleCommand, BattleEvent

LIMITS = {
    "battles": 2_000,
    # Totals over all battles of the file (each battle's own list has the same limit).
    "battle_commands": 100_000,
    "battle_events": 100_000,
}
# Auto-play's columns (battles.autoplay; format version 5 on): the sides that play
# themselves, whether players see the forecast, the batch of the last live command if an
# auto-play applied it (and each command's batch), so an imported battle undoes an auto-play
# at once as it did where it was exported.
AUTOPLAY_FIELDS = ("auto_sides", "forecast_shared", "autoplay_batch")
BATTLE_FIELDS = (
    "name", "system", "seed", "seq", "status", "players_may_act", "created_at", "updated_at",
    *AUTOPLAY_FIELDS,
)  # fmt: skip
BATTLE_JSON_FIELDS = ("setup", "snapshot", "outcome")  # ids inside are mapped by the system
BATTLE_COMMAND_FIELDS = ("position", "created_at", "undone_at", "batch")  # and "command"
BATTLE_EVENT_FIELDS = ("round", "code", "created_at")  # and "params"
_UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError, ArithmeticError)


# --- Helpers for the systems' sections ----------------------------------------------------------


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


def map_piece_keys(value, pattern: re.Pattern, convert, skip=frozenset(), path: str = ""):
    """A copy of battle JSON `value` with every string (value or object key) that matches
    `pattern` in full replaced by `convert(match, path)`; the values under the names in `skip`
    (free text, stat blocks) are left as they are."""
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


class PieceKeys:
    """Board keys made of a letter and a database id, alone or inside a code ("u12",
    "u12.3", "s4:fireball", "glory.c3"), wherever they occur in a battle's JSON: the file
    holds the row's ref instead of its id. `pattern` has the groups pre, kind (the letter),
    id and post; `kinds` maps each letter to the refs table of the section ({"u": "units"})
    and `what` to the name of that row for messages; nothing under a name in `skip` (free
    text, stat blocks) is read as a key.

    A piece whose row was deleted after the battle keeps a key with a negative number ("u-1",
    numbered per battle and letter), which no row has: the battle still replays, and applying
    its results skips that piece."""

    def __init__(self, pattern: re.Pattern, kinds: dict[str, str], what, skip=frozenset()):
        self.pattern, self.kinds, self.what, self.skip = pattern, kinds, what, skip

    def _key(self, match, number) -> str:
        return f"{match['pre']}{match['kind']}{number}{match['post']}"

    def out(self, battle: dict, context: dict) -> dict:
        """Database ids as refs (`context[table]`: {id: ref})."""
        orphans: dict[str, dict[int, int]] = {kind: {} for kind in self.kinds}

        def convert(match, path):
            kind, number = match["kind"], int(match["id"])
            ref = context[self.kinds[kind]].get(number)
            if ref is None:
                ref = orphans[kind].setdefault(number, -len(orphans[kind]) - 1)
            return self._key(match, ref)

        return map_battle_parts(
            battle, lambda value, path: map_piece_keys(value, self.pattern, convert, self.skip)
        )

    def into(self, battle: dict, context: dict) -> dict:
        """Refs as this installation's ids (`context[table]`: {ref: id}); deleted pieces stay."""

        def convert(match, path):
            kind, number = match["kind"], int(match["id"])
            if number <= 0:
                return match.group(0)
            return self._key(match, context[self.kinds[kind]][number])

        return map_battle_parts(
            battle, lambda value, path: map_piece_keys(value, self.pattern, convert, self.skip)
        )

    def check(self, battle: dict, refs: dict[str, set], path: str) -> None:
        """Refuse a key of a ref not in `refs[letter]` (a deleted piece's negative number is
        no ref)."""

        def convert(match, where):
            kind, number = match["kind"], int(match["id"])
            if number > 0 and number not in refs[kind]:
                raise core.refuse(
                    _("%(path)s: no %(what)s “%(value)s” in the file."),
                    path=f"{path}.{where}",
                    what=self.what[kind],
                    value=match.group(0),
                )
            return match.group(0)

        map_battle_parts(
            battle,
            lambda value, where: map_piece_keys(value, self.pattern, convert, self.skip, where),
        )


def engagements_by_ref(snapshot):
    """A board's engagement pairs in the order of their keys' text: the engine orders them
    so, and new database ids change that order (the file's order is by refs)."""
    pairs = snapshot.get("engagements") if isinstance(snapshot, dict) else None
    if not isinstance(pairs, list) or not all(
        isinstance(p, list) and len(p) == 2 and all(isinstance(k, str) for k in p) for p in pairs
    ):
        return snapshot
    return {**snapshot, "engagements": sorted(sorted(p) for p in pairs)}


def key_order_free(value):
    """`value` with every list of strings sorted: an engine may order board keys by their
    text ("u10" < "u9"), which new database ids change; nothing else may differ."""
    if isinstance(value, dict):
        return {k: key_order_free(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [key_order_free(v) for v in value]
        return sorted(items) if all(isinstance(v, str) for v in items) else items
    return value


def same_board_but_key_order(replayed: dict, stored: dict) -> bool:
    """`SystemSection.same_board` of a system whose engine may order engagement pairs or
    lists of board keys by their text."""
    return engagements_by_ref(replayed) == engagements_by_ref(stored) or (
        key_order_free(replayed) == key_order_free(stored)
    )


def user_id(users: dict):
    """A `battle_in` lookup of a setup's username: that user's id here, or null."""

    def owner(name):
        user = users.get(name)
        return user.pk if user is not None else None

    return owner


def check_sides(sides, path: str, expected: str, *, kind=list) -> None:
    """Refuse a setup's sides that are not a `kind` (list or dict) of objects."""
    items = sides if kind is list else (sides.values() if isinstance(sides, dict) else None)
    if not isinstance(sides, kind) or not all(isinstance(side, dict) for side in items):
        raise core.type_error(path, expected)


def check_text_ref(found, known, path: str, what: str) -> None:
    """Refuse a name in a setup that is not text (or null), or not in `known`."""
    if not isinstance(found, str | None):
        raise core.type_error(path, _("text"))
    core.check_ref(found, known, path, what)


# --- The section --------------------------------------------------------------------------------


def _section(system: str) -> core.SystemSection:
    return core.system_section(system) or core.SystemSection()


def _check_auto_sides(values, path: str) -> None:
    """Refuse auto sides that are not side keys, each once, in order (as stored)."""
    try:
        if list(parse_auto_sides(values)) == values:
            return
        raise ValidationError(  # a key twice, or out of order: not as the board stores them
            _("auto_sides: a list of side keys (a, b).")
        )
    except ValidationError as error:
        raise core.refuse(
            _("%(path)s: %(problems)s"), path=path, problems=" ".join(error.messages)
        ) from None


def upgrade_4_to_5(document: dict[str, Any]) -> None:
    """Version 4 had no auto-play columns: its battles play every side by hand, keep their
    forecast the GM's and undo one command at a time (as they imported then). The keys come
    where the export writes them."""
    defaults = {"auto_sides": [], "forecast_shared": False, "autoplay_batch": None}
    for index, battle in enumerate(document["battles"]):
        battle = _in_export_order(battle, BATTLE_FIELDS, defaults)
        battle["commands"] = [
            _in_export_order(command, BATTLE_COMMAND_FIELDS, {"batch": None})
            for command in battle["commands"]
        ]
        document["battles"][index] = battle


def _in_export_order(row: dict, names, defaults: dict) -> dict:
    """`row` with `defaults` added: its fields `names` first, in that order, then the rest."""
    row = {**defaults, **row}
    return {**{name: row.pop(name) for name in names}, **row}


class BattlesSection(core.Section):
    key = "battles"
    keys = ("battles",)
    since = 2
    upgrades = {4: upgrade_4_to_5}
    owns = {
        Battle: (
            (*BATTLE_FIELDS, *BATTLE_JSON_FIELDS),
            ("campaign", "created_by"),
        ),
        BattleCommand: (
            (*BATTLE_COMMAND_FIELDS, "command"),
            ("battle", "actor"),
        ),
        BattleEvent: ((*BATTLE_EVENT_FIELDS, "params"), ("battle", "command")),
    }

    def empty(self):
        return {"battles": []}

    def fields(self):
        command = Row(
            {"command": JSONObject(), "actor": Name(allow_null=True)},
            model=BattleCommand,
            names=BATTLE_COMMAND_FIELDS,
        )
        event = Row(
            {"command": Ref(), "params": JSONObject()},
            model=BattleEvent,
            names=BATTLE_EVENT_FIELDS,
        )
        battle = Row(
            {
                "created_by": Name(allow_null=True),
                "setup": JSONObject(),
                "snapshot": JSONObject(),
                "outcome": JSONObject(allow_null=True),
                "commands": Rows(command, limit=LIMITS["battle_commands"]),
                "events": Rows(event, limit=LIMITS["battle_events"]),
            },
            model=Battle,
            names=BATTLE_FIELDS,
        )
        return {"battles": Rows(battle, limit=LIMITS["battles"])}

    def export(self, campaign, context):
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
        for event in BattleEvent.objects.filter(battle__campaign=campaign).order_by(
            "battle_id", "pk"
        ):
            events.setdefault(event.battle_id, []).append(event)
        user_ids = {
            pk for battle in battles for pk in _section(battle.system).battle_user_ids(battle.setup)
        }
        usernames = (
            dict(get_user_model().objects.filter(pk__in=user_ids).values_list("pk", "username"))
            if user_ids
            else {}
        )
        result = []
        for battle in battles:
            index = {c.pk: i for i, c in enumerate(commands.get(battle.pk, []))}
            doc = {
                **core.fields(battle, BATTLE_FIELDS),
                "created_by": core.username(battle.created_by),
                "setup": battle.setup,
                "snapshot": battle.snapshot,
                "outcome": battle.outcome,
                "commands": [
                    {
                        **core.fields(c, BATTLE_COMMAND_FIELDS),
                        "command": c.command,
                        "actor": core.username(c.actor),
                    }
                    for c in commands.get(battle.pk, [])
                ],
                "events": [
                    {
                        "command": index[e.command_id] if e.command_id is not None else None,
                        **core.fields(e, BATTLE_EVENT_FIELDS),
                        "params": e.params,
                    }
                    for e in events.get(battle.pk, [])
                ],
            }
            refs = context["refs"].get(battle.system) or {}
            system_context = {"factions": context["faction_names"], "users": usernames, **refs}
            result.append(_section(battle.system).battle_out(doc, system_context))
        return {"battles": result}, {}

    def check(self, document, context):
        """Totals, each battle's system (one with a board), its setup and JSON (by the
        system's section), live positions, event commands."""
        battles = document["battles"]
        for what in ("commands", "events"):
            total = sum(len(b[what]) for b in battles)
            limit = LIMITS[f"battle_{what}"]
            if total > limit:
                raise core.refuse(
                    _(
                        "battles: %(count)s %(what)s in all, more than the %(limit)s a "
                        "campaign may have."
                    ),
                    count=total,
                    what=what,
                    limit=limit,
                )
        for index, battle in enumerate(battles):
            path = f"battles[{index}]"
            plugin = rulesystems.get(battle["system"])
            if plugin is None or not plugin.has_battles:
                raise core.refuse(
                    _("%(path)s: no battle board for the rule system “%(system)s”."),
                    path=path,
                    system=battle["system"],
                )
            _section(battle["system"]).check_battle(battle, path, document, context)
            _check_auto_sides(battle["auto_sides"], path)
            live = sorted(c["position"] for c in battle["commands"] if c["undone_at"] is None)
            if len(live) != battle["seq"] or live != list(range(len(live))):
                raise core.refuse(
                    _(
                        "%(path)s: its live commands must hold the positions 0 to seq - 1, "
                        "once each."
                    ),
                    path=path,
                )
            for e, event in enumerate(battle["events"]):
                command = event["command"]
                if command is not None and not 0 <= command < len(battle["commands"]):
                    raise core.refuse(
                        _("%(path)s.command: no command %(value)s in the battle."),
                        path=f"{path}.events[{e}]",
                        value=command,
                    )

    def usernames(self, document):
        battles = document["battles"]
        names = {b["created_by"] for b in battles if b["created_by"]}
        names |= {c["actor"] for b in battles for c in b["commands"] if c["actor"]}
        for system in sorted({b["system"] for b in battles}):
            own = [b for b in battles if b["system"] == system]
            names |= _section(system).battle_usernames(own)
        return names

    def build(self, document, context):
        users = context["users"]
        rows = []
        for index, b in enumerate(document["battles"]):
            path = f"battles[{index}]"
            battle = core.build(
                Battle, b, BATTLE_FIELDS, path, created_by=users.get(b["created_by"])
            )
            try:
                get_battle_system(b["system"]).state_from_dict(b["snapshot"])
            except _UNREADABLE:
                raise core.refuse(
                    _("%(path)s: the board (snapshot) cannot be read."), path=path
                ) from None
            commands = [
                core.build(
                    BattleCommand,
                    c,
                    BATTLE_COMMAND_FIELDS,
                    f"{path}.commands[{i}]",
                    actor=users.get(c["actor"]),
                )
                for i, c in enumerate(b["commands"])
            ]
            events = [
                core.build(BattleEvent, e, BATTLE_EVENT_FIELDS, f"{path}.events[{i}]")
                for i, e in enumerate(b["events"])
            ]
            rows.append((b, battle, commands, events))
        return rows

    def write(self, campaign, rows, context):
        """The battles, their commands and events, each battle's JSON with this
        installation's ids (by its system's `battle_in`), checked by replay."""
        battles, mapped = [], []
        for index, (file_row, battle, commands, _events) in enumerate(rows):
            section = _section(battle.system)
            refs = context["refs"].get(battle.system) or {}
            system_context = {"factions": context["faction_ids"], "users": context["users"],
                              **refs}  # fmt: skip
            row = section.battle_in(file_row, system_context)
            battle.campaign = campaign
            battle.setup, battle.snapshot, battle.outcome = (
                row["setup"], row["snapshot"], row["outcome"]
            )  # fmt: skip
            for command, command_row in zip(commands, row["commands"], strict=True):
                command.command = command_row["command"]
            battle.snapshot = _replayed_snapshot(battle, commands, f"battles[{index}]", section)
            battles.append(battle)
            mapped.append(row)
        Battle.objects.bulk_create(battles, batch_size=500)
        core.restore(Battle, battles, mapped, BATTLE_FIELDS)
        commands, command_rows, events, event_rows = [], [], [], []
        for row, (_file_row, battle, battle_commands, _events) in zip(mapped, rows, strict=True):
            for command, command_row in zip(battle_commands, row["commands"], strict=True):
                command.battle = battle
                commands.append(command)
                command_rows.append(command_row)
        BattleCommand.objects.bulk_create(commands, batch_size=1000)
        core.restore(BattleCommand, commands, command_rows, BATTLE_COMMAND_FIELDS)
        for row, (_file_row, battle, battle_commands, battle_events) in zip(
            mapped, rows, strict=True
        ):
            for event, event_row in zip(battle_events, row["events"], strict=True):
                event.battle = battle
                index = event_row["command"]
                event.command = battle_commands[index] if index is not None else None
                event.params = event_row["params"]
                events.append(event)
                event_rows.append(event_row)
        BattleEvent.objects.bulk_create(events, batch_size=1000)
        core.restore(BattleEvent, events, event_rows, BATTLE_EVENT_FIELDS)
        return {}


def _replayed_snapshot(battle: Battle, commands, path: str, section) -> dict:
    """The snapshot to store: the file's, checked by replaying the battle with this
    installation's ids (or the replay's, when the system's `same_board` allows)."""
    live = sorted((c for c in commands if c.undone_at is None), key=lambda c: c.position)
    try:
        system = get_battle_system(battle.system)
        state, _events = replay(
            system, battle.setup, battle.seed, [Command.from_dict(c.command) for c in live]
        )
        replayed = state.to_dict()
    except (*_UNREADABLE, RuntimeError):
        replayed = None
    if replayed == battle.snapshot:
        return battle.snapshot
    if replayed is not None and section.same_board(replayed, battle.snapshot):
        return replayed
    raise core.refuse(
        _(
            "%(path)s: replaying the commands of the battle “%(name)s” does not give its "
            "board (the file is damaged, or the battle did not verify where it was exported: "
            "see the verify_battles command)."
        ),
        path=path,
        name=battle.name,
    )


SECTION = BattlesSection()
