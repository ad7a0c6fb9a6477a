"""Setting up a GURPS 3e battle from the campaign's forces and characters (gurps §B.2 steps
1-2): who fights on which side, the defender and its position (§B.7.2), the commanders'
Strategy from their factions' command staff, Morale modifiers (§B.8.3), the PCs taking part,
the days of an extended battle."""

import functools

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from battles import services
from battles.holds import refuse_held
from battles.models import Battle
from battles.views import setup_page
from kingdoms.access import access_campaign
from kingdoms.models import CommandStaff
from kingdoms.transactions import write_transaction
from warfare.engine.systems.gurps3e.battle.state import DAYS, LAST_DAY
from warfare.engine.systems.gurps3e.house_rules import house_value
from warfare.engine.systems.gurps3e.results import MORALE_MODIFIERS
from warfare.engine.systems.gurps3e.strategy import DEFENSIVE_ITEMS
from warfare.systems.gurps3e.mapping import character_setup, unit_setup
from warfare.systems.gurps3e.models import Character, CharacterStatus, Force

from .log import DEFENSIVE_LABELS, MORALE_LABELS
from .problems import setup_problem_messages

SIDES = ("a", "b")
SIDE_CHOICES = [("", _("stays out")), ("a", _("side A")), ("b", _("side B"))]
#: §B.4: a character whose unit is in reserve (not fully engaged) may not take Risk below −1;
#: the posting is per battle, so the set-up asks it.
PC_CHOICES = [
    *SIDE_CHOICES,
    ("a:in_reserve", _("side A, in reserve")),
    ("b:in_reserve", _("side B, in reserve")),
]


class SetupForm(forms.Form):
    """The GM's set-up of a 3e battle; one side-choice per force and per character."""

    name = forms.CharField(label=_("Name"), max_length=120)
    defender = forms.ChoiceField(
        label=_("Defender"), choices=[("b", _("side B")), ("a", _("side A"))], initial="b"
    )
    defensive = forms.MultipleChoiceField(
        label=_("Defensive position of the defender (§B.7.2)"),
        required=False,
        choices=[(code, DEFENSIVE_LABELS[code]) for code in DEFENSIVE_ITEMS],
        widget=forms.CheckboxSelectMultiple,
    )
    narrow_passage = forms.IntegerField(
        label=_("Narrow passage: its modifier"), required=False, min_value=2, max_value=8,
        help_text=_("+2 to +8 by how narrow it is."),
    )  # fmt: skip
    higher_ground = forms.IntegerField(
        label=_("Higher ground: its modifier"), required=False, min_value=-20, max_value=-3,
        help_text=_("−3 or worse."),
    )  # fmt: skip
    days = forms.IntegerField(
        label=_("Days of an extended battle"), min_value=1, max_value=30, initial=1,
        help_text=_("At most; a retreat ends it sooner."),
    )  # fmt: skip
    month = forms.IntegerField(
        label=_("Campaign month"), min_value=0, max_value=100000, initial=1,
        help_text=_("Reputation entries that expired by this month no longer count."),
    )  # fmt: skip
    casualties = forms.ChoiceField(
        label=_("Casualties"),
        choices=[
            ("house", _("house default (4e percentages, not a 3e rule)")),
            ("gm", _("entered by the GM after each day")),
        ],
    )
    intensity = forms.IntegerField(
        label=_("Intensity: Casualty Table rows up"), min_value=0, max_value=10, initial=0
    )
    players_may_act = forms.BooleanField(
        label=_("Players act for their own characters and their side's commander"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, forces, characters, **kwargs):
        super().__init__(*args, **kwargs)
        self.forces, self.characters = list(forces), list(characters)
        for side in SIDES:
            self.fields[f"morale_{side}"] = forms.MultipleChoiceField(
                label=_("Morale modifiers of side %(side)s") % {"side": side.upper()},
                required=False,
                choices=[(code, MORALE_LABELS.get(code, code)) for code in MORALE_MODIFIERS],
                widget=forms.CheckboxSelectMultiple,
            )
            for name, label in (("catastrophe", _("catastrophe")), ("other", _("other"))):
                self.fields[f"{name}_{side}"] = forms.IntegerField(
                    label=_("Side %(side)s: Strategy modifier for %(what)s")
                    % {"side": side.upper(), "what": label},
                    min_value=-20, max_value=20, initial=0, required=False,
                )  # fmt: skip
        for force in self.forces:
            self.fields[f"force_{force.pk}"] = forms.ChoiceField(
                label=f"{force.name} ({force.faction.name}, TL {force.tl})",
                required=False,
                choices=SIDE_CHOICES,
            )
        for character in self.characters:
            self.fields[f"pc_{character.pk}"] = forms.ChoiceField(
                label=f"{character.name} ({character.get_role_display()})",
                required=False,
                choices=PC_CHOICES,
            )

    def force_fields(self):
        return [self[f"force_{force.pk}"] for force in self.forces]

    def character_fields(self):
        return [self[f"pc_{character.pk}"] for character in self.characters]

    def side_fields(self):
        return [
            (side.upper(), [self[f"morale_{side}"], self[f"catastrophe_{side}"],
                            self[f"other_{side}"]])
            for side in SIDES
        ]  # fmt: skip

    def clean(self):
        cleaned = super().clean()
        by_side = self.forces_by_side()
        for side in SIDES:
            if not any(force.units.all() for force in by_side[side]):
                self.add_error(
                    None,
                    gettext("Put at least one force with units on side %(side)s.")
                    % {"side": side.upper()},
                )
        defensive = set(cleaned.get("defensive") or ())
        if "narrow_passage" in defensive and cleaned.get("narrow_passage") is None:
            self.add_error("narrow_passage", gettext("Give the narrow passage's modifier."))
        if "higher_ground" in defensive and cleaned.get("higher_ground") is None:
            self.add_error("higher_ground", gettext("Give the higher ground's modifier."))
        return cleaned

    def forces_by_side(self) -> dict[str, list[Force]]:
        sides: dict[str, list[Force]] = {side: [] for side in SIDES}
        for force in self.forces:
            side = self.cleaned_data.get(f"force_{force.pk}")
            if side:
                sides[side].append(force)
        return sides

    def characters_by_side(self) -> dict[str, list[tuple[Character, bool]]]:
        """{side: [(character, in reserve)]}."""
        sides: dict[str, list[tuple[Character, bool]]] = {side: [] for side in SIDES}
        for character in self.characters:
            choice = self.cleaned_data.get(f"pc_{character.pk}")
            if choice:
                side, _sep, posting = choice.partition(":")
                sides[side].append((character, posting == "in_reserve"))
        return sides


def _strategy(factions: list[int], staffs: dict[int, CommandStaff]) -> tuple[int, str]:
    """The side's commander: the best Strategy among its factions' command staff (10 and no
    name when none is recorded)."""
    best = max((staffs[f] for f in factions if f in staffs), key=lambda s: s.strategy, default=None)
    return (best.strategy, best.commander) if best else (10, "")


def battle_setup(form: SetupForm) -> dict:
    """The engine setup (plain JSON, warfare.engine.systems.gurps3e.battle.engine) with the
    board's own keys: each side's factions and forces, each PC's character, faction and
    player, and the names of sides, units and PCs."""
    data = form.cleaned_data
    by_side, pcs_by_side = form.forces_by_side(), form.characters_by_side()
    faction_ids = {force.faction_id for forces in by_side.values() for force in forces}
    staffs = {s.faction_id: s for s in CommandStaff.objects.filter(faction_id__in=faction_ids)}
    sides = []
    for side in SIDES:
        forces = by_side[side]
        factions = list(dict.fromkeys(force.faction_id for force in forces))
        strategy, commander = _strategy(factions, staffs)
        defender = data["defender"] == side
        defensive = []
        if defender:
            for code in data.get("defensive") or ():
                item = {"code": code}
                if code in ("narrow_passage", "higher_ground"):
                    item["value"] = data[code]
                defensive.append(item)
        sides.append(
            {
                "key": side,
                "name": ", ".join(dict.fromkeys(force.faction.name for force in forces)),
                "role": "defender" if defender else "attacker",
                "tl": max(force.tl for force in forces),
                "strategy": strategy,
                "commander": commander,
                "units": [unit_setup(u) for f in forces for u in f.units.all() if u.men > 0],
                "defensive": defensive,
                "catastrophe": data.get(f"catastrophe_{side}") or 0,
                "other": data.get(f"other_{side}") or 0,
                "morale_modifiers": list(data.get(f"morale_{side}") or ()),
                "factions": factions,
                "forces": [force.pk for force in forces],
            }
        )
    pcs = []
    for side in SIDES:
        for character, in_reserve in pcs_by_side[side]:
            pc = {
                **character_setup(character),
                "side": side,
                "character": character.pk,
                "faction": character.faction_id,
                "owner": character.owner_id,
            }
            if in_reserve and "in_reserve" not in pc["limits"]:
                pc["limits"] = [*pc["limits"], "in_reserve"]
            pcs.append(pc)
    return {
        "sides": sides,
        "pcs": pcs,
        "days": data["days"],
        "month": data["month"],
        "casualties": data["casualties"],
        "intensity": data["intensity"],
        # An extended battle neither side left: won on its days (house default, §B.8) or,
        # with the house default off, by its last day.
        "winner_rule": DAYS if house_value("result.extended_by_clear_victories") else LAST_DAY,
    }


def _form(data, campaign) -> SetupForm:
    forces = (
        Force.objects.filter(campaign=campaign)
        .select_related("faction")
        .prefetch_related("units__troop_type")
        .order_by("faction__name", "name")
    )
    characters = (
        Character.objects.filter(campaign=campaign)
        .exclude(status=CharacterStatus.DEAD)
        .prefetch_related("reputation")
        .order_by("name")
    )
    return SetupForm(data, forces=forces, characters=characters)


@write_transaction
def _start(user, campaign, form: SetupForm):
    """Start the battle the form sets up. Locks the campaign first (kingdoms.transactions),
    so two set-ups cannot both take a force or a character that is on no board yet; one
    already on an unfinished board is refused, naming the battle (battles.holds)."""
    access_campaign(user, campaign.pk, gm=True, lock=True)
    forces = [force for side in form.forces_by_side().values() for force in side]
    characters = [pc for side in form.characters_by_side().values() for pc, _reserve in side]
    refuse_held(campaign.pk, [*forces, *characters])
    setup = battle_setup(form)
    names = setup_names(setup)
    return services.battle_start(
        user=user,
        campaign=campaign,
        name=form.cleaned_data["name"],
        setup=setup,
        players_may_act=form.cleaned_data["players_may_act"],
        problem_messages=lambda problems: setup_problem_messages(problems, names),
    )


def create_view(request, membership):
    """The set-up page (GET: the form; POST: start the battle, or 400 with the reasons)."""
    form = _form(request.POST or None, membership.campaign)
    return setup_page(
        request, membership, "battles/gurps3e/setup.html", form,
        lambda form: _start(request.user, membership.campaign, form),
        success=gettext("The battle begins."),
    )  # fmt: skip


def api_create(user, campaign_id: int, data) -> Battle:
    """The API's set-up: the set-up form's fields as JSON (`force_<id>` / `pc_<id>`: "a",
    "b" or ""); a refusal is a ValidationError (400)."""
    membership = access_campaign(user, campaign_id, gm=True)
    form = _form(data, membership.campaign)
    if not form.is_valid():
        raise ValidationError(
            {field or "non_field_errors": errors for field, errors in form.errors.items()}
        )
    return _start(user, membership.campaign, form)


@functools.lru_cache(maxsize=64)
def _side_label(_language: str, side: str) -> str:
    """ "Side A" in the page language, worded once per language (every view names both)."""
    return gettext("Side %(side)s") % {"side": side}


def setup_names(setup: dict, side_names: dict[str, str] | None = None) -> dict[str, str]:
    """{key: name} of a setup's sides ("Side A: …", by `side_names` when given), units and
    PCs."""
    names: dict[str, str] = {}
    language = get_language() or ""
    for side in setup.get("sides") or ():
        label = _side_label(language, str(side["key"]).upper())
        name = (side_names or {}).get(side["key"], side.get("name"))
        names[side["key"]] = f"{label}: {name}" if name else label
        for unit in side.get("units") or ():
            names[unit["key"]] = unit.get("name") or unit["key"]
    for pc in setup.get("pcs") or ():
        names[pc["key"]] = pc.get("name") or pc["key"]
    return names
