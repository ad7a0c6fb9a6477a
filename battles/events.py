"""Battle event codes as sentences in the page's language (one gettext entry each)."""

from django.utils.translation import gettext_lazy as _

from warfare.engine.systems.pf2e.conditions import CONDITIONS
from warfare.engine.systems.pf2e.tactics import (
    ARMY_SPECIFIC_ACTIONS,
    BASIC_WAR_ACTIONS,
    TACTICAL_WAR_ACTIONS,
    TACTICS,
)
from warfare.systems.pf2e import labels
from warfare.systems.pf2e.events import log_text
from warfare.systems.pf2e.selectors import DEGREE_LABELS

WAR_ACTIONS = {*BASIC_WAR_ACTIONS, *TACTICAL_WAR_ACTIONS, *ARMY_SPECIFIC_ACTIONS}
SILENT = {"battle.action"}  # bookkeeping: the action's own event says what happened

BATTLE_TEXTS = {
    "battle.started": _("The battle begins."),
    "battle.initiative": _("%(army)s: initiative d20 %(die)s%(typed)s + %(modifier)s = %(total)s."),
    "battle.round_started": _("Round %(round)s begins."),
    "battle.round_ended": _("Round %(round)s ends."),
    "battle.turn_started": _("%(army)s takes its turn."),
    "battle.turn_ended": _("%(army)s ends its turn."),
    "battle.turn_skipped": _("%(army)s cannot act and is skipped."),
    "battle.damaged": _("%(army)s takes %(by)s damage (HP %(now)s)."),
    "battle.defeated": _("%(army)s is defeated."),
    "battle.destroyed": _("%(army)s is destroyed."),
    "battle.engaged": _("%(army)s and %(target)s are engaged."),
    "battle.engagement_refused": _("%(army)s cannot engage %(target)s."),
    "battle.disengaged": _("%(army)s disengages."),
    "battle.disengage_blocked": _("%(army)s cannot disengage."),
    "battle.lost_distant": _("%(army)s is no longer distant."),
    "battle.start_distant": _("%(army)s starts distant from the enemy."),
    "battle.start_near": _("%(army)s starts near the enemy."),
    "battle.start_offered": _("%(army)s may choose its starting position."),
    "battle.start_refused": _("%(army)s cannot take its chosen starting position."),
    "battle.pinned": _("%(army)s is pinned."),
    "battle.potion_used": _("%(army)s drinks a healing potion (%(doses_left)s left)."),
    "battle.retreat": _("%(army)s retreats."),
    "battle.rout_check": _("%(army)s: rout check, %(degree)s."),
    "battle.shaken_flat_check": _("%(army)s: flat check against shaken, %(degree)s."),
    "battle.defeated_flat_check": _("%(army)s: flat check while defeated, %(degree)s."),
    "battle.fortification_damaged": _("A fortification takes %(by)s damage."),
    "battle.fortification_destroyed": _("A fortification is destroyed."),
    "battle.effect_started": _("%(army)s: %(effect)s, %(until)s."),
    "battle.effect_ended": _("%(army)s: %(effect)s ends."),
    "battle.gm_correction": _("The GM corrects %(army)s."),
    "battle.finished": _("The battle is over."),
    "battle.reaction_blocked": _("%(army)s cannot react now."),
    "battle.reaction_offered": _("%(army)s may react: %(reaction)s."),
    "battle.reaction_declined": _("%(army)s does not use %(reaction)s."),
    "battle.revel_in_battle": _("%(army)s revels in battle and regains 1 HP."),
    "battle.accustomed_to_panic": _(
        "%(army)s is accustomed to panic: instead of more shaken, less weary."
    ),
    "battle.action_interrupted": _("%(army)s's action is cut short."),
    "battle.swift_recovery_used": _("%(army)s: Swift Recovery, %(choice)s."),
    "battle.adaptability_chosen": _(
        "%(army)s: Battlefield Adaptability, %(choice)s until the start of its next turn."
    ),
    "battle.brutal_assault": _("%(army)s: Morale check against Brutal Assault, %(degree)s."),
    "battle.burning_weaponry": _("%(army)s: Maneuver check against Burning Weaponry, %(degree)s."),
    "battle.explosive_defeat": _("%(army)s: Maneuver check against Explosive Defeat, %(degree)s."),
    "battle.shed_nets": _("%(army)s tries to shed the nets of %(target)s, %(degree)s."),
    "battle.destruction_prevented": _("%(army)s regenerates: it cannot be destroyed."),
    "battle.overwhelming_magic": _(
        "%(army)s: Overwhelming Magic, the Morale check again with −4: %(degree)s."
    ),
}
# §6.2: what a Swift Recovery or Battlefield Adaptability chose, or a Battle spent shedding
# nets (event texts, board buttons).
CHOICE_LABELS = {
    "hp": _("regain 2 HP"),
    "weary": _("weary −2"),
    "ignore_difficult_terrain": _("ignore difficult terrain"),
    "mired": _("mired counts as 0"),
    "concealed": _("become concealed"),
    "advance_disengage": _("+2 to Advance and Disengage"),
    "shed_nets": _("shed the nets"),  # §6.2 Hurl Nets: Battle spent on the nets
}
# §6.2 Primal Magic: the d10 rows ("none": a second Overwhelming Magic, house default off).
PRIMAL_MAGIC_EFFECTS = {
    "entangling_vines": _("Entangling Vines"),
    "horrific_visions": _("Horrific Visions"),
    "primal_storm": _("Primal Storm"),
    "sensory_assault": _("Sensory Assault"),
    "none": _("nothing"),
}
PRIMAL_MAGIC_TEXT = _("Primal Magic on %(army)s, d10 %(roll)s: %(effect)s.")
PRIMAL_MAGIC_CRITICAL_TEXT = _("Primal Magic on %(army)s, d10 %(roll)s: %(effect)s (stronger).")
# Temporary battle effects that are not §9 conditions (§6.2, §8.1, §8.2).
EFFECT_LABELS = {
    "guarded": _("+%(value)s AC"),
    "attack_bonus": _("+%(value)s to its first attack"),
    "netted": _("netted"),
    "no_reactions": _("no reactions"),
    "no_maneuver_reactions": _("no reactions to maneuver war actions"),
    "ignores_difficult_terrain": _("ignores difficult terrain"),
    "mired_suppressed": _("mired counts as 0"),
    "advance_disengage_bonus": _("bonus to Advance and Disengage"),
    "primal_storm": _("strong wind and rain"),
    "sensory_assault": _("Sensory Assault penalty"),
    "regenerated": _("regenerated this turn"),
}
AGAINST_TEXT = _("%(effect)s against %(against)s")
SOURCE_TEXT = _("%(effect)s (%(source)s)")
UNTIL_TEXTS = {
    "turn_start": _("until the start of %(owner)s's next turn"),
    "turn_end": _("until the end of %(owner)s's turn"),
    "next_strike": _("until %(against)s's next Strike"),
    "encounter": _("for the rest of the battle"),
}
ACTION_TEXT = _("%(army)s: %(action)s%(target)s, %(degree)s%(check)s.")
INITIATIVE_DIE_TEXT = _("%(army)s: initiative d20 %(die)s%(typed)s.")
#: The dice of a check, put in every sentence of an event that carries one (`check`).
CHECK_DIE_TEXT = _("d20 %(die)s")
TYPED_TEXT = _("(typed at the table)")
CHECK_DC_TEXT = _("vs DC %(dc)s")


def _check_text(check) -> str:
    """ " (d20 12 + 5 = 17 vs DC 15)" for a check's record: its die (marked when typed at the
    table), modifier and total, and DC; a flat check has no modifier (" (d20 12 vs DC 11)").
    Numbers a viewer may not see (dropped from the record) are left out of the text."""
    if not isinstance(check, dict) or check.get("die") is None:
        return ""
    parts = [str(CHECK_DIE_TEXT) % {"die": check["die"]}]
    if check.get("source") == "typed":
        parts.append(str(TYPED_TEXT))
    if check.get("stat") != "flat" and check.get("modifier") is not None:
        parts.append(f"{_signed(check['modifier'])}")
        if check.get("total") is not None:
            parts.append(f"= {check['total']}")
    if check.get("dc") is not None:
        parts.append(str(CHECK_DC_TEXT) % {"dc": check["dc"]})
    return " (" + " ".join(parts) + ")"


def _signed(value) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _with_check(text: str, check) -> str:
    """The sentence with its check's dice before the final stop."""
    dice = _check_text(check)
    if not dice:
        return text
    return text[:-1] + dice + "." if text.endswith(".") else text + dice


def _effect_text(params: dict, names: dict[str, str]) -> dict[str, str]:
    """{"effect", "until"} of a temporary battle effect's event: what it does ("outflanked",
    "+2 AC against Raiders"), from which action or tactic ("(Guard)"), and until when."""
    condition, value = params.get("condition"), params.get("value")
    if condition in CONDITIONS:
        effect = labels.condition_name(condition)
        if CONDITIONS[condition].valued and value:
            effect += f" {value}"
    elif condition in EFFECT_LABELS:
        effect = str(EFFECT_LABELS[condition]) % {"value": value}
    else:
        effect = str(condition or "")
    against = params.get("against")
    if isinstance(against, str) and against:
        effect = str(AGAINST_TEXT) % {"effect": effect, "against": names.get(against, against)}
    source = str(params.get("code") or "").split(".", 1)[0]
    if source in WAR_ACTIONS:
        effect = str(SOURCE_TEXT) % {"effect": effect, "source": labels.war_action_name(source)}
    elif source in TACTICS:
        effect = str(SOURCE_TEXT) % {"effect": effect, "source": labels.tactic_name(source)}
    owner = params.get("owner")
    until = UNTIL_TEXTS.get(str(params.get("boundary")), UNTIL_TEXTS["turn_start"])
    return {
        "effect": effect,
        "until": str(until)
        % {
            "owner": names.get(owner, owner) if isinstance(owner, str) else "",
            "against": names.get(against, against) if isinstance(against, str) else "",
        },
    }


def _plugin_text(code: str):
    """The sentence of an event of a rule system with a board plugin (battles.plugins)."""
    from .plugins import PLUGINS

    for plugin in PLUGINS.values():
        if code in plugin.event_texts:
            return plugin.event_texts[code]
    return None


def _system_text(system: str, code: str, params: dict, names: dict[str, str]) -> str | None:
    """The sentence of an event of `system`'s own battles, when its plugin has one."""
    from .plugins import plugin_for

    plugin = plugin_for(system)
    if plugin is None or code not in plugin.event_texts:
        return None
    if plugin.event_params is not None:
        shown = plugin.event_params(code, params, names)
    else:
        shown = {key: names.get(value, value) if isinstance(value, str) else value
                 for key, value in params.items()}  # fmt: skip
    try:
        return str(plugin.event_texts[code]) % shown
    except (KeyError, TypeError, ValueError):
        return code


def event_text(code: str, params: dict, names: dict[str, str], system: str | None = None) -> str:
    """A sentence for one battle event ("" for bookkeeping events the log leaves out);
    `system`: the battle's rule system, whose plugin's sentences come first."""
    if system is not None:
        text = _system_text(system, code, params, names)
        if text is not None:
            return text
    if code in SILENT:
        return ""
    shown = dict(params)
    for key in ("army", "target", "by"):
        if isinstance(shown.get(key), str) and shown[key] in names:
            shown[key] = names[shown[key]]
    if isinstance(shown.get("degree"), str):
        shown["degree"] = DEGREE_LABELS.get(shown["degree"], shown["degree"])
    if isinstance(shown.get("check"), dict) and "degree" not in shown:
        shown["degree"] = DEGREE_LABELS.get(shown["check"].get("degree"), "")
    if shown.get("condition") in CONDITIONS:
        shown["condition"] = labels.condition_name(shown["condition"])
    elif shown.get("condition") in EFFECT_LABELS:
        shown["condition"] = str(EFFECT_LABELS[shown["condition"]]) % {"value": shown.get("value")}
    if isinstance(shown.get("reaction"), str):
        shown["reaction"] = labels.war_action_name(shown["reaction"])
    if shown.get("choice") in CHOICE_LABELS:
        shown["choice"] = CHOICE_LABELS[shown["choice"]]
    if code == "battle.initiative":
        shown["typed"] = " " + str(TYPED_TEXT) if params.get("source") == "typed" else ""
        if "modifier" not in params:  # an enemy's: its die only (battles.visibility)
            return str(INITIATIVE_DIE_TEXT) % shown
    if code in ("battle.effect_started", "battle.effect_ended"):
        shown.update(_effect_text(params, names))
    if code == "battle.primal_magic_effect":
        shown["effect"] = PRIMAL_MAGIC_EFFECTS.get(shown.get("effect"), shown.get("effect"))
        template = PRIMAL_MAGIC_CRITICAL_TEXT if shown.get("critical") else PRIMAL_MAGIC_TEXT
        return str(template) % {key: shown.get(key, "") for key in ("army", "roll", "effect")}
    kind = code.removeprefix("battle.")
    if kind in WAR_ACTIONS and code not in BATTLE_TEXTS:
        target = shown.get("target")
        return str(ACTION_TEXT) % {
            "army": shown.get("army", ""),
            "action": labels.war_action_name(kind),
            "target": f" → {target}" if isinstance(target, str) and target else "",
            "degree": shown.get("degree", ""),
            "check": _check_text(params.get("check")),
        }
    template = BATTLE_TEXTS.get(code)
    if template is None:
        template = _plugin_text(code)
    if template is not None:
        try:
            text = str(template) % shown
        except (KeyError, TypeError, ValueError):
            return code
        return text if "%(check)s" in str(template) else _with_check(text, params.get("check"))
    shown.setdefault("army_name", shown.get("army", ""))
    return log_text(code, shown)
