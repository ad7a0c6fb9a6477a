"""Writing a finished GURPS Mass Combat 4e battle back to the persistent forces (gurps §A.7)."""

from fractions import Fraction
from math import floor
from typing import Any

from battles.models import Battle, BattleStatus
from battles.services import apply_begin, apply_lock
from kingdoms.transactions import write_transaction
from warfare.engine.systems.gurps4e.battle.state import SIDE_KEYS
from warfare.systems.gurps4e.models import Force


def held_rows(setup: dict) -> dict[str, set[int]]:
    """The forces a battle's setup was built from (battles.holds)."""
    sides = (setup.get("sides") or {}).values()
    return {"gurps4e.force": {side["force_id"] for side in sides if side.get("force_id")}}


def new_strength_percent(old_percent: int, old_ts: Fraction, new_ts: int) -> int:
    """§A.7.3: the share of its full TS a force keeps. The battle started at TS `old_ts`
    (= full × old_percent) and ends at `new_ts`, so the share becomes old_percent × new/old,
    rounded down like the engine's new TS."""
    if old_ts <= 0:
        return 0
    return max(0, min(100, floor(Fraction(old_percent) * Fraction(new_ts) / old_ts)))


def kept_strength(old_percent: int, result: dict[str, Any]) -> tuple[int, Fraction]:
    """(the whole percent of its full TS a force keeps after the battle, that TS) for a
    force that fought at `old_percent` and whose aftermath is `result` (old and new TS,
    §A.7.3): the one rounding of a new TS the app shows and writes back, so that the
    battle and the force page agree (the battle read TS 110 and the force 109.69)."""
    old_ts = Fraction(str(result["old_ts"]))
    percent = new_strength_percent(old_percent, old_ts, int(result["new_ts"]))
    full = old_ts * 100 / old_percent if old_percent else Fraction(0)
    return percent, full * percent / 100


@write_transaction
def gurps4e_apply_results(
    *, user, campaign_id: int, battle_id: int, expected_seq: int, data: Any = None
) -> Battle:
    """The GM confirms a finished battle: each force keeps the share of its TS the battle
    left it (§A.7.3, after the recovered casualties of §A.7.2) — the ratio new TS / TS going
    in, applied to the share the force has now (a change, not the share from the set-up) —
    and the loot (§A.7.4) is noted in the battle's outcome (the victor's force page shows it,
    in each reader's language). One transaction; a second apply is refused. Locks: the
    campaign, the forces (primary-key order), the battle."""
    battle = apply_begin(user, campaign_id, battle_id)
    ids = {key: battle.setup["sides"][key].get("force_id") for key in SIDE_KEYS}
    forces = {
        force.pk: force
        for force in Force.objects.select_for_update(no_key=True)
        .filter(pk__in=[pk for pk in ids.values() if pk], campaign_id=battle.campaign_id)
        .order_by("pk")
    }
    battle = apply_lock(battle, expected_seq)
    details = battle.outcome.get("details") or {}
    applied: dict[str, Any] = {}
    loot = details.get("loot") or {}
    for key in SIDE_KEYS:
        force = forces.get(ids[key])
        side = (details.get("sides") or {}).get(key)
        if force is None or not side:
            continue
        old = force.strength_percent
        # The share the force has now (another battle may have changed it since this one was
        # set up) times what this battle left of the TS it went in with: a change (§A.7.3).
        force.strength_percent = new_strength_percent(
            old, Fraction(str(side["old_ts"])), int(side["new_ts"])
        )
        enemy = (details.get("sides") or {}).get(SIDE_KEYS[1 - SIDE_KEYS.index(key)]) or {}
        entry = {
            "force": force.name,
            "strength_before": old,
            "strength_after": force.strength_percent,
            "new_ts": side["new_ts"],
        }
        if loot.get("holder") == key:
            entry["loot_value"] = enemy.get("loot_value", 0)
            entry["loot_minutes"] = loot.get("minutes")
        force.save()
        applied[key] = entry
    battle.outcome = {**battle.outcome, "applied": applied}
    battle.status = BattleStatus.APPLIED
    battle.save(update_fields=["status", "outcome", "updated_at"])
    return battle
