"""D&D 5e battles set up from the campaign's armies (dnd5e §5.1, §7): the set-up form, the
engine setup it builds, and the service that starts the battle.

Board keys: a unit is "u<unit id>", its stands "u<unit id>.<n>", a solo "s<solo id>"; a unit's
commander (a solo of its army) starts joined to its first stand (§5.1 step 3-4). The setup
carries what the Django side needs besides the engine's fields (names, faction and army ids);
the engine ignores them.
"""

import re

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from battles import services as battle_services
from battles.holds import refuse_held
from battles.models import Battle
from kingdoms.transactions import write_transaction
from warfare.engine.systems.dnd5e.creatures import LIBRARY, Creature, footprint
from warfare.engine.systems.dnd5e.house_rules import house_value
from warfare.engine.systems.dnd5e.siege import SIEGE_ENGINES
from warfare.systems.dnd5e.access import access_dnd5e
from warfare.systems.dnd5e.models import Army
from warfare.systems.dnd5e.selectors import SOLOS, UNITS
from warfare.words import per_language

from .log import problem_text

SIDES = ("a", "b")
#: Terrain map letters (§4.7): one line per row of the grid.
TERRAIN_CODES = {
    ".": ("clear", False),
    "r": ("road", False),
    "f": ("forest", False),
    "s": ("water_shallow", False),
    "d": ("water_deep", False),
    "x": ("clear", True),
}
#: Siege engines of §8 in the order of its table, with the seed's names in the translations.
ENGINE_LABELS = {
    "ballista": _("Ballista"),
    "cannon": _("Cannon"),
    "cauldron": _("Suspended cauldron"),
    "mangonel": _("Mangonel"),
    "ram": _("Ram"),
    "siege_tower": _("Siege tower"),
    "trebuchet": _("Trebuchet"),
}
#: Engine rows the set-up page offers (the API may send more, up to `MAX_ENGINES`).
ENGINE_ROWS = 3
MAX_ENGINES = 20
_ENGINE_FIELD = re.compile(r"^engine_(\d+)_kind$")
PRESETS = {
    "open": _("open field"),
    "river": _("river with a ford"),
    "woods": _("woods on the flanks"),
    "hill": _("a hill in the middle"),
}
OPTION_LABELS = {
    "seed_morale_check": _("Morale is a Wisdom check, not a save (§10 item 2)"),
    "seed_one_death_save": _("One death save per round (§10 item 5)"),
    "seed_autohit": _("Ranged attacks also hit objective squares automatically (§10 item 6)"),
    "seed_all_or_nothing": _("Destruction scores only when every square is destroyed (§10 item 7)"),
    "draw_fight_on": _("On a tie, fight on until one side leads (§10 item 9)"),
}


def preset_map(preset: str, width: int, height: int) -> str:
    """A terrain map (see TERRAIN_CODES) for one of the PRESETS."""
    rows = [["."] * width for _ in range(height)]
    mid_x, mid_y = width // 2, height // 2
    if preset == "river":
        for y in range(height):
            rows[y][mid_x] = "r" if y == mid_y else ("s" if abs(y - mid_y) <= 1 else "d")
    elif preset == "woods":
        for y in list(range(0, min(2, height))) + list(range(max(0, height - 2), height)):
            for x in range(max(0, mid_x - 2), min(width, mid_x + 2)):
                rows[y][x] = "f"
    elif preset == "hill":
        for y in range(max(0, mid_y - 1), min(height, mid_y + 1)):
            for x in range(max(0, mid_x - 1), min(width, mid_x + 1)):
                rows[y][x] = "1"
    return "\n".join("".join(row) for row in rows)


def parse_map(text: str, width: int, height: int) -> list[dict]:
    """The non-clear squares of a terrain map; a digit is high ground of that many 20-ft steps."""
    lines = [line.strip() for line in text.strip().splitlines()]
    if len(lines) > height or any(len(line) > width for line in lines):
        raise ValidationError(
            gettext("The terrain map is larger than the grid (%(w)s × %(h)s).")
            % {"w": width, "h": height}
        )
    squares = []
    for y, line in enumerate(lines):
        for x, char in enumerate(line):
            if char.isdigit():
                if char != "0":
                    squares.append({"x": x, "y": y, "terrain": "clear", "elevation": int(char)})
                continue
            if char not in TERRAIN_CODES:
                raise ValidationError(
                    gettext("“%(char)s” is not a terrain letter (row %(row)s).")
                    % {"char": char, "row": y + 1}
                )
            terrain, difficult = TERRAIN_CODES[char]
            if terrain != "clear" or difficult:
                squares.append({"x": x, "y": y, "terrain": terrain, "difficult": difficult})
    return squares


_SQUARE = re.compile(r"^\s*(\d+)\s*[,:]\s*(\d+)\s*$")


def parse_squares(text: str, width: int, height: int) -> list[tuple[int, int]]:
    """ "3,4; 5,6" → [(3, 4), (5, 6)] (columns and rows count from 0)."""
    result = []
    for part in filter(None, (p.strip() for p in re.split(r"[;\n]", text or ""))):
        match = _SQUARE.match(part)
        if not match:
            raise ValidationError(gettext("Write objective squares as x,y; x,y."))
        x, y = int(match.group(1)), int(match.group(2))
        if not (0 <= x < width and 0 <= y < height):
            raise ValidationError(gettext("Square %(x)s,%(y)s is off the grid.") % {"x": x, "y": y})
        result.append((x, y))
    if len(set(result)) != len(result):
        raise ValidationError(gettext("An objective square is listed twice."))
    return result


class BattleSetupForm(forms.Form):
    """Two armies, the grid and its terrain, deployment zones, objectives and their VP, and
    the seed's variants (§10)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    army_a = forms.ModelChoiceField(label=_("Army of side A"), queryset=Army.objects.none())
    army_b = forms.ModelChoiceField(label=_("Army of side B"), queryset=Army.objects.none())
    width = forms.IntegerField(label=_("Grid width (squares)"), min_value=4, max_value=40,
                               initial=12)  # fmt: skip
    height = forms.IntegerField(label=_("Grid height (squares)"), min_value=3, max_value=30,
                                initial=8)  # fmt: skip
    depth = forms.IntegerField(
        label=_("Deployment zone depth"), min_value=1, max_value=10, initial=3,
        help_text=_("Columns at each side's edge where its army deploys (A left, B right)."),
    )  # fmt: skip
    preset = forms.ChoiceField(
        label=_("Terrain preset"), choices=list(PRESETS.items()), initial="open"
    )
    terrain_map = forms.CharField(
        label=_("Terrain map"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6, "class": "mono", "spellcheck": "false"}),
        help_text=_(
            "Optional, replaces the preset: one line per row; . clear, r road, f forest, "
            "s shallow water, d deep water, x rubble (difficult), 1-9 high ground."
        ),
    )
    attrition_a = forms.IntegerField(
        label=_("Attrition: VP side A scores per enemy unit eliminated"), min_value=0,
        max_value=10, initial=0, help_text=_("0: no such objective."),
    )  # fmt: skip
    attrition_b = forms.IntegerField(
        label=_("Attrition: VP side B scores per enemy unit eliminated"), min_value=0,
        max_value=10, initial=0,
    )  # fmt: skip
    destruction_side = forms.ChoiceField(
        label=_("Destruction: the side that scores by destroying the objective squares"),
        required=False,
        choices=[("", _("no objective squares")), ("a", _("side A")), ("b", _("side B"))],
    )
    objective_squares = forms.CharField(
        label=_("Objective squares"), required=False,
        help_text=_("x,y; x,y — columns and rows count from 0 at the top left."),
    )  # fmt: skip
    square_hp = forms.IntegerField(label=_("HP per square"), min_value=10, max_value=100,
                                   initial=30)  # fmt: skip
    square_ac = forms.IntegerField(label=_("AC per square (vs ranged attacks)"), min_value=5,
                                   max_value=30, initial=15)  # fmt: skip
    square_vp = forms.IntegerField(label=_("VP per square destroyed"), min_value=1,
                                   max_value=10, initial=5)  # fmt: skip
    protection_vp = forms.IntegerField(
        label=_("Protection: VP per round the other side scores while it guards the squares"),
        min_value=0, max_value=5, initial=1, help_text=_("0: no such objective."),
    )  # fmt: skip
    custom_a = forms.CharField(label=_("Other objective of side A"), required=False,
                               max_length=80)  # fmt: skip
    custom_a_vp = forms.IntegerField(label=_("its VP"), min_value=1, max_value=10, initial=3)
    custom_b = forms.CharField(label=_("Other objective of side B"), required=False,
                               max_length=80)  # fmt: skip
    custom_b_vp = forms.IntegerField(label=_("its VP"), min_value=1, max_value=10, initial=3)
    protection_stands = forms.TypedChoiceField(
        label=_("Stands that must guard an objective square"),
        coerce=int,
        choices=[(2, _("two (the original)")), (1, _("one (the seed, §10 item 8)"))],
        initial=2,
    )
    auto_deploy = forms.BooleanField(
        label=_("Deploy the armies automatically"), required=False,
        help_text=_("Otherwise each side places its units by clicking squares of its zone."),
    )  # fmt: skip
    players_may_act = forms.BooleanField(
        label=_("Players act for their own units"), required=False, initial=True
    )
    surprised_a = forms.BooleanField(
        label=_("Side A is surprised"), required=False,
        help_text=_("Its units and solos neither move nor act in round 1 (§5.2)."),
    )  # fmt: skip
    surprised_b = forms.BooleanField(
        label=_("Side B is surprised"), required=False,
        help_text=_("Its units and solos neither move nor act in round 1 (§5.2)."),
    )  # fmt: skip

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        armies = Army.objects.filter(campaign=campaign).select_related("faction")
        for side in SIDES:
            self.fields[f"army_{side}"].queryset = armies
            self.fields[f"army_{side}"].label_from_instance = lambda army: (
                f"{army.name} ({army.faction.name})"
            )
        for key, label in OPTION_LABELS.items():
            self.fields[key] = forms.BooleanField(label=label, required=False)
        self.fields["square_ac"].initial = house_value("destruction.ranged_ac")
        armies_in_full = list(Army.objects.filter(campaign=campaign).prefetch_related(UNITS, SOLOS))
        self.crews = {unit.pk: unit for army in armies_in_full for unit in army.units.all()}
        self._add_engine_fields(armies_in_full)
        self._add_initiative_fields(armies_in_full)

    def _add_engine_fields(self, armies) -> None:
        """`engine_<n>_kind` / `_side` / `_square` / `_crew` (a unit id) for each engine row
        (§8): the page's rows, or as many as the posted data names."""
        posted = [int(m.group(1)) for m in map(_ENGINE_FIELD.match, self.data or ()) if m]
        rows = min(MAX_ENGINES, max([ENGINE_ROWS, *posted]))
        kinds = [("", _("none")), *((k, ENGINE_LABELS[k]) for k in SIEGE_ENGINES)]
        for n in range(1, rows + 1):
            self.fields[f"engine_{n}_kind"] = forms.ChoiceField(
                label=_("Siege engine %(n)s") % {"n": n}, required=False, choices=kinds
            )
            self.fields[f"engine_{n}_side"] = forms.ChoiceField(
                label=_("its side"), required=False,
                choices=[("a", _("side A")), ("b", _("side B"))],
            )  # fmt: skip
            self.fields[f"engine_{n}_square"] = forms.CharField(
                label=_("its square"), required=False, max_length=12,
                help_text=_("x,y of its top-left square; empty: at the back of the side's "
                            "deployment zone.") if n == 1 else "",
            )  # fmt: skip
            self.fields[f"engine_{n}_crew"] = forms.TypedChoiceField(
                label=_("its crew"), required=False, coerce=int, empty_value=None,
                choices=[("", "—"), *((unit.pk, f"{unit.name} ({army.name})")
                                      for army in armies for unit in army.units.all())],
            )  # fmt: skip

    def _add_initiative_fields(self, armies) -> None:
        """`initiative_u<unit id>` / `initiative_s<solo id>`: a d20 typed at the table for a
        unit or solo of any army of the campaign (§5.2); empty: the server rolls."""
        self.initiative_armies = []
        for army in armies:
            names = []
            entries = [(f"u{u.pk}", u.name) for u in army.units.all()]
            entries += [(f"s{s.pk}", s.name) for s in army.solos.all()]
            for key, name in entries:
                self.fields[f"initiative_{key}"] = forms.IntegerField(
                    label=name, required=False, min_value=1, max_value=20,
                    widget=forms.NumberInput(attrs={
                        "placeholder": "d20", "inputmode": "numeric",
                        "title": _("Empty: the server rolls.")}),
                )  # fmt: skip
                names.append(f"initiative_{key}")
            if names:
                self.initiative_armies.append((army, names))

    def option_fields(self):
        return [self[key] for key in OPTION_LABELS]

    def engine_rows(self):
        """(kind, side, square, crew) bound fields per engine row."""
        rows = sorted(int(m.group(1)) for m in map(_ENGINE_FIELD.match, self.fields) if m)
        return [
            [self[f"engine_{n}_{part}"] for part in ("kind", "side", "square", "crew")]
            for n in rows
        ]

    def initiative_rows(self):
        """(army, [its units' and solos' initiative fields]) per army of the campaign."""
        return [(army, [self[name] for name in names]) for army, names in self.initiative_armies]

    def clean(self):
        cleaned = super().clean()
        if self.errors:
            return cleaned
        if cleaned["army_a"] == cleaned["army_b"]:
            raise ValidationError(gettext("Pick two different armies."))
        width, height = cleaned["width"], cleaned["height"]
        if cleaned["depth"] * 2 >= width:
            self.add_error("depth", gettext("The two deployment zones must not meet."))
            return cleaned
        try:
            text = cleaned["terrain_map"] or preset_map(cleaned["preset"], width, height)
            cleaned["squares"] = parse_map(text, width, height)
        except ValidationError as error:
            self.add_error("terrain_map", error)
        try:
            cleaned["objective_cells"] = parse_squares(cleaned["objective_squares"], width, height)
        except ValidationError as error:
            self.add_error("objective_squares", error)
            return cleaned
        if bool(cleaned["destruction_side"]) != bool(cleaned["objective_cells"]):
            self.add_error(
                "objective_squares", gettext("Objective squares need the side that destroys them.")
            )
        cleaned["engines"] = self._clean_engines(cleaned, width, height)
        return cleaned

    def _clean_engines(self, cleaned: dict, width: int, height: int) -> list[dict]:
        """The engine rows with a kind: side, square (or None) and crew unit checked."""
        engines = []
        for n, (kind, side, square, crew) in enumerate(self.engine_rows(), 1):
            if not cleaned.get(kind.name):
                continue
            if not cleaned.get(side.name):
                self.add_error(side.name, gettext("Say whose siege engine it is."))
                continue
            army = cleaned[f"army_{cleaned[side.name]}"]
            unit = self.crews.get(cleaned.get(crew.name))
            if unit is not None and unit.army_id != army.pk:
                self.add_error(crew.name, gettext("The crew must be a unit of the same side."))
                continue
            if unit is not None and unit.stands <= 0:
                self.add_error(crew.name, gettext("That unit has no stands left to crew it."))
                continue
            pos = None
            if cleaned.get(square.name):
                try:
                    cells = parse_squares(cleaned[square.name], width, height)
                except ValidationError as error:
                    self.add_error(square.name, error)
                    continue
                space = SIEGE_ENGINES[cleaned[kind.name]].space
                if len(cells) != 1:
                    self.add_error(square.name, gettext("Give one square: x,y."))
                    continue
                if cells[0][0] + space > width or cells[0][1] + space > height:
                    self.add_error(
                        square.name,
                        gettext("The engine takes %(n)s × %(n)s squares: it does not fit there.")
                        % {"n": space},
                    )
                    continue
                pos = list(cells[0])
            engines.append({"key": f"e{n}", "kind": cleaned[kind.name],
                            "side": cleaned[side.name], "pos": pos,
                            "crew": f"u{unit.pk}" if unit is not None else None})  # fmt: skip
        return engines

    def initiative_dice(self) -> dict[str, int]:
        """{board key ("u<id>", "s<id>"): the d20 typed in} (§5.2)."""
        return {
            name.removeprefix("initiative_"): value
            for name, value in self.cleaned_data.items()
            if name.startswith("initiative_") and value is not None
        }

    def surprised(self) -> list[str]:
        """The sides the GM declares surprised (§5.2)."""
        return [side for side in SIDES if self.cleaned_data.get(f"surprised_{side}")]

    def objectives(self) -> list[dict]:
        data = self.cleaned_data
        result: list[dict] = []
        for side in SIDES:
            if data[f"attrition_{side}"]:
                result.append({"key": f"attrition_{side}", "type": "attrition", "side": side,
                               "vp": data[f"attrition_{side}"]})  # fmt: skip
        side = data["destruction_side"]
        if side:
            squares = [{"x": x, "y": y, "hp": data["square_hp"], "ac": data["square_ac"],
                        "vp": data["square_vp"]} for x, y in data["objective_cells"]]  # fmt: skip
            result.append({"key": "destruction", "type": "destruction", "side": side,
                           "squares": squares})  # fmt: skip
            if data["protection_vp"]:
                other = "b" if side == "a" else "a"
                result.append({"key": "protection", "type": "protection", "side": other,
                               "paired": "destruction", "vp": data["protection_vp"]})  # fmt: skip
        for side in SIDES:
            if data[f"custom_{side}"]:
                result.append({"key": f"custom_{side}", "type": "custom", "side": side,
                               "vp": data[f"custom_{side}_vp"],
                               "label": data[f"custom_{side}"]})  # fmt: skip
        return result

    def options(self) -> dict:
        options = {key: self.cleaned_data[key] for key in OPTION_LABELS}
        options["protection_stands"] = self.cleaned_data["protection_stands"]
        return options


def battle_setup(
    *,
    armies: dict[str, Army],
    width: int,
    height: int,
    depth: int,
    squares: list[dict],
    objectives: list[dict],
    options: dict,
    auto_deploy: bool,
    engines: list[dict] = (),
    surprised: list[str] = (),
    initiative_dice: dict[str, int] | None = None,
) -> dict:
    """The engine setup (see warfare.engine.systems.dnd5e.battle.engine) of a battle between
    two armies as they are now: units with their current stands (and the HP those stands lost
    in earlier battles, the house default `results.stand_hp_kept`), solos with their HP; siege
    engines with their crews (§8), placed at the back of their side's zone when no square is
    given; the surprised sides' units and solos flagged (§5.2); the initiative d20s typed
    at the table for the units and solos that fight."""
    creatures: dict[str, dict] = {}
    sides = []
    zones = {"a": [0, 0, depth - 1, height - 1], "b": [width - depth, 0, width - 1, height - 1]}
    for side in SIDES:
        army = armies[side]
        units, solos = [], []
        commanders = {}
        for unit in army.units.all():
            if unit.stands <= 0:
                continue
            creatures[unit.creature.key] = unit.creature.to_engine()
            units.append({"key": f"u{unit.pk}", "kind": unit.kind,
                          "configuration": unit.configuration, "creature": unit.creature.key,
                          "stands": unit.stands, "name": unit.name,
                          "unit_id": unit.pk})  # fmt: skip
            if unit.stand_damage and house_value("results.stand_hp_kept"):
                units[-1]["damage"] = list(unit.stand_damage[: unit.stands])
            if side in surprised:
                units[-1]["surprised"] = True
            if unit.commander_id:
                commanders[unit.commander_id] = f"u{unit.pk}.1"
        for solo in army.solos.all():
            if solo.dead or solo.current_hp <= 0:
                continue
            creatures[solo.creature.key] = solo.creature.to_engine()
            entry = {"key": f"s{solo.pk}", "creature": solo.creature.key, "pc": solo.pc,
                     "hp": solo.current_hp, "name": solo.name, "solo_id": solo.pk}  # fmt: skip
            if solo.pk in commanders:
                entry.update(joined=commanders[solo.pk], commander=True)
            if side in surprised:
                entry["surprised"] = True
            solos.append(entry)
        sides.append({"key": side, "name": army.name, "army": army.pk,
                      "faction": army.faction_id, "zone": zones[side], "units": units,
                      "solos": solos})  # fmt: skip
    setup = {
        "grid": {"width": width, "height": height, "squares": squares},
        "creatures": list(creatures.values()),
        "options": options,
        "sides": sides,
        "objectives": objectives,
        "engines": [dict(engine) for engine in engines],
    }
    actors = {entry["key"] for side in sides for entry in side["units"] + side["solos"]}
    typed = {key: die for key, die in (initiative_dice or {}).items() if key in actors}
    if typed:
        setup["initiative_dice"] = typed
    _place_engines(setup)
    if auto_deploy:
        _deploy(setup)
    return setup


def _place_engines(setup: dict) -> None:
    """Engines without a square go to the first free space at the back of their side's zone
    (set-up order); one that does not fit keeps no square and the engine refuses the set-up."""
    taken = _taken(setup)
    zones = {side["key"]: side["zone"] for side in setup["sides"]}
    for engine in setup["engines"]:
        if engine["pos"] is None:
            space = SIEGE_ENGINES[engine["kind"]].space
            back = "b" if engine["side"] == "a" else "a"  # the back columns first
            engine["pos"] = _free_anchor(zones[engine["side"]], space, taken, back)
            if engine["pos"] is None:
                raise ValidationError(
                    gettext("There is no room for the %(engine)s in its side's zone.")
                    % {"engine": ENGINE_LABELS[engine["kind"]]}
                )


def _taken(setup: dict) -> set:
    """Squares no piece is deployed onto: deep water, objective squares, placed engines."""
    taken = {(s["x"], s["y"]) for s in setup["grid"]["squares"]
             if s.get("terrain") == "water_deep"}  # fmt: skip
    for objective in setup["objectives"]:
        taken |= {(s["x"], s["y"]) for s in objective.get("squares") or ()}
    for engine in setup["engines"]:
        if engine["pos"] is not None:
            x, y = engine["pos"]
            space = SIEGE_ENGINES[engine["kind"]].space
            taken |= {(x + dx, y + dy) for dx in range(space) for dy in range(space)}
    return taken


def _free_anchor(zone, size: int, taken: set, side: str) -> list[int] | None:
    """The first free anchor of a `size` piece in `zone`, front columns first; its squares
    are added to `taken`."""
    x0, y0, x1, y1 = zone
    columns = range(x1, x0 - 1, -1) if side == "a" else range(x0, x1 + 1)
    for x in columns:
        for y in range(y0, y1 + 1):
            cells = {(x + dx, y + dy) for dx in range(size) for dy in range(size)}
            inside = all(x0 <= cx <= x1 and y0 <= cy <= y1 for cx, cy in cells)
            if inside and not cells & taken:
                taken.update(cells)
                return [x, y]
    return None


def _deploy(setup: dict) -> None:
    """Place every stand and unattached solo in its side's zone, front columns first,
    avoiding deep water, objective squares and siege engines; a zone too small leaves the
    rest unplaced (then the battle starts in deployment)."""
    taken = _taken(setup)
    stats = {**{k: c.to_dict() for k, c in LIBRARY.items()},
             **{c["key"]: c for c in setup["creatures"]}}  # fmt: skip

    def size(creature: str) -> int:
        return footprint(Creature.from_dict(stats[creature]).size)

    for side in setup["sides"]:
        zone, key = side["zone"], side["key"]
        for unit in side["units"]:
            positions = [_free_anchor(zone, size(unit["creature"]), taken, key)
                         for _ in range(unit["stands"])]  # fmt: skip
            if all(positions):
                unit["positions"] = positions
        for solo in side["solos"]:
            if not solo.get("joined"):
                pos = _free_anchor(zone, size(solo["creature"]), taken, key)
                if pos:
                    solo["pos"] = pos


@per_language
def _engine_labels() -> dict[str, str]:
    """`ENGINE_LABELS` in the page language, translated once per language and process (a
    board names every engine)."""
    return {k: str(label) for k, label in ENGINE_LABELS.items()}


def engine_names(setup: dict) -> dict[str, str]:
    """{engine key: "Ballista", or "Ballista 2" for the second of its kind} in the page
    language."""
    engines = setup.get("engines") or ()
    if not engines:
        return {}
    labels = _engine_labels()
    counts: dict[str, int] = {}
    names = {}
    for engine in engines:
        kind = engine["kind"]
        counts[kind] = counts.get(kind, 0) + 1
        label = str(labels.get(kind, kind))
        several = sum(1 for e in engines if e["kind"] == kind) > 1
        names[engine["key"]] = f"{label} {counts[kind]}" if several else label
    return names


def setup_messages(problems, names: dict[str, str]) -> list[str]:
    """The engine's set-up problems as sentences (piece keys named)."""
    return [problem_text(problem, names) for problem in problems]


@write_transaction
def battle_create(
    *,
    user,
    campaign_id: int,
    name: str,
    army_a: Army,
    army_b: Army,
    players_may_act: bool,
    **layout,
) -> Battle:
    """The GM sets two armies of the campaign against each other on a grid (§5.1, §7).
    Locks the campaign (kingdoms.transactions); an army, unit or solo already on an
    unfinished board is refused, naming the battle (battles.holds)."""
    membership = access_dnd5e(user, campaign_id, gm=True, lock=True)
    campaign = membership.campaign
    armies = {
        army.pk: army
        for army in Army.objects.filter(campaign=campaign, pk__in=[army_a.pk, army_b.pk])
        .select_related("faction")
        .prefetch_related(UNITS, SOLOS)
    }
    if len(armies) != 2:
        raise ValidationError(gettext("Pick two different armies of this campaign."))
    by_side = {"a": armies[army_a.pk], "b": armies[army_b.pk]}
    refuse_held(campaign.pk, by_side.values())
    for army in by_side.values():
        if not any(unit.stands > 0 for unit in army.units.all()):
            raise ValidationError(
                gettext("%(army)s has no unit with stands left.") % {"army": army.name}
            )
    setup = battle_setup(armies=by_side, **layout)
    names = {entry["key"]: entry["name"] for side in setup["sides"]
             for entry in side["units"] + side["solos"]}  # fmt: skip
    names.update(engine_names(setup))
    return battle_services.battle_start(
        user=user, campaign=campaign, name=name, setup=setup, players_may_act=players_may_act,
        problem_messages=lambda problems: setup_messages(problems, names),
    )  # fmt: skip
