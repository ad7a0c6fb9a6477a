"""Writing a finished Pathfinder 2e battle back to the armies and kingdoms (§7.6), and the
persistent rows a battle holds while unfinished."""

from collections.abc import Mapping

from django.core.exceptions import ValidationError

from battles.models import Battle, BattleStatus
from battles.services import apply_begin, apply_lock
from kingdoms.transactions import write_transaction
from warfare.engine.battle.protocol import CommandDice, derive_seed
from warfare.engine.systems.pf2e.activities.state import ArmyState
from warfare.engine.systems.pf2e.battle.aftermath import Aftermath, resolve_kingdom_check
from warfare.engine.systems.pf2e.battle.results import apply_changes, army_changes
from warfare.systems.pf2e.mapping import (
    apply_army_state,
    apply_kingdom_state,
    army_state,
    kingdom_state,
)
from warfare.systems.pf2e.models import Army, Kingdom, LogEntry

from .board_problems import setup_problem_messages


def held_rows(setup: dict) -> dict[str, set[int]]:
    """The Pathfinder armies of a setup (board key = the army's id)."""
    keys = (
        str(entry["army"]["key"])
        for side in setup.get("sides") or ()
        for entry in side.get("armies") or ()
    )
    return {"pf2e.army": {int(key) for key in keys if key.isdigit()}}


def army_factions(battle: Battle) -> dict[str, int]:
    """{army key on the board: faction id} from the setup."""
    return {
        str(entry["army"]["key"]): entry.get("faction")
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
    }


def side_factions(battle: Battle) -> dict[str, set[int]]:
    """{side key: the faction ids of its armies} from the setup."""
    return {
        side["key"]: {
            entry.get("faction") for entry in side.get("armies", ()) if entry.get("faction")
        }
        for side in battle.setup["sides"]
    }


def aftermath_seed(battle: Battle, side: str) -> int:
    """The seed of a side's §7.6 dice: fixed by the battle, so sending the apply form again
    after a refusal rolls the same dice (no fishing for a better result)."""
    return derive_seed(battle.seed, f"aftermath:{side}:{battle.seq}")


def _army_log_rows(kingdom, events, rows_by_key, user) -> list[LogEntry]:
    entries = []
    for event in events:
        if event.code in ("battle.kingdom_check", "battle.aftermath_choice",
                          "battle.next_turn_effects"):  # fmt: skip
            continue  # the results entry carries the check; the next turn gets its own entry
        params = dict(event.params)
        army = rows_by_key.get(str(params.get("army"))) if "army" in params else None
        if army is not None:
            params["army"] = army.pk
            params["army_name"] = army.name
        entries.append(
            LogEntry(faction_id=kingdom.faction_id, army=army, turn=kingdom.turn,
                     code=event.code, data=params, actor=user)
        )  # fmt: skip
    return entries


@write_transaction
def battle_apply_results(
    *,
    user,
    campaign_id: int,
    battle_id: int,
    expected_seq: int,
    pc_encounter: Mapping[str, str | None] | None = None,
    choices: Mapping[str, str] | None = None,
    regain: Mapping[str, str | None] | None = None,
    typed_dice: Mapping[str, tuple[int | None, int | None]] | None = None,
) -> Battle:
    """The GM confirms a finished battle, all in one transaction:

    * the armies leave it as the board left them (HP, conditions, destroyed);
    * each side whose armies belong to one kingdom rolls the §7.6 kingdom check (Warfare on a
      victory, Defense on a defeat, vs its Control DC; `typed_dice` {side: (d20, d4)} typed in
      at the table, else the server rolls), improved or worsened one degree by the PCs' own
      fight (`pc_encounter` {side: "won" | "lost" | None}, §7.7), and its effects are written
      (`engine...battle.aftermath`): HP, weary or shaken (`choices` {army key: "weary" |
      "shaken"}, default weary), the damaged army of the players' choice (`regain` {side: army
      key}), Unrest; Fame/Infamy +1 and Unrest −1 "next Kingdom turn" go to the kingdom log as
      `battle.next_turn_effects` for the kingdom turn to apply;
    * each side's kingdom gains the XP of the enemies it defeated (§7.6).

    Each kingdom's log gets `battle.results_applied` with the check, then what it changed.

    Only what the battle changed is written (`engine...battle.results`), onto the armies as
    they are now: a Train Army taken meanwhile, the activities counted this turn or another
    battle's results stay. Locks: the campaign, the kingdoms, the armies (primary-key
    order), the battle.
    """
    battle = apply_begin(user, campaign_id, battle_id)
    factions = army_factions(battle)
    by_faction = side_factions(battle)
    kingdoms = {
        kingdom.faction_id: kingdom
        for kingdom in Kingdom.objects.select_for_update(no_key=True)
        .filter(faction_id__in={pk for ids in by_faction.values() for pk in ids})
        .order_by("pk")
    }
    armies = {
        str(army.pk): army
        for army in Army.objects.select_for_update(no_key=True, of=("self",))
        .select_related("faction__kingdom")
        .filter(pk__in=[int(key) for key in factions if key.isdigit()],
                faction__campaign_id=battle.campaign_id)
        .order_by("pk")
    }  # fmt: skip
    battle = apply_lock(battle, expected_seq)
    pc_encounter, choices = pc_encounter or {}, choices or {}
    regain, typed_dice = regain or {}, typed_dice or {}
    details = battle.outcome["details"]
    before = {
        str(entry["army"]["key"]): ArmyState.from_dict(entry["army"])
        for side in battle.setup["sides"]
        for entry in side.get("armies", ())
    }
    states = {
        key: ArmyState.from_dict({**data, "key": key})
        for key, data in details["armies"].items()
        if key in armies and key in before
    }
    for key in details.get("destroyed", []):
        if key in states:
            states[key] = ArmyState.from_dict({**states[key].to_dict(), "status": "destroyed"})
    aftermaths: dict[str, Aftermath] = {}
    for side in battle.setup["sides"]:
        key = side["key"]
        ids = by_faction[key]
        check = (details.get("kingdom_checks") or {}).get(key)
        if len(ids) != 1 or next(iter(ids)) not in kingdoms or not check:
            continue
        kingdom = kingdoms[next(iter(ids))]
        own = [str(entry["army"]["key"]) for entry in side["armies"]]
        d20, d4 = (tuple(typed_dice.get(key) or ()) + (None, None))[:2]
        result = resolve_kingdom_check(
            result=check["result"],
            kingdom=kingdom_state(kingdom),
            armies=[states[k] for k in own if k in states],
            took_damage=check.get("took_damage", []),
            dice=CommandDice(aftermath_seed(battle, key)),
            typed_die=d20,
            typed_unrest=d4,
            pc_encounter=pc_encounter.get(key) or None,
            choices={k: v for k, v in choices.items() if k in own},
            regain=regain.get(key) or None,
        )
        if isinstance(result, list):
            names = {str(pk): army.name for pk, army in armies.items()}
            raise ValidationError(setup_problem_messages(result, names), code="rules")
        aftermaths[key] = result
        states.update({army.key: army for army in result.armies})
    for key, state in states.items():
        army = armies[key]
        changes = army_changes(before[key], state)
        apply_army_state(army, apply_changes(army_state(army), changes))
        army.fought_this_turn = True
        army.version += 1
        army.save()
    for side in battle.setup["sides"]:
        gained = (details.get("xp", {}).get(side["key"]) or {}).get("total") or 0
        aftermath = aftermaths.get(side["key"])
        for faction_id in sorted(by_faction[side["key"]]):
            kingdom = kingdoms.get(faction_id)
            if kingdom is None:
                continue
            if aftermath is not None:
                apply_kingdom_state(kingdom, aftermath.kingdom)
            kingdom.xp += gained
            kingdom.save()
            data = {
                "battle": battle.name,
                "xp": gained,
                "result": "victory" if side["key"] == battle.outcome["winner"] else "defeat",
            }
            if aftermath is not None:
                data.update(check=aftermath.check.to_dict(), degree=aftermath.degree.code,
                            pc_encounter=aftermath.pc_encounter)  # fmt: skip
            rows = [LogEntry(faction_id=faction_id, turn=kingdom.turn, actor=user,
                             code="battle.results_applied", data=data)]  # fmt: skip
            if aftermath is not None:
                rows += _army_log_rows(kingdom, aftermath.events, armies, user)
                if aftermath.next_turn:
                    rows.append(
                        LogEntry(faction_id=faction_id, turn=kingdom.turn, actor=user,
                                 code="battle.next_turn_effects",
                                 data={"battle": battle.name, "turn": kingdom.turn + 1,
                                       "pending": True, **aftermath.next_turn})
                    )  # fmt: skip
            LogEntry.objects.bulk_create(rows)
    battle.outcome = {
        **battle.outcome,
        "aftermath": {side: aftermath.to_dict() for side, aftermath in aftermaths.items()},
    }
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "outcome", "updated_at"])
    return battle
