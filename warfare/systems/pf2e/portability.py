"""Pathfinder 2e in the campaign file (format version 4): its `SystemSection`.

Keys (after the core's factions, each of which carries its ``kingdom``)::

    factions[].kingdom  {level, xp, size_hexes, ..., skills, structures, turn, version} | null
    settlements   [{faction, name, hex, is_capital, notes, version}]
    armies        [{ref, faction, name, army_type, ..., status, notes, version,
                    created_at, updated_at}]
    log           [{faction, army, actor, turn, code, created_at, data}]
    recruitments  [{faction, started_by, army, army_type, ..., created_at, updated_at}]

Settlements are named by name (unique in a campaign), armies by `ref`, a number local to the
file (armies may share a name). Log parameters that name armies (`ARMY_PARAMS`) hold army
refs as well.

Battles. The engine keys armies by their database id as a string; in the file every such key
in a battle's setup, snapshot, outcome, commands and events is the army's ref as a string
("3"), found by one walk (`map_battle_json`) that knows which JSON keys hold army keys
(`BATTLE_ARMY_VALUES`, `BATTLE_ARMY_KEYED`). A setup's "faction" (an id) is the faction's
name in the file. The armies keep their order in every list, which initiative ties depend on.

The engine also derives each army's initiative die from its key, which an import changes, so
the export writes every seeded initiative die into the setup's "initiative_dice" (the snapshot
then calls those rolls "typed"; the battle log keeps its events as they were). A replay of
the imported battle thus rolls the same initiative. Engagement pairs are ordered by the text
of the keys ("10" < "9"), so the file orders them by ref text, and an import keeps the order
its replay gives (`same_board`).

Import also checks every army of a Pathfinder campaign with the rules engine.
"""

import copy
import re
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext as _

from battles.portability import engagements_by_ref, map_battle_parts
from kingdoms import portability as core
from kingdoms.fileschema import Name, Ref, Row, Rows, Whole
from kingdoms.models import Settlement
from warfare.engine.systems.pf2e.armies import stat_block
from warfare.engine.systems.pf2e.validation import validate_army
from warfare.messages import problem_messages

from .mapping import army_spec
from .models import Army, Kingdom, LogEntry, Recruitment

KEY = "pf2e"
LIMITS = {"settlements": 10_000, "armies": 10_000, "log": 200_000, "recruitments": 10_000}

KINGDOM_FIELDS = (
    "level", "xp", "size_hexes", "resource_points", "food", "unrest", "corruption", "crime",
    "decay", "strife", "corruption_threshold", "crime_threshold", "decay_threshold",
    "strife_threshold", "fame_kind", "fame_points", "at_war", "ruler_vacant", "skills",
    "structures", "turn", "recruit_blocked_until_turn", "version",
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


# --- Army references ----------------------------------------------------------------------------


def map_army_params(code: str, data, refs: dict[int, int | None], *, on_unknown) -> Any:
    """`data` with its army-valued parameters looked up in `refs`; `on_unknown(key, value)`
    answers a value that is not in `refs`."""
    if not isinstance(data, dict):
        return data
    result = dict(data)
    for key in (*ARMY_PARAMS["*"], *ARMY_PARAMS.get(code, ())):
        value = result.get(key)
        if core.is_int(value):
            result[key] = refs[value] if value in refs else on_unknown(key, value)
        elif isinstance(value, list):
            result[key] = [
                (refs[v] if v in refs else on_unknown(key, v)) if core.is_int(v) else v
                for v in value
            ]
    return result


def map_battle_json(value, keys: Callable[[str, str], str], path: str = "", *, army=False):
    """A copy of battle JSON `value` with each army key `k` (a string) replaced by
    `keys(k, path)`. `army`: `value` sits under a `BATTLE_ARMY_VALUES` key."""
    if isinstance(value, str):
        return keys(value, path) if army else value
    if isinstance(value, list):
        return [map_battle_json(v, keys, f"{path}[{i}]", army=army) for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    result = {}
    for name, child in value.items():
        where = f"{path}.{name}"
        if name in BATTLE_ARMY_KEYED and isinstance(child, dict):
            result[name] = {
                keys(key, where): map_battle_json(v, keys, f"{where}.{key}")
                for key, v in child.items()
            }
        else:
            result[name] = map_battle_json(child, keys, where, army=name in BATTLE_ARMY_VALUES)
    return result


def _lookup(table: dict[str, str]) -> Callable[[str, str], str]:
    """Army keys found in `table` are replaced; any other string stays as it is."""
    return lambda key, path: table.get(key, key)


def _map_setup_factions(setup, table: dict) -> None:
    """In place: each setup entry's "faction" looked up in `table` (unknown: null)."""
    for side in setup.get("sides") or () if isinstance(setup, dict) else ():
        for entry in side.get("armies") or () if isinstance(side, dict) else ():
            if isinstance(entry, dict) and "faction" in entry:
                entry["faction"] = table.get(entry["faction"])


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


# --- Upgrade ------------------------------------------------------------------------------------


def upgrade_0_to_1(doc: dict[str, Any]) -> None:
    """Version 0 was written before rows had versions, before the kingdom log and
    recruitments were exported, and while armies had `idle_last_turn` (no refs, no
    `fought_this_turn`, no `initiative_bonus`) and kingdoms no turn or structures."""
    for faction in doc["factions"]:
        if faction.get("kingdom") is not None:
            faction["kingdom"] = {
                "turn": 1,
                "structures": [],
                "recruit_blocked_until_turn": None,
                **faction["kingdom"],
                "version": 1,
            }
    doc["settlements"] = [{**s, "version": 1} for s in doc["settlements"]]
    armies = []
    for ref, army in enumerate(doc["armies"], 1):
        army = {"ref": ref, **army, "fought_this_turn": False, "initiative_bonus": 0}
        army.pop("idle_last_turn", None)
        armies.append(army)
    doc["armies"] = armies
    for key in ("log", "recruitments"):
        doc.setdefault(key, [])


# --- The section --------------------------------------------------------------------------------


def _check_army_rules(army: Army, level: int | None, path: str) -> None:
    """A Pathfinder army must make sense to the rules engine, or its pages would fail."""
    if level is None:
        raise core.refuse(
            _("%(path)s: its faction has no kingdom to take a level from."), path=path
        )
    try:
        spec = army_spec(army, level=level)
        problems = validate_army(spec, kingdom_level=None, magic_rank=None)
        if not problems:
            stat_block(spec)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        raise core.refuse(_("%(path)s: the rules cannot read this army."), path=path) from None
    if problems:
        raise core.refuse(
            _("%(path)s: %(problems)s"), path=path, problems=" ".join(problem_messages(problems))
        )


class Pf2eSection(core.SystemSection):
    key = KEY
    keys = ("settlements", "armies", "log", "recruitments")
    upgrades = {0: upgrade_0_to_1}
    faction_related = ("kingdom",)
    owns = {
        Kingdom: (KINGDOM_FIELDS, ("faction",)),
        Settlement: (SETTLEMENT_FIELDS, ("campaign", "faction")),
        Army: (ARMY_FIELDS, ("faction",)),
        LogEntry: (LOG_FIELDS, ("faction", "army", "actor")),
        Recruitment: (RECRUITMENT_FIELDS, ("faction", "started_by", "army")),
    }

    def empty(self):
        return {key: [] for key in self.keys}

    def faction_fields(self):
        return {"kingdom": Row(model=Kingdom, names=KINGDOM_FIELDS, allow_null=True)}

    def fields(self):
        faction, actor = Name(), Name(allow_null=True)
        return {
            "settlements": Rows(
                Row({"faction": faction}, model=Settlement, names=SETTLEMENT_FIELDS),
                limit=LIMITS["settlements"],
            ),
            "armies": Rows(
                Row({"ref": Whole(), "faction": faction}, model=Army, names=ARMY_FIELDS),
                limit=LIMITS["armies"],
            ),
            "log": Rows(
                Row(
                    {"faction": faction, "army": Ref(), "actor": actor},
                    model=LogEntry,
                    names=LOG_FIELDS,
                ),
                limit=LIMITS["log"],
            ),
            "recruitments": Rows(
                Row(
                    {"faction": faction, "started_by": actor, "army": Ref()},
                    model=Recruitment,
                    names=RECRUITMENT_FIELDS,
                ),
                limit=LIMITS["recruitments"],
            ),
        }

    # --- Export ---

    def export_faction(self, faction):
        kingdom = getattr(faction, "kingdom", None)
        return {"kingdom": core.fields(kingdom, KINGDOM_FIELDS) if kingdom else None}

    def export(self, campaign, context):
        armies = list(
            Army.objects.filter(faction__campaign=campaign).select_related("faction").order_by("pk")
        )
        refs: dict[int, int | None] = {army.pk: ref for ref, army in enumerate(armies, 1)}
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
        settlements = (
            Settlement.objects.filter(campaign=campaign).select_related("faction").order_by("pk")
        )
        unknown = lambda key, value: None  # noqa: E731 - an army deleted since: no ref
        section = {
            "settlements": [
                {"faction": s.faction.name, **core.fields(s, SETTLEMENT_FIELDS)}
                for s in settlements
            ],
            "armies": [
                {"ref": refs[a.pk], "faction": a.faction.name, **core.fields(a, ARMY_FIELDS)}
                for a in armies
            ],
            "log": [
                {
                    "faction": entry.faction.name,
                    "army": refs.get(entry.army_id),
                    "actor": core.username(entry.actor),
                    **core.fields(entry, LOG_FIELDS),
                    "data": map_army_params(entry.code, entry.data, refs, on_unknown=unknown),
                }
                for entry in log
            ],
            "recruitments": [
                {
                    "faction": r.faction.name,
                    "started_by": core.username(r.started_by),
                    "army": refs.get(r.army_id),
                    **core.fields(r, RECRUITMENT_FIELDS),
                }
                for r in recruitments
            ],
        }
        return section, {"armies": refs}

    def battle_out(self, battle, context):
        keys = _lookup({str(pk): str(ref) for pk, ref in context["armies"].items()})
        setup = map_battle_json(battle["setup"], keys)
        _map_setup_factions(setup, context["factions"])
        snapshot = engagements_by_ref(map_battle_json(battle["snapshot"], keys))
        doc = map_battle_parts(battle, lambda value, path: map_battle_json(value, keys))
        doc["setup"], doc["snapshot"] = _pin_initiative(setup, snapshot)
        return doc

    # --- Validate ---

    def check(self, document, context):
        factions = context["factions"]
        core.unique(document["settlements"], "name", "settlements")
        armies = core.unique(document["armies"], "ref", "armies")
        what_faction, what_army = _("faction"), _("army")
        for key in ("settlements", "armies", "log", "recruitments"):
            for index, row in enumerate(document[key]):
                core.check_ref(row["faction"], factions, f"{key}[{index}].faction", what_faction)
        for key in ("log", "recruitments"):
            for index, row in enumerate(document[key]):
                core.check_ref(row["army"], armies, f"{key}[{index}].army", what_army)
        recruited = [r["army"] for r in document["recruitments"] if r["army"] is not None]
        if len(recruited) != len(set(recruited)):
            raise core.refuse(_("recruitments: two recruitments name the same army."))
        for index, row in enumerate(document["log"]):
            path = f"log[{index}].data"

            def dangling(key, value, path=path):
                raise core.refuse(
                    _("%(path)s: no %(what)s “%(value)s” in the file."),
                    path=f"{path}.{key}",
                    what=what_army,
                    value=value,
                )

            map_army_params(row["code"], row["data"], {a: a for a in armies}, on_unknown=dangling)
        context[KEY] = {"armies": {str(ref) for ref in armies}}

    def check_battle(self, battle, path, document, context):
        """Its setup's sides and armies, and every army key in its JSON (a ref of the file)."""
        refs, factions = context[KEY]["armies"], context["factions"]
        sides = battle["setup"].get("sides")
        if not isinstance(sides, list) or not sides:
            raise core.type_error(f"{path}.setup.sides", _("a list of sides"))
        seen = set()
        for s, side in enumerate(sides):
            entries = side.get("armies") if isinstance(side, dict) else None
            if not isinstance(entries, list):
                raise core.type_error(f"{path}.setup.sides[{s}].armies", _("a list"))
            for e, entry in enumerate(entries):
                where = f"{path}.setup.sides[{s}].armies[{e}]"
                state = entry.get("army") if isinstance(entry, dict) else None
                key = state.get("key") if isinstance(state, dict) else None
                if not isinstance(key, str) or key not in refs:
                    raise core.refuse(
                        _("%(path)s: no %(what)s “%(value)s” in the file."),
                        path=f"{where}.army.key",
                        what=_("army"),
                        value=key,
                    )
                if key in seen:
                    raise core.refuse(
                        _("%(path)s: army “%(value)s” appears twice."), path=where, value=key
                    )
                seen.add(key)
                if not isinstance(entry.get("faction"), str | None):
                    raise core.type_error(f"{where}.faction", _("text"))
                core.check_ref(entry.get("faction"), factions, f"{where}.faction", _("faction"))

        def army_key(key, where):
            if _DIGITS.fullmatch(key) and key not in refs:
                raise core.refuse(
                    _("%(path)s: no %(what)s “%(value)s” in the file."),
                    path=where,
                    what=_("army"),
                    value=key,
                )
            return key

        map_battle_parts(
            battle, lambda value, where: map_battle_json(value, army_key, f"{path}.{where}")
        )

    def usernames(self, document):
        names = {r["actor"] for r in document["log"] if r["actor"]}
        return names | {r["started_by"] for r in document["recruitments"] if r["started_by"]}

    # --- Import ---

    def build(self, document, context):
        users = context["users"]
        rows: dict[str, Any] = {"kingdoms": []}
        levels: dict[str, int | None] = {}
        for index, f in enumerate(document["factions"]):
            levels[f["name"]] = f["kingdom"]["level"] if f["kingdom"] else None
            if f["kingdom"] is not None:
                path = f"factions[{index}].kingdom"
                rows["kingdoms"].append(
                    (f["name"], core.build(Kingdom, f["kingdom"], KINGDOM_FIELDS, path))
                )
        rows["settlements"] = [
            (s, core.build(Settlement, s, SETTLEMENT_FIELDS, f"settlements[{i}]"))
            for i, s in enumerate(document["settlements"])
        ]
        rules = document["campaign"]["rule_system"] == KEY
        rows["armies"] = []
        for index, a in enumerate(document["armies"]):
            path = f"armies[{index}]"
            army = core.build(Army, a, ARMY_FIELDS, path)
            if rules:
                _check_army_rules(army, a["level_override"] or levels[a["faction"]], path)
            rows["armies"].append((a, army))
        rows["log"] = [
            (e, core.build(LogEntry, e, LOG_FIELDS, f"log[{i}]", actor=users.get(e["actor"])))
            for i, e in enumerate(document["log"])
        ]
        rows["recruitments"] = [
            (
                r,
                core.build(
                    Recruitment,
                    r,
                    RECRUITMENT_FIELDS,
                    f"recruitments[{i}]",
                    started_by=users.get(r["started_by"]),
                ),
            )
            for i, r in enumerate(document["recruitments"])
        ]
        return rows

    def write(self, campaign, rows, context):
        factions = context["factions"]
        for name, kingdom in rows["kingdoms"]:
            kingdom.faction = factions[name]
        Kingdom.objects.bulk_create([kingdom for _name, kingdom in rows["kingdoms"]])
        for row, settlement in rows["settlements"]:
            settlement.campaign = campaign
            settlement.faction = factions[row["faction"]]
        Settlement.objects.bulk_create([s for _row, s in rows["settlements"]])

        for row, army in rows["armies"]:
            army.faction = factions[row["faction"]]
        armies = [army for _row, army in rows["armies"]]
        Army.objects.bulk_create(armies, batch_size=1000)
        core.restore(Army, armies, [row for row, _army in rows["armies"]], ARMY_FIELDS)
        by_ref = {row["ref"]: army for row, army in rows["armies"]}
        pks = {ref: army.pk for ref, army in by_ref.items()}

        entries = []
        for row, entry in rows["log"]:
            entry.faction = factions[row["faction"]]
            entry.army = by_ref.get(row["army"])
            entry.data = map_army_params(
                row["code"], row["data"], pks, on_unknown=lambda key, value: None
            )
            entries.append(entry)
        LogEntry.objects.bulk_create(entries, batch_size=1000)
        core.restore(LogEntry, entries, [row for row, _entry in rows["log"]], LOG_FIELDS)

        recruitments = []
        for row, recruitment in rows["recruitments"]:
            recruitment.faction = factions[row["faction"]]
            recruitment.army = by_ref.get(row["army"])
            recruitments.append(recruitment)
        Recruitment.objects.bulk_create(recruitments)
        core.restore(
            Recruitment, recruitments, [r for r, _x in rows["recruitments"]], RECRUITMENT_FIELDS
        )
        return {"armies": pks}

    def battle_in(self, battle, context):
        keys = _lookup({str(ref): str(pk) for ref, pk in context["armies"].items()})
        doc = map_battle_parts(battle, lambda value, path: map_battle_json(value, keys))
        _map_setup_factions(doc["setup"], context["factions"])
        return doc

    def same_board(self, replayed, stored):
        return engagements_by_ref(replayed) == engagements_by_ref(stored)


SECTION = Pf2eSection()
