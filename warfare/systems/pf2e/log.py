"""Pathfinder 2e battle event codes as sentences in the page's language (one gettext entry each;
the board plugin's `event_line`)."""

from django.utils.translation import gettext_lazy as _

from battles.plugins import PLUGINS
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
from warfare.words import per_language

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


@per_language
def _words() -> dict:
    """The log's fixed words in the page language, translated once per language and process
    (a lazy text costs a catalogue look-up each time it is read; every new event of an
    action reads several): the sentences above and the labels they put in, with the names
    of the war actions, tactics and conditions (`labels.names`)."""
    return {
        **{name: str(text) for name, text in _TEXTS.items()},
        **{
            name: {key: str(text) for key, text in table.items()} for name, table in _TABLES.items()
        },
        **labels.names(),
    }


_TEXTS = {"against": AGAINST_TEXT, "source": SOURCE_TEXT, "action": ACTION_TEXT,
          "initiative_die": INITIATIVE_DIE_TEXT, "check_die": CHECK_DIE_TEXT,
          "typed": TYPED_TEXT, "check_dc": CHECK_DC_TEXT, "primal": PRIMAL_MAGIC_TEXT,
          "primal_critical": PRIMAL_MAGIC_CRITICAL_TEXT}  # fmt: skip
_TABLES = {"battle": BATTLE_TEXTS, "degree": DEGREE_LABELS, "choice": CHOICE_LABELS,
           "effect": EFFECT_LABELS, "until": UNTIL_TEXTS,
           "primal_effect": PRIMAL_MAGIC_EFFECTS}  # fmt: skip


def _check_text(check, words: dict) -> str:
    """ " (d20 12 + 5 = 17 vs DC 15)" for a check's record: its die (marked when typed at the
    table), modifier and total, and DC; a flat check has no modifier (" (d20 12 vs DC 11)").
    Numbers a viewer may not see (dropped from the record) are left out of the text."""
    if not isinstance(check, dict) or check.get("die") is None:
        return ""
    parts = [words["check_die"] % {"die": check["die"]}]
    if check.get("source") == "typed":
        parts.append(words["typed"])
    if check.get("stat") != "flat" and check.get("modifier") is not None:
        parts.append(f"{_signed(check['modifier'])}")
        if check.get("total") is not None:
            parts.append(f"= {check['total']}")
    if check.get("dc") is not None:
        parts.append(words["check_dc"] % {"dc": check["dc"]})
    return " (" + " ".join(parts) + ")"


def _signed(value) -> str:
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _with_check(text: str, check, words: dict) -> str:
    """The sentence with its check's dice before the final stop."""
    dice = _check_text(check, words)
    if not dice:
        return text
    return text[:-1] + dice + "." if text.endswith(".") else text + dice


def _effect_text(params: dict, names: dict[str, str], words: dict) -> dict[str, str]:
    """{"effect", "until"} of a temporary battle effect's event: what it does ("outflanked",
    "+2 AC against Raiders"), from which action or tactic ("(Guard)"), and until when."""
    condition, value = params.get("condition"), params.get("value")
    if condition in CONDITIONS:
        effect = words["condition"][condition]
        if CONDITIONS[condition].valued and value:
            effect += f" {value}"
    elif condition in EFFECT_LABELS:
        effect = words["effect"][condition] % {"value": value}
    else:
        effect = str(condition or "")
    against = params.get("against")
    if isinstance(against, str) and against:
        effect = words["against"] % {"effect": effect, "against": names.get(against, against)}
    source = str(params.get("code") or "").split(".", 1)[0]
    if source in WAR_ACTIONS:
        effect = words["source"] % {
            "effect": effect,
            "source": words["war_action"].get(source, source),
        }
    elif source in TACTICS:
        effect = words["source"] % {"effect": effect, "source": words["tactic"][source]}
    owner = params.get("owner")
    until = words["until"].get(str(params.get("boundary")), words["until"]["turn_start"])
    return {
        "effect": effect,
        "until": until
        % {
            "owner": names.get(owner, owner) if isinstance(owner, str) else "",
            "against": names.get(against, against) if isinstance(against, str) else "",
        },
    }


def _plugin_text(code: str):
    """The sentence of an event code another rule system's plugin words (battles.plugins)."""
    for plugin in PLUGINS.values():
        if code in plugin.event_texts:
            return plugin.event_texts[code]
    return None


def event_text(code: str, params: dict, names: dict[str, str]) -> str:
    """A sentence for one Pathfinder battle event ("" for bookkeeping events the log leaves
    out)."""
    if code in SILENT:
        return ""
    words = _words()
    shown = dict(params)
    for key in ("army", "target", "by"):
        if isinstance(shown.get(key), str) and shown[key] in names:
            shown[key] = names[shown[key]]
    if isinstance(shown.get("degree"), str):
        shown["degree"] = words["degree"].get(shown["degree"], shown["degree"])
    if isinstance(shown.get("check"), dict) and "degree" not in shown:
        shown["degree"] = words["degree"].get(shown["check"].get("degree"), "")
    if shown.get("condition") in CONDITIONS:
        shown["condition"] = words["condition"][shown["condition"]]
    elif shown.get("condition") in EFFECT_LABELS:
        shown["condition"] = words["effect"][shown["condition"]] % {"value": shown.get("value")}
    if isinstance(shown.get("reaction"), str):
        shown["reaction"] = words["war_action"].get(shown["reaction"], shown["reaction"])
    if shown.get("choice") in CHOICE_LABELS:
        shown["choice"] = words["choice"][shown["choice"]]
    if code == "battle.initiative":
        shown["typed"] = " " + words["typed"] if params.get("source") == "typed" else ""
        if "modifier" not in params:  # an enemy's: its die only (battles.visibility)
            return words["initiative_die"] % shown
    if code in ("battle.effect_started", "battle.effect_ended"):
        shown.update(_effect_text(params, names, words))
    if code == "battle.primal_magic_effect":
        effect = shown.get("effect")
        shown["effect"] = words["primal_effect"].get(effect, effect)
        template = words["primal_critical"] if shown.get("critical") else words["primal"]
        return template % {key: shown.get(key, "") for key in ("army", "roll", "effect")}
    kind = code.removeprefix("battle.")
    if kind in WAR_ACTIONS and code not in BATTLE_TEXTS:
        target = shown.get("target")
        return words["action"] % {
            "army": shown.get("army", ""),
            "action": words["war_action"].get(kind, kind),
            "target": f" → {target}" if isinstance(target, str) and target else "",
            "degree": shown.get("degree", ""),
            "check": _check_text(params.get("check"), words),
        }
    template = words["battle"].get(code)
    if template is None:
        template = _plugin_text(code)
    if template is not None:
        try:
            text = str(template) % shown
        except (KeyError, TypeError, ValueError):
            return code
        return (
            text if "%(check)s" in str(template) else _with_check(text, params.get("check"), words)
        )
    shown.setdefault("army_name", shown.get("army", ""))
    return log_text(code, shown)
