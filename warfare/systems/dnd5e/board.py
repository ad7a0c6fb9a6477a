"""The D&D 5e board (dnd5e §5-§7) as the battles app shows it: the grid drawn server-side,
the legal moves and targets of the selected piece, units and solos per side, VP, initiative
and the log; who commands which actor; the JSON state; the results written back.

Visibility (`Dnd5eView`, the battle's one viewpoint filter): the GM sees everything; a side
sees its own stands' and solos' stat blocks and HP; of the other side it sees what the board
shows — names, positions, configuration, casualty, broken and hidden markers, conditions —
never its creatures' stat blocks (AC, HP, attacks), HP, Stealth totals, the bonuses of its
rolls or the AC and DC the viewer's pieces roll against before they roll. This holds for the
page, the JSON state, the log and the report alike.
"""

import json
import threading
from collections import OrderedDict
from dataclasses import replace
from functools import cached_property, lru_cache

from django.utils.translation import get_language, gettext, pgettext
from django.utils.translation import gettext_lazy as _

from battles.models import Battle, BattleStatus
from battles.services import apply_begin, apply_lock
from battles.visibility import BYSTANDER, BattleView, Viewpoint, viewpoint_of
from kingdoms.models import Membership
from kingdoms.transactions import write_transaction
from warfare.engine.systems.dnd5e.battle import board as engine_board
from warfare.engine.systems.dnd5e.battle import legal_actions
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.engine.systems.dnd5e.rules import balance_hint, squares
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES
from warfare.engine.systems.dnd5e.state import (
    CASUALTIES,
    DEPLOY,
    DRAW,
    ROUND,
    Solo,
    Stand,
    snapshot_key,
)
from warfare.links import reversed_url
from warfare.systems.dnd5e import models
from warfare.systems.dnd5e.labels import attack_name
from warfare.words import per_language

from .log import (
    ACTION_LABELS,
    CONFIGURATION_LABELS,
    HIDDEN_PARAMS,
    ROLLS,
    SIEGE_ACTIONS,
    TARGET_NUMBERS,
    ending_text,
    event_line,
    templates,
)
from .setup import engine_names

TERRAIN_LABELS = {
    "clear": _("clear"),
    "road": _("road"),
    "forest": _("forest"),
    "water_shallow": _("shallow water"),
    "water_deep": _("deep water"),
}
OBJECTIVE_LABELS = {
    "attrition": _("Attrition"),
    "destruction": _("Destruction"),
    "protection": _("Protection"),
    "custom": _("Other objective"),
}
PHASE_LABELS = {
    DEPLOY: _("deployment"),
    ROUND: _("fighting"),
    CASUALTIES: _("end of the round: closing gaps"),
    DRAW: _("tied"),
    "ended": _("over"),
}
#: Kinds whose options put a piece on a square (the highlighted cells of the selected piece).
SQUARE_KINDS = ("place", "move", "leave")


@per_language
def _words() -> dict:
    """The board's fixed words in the page language, translated once per language and
    process (a lazy text costs a catalogue look-up each time it is read; a board reads
    them for every option, square and card): the labels of actions, configurations, siege
    steps, terrain and phases, and the words of the options' previews."""
    return {
        "action": {key: str(label) for key, label in ACTION_LABELS.items()},
        "configuration": {key: str(label) for key, label in CONFIGURATION_LABELS.items()},
        "siege": {key: str(label) for key, label in SIEGE_ACTIONS.items()},
        "terrain": {key: str(label) for key, label in TERRAIN_LABELS.items()},
        "phase": {key: str(label) for key, label in PHASE_LABELS.items()},
        "objective": {key: str(label) for key, label in OBJECTIVE_LABELS.items()},
        "objective_square": gettext("objective (%(xy)s)"),
        "hp": pgettext("dnd5e", "HP"),
        "loaded": gettext("loaded %(n)s/%(of)s"),
        "aimed": gettext("aimed %(n)s/%(of)s"),
        "auto_hit": gettext("hits automatically"),
        "save": gettext("save"),
        "ac": pgettext("dnd5e", "AC"),
        "dc": gettext("DC"),
        "vs": gettext("vs"),
        "advantage": gettext("advantage"),
        "disadvantage": gettext("disadvantage"),
        "double_damage": gettext("double damage"),
        "solo_bonus": gettext("%(solo)s: %(action)s (bonus action)"),
        "solo": gettext("%(solo)s: %(action)s"),
    }


def _state(battle: Battle):
    return battle.engine_state()


def names_of(battle: Battle) -> dict[str, str]:
    """{board key: name} for units, stands ("<unit> #n"), solos, siege engines, sides
    ("side:a") and objectives ("objective:<key>")."""
    names: dict[str, str] = {}
    objective_labels = _words()["objective"]
    for side in battle.setup["sides"]:
        names[f"side:{side['key']}"] = side.get("name") or side["key"]
        for unit in side.get("units") or ():
            name = unit.get("name") or unit["key"]
            names[unit["key"]] = name
            count = unit["stands"] if isinstance(unit["stands"], int) else len(unit["stands"])
            for n in range(1, count + 1):
                names[f"{unit['key']}.{n}"] = f"{name} #{n}"
        for solo in side.get("solos") or ():
            names[solo["key"]] = solo.get("name") or solo["key"]
    for objective in battle.setup.get("objectives") or ():
        label = objective.get("label") or objective_labels.get(objective["type"], "")
        names[f"objective:{objective['key']}"] = str(label)
    names.update(engine_names(battle.setup))
    return names


def actor_factions(battle: Battle) -> dict[str, int | None]:
    """Each unit and solo is commanded by its army's faction."""
    result: dict[str, int | None] = {}
    for side in battle.setup["sides"]:
        for entry in (side.get("units") or []) + (side.get("solos") or []):
            result[entry["key"]] = side.get("faction")
    return result


def viewpoint(membership: Membership, battle: Battle) -> Viewpoint:
    """A player (the GM's is `battles.visibility.GM`) sees the sides of their faction's
    armies."""
    sides = frozenset(
        side["key"]
        for side in battle.setup["sides"]
        if membership.faction_id is not None and side.get("faction") == membership.faction_id
    )
    return Viewpoint(sides=sides) if sides else BYSTANDER


#: The checks whose AC or DC is the enemy's (the target's AC, the enemies' passive
#: Perception): a player reads only the bonus before rolling.
ENEMY_DC_STATS = ("attack", "spell_attack", "stealth")
#: Of an enemy stand or solo, the numbers the JSON state leaves out (None).
HIDDEN_STAND = ("creature", "hp", "max_hp", "stealth")
HIDDEN_SOLO = (*HIDDEN_STAND, "death_successes", "death_failures")


#: Log lines worded (`Dnd5eView.lines`), per process, the oldest forgotten first.
LINES_SIZE = 20_000
_LINES: OrderedDict[tuple, tuple[dict, str]] = OrderedDict()
_LINES_LOCK = threading.Lock()


class Dnd5eView(BattleView):
    """A D&D 5e battle as a viewpoint may see it (see the module docstring)."""

    @cached_property
    def engine_state(self):
        return _state(self.battle)

    @property
    def sides(self) -> frozenset[str]:
        """The sides whose numbers the viewpoint sees."""
        if self.gm:
            return frozenset(side["key"] for side in self.battle.setup["sides"])
        return self.viewpoint.sides

    def side_factions(self):
        return {side["key"]: [side.get("faction")] for side in self.battle.setup["sides"]}

    def _names(self) -> dict[str, str]:
        names = names_of(self.battle)
        for key, label in self.side_names.items():
            names[f"side:{key}"] = label
        return names

    def sees(self, key) -> bool:
        if self.gm:
            return True
        try:
            return isinstance(key, str) and self.engine_state.side_of(key) in self.sides
        except (KeyError, StopIteration):
            return False

    def event(self, code: str, params: dict) -> tuple[dict, str]:
        shown = dict(params)
        rule = HIDDEN_PARAMS.get(code)
        if rule is not None and not self.sees(params.get(rule[0])):
            shown = {k: v for k, v in shown.items() if k not in rule[1]}
        roll = ROLLS.get(code)
        if roll is not None and not self.sees(params.get(roll[0])):
            shown = {k: v for k, v in shown.items() if k not in roll[1]}
            if roll[2] is not None and not self.sees(params.get(roll[2])):
                shown = {k: v for k, v in shown.items() if k not in TARGET_NUMBERS}
        return shown, event_line(code, shown, self.names, self.sees, self._templates)

    @cached_property
    def _templates(self) -> tuple[dict[str, str], str]:
        """The log's sentences in the page language (`log.templates`), read once per view."""
        return templates()

    @cached_property
    def _lines_key(self) -> tuple:
        """What a log line depends on besides its event: the battle, the viewpoint, the
        language and the names it may read."""
        names = hash(tuple(sorted(self.names.items())))
        return (self.battle.pk, self.viewpoint.key, get_language() or "", names)

    def lines(self, events) -> list:
        """As `BattleView.lines`, each event's line worded once per process for a viewpoint,
        language and names (`_LINES`: an event never changes; undone, it is deleted)."""
        result = []
        base = self._lines_key
        for event in events:
            key = (*base, event.pk, event.code)
            found = _LINES.get(key) if event.pk is not None else None
            if found is None:
                found = self.event(event.code, event.params)
                if event.pk is not None:
                    with _LINES_LOCK:
                        _LINES[key] = found
                        while len(_LINES) > LINES_SIZE:
                            _LINES.popitem(last=False)
            params, text = found
            if text:
                result.append((event, dict(params), text))
        return result

    def preview(self, check, words: dict | None = None) -> str:
        """A check an option rolls, as the viewpoint may read it before clicking (`words`:
        `_words()`, where the caller has them)."""
        if not self.gm and check.stat in ENEMY_DC_STATS:
            return _preview_text([replace(check, dc=None)], words)
        return _preview_text([check], words)

    def state(self) -> dict:
        data = self.engine_state.to_dict()
        data.pop("opening", None)
        if self.gm:
            return data
        sees = self.sees
        own = {piece["creature"] for piece in data["stands"] + data["solos"] if sees(piece["key"])}
        data["creatures"] = {k: v for k, v in data["creatures"].items() if k in own}
        for stand in data["stands"]:
            if not sees(stand["key"]):
                stand.update(dict.fromkeys(HIDDEN_STAND))
        for solo in data["solos"]:
            if not sees(solo["key"]):
                solo.update(dict.fromkeys(HIDDEN_SOLO), spells_used={})
        for engine in data["engines"]:
            if engine["side"] not in self.sides:
                engine.update(hp=None)
        data["initiative"] = {  # the order is public, an enemy's total is its modifier's
            key: total for key, total in data["initiative"].items() if sees(key)
        }
        data["spell_uses"] = {
            key: uses for key, uses in data["spell_uses"].items() if sees(key.split(":")[0])
        }
        return data

    def outcome(self) -> dict | None:
        outcome = self.battle.outcome
        if not outcome or self.gm:
            return outcome
        details = outcome.get("details") or {}
        own = {
            entry["key"]
            for side in self.battle.setup["sides"]
            if side["key"] in self.sides
            for entry in (side.get("units") or []) + (side.get("solos") or [])
        }
        return {
            **outcome,
            "details": {
                **{k: v for k, v in details.items() if k not in ("units", "solos")},
                "units": {k: v for k, v in (details.get("units") or {}).items() if k in own},
                "solos": {k: v for k, v in (details.get("solos") or {}).items() if k in own},
            },
        }


def _commanded(membership: Membership, battle: Battle, actor: str) -> bool:
    if membership.is_gm:
        return True
    return (
        battle.players_may_act
        and membership.faction_id is not None
        and actor_factions(battle).get(actor) == membership.faction_id
    )


def _candidate_actors(state) -> list[str]:
    """Who may send a command now: everyone placing in deployment; the units waiting to
    close gaps; in a round the current actor and the solos joined to its stands."""
    if state.phase == DEPLOY:
        return [u.key for u in state.units] + [s.key for s in state.solos if not s.joined]
    if state.phase == CASUALTIES:
        return list(state.pending)
    if state.phase != ROUND or state.turn is None:
        return []
    current = state.turn.actor
    joined = [s.key for s in state.solos if s.joined and state.stand(s.joined).unit == current]
    return [current, *joined]


def _preview_text(checks, words: dict | None = None) -> str:
    parts = []
    words = words or _words()
    for check in checks:
        advantage = [t[0].split(".", 1)[1] for t in check.modifier_breakdown
                     if t[0].startswith("advantage.")]  # fmt: skip
        disadvantage = [t[0].split(".", 1)[1] for t in check.modifier_breakdown
                        if t[0].startswith("disadvantage.")]  # fmt: skip
        if any(t[0] == "auto_hit" for t in check.modifier_breakdown):
            parts.append(words["auto_hit"])
            continue
        text = f"{check.modifier:+d}" if check.stat != "spell_save" else words["save"]
        if check.dc is not None:
            dc_word = words["ac"] if check.stat in ("attack", "spell_attack") else words["dc"]
            text += f" {words['vs']} {dc_word} {check.dc}"
        if advantage:
            text += " · " + words["advantage"]
        if disadvantage:
            text += " · " + words["disadvantage"]
        if any(t[0] == "double_damage" for t in check.modifier_breakdown):
            text += " · " + words["double_damage"]
        parts.append(text)
    return "; ".join(parts)


def _option_label(kind: str, params: dict, names: dict[str, str], words: dict | None = None) -> str:
    words = words or _words()
    label = words["action"].get(kind, kind)
    details = []
    if "attack" in params:
        details.append(attack_name(str(params["attack"])))
    if "spell" in params:
        details.append(attack_name(str(params["spell"])))
    for key in ("target", "stand", "helps", "solo"):
        value = params.get(key)
        if isinstance(value, str):
            details.append(
                names.get(value, value)
                if not value.startswith("sq:")
                else words["objective_square"] % {"xy": value[3:].replace(":", ", ")}
            )
    if "configuration" in params:
        details.append(str(words["configuration"].get(params["configuration"])))
    if "engine" in params:
        details.insert(0, names.get(params["engine"], params["engine"]))
    if "step" in params:
        details.insert(1, str(words["siege"].get(params["step"], params["step"])))
    if "x" in params and kind not in SQUARE_KINDS:
        details.append(f"({params['x']}, {params['y']})" + (
            f" {params['direction']}" if "direction" in params else ""))  # fmt: skip
    return label + (": " + ", ".join(details) if details else "")


#: The commander's choices (§4.5) and the Join bookkeeping a solo takes as a bonus action.
BONUS_ACTIONS = ("take_command", "step_down", "prepare", "incite")


def _joined_stand(state, actor: str) -> str | None:
    """The stand `actor` is joined to, if it is a joined solo."""
    item = state.find(actor)
    return item.joined if isinstance(item, Solo) and item.joined else None


def _solo_label(solo: str, kind: str, label: str, words: dict) -> str:
    """A joined solo's option names the solo ("Sir Aldric: Incite (bonus action)"): it is
    listed with its unit's (§5.2)."""
    if kind in BONUS_ACTIONS:
        return words["solo_bonus"] % {"solo": solo, "action": label}
    return words["solo"] % {"solo": solo, "action": label}


def _piece_of(kind: str, actor: str, params: dict) -> str:
    """The piece an option belongs to on the board (the one to select to see it)."""
    if kind in ("aid", "slide_in", "siege"):
        return params.get("stand", actor)
    if kind == "rejoin":
        return params.get("solo", actor)
    return params.get("piece", actor)


def _cells_of(state, key: str) -> list[tuple[int, int]]:
    """The squares a piece, siege engine or objective square covers (none off the grid)."""
    if key.startswith("sq:"):
        _sq, x, y = key.split(":")
        return [(int(x), int(y))]
    item = state.find(key)
    if getattr(item, "pos", None) is None:
        return []
    return list(squares(state, key))


#: Board contexts built (`board_context`), per process, the oldest forgotten first.
CONTEXTS_SIZE = 32
_CONTEXTS: OrderedDict[tuple, dict] = OrderedDict()
#: The entries of a context that are the request's own objects, set on every use.
_OWN = ("battle", "campaign", "membership", "state")


def board_context(membership: Membership, battle: Battle) -> dict:
    """Everything the board template draws, as `membership` may see it: the content from its
    viewpoint's `Dnd5eView`, the actions from what the member commands.

    Built once per process for a version of the battle (its seq, last save, status, whether
    players may act and its snapshot), what the member may see and do (GM or not, their
    faction), the language and the names the viewpoint reads (a faction shown or hidden):
    a board drawn again for that version — another piece selected (`?sel=`), the poll of
    another viewer — reuses it, the log's read included. The values are shared: read them,
    never change them."""
    view = Dnd5eView(battle, viewpoint_of(membership, battle))
    key = (
        battle.pk, battle.seed, battle.seq, battle.updated_at, battle.status,
        battle.players_may_act, membership.is_gm, membership.faction_id, get_language(),
        tuple(sorted(view.names.items())), snapshot_key(battle.snapshot),
    )  # fmt: skip
    found = _CONTEXTS.get(key)
    if found is None:
        built = _board_context(membership, battle, view)
        found = {name: value for name, value in built.items() if name not in _OWN}
        with _LINES_LOCK:
            _CONTEXTS[key] = found
            while len(_CONTEXTS) > CONTEXTS_SIZE:
                _CONTEXTS.popitem(last=False)
    own = {"battle": battle, "campaign": battle.campaign, "membership": membership,
           "state": view.engine_state}  # fmt: skip
    return {**found, **own}


def _board_context(membership: Membership, battle: Battle, view: Dnd5eView) -> dict:
    state = view.engine_state
    names = view.names
    sides = view.sides
    rows = engine_board(state)
    labels = grid_labels(battle, names)
    words = _words()
    # --- the actions of the pieces the viewer commands ----------------------------------------
    cell_options: dict[tuple[int, int], dict[str, dict]] = {}
    piece_actions: dict[str, list[dict]] = {}
    actor_actions: list[dict] = []
    selectable: set[str] = set()
    active = battle.status == BattleStatus.ACTIVE
    for actor in _candidate_actors(state) if active else []:
        if not _commanded(membership, battle, actor):
            continue
        stand = _joined_stand(state, actor)
        for spec in legal_actions(state, actor):
            for option in spec.options:
                params = dict(option.params)
                label = _option_label(spec.key, params, names, words)
                entry = {
                    "actor": actor,
                    "kind": spec.key,
                    "params": json.dumps(params),
                    "label": _solo_label(names.get(actor, actor), spec.key, label, words)
                    if stand
                    else label,
                    "preview": "; ".join(view.preview(check, words) for check in option.checks),
                }
                piece = _piece_of(spec.key, actor, params)
                if stand and spec.key not in SQUARE_KINDS and params and "x" not in params:
                    # §5.2: a joined solo acts on its unit's turn; its stand shows its actions
                    selectable.add(stand)
                    piece_actions.setdefault(stand, []).append(entry)
                if spec.key in SQUARE_KINDS:
                    selectable.add(piece)
                    cell = (params["x"], params["y"])
                    cell_options.setdefault(cell, {}).setdefault(piece, {**entry, "css": "move"})
                    continue
                if not params or spec.key in ("done", "end_turn") or not isinstance(
                        state.find(piece), Stand | Solo):  # fmt: skip
                    actor_actions.append(entry)  # the unit's own choices
                    continue
                selectable.add(piece)
                if "x" not in params:  # area spells and shots are picked on the grid
                    piece_actions.setdefault(piece, []).append(entry)
                target = (
                    params.get("target")
                    or params.get("helps")
                    or (params.get("stand") if spec.key in ("join", "switch", "rejoin") else None)
                )
                cells = _cells_of(state, target) if isinstance(target, str) else []
                if spec.key == "slide_in":
                    offer = state.offers[params["offer"]]
                    cells = [offer.pos]
                if "x" in params and not cells:
                    cells = [(params["x"], params["y"])]
                for cell in cells:  # a target beats a move onto the same square
                    here = cell_options.setdefault(tuple(cell), {})
                    if here.get(piece, {}).get("css") != "target":
                        here[piece] = {**entry, "css": "target"}
    # --- the grid --------------------------------------------------------------------------
    zones = state.zones if state.phase == DEPLOY else {}
    terrain_labels = words["terrain"]
    grid = []
    for row in rows:
        line = []
        for cell in row:
            zone = next((side for side, (x0, y0, x1, y1) in zones.items()
                         if x0 <= cell["x"] <= x1 and y0 <= cell["y"] <= y1),
                        None) if zones else None  # fmt: skip
            occupant = cell["occupant"]
            shown = None
            if occupant:
                own = occupant["side"] in sides
                shown = {
                    "key": occupant["key"],
                    "side": occupant["side"],
                    "kind": occupant["kind"],
                    "anchor": occupant["anchor"],
                    "name": names.get(occupant["key"], occupant["key"]),
                    "short": _short(
                        labels, occupant.get("unit") or occupant["key"], occupant["key"]
                    ),  # fmt: skip
                    "casualty": occupant.get("casualty", False),
                    "hidden": occupant.get("hidden", False),
                    "broken": occupant.get("broken", False),
                    "isolated": occupant.get("isolated", False),
                    "solos": [names.get(s, s) for s in occupant.get("solos", ())],
                    "hp": occupant.get("hp") if own else None,
                    "max_hp": occupant.get("max_hp") if own else None,
                    "selectable": occupant["key"] in selectable,
                    "engine": occupant.get("engine"),
                }
            objective = cell["objective"]
            line.append({
                "x": cell["x"], "y": cell["y"], "terrain": cell["terrain"],
                "terrain_label": terrain_labels.get(cell["terrain"], cell["terrain"]),
                "difficult": cell["difficult"], "elevation": cell["elevation"],
                "occupant": shown,
                "objective": objective and {**objective, "name": names.get(
                    f"objective:{objective['key']}", objective["key"])},
                "options": {},
                "zone": zone,
            })  # fmt: skip
        grid.append(line)
    # The options onto their squares (a few of the hundred; the engine's squares are ints).
    width, height = state.grid.width, state.grid.height
    for (x, y), options in cell_options.items():
        if isinstance(x, int) and isinstance(y, int) and 0 <= x < width and 0 <= y < height:
            grid[y][x]["options"] = options
    # --- sides, initiative, VP, log --------------------------------------------------------
    side_rows = []
    for side in battle.setup["sides"]:
        key = side["key"]
        own = key in sides
        units = []
        for unit in state.units:
            if unit.side != key:
                continue
            stands = state.stands_of(unit.key)
            units.append({
                "key": unit.key, "name": names.get(unit.key, unit.key),
                "kind": unit.kind, "configuration": words["configuration"].get(
                    unit.configuration, "") if unit.configuration else "",
                "left": len(stands), "start": unit.start_stands, "broken": unit.broken,
                "commander": names.get(unit.commander, "") if unit.commander else "",
                "stands": [{"key": s.key, "name": names.get(s.key, s.key),
                            "hp": s.hp if own else None, "max_hp": s.max_hp if own else None,
                            "casualty": s.casualty, "hidden": s.hidden,
                            "placed": s.pos is not None} for s in stands],
            })  # fmt: skip
        solos = [{"key": s.key, "name": names.get(s.key, s.key), "pc": s.pc,
                  "hp": s.hp if own else None, "max_hp": s.max_hp if own else None,
                  "dead": s.dead, "gone": s.gone, "hidden": s.hidden,
                  "joined": names.get(s.joined, "") if s.joined else "",
                  "conditions": list(s.conditions)}
                 for s in state.solos if s.side == key]  # fmt: skip
        side_rows.append({"key": key, "name": names[f"side:{key}"], "own": own,
                          "vp": state.vp.get(key, 0), "units": units, "solos": solos})  # fmt: skip
    engines = []
    for engine in state.engines:
        data = SIEGE_ENGINES[engine.kind]
        own = engine.side in sides
        status = [f"{words['hp']} {engine.hp}/{data.hp}"] if own else []
        if data.load:
            status.append(words["loaded"] % {"n": engine.loaded, "of": data.load})
        if data.aim:
            status.append(words["aimed"] % {"n": engine.aimed, "of": data.aim})
        engines.append({
            "key": engine.key, "name": names.get(engine.key, engine.key),
            "side": engine.side, "side_name": names[f"side:{engine.side}"],
            "pos": f"({engine.pos[0]}, {engine.pos[1]})",
            "crew": names.get(engine.crew, "") if engine.crew else "",
            "status": status,
            "ready": bool(data.fire) and engine.loaded >= data.load and engine.aimed >= data.aim,
            "destroyed": engine.destroyed,
        })  # fmt: skip
    order = [{"key": key, "name": names.get(key, key),
              "initiative": state.initiative.get(key) if view.sees(key) else None,
              "acting": key == state.current,
              "side": state.side_of(key)} for key in state.order]  # fmt: skip

    log = view.log_context()
    objectives = [{"name": names.get(f"objective:{o.key}", o.key), "type": o.type,
                   "side": names[f"side:{o.side}"], "scored": o.scored,
                   "vp": sum(s.vp for s in o.squares) if o.type == "destruction" else o.vp,
                   "achieved": o.achieved, "key": o.key,
                   "squares": [f"({s.x}, {s.y})" for s in o.squares]}
                  for o in state.objectives]  # fmt: skip
    balance = []
    if membership.is_gm and state.phase == DEPLOY:
        balance = _balance_lines(state, names)
    unplaced = [s.key for s in state.stands if s.pos is None and s.gone is None]
    unplaced += [s.key for s in state.solos if s.pos is None and not s.joined and not s.gone]
    finished, next_piece = _next_piece(state, selectable)
    return {
        "battle": battle,
        "board_url": battle.get_absolute_url(),  # (once, not once per link)
        "act_url": reversed_url("battles:act", battle.campaign_id, battle.pk),
        "campaign": battle.campaign,
        "membership": membership,
        "state": state,
        "finished": finished,
        "next_piece": next_piece,
        "zones": [{"side": side, "name": names[f"side:{side}"]} for side in zones],
        "phase": words["phase"].get(state.phase, state.phase),
        "deploying": state.phase == DEPLOY,
        "all_placed": not unplaced,
        "tied": state.phase == DRAW,
        "round": state.round,
        "current": names.get(state.current, "") if state.current else "",
        "grid": grid,
        "names": names,
        "selectable": selectable,
        "width": state.grid.width,
        "sides": side_rows,
        # (the head's score: drawn again when a VP changes, not with every HP)
        "vp_score": [
            {"key": side["key"], "name": side["name"], "vp": side["vp"]} for side in side_rows
        ],
        "order": order,
        "actor_actions": actor_actions,
        "piece_actions": piece_actions,
        "objectives": objectives,
        "balance": balance,
        "engines": engines,
        "custom_objectives": [
            o for o in objectives if o["type"] == "custom" and not o["achieved"]
        ],  # fmt: skip
        "correction_pieces": [
            (s.key, names.get(s.key, s.key)) for s in state.stands if s.gone is None
        ]
        + [(s.key, names.get(s.key, s.key)) for s in state.solos],  # fmt: skip
        **log,
        "result": _result(state, names),
        "stand_hp_kept": bool(house_value("results.stand_hp_kept")),
    }


def _next_piece(state, selectable: set[str]) -> tuple[set[str], str]:
    """Which pieces of the member's are done for now (`finished`), and the piece the board
    selects by itself (`next_piece`, "" for none; see `templatetags.dnd5e_board`).

    In a round: the stands (or the solo) whose turn it is, in order; a stand has finished
    once it has used its action (§5.4) or has nothing left to do, and the next is the first
    that has not. While deploying: the pieces not placed yet, in the order of the sides and
    their units; a placed one has finished."""
    if state.phase == DEPLOY:
        waiting = [s.key for s in state.stands if s.pos is None and s.gone is None]
        waiting += [s.key for s in state.solos if s.pos is None and not s.joined and not s.gone]
        waiting = [key for key in waiting if key in selectable]
        placed = {s.key for s in state.stands if s.pos is not None}
        placed |= {s.key for s in state.solos if s.pos is not None}
        return placed, waiting[0] if waiting else ""
    if state.phase != ROUND or state.turn is None:
        return set(), ""
    actor = state.turn.actor
    item = state.find(actor)
    pieces = [s.key for s in state.stands_of(actor)] if not isinstance(item, Solo) else [actor]
    acted = set(state.turn.acted)
    finished = {key for key in pieces if key in acted or key not in selectable}
    return finished, next((key for key in pieces if key not in finished), "")


BALANCE_TEXTS = {
    "balance.few_chances": _(
        "%(side)s has %(chances)s chances to score; the rules suggest at least five."
    ),
    "balance.low_vp": _("%(side)s can score %(vp)s VP; the rules suggest 12 to 15."),
    "balance.uneven": _("The sides can score different VP: %(vp)s."),
}


def _balance_lines(state, names: dict[str, str]) -> list[str]:
    """The GM's §7.2 balancing hints on the objectives (guidance, not a rule)."""
    hint = balance_hint([o.to_dict() for o in state.objectives], list(state.sides))
    lines = []
    for item in hint["hints"]:
        params = dict(item)
        if "side" in params:
            params["side"] = names.get(f"side:{params['side']}", params["side"])
        if isinstance(params.get("vp"), dict):
            params["vp"] = ", ".join(
                f"{names.get(f'side:{side}', side)} {vp}" for side, vp in params["vp"].items()
            )
        lines.append(str(BALANCE_TEXTS[item["code"]]) % params)
    return lines


def _label_candidates(name: str):
    """Two-character labels for a name, best first: its first two letters ("Or"), the
    initials of its words ("GA" for Goblin Archers), its first letter with each later one."""
    letters = "".join(ch for ch in name if ch.isalnum()) or "?"
    yield letters[:2]
    words = ["".join(ch for ch in word if ch.isalnum()) for word in name.split()]
    initials = "".join(word[0] for word in words if word)
    if len(initials) >= 2:
        yield initials[0].upper() + initials[1].upper()
    for later in letters[2:]:
        yield letters[0] + later


def grid_labels(battle: Battle, names: dict[str, str]) -> dict[str, str]:
    """{unit, solo or engine key: its label on the grid}, different for every piece of the
    battle: two units that begin alike ("Goblin Horde", "Goblin Archers") get their initials
    ("GH", "GA") or another pair of letters, never the same "Go"."""
    keys = [entry["key"] for side in battle.setup["sides"]
            for entry in (side.get("units") or []) + (side.get("solos") or [])]  # fmt: skip
    keys += [engine["key"] for engine in battle.setup.get("engines") or ()]
    return dict(_grid_labels(tuple((key, names.get(key, key)) for key in keys)))


@lru_cache(maxsize=256)
def _grid_labels(named: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """`grid_labels` of the (key, name) of every piece, in their order: worked out once per
    process for the same pieces and names (a board labels them on every action)."""
    keys = [key for key, _name in named]
    names = dict(named)
    first = {key: next(_label_candidates(names[key])) for key in keys}
    clash = {key for key in keys if list(first.values()).count(first[key]) > 1}
    labels = {key: label for key, label in first.items() if key not in clash}
    for key in keys:
        if key not in clash:
            continue
        taken = {*labels.values(), first[key]}  # the letters they share tell them apart
        label = next((c for c in _label_candidates(names[key]) if c not in taken), None)
        if label is None:  # every pair of its letters is taken: number it
            label = next(f"{first[key]}{n}·" for n in range(1, 1000) if f"{first[key]}{n}·"
                         not in taken)  # fmt: skip
        labels[key] = label
    return tuple(labels.items())


def _short(labels: dict[str, str], piece: str, key: str) -> str:
    """A piece's label on the grid: its unit's (or its own) label and the stand's number."""
    number = key.rsplit(".", 1)[1] if "." in key else ""
    return labels.get(piece, "?") + number


def _result(state, names) -> dict | None:
    """How the battle ended, as a sentence, whether a house default ended it (an army with
    nothing left on the field, end.army_gone), the VP and the units that deserted."""
    if not state.result:
        return None
    text, house = ending_text(state.result, names)
    return {"text": text, "house": house, "vp": state.result.get("vp", {}),
            "deserted": [names.get(k, k) for k in state.result.get("deserted", ())]}  # fmt: skip


def api_state(membership: Membership, battle: Battle) -> dict:
    """The board for the JSON API: the state as the member's viewpoint may see it (of another
    side no stat blocks, HP or Stealth, `Dnd5eView`)."""
    view = Dnd5eView(battle, viewpoint_of(membership, battle))
    return {"names": view.names, "state": view.state()}


def held_rows(setup: dict) -> dict[str, set[int]]:
    """The armies, units and solos a battle's setup was built from (battles.holds)."""
    sides = setup.get("sides") or ()
    return {
        "dnd5e.army": {side["army"] for side in sides if side.get("army")},
        "dnd5e.unit": {u["unit_id"] for side in sides for u in side.get("units") or ()
                       if u.get("unit_id")},
        "dnd5e.solo": {s["solo_id"] for side in sides for s in side.get("solos") or ()
                       if s.get("solo_id")},
    }  # fmt: skip


@write_transaction
def apply_results(*, user, campaign_id: int, battle_id: int, expected_seq: int, data=None):
    """Write a finished battle's losses back to the armies, as changes to the rows as they
    are now: each unit loses the stands eliminated on the field (§7.3: deserted units keep
    none), and its surviving stands keep the HP they lost (house default
    `results.stand_hp_kept`, §13 item 11); each solo loses (or regains) the HP the battle
    took (dead solos are marked). Locks: the campaign, the armies, their units and solos
    (primary-key order), the battle."""
    battle = apply_begin(user, campaign_id, battle_id)
    held = held_rows(battle.setup)
    mine = {"army__campaign_id": battle.campaign_id}  # an imported battle's ids name nothing
    armies = models.Army.objects.filter(pk__in=held["dnd5e.army"], campaign=battle.campaign_id)
    list(armies.select_for_update(no_key=True).order_by("pk"))
    units = _locked(models.Unit.objects.filter(pk__in=held["dnd5e.unit"], **mine))
    solos = _locked(models.Solo.objects.filter(pk__in=held["dnd5e.solo"], **mine))
    battle = apply_lock(battle, expected_seq)
    details, state = battle.outcome["details"], _state(battle)
    for side in battle.setup["sides"]:
        for entry in side.get("units") or ():
            result = details.get("units", {}).get(entry["key"])
            unit = units.get(entry.get("unit_id"))
            if unit is not None and result is not None:
                _unit_losses(unit, entry, result, state.stands_of(entry["key"]))
        for entry in side.get("solos") or ():
            result = details.get("solos", {}).get(entry["key"])
            solo = solos.get(entry.get("solo_id"))
            if solo is not None and result is not None:
                hp = solo.current_hp + int(result["hp"]) - int(entry.get("hp", solo.current_hp))
                solo.hp = max(0, min(solo.creature.hp, hp))
                solo.dead = solo.dead or bool(result["dead"])
                solo.save(update_fields=["hp", "dead"])
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "updated_at"])
    return battle


def _locked(rows) -> dict:
    """{pk: row} of `rows` with their creature, locked in primary-key order."""
    rows = rows.select_for_update(no_key=True, of=("self",)).select_related("creature")
    return {row.pk: row for row in rows.order_by("pk")}


def _unit_losses(unit, entry: dict, result: dict, left: tuple[Stand, ...]) -> None:
    """The unit loses the stands eliminated in the battle; each surviving stand adds the HP
    it lost in the battle to what it had lost before (the house default
    `results.stand_hp_kept`; 0: back at full HP). Stand n of the board is the unit's n-th."""
    unit.stands = max(0, unit.stands - (int(result["start_stands"]) - int(result["stands_left"])))
    went_in, before = list(entry.get("damage") or ()), list(unit.stand_damage)
    hurt = []
    for stand in left:
        n = int(stand.key.rsplit(".", 1)[1]) - 1
        lost = stand.max_hp - stand.hp - (went_in[n] if n < len(went_in) else 0)
        hurt.append(max(0, (before[n] if n < len(before) else 0) + lost))
    if not house_value("results.stand_hp_kept"):
        hurt = []
    unit.stand_damage = sorted((hp for hp in hurt if hp > 0), reverse=True)[: unit.stands]
    unit.save(update_fields=["stands", "stand_damage"])
