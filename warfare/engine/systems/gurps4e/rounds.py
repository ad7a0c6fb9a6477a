"""One battle round (§A.6): strategy restrictions and pairing, the Strategy roll's modifiers,
the margin, the Combat Results Table, casualty adjustments in the documented order, Position
Bonus, significant actions, Misfortunes of War, leaving the field.

Functions over plain values; `battle.engine` strings them together. Sides are 0 and 1.
"""

from collections.abc import Mapping
from fractions import Fraction
from math import ceil
from typing import Any

from warfare.engine.problems import Problem
from warfare.engine.systems.gurps4e.house_rules import house_value
from warfare.engine.systems.gurps4e.strategies import (
    DEFENSE,
    DEFENSE_PAIRING,
    FULL_RETREAT,
    INDIRECT_ATTACK,
    RALLY,
    RETREAT,
    SKIRMISH,
    STRATEGIES,
    superiority_bonus_terms,
)
from warfare.engine.systems.gurps4e.tables import (
    MISFORTUNE_CHANCE,
    RISK_RANGE,
    SIGNIFICANT_ACTION_BASE,
    SIGNIFICANT_ACTION_EFFECT,
    crt_row,
)

Terms = list[tuple[str, int]]
NO_BATTLE = "no_battle"


def _p(code: str, **params: Any) -> Problem:
    return Problem(f"gurps4e.strategy.{code}", params)


def desperate_allowed(own: int, enemy: int, overrides: Mapping[str, Any] | None = None) -> bool:
    """§A.6.3 [impl]: Desperate needs casualties ≥ 25 points above the enemy's."""
    return own - enemy >= int(house_value("desperate.casualty_gap", overrides))


def strategy_problems(
    key: str,
    *,
    round_no: int,
    encounter: bool,
    mobile: bool,
    confused: bool,
    started_confused: bool,
    ambusher: bool,
    db: int,
    siege: bool = False,
    desperate: bool = False,
    casualties: int = 0,
    enemy_casualties: int = 0,
    overrides: Mapping[str, Any] | None = None,
) -> list[Problem]:
    """§A.6.3: why a side may not choose strategy `key` (empty: it may).

    Confused: only Rally or Full Retreat (and Rally only when confused). Encounter battle: no
    Deliberate Attack/Defense; a mobile force in round 1 no Retreat and no Defense but Mobile
    Defense (a confused force keeps Rally and Full Retreat [inferred]). Ambusher in round 1:
    no Defense strategy. Deliberate Attack: not by a force that
    began the battle confused. Deliberate Defense: DB > 0 and round 1 or a siege. Desperate:
    casualty gap, not with Deliberate Attack/Defense or Skirmish."""
    row = STRATEGIES.get(key)
    if row is None:
        return [_p("unknown", strategy=key)]
    problems: list[Problem] = []
    if confused and key not in (RALLY, FULL_RETREAT):
        problems.append(_p("confused", strategy=key))
    if row.only_when_confused and not confused:
        problems.append(_p("not_confused", strategy=key))
    if encounter and row.not_in_encounter:
        problems.append(_p("encounter_battle", strategy=key))
    restricted = row.group == RETREAT or (row.group == DEFENSE and key != "mobile_defense")
    if encounter and round_no == 1 and mobile and not confused and restricted:
        problems.append(_p("mobile_first_round", strategy=key))
    if ambusher and round_no == 1 and row.group == DEFENSE:
        problems.append(_p("ambusher_first_round", strategy=key))
    if row.not_if_started_confused and started_confused:
        problems.append(_p("started_confused", strategy=key))
    if row.db_first_round_or_siege and (db <= 0 or (round_no != 1 and not siege)):
        problems.append(_p("needs_db_first_round", strategy=key))
    if desperate:
        if row.no_desperate:
            problems.append(_p("not_desperate", strategy=key))
        if not desperate_allowed(casualties, enemy_casualties, overrides):
            problems.append(_p("desperate_not_allowed", casualties=casualties,
                               enemy_casualties=enemy_casualties))  # fmt: skip
    return problems


def pair(first: str, second: str) -> tuple[str, str, bool]:
    """§A.6.3 pairing [impl]: (first's strategy, second's strategy, a battle is fought).

    Two Defense-group strategies are both fought as Skirmish; a Retreat against a Retreat or
    a Defense-group strategy (either way round) means no battle this round."""
    groups = (STRATEGIES[first].group, STRATEGIES[second].group)
    if first in DEFENSE_PAIRING and second in DEFENSE_PAIRING:
        return SKIRMISH, SKIRMISH, True
    if RETREAT in groups:
        other = groups[1] if groups[0] == RETREAT else groups[0]
        other_key = second if groups[0] == RETREAT else first
        if other == RETREAT or other_key in DEFENSE_PAIRING:
            return first, second, False
    return first, second, True


def slow_change_side(first: str, second: str, refused_parley: int | None = None) -> int | None:
    """§A.6.3 [impl]: if exactly one side chose a slow strategy (Deliberate Attack, Deliberate
    Defense, a refused Parley), the OTHER side may change its strategy once."""
    slow = [STRATEGIES[first].slow or refused_parley == 0,
            STRATEGIES[second].slow or refused_parley == 1]  # fmt: skip
    if slow[0] != slow[1]:
        return 1 if slow[0] else 0
    return None


def skill_terms(
    *,
    skill: tuple[str, int],
    bsm: Terms,
    strategy: str,
    enemy_strategy: str,
    superiorities: dict[str, int],
    db: int,
    db_any_strategy: bool,
    risk: int,
    significant: int,
    desperate: bool,
    parley_refused: bool,
    confused: bool,
    previous: str | None,
    pb: int,
    circumstance: int,
    overrides: Mapping[str, Any] | None = None,
) -> Terms:
    """§A.6.4: every addend of a commander's effective Strategy (or Tactics) skill."""
    row = STRATEGIES[strategy]
    terms: Terms = [skill, *bsm]
    if db > 0 and (row.uses_db or db_any_strategy):
        halve = enemy_strategy == "deliberate_attack" and house_value(
            "db.deliberate_attack_halves", overrides
        )
        terms.append(("db.halved", ceil(db / 2)) if halve else ("db", db))
    if risk:
        terms.append(("risk", risk))
    if significant:
        terms.append(("significant_actions", significant))
    terms.append((f"strategy.{strategy}", row.modifier))
    terms += superiority_bonus_terms(strategy, superiorities)
    if desperate:
        terms.append(("desperate", int(house_value("desperate.bonus", overrides))))
    if parley_refused:
        terms.append(("parley_refused", int(house_value("parley.refused_modifier", overrides))))
    if confused and row.confused_modifier:
        terms.append(("confused_retreat", int(house_value("full_retreat.confused_modifier",
                                                            overrides))))  # fmt: skip
    if previous == strategy and row.repeat_modifier:
        terms.append(("repeated", row.repeat_modifier))
    if pb > 0:
        terms.append(("pb", pb))
    if circumstance:
        terms.append(("gm_circumstance", circumstance))
    return terms


def adjusted_margin(margin: int, winner_strategy: str, earlier_uses: int) -> tuple[int, str]:
    """§A.6.4 margin adjustments [impl]: an Indirect Attack winner ×2 (first use in the
    battle) or ×1.5 rounded up (later uses); a Skirmish winner ÷2 (truncated)."""
    row = STRATEGIES[winner_strategy]
    if winner_strategy == INDIRECT_ATTACK:
        factor = row.margin_first if earlier_uses == 0 else row.margin_later
        return ceil(Fraction(margin) * factor), f"multiplied_{float(factor):g}"
    if row.halves_own_margin:
        return margin // 2, "halved"
    return margin, ""


def round_casualties(
    strategies: tuple[str, str],
    winner: int | None,
    margin: int,
    desperate: tuple[bool, bool],
    raid_logistics: tuple[bool, bool] = (True, True),
    overrides: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """§A.6.4 casualties of a fought round, in the documented order [impl]: CRT → ×2 own (All-
    Out Attack/Defense) → +5 % enemy (All-Out Attack winner; Deliberate Defense winner or tie)
    → −5 % own (Skirmish; Mobile Defense on a loss or tie; min 0) → halve the enemy's
    (Fighting Retreat) → Full Retreat (own −10 %, enemy 0) → +10 % own (Desperate). A winning
    Raid moves the non-Desperate loser's casualties to its logistics. Retreat strategies also
    hit their own logistics (Fighting Retreat on a loss, Full Retreat always).

    Returns {"casualties": [a, b], "logistics": [a, b], "steps": [...], "crt": {...}}."""
    loser_pct, winner_pct, pb_change = crt_row(margin)
    if winner is None:
        cas = [loser_pct, loser_pct]
    else:
        cas = [0, 0]
        cas[winner], cas[1 - winner] = winner_pct, loser_pct
    steps: list[dict[str, Any]] = [{"code": "casualties.crt", "values": list(cas)}]

    def step(code: str) -> None:
        steps.append({"code": f"casualties.{code}", "values": list(cas)})

    rows = [STRATEGIES[s] for s in strategies]
    for i in (0, 1):
        if rows[i].own_multiplier != 1:
            cas[i] *= rows[i].own_multiplier
            step(f"multiplied.{strategies[i]}")
    for i in (0, 1):
        if (rows[i].enemy_plus_on_win and winner == i) or (
            rows[i].enemy_plus_on_win_or_tie and winner in (i, None)
        ):
            cas[1 - i] += rows[i].enemy_plus_on_win or rows[i].enemy_plus_on_win_or_tie
            step(f"enemy_plus.{strategies[i]}")
    for i in (0, 1):
        minus = rows[i].own_minus or (rows[i].own_minus_unless_win if winner != i else 0)
        if minus:
            cas[i] = max(0, cas[i] - minus)
            step(f"own_minus.{strategies[i]}")
    for i in (0, 1):
        if rows[i].halves_enemy:
            cas[1 - i] //= 2
            step(f"enemy_halved.{strategies[i]}")
    for i in (0, 1):
        if rows[i].full_retreat:
            cas[i] = max(0, cas[i] - rows[i].full_retreat)
            cas[1 - i] = 0
            step(f"full_retreat.{strategies[i]}")
    for i in (0, 1):
        if desperate[i]:
            cas[i] += int(house_value("desperate.casualties", overrides))
            step("desperate")
    logistics = [0, 0]
    for i in (0, 1):
        share = rows[i].logistics_share
        if share == "always" or (share == "on_loss" and winner == 1 - i):
            logistics[i] = cas[i]
    if winner is not None and rows[winner].raid_logistics and raid_logistics[winner]:
        loser = 1 - winner
        if not desperate[loser]:
            logistics[loser] += cas[loser]
            cas[loser] = 0
            step("raid_to_logistics")
    return {
        "casualties": cas,
        "logistics": logistics,
        "steps": steps,
        "crt": {"margin": margin, "loser": loser_pct, "winner": winner_pct, "pb": pb_change},
    }


def apply_casualties(cumulative: int, this_round: int) -> int:
    """§A.6.4, §A.6.6: cumulative casualties, capped at 100 %."""
    return min(100, max(0, cumulative + this_round))


def balance_pb(pb: tuple[int, int], gainer: int, shift: int) -> list[int]:
    """§A.6.4 [impl]: `balance = PB_gainer − PB_other + shift`; the gainer keeps max(0,
    balance), the other max(0, −balance): only one side ever holds PB."""
    balance = pb[gainer] - pb[1 - gainer] + shift
    result = [0, 0]
    result[gainer], result[1 - gainer] = max(0, balance), max(0, -balance)
    return result


def position_bonus(
    pb: tuple[int, int], strategies: tuple[str, str], winner: int | None, crt_pb: int
) -> tuple[list[int], str]:
    """§A.6.4 Position Bonus after a fought round: (new PB per side, reason code).

    An Attack-strategy winner gains the CRT amount (eating the loser's PB first); against
    All-Out Defense the gain is 1 less, against Mobile Defense or Fighting Retreat 1 more
    [impl]. A Raid winner gains nothing but cuts the loser's PB by the CRT amount (min 0).
    Mobile Defense gives the enemy 1 PB when the enemy wins with another strategy, or on a
    tie [impl]."""
    rows = [STRATEGIES[s] for s in strategies]
    if winner is None:
        for i in (0, 1):
            if rows[i].enemy_pb_on_tie:
                return balance_pb(pb, 1 - i, rows[i].enemy_pb_on_tie), "tie_mobile_defense"
        return list(pb), "none"
    loser = 1 - winner
    if rows[winner].gains_pb:
        return balance_pb(pb, winner, crt_pb + rows[loser].enemy_pb_shift), "attack"
    if rows[winner].reduces_enemy_pb:
        result = list(pb)
        result[loser] = max(0, pb[loser] - crt_pb)
        return result, "raid"
    if rows[loser].enemy_pb_even_without_attack:
        return balance_pb(pb, winner, rows[loser].enemy_pb_even_without_attack), "mobile_defense"
    return list(pb), "none"


def leaves_field(strategy: str, own: int, winner: int | None, fought: bool) -> bool:
    """§A.6.6 [impl]: Full Retreat always leaves; Fighting Retreat when it wins or ties; any
    Retreat leaves when the pairing meant no battle."""
    row = STRATEGIES[strategy]
    if row.group != RETREAT:
        return False
    if not fought or row.leaves == "always":
        return True
    return winner in (own, None)


# --- characters ----------------------------------------------------------------------------------


def risk_problem(risk: Any) -> Problem | None:
    """§A.6.2: Risk is a whole number from −3 to +3."""
    low, high = RISK_RANGE
    if isinstance(risk, bool) or not isinstance(risk, int) or not low <= risk <= high:
        return Problem("gurps4e.risk.out_of_range", {"risk": risk, "min": low, "max": high})
    return None


def character_terms(
    *, risk: int, fanatic: bool, support_or_logistics: bool, several_elements: bool
) -> Terms:
    """§A.6.2, §A.6.5: the modifiers shared by heroism and misfortune rolls."""
    terms: Terms = []
    if risk:
        terms.append(("risk", risk))
    if fanatic:
        terms.append(("fanatic_or_impetuous", 1))
    if support_or_logistics and several_elements:
        terms.append(("support_or_logistics", -1))
    return terms


def significant_action_terms(*, skill_15: bool, commands_element: bool, **shared: Any) -> Terms:
    """§A.6.2: 3d6 vs 5 + Risk, +1 for a skill at 15+ (or useful ability), +1 commanding an
    element, +1 Fanatic/Impetuous, −1 support element or logistics when several elements
    fight."""
    terms: Terms = [("significant.base", SIGNIFICANT_ACTION_BASE)]
    terms += character_terms(**shared)
    if skill_15:
        terms.append(("skill_15", 1))
    if commands_element:
        terms.append(("commands_element", 1))
    return terms


def significant_action_effect(degree_code: str) -> int:
    """§A.6.2: critical success +2, success +1, failure 0, critical failure −1."""
    return SIGNIFICANT_ACTION_EFFECT[degree_code]


def misfortune_chance(casualties: int) -> int | None:
    """§A.6.5: the chance by this round's casualties: 5 % → 5, 10-15 % → 6, 20-25 % → 7,
    30-35 % → 8, 40 %+ → 9; none at 0 % [inferred]; between bands the lower one [inferred]."""
    if casualties <= 0:
        return None
    for at_least, chance in MISFORTUNE_CHANCE:
        if casualties >= at_least:
            return chance
    return MISFORTUNE_CHANCE[-1][1]


def misfortune_terms(chance: int, *, desperate: bool, **shared: Any) -> Terms:
    """§A.6.5: chance + Risk, +1 Desperate, +1 Fanatic/Impetuous, −1 support/logistics."""
    terms: Terms = [("misfortune.chance", chance)]
    terms += character_terms(**shared)
    if desperate:
        terms.append(("desperate", 1))
    return terms
