"""One battle round (gurps §A.6.2-A.6.6)."""

import pytest

from warfare.engine.problems import codes
from warfare.engine.systems.gurps4e.rounds import (
    adjusted_margin,
    apply_casualties,
    balance_pb,
    desperate_allowed,
    leaves_field,
    misfortune_chance,
    misfortune_terms,
    pair,
    position_bonus,
    risk_problem,
    round_casualties,
    significant_action_effect,
    significant_action_terms,
    skill_terms,
    slow_change_side,
    strategy_problems,
)

BASE = {"round_no": 1, "encounter": False, "mobile": False, "confused": False,
        "started_confused": False, "ambusher": False, "db": 0}  # fmt: skip


def _problems(key, **changes):
    return codes(strategy_problems(key, **{**BASE, **changes}))


def test_confused_force_may_only_rally_or_fully_retreat():
    """gurps §A.6.3: a confused force must choose Rally or Full Retreat; Rally only if
    confused."""
    assert _problems("attack", confused=True) == ["gurps4e.strategy.confused"]
    assert _problems("rally", confused=True) == []
    assert _problems("full_retreat", confused=True) == []
    assert _problems("rally") == ["gurps4e.strategy.not_confused"]


def test_encounter_battle_restrictions():
    """gurps §A.6.3: encounter battle: no Deliberate Attack/Defense; a mobile force in round 1
    may use no Retreat nor any Defense strategy but Mobile Defense."""
    assert "gurps4e.strategy.encounter_battle" in _problems("deliberate_attack", encounter=True)
    for key in ("defense", "all_out_defense", "fighting_retreat", "full_retreat", "parley"):
        assert _problems(key, encounter=True, mobile=True) == [
            "gurps4e.strategy.mobile_first_round"
        ]
    assert _problems("mobile_defense", encounter=True, mobile=True) == []
    assert _problems("defense", encounter=True, mobile=True, round_no=2) == []
    assert _problems("defense", encounter=True, mobile=False) == []
    # [inferred] a confused mobile force still has Rally and Full Retreat
    assert _problems("rally", encounter=True, mobile=True, confused=True) == []
    assert _problems("full_retreat", encounter=True, mobile=True, confused=True) == []


def test_ambusher_may_not_defend_in_round_one():
    """gurps §A.6.3: the ambusher may use any strategy except Defense ones in round 1."""
    assert _problems("defense", ambusher=True) == ["gurps4e.strategy.ambusher_first_round"]
    assert _problems("attack", ambusher=True) == []
    assert _problems("defense", ambusher=True, round_no=2) == []


def test_deliberate_attack_and_defense_conditions():
    """gurps §A.6.3 [impl]: Deliberate Attack not by a force that began confused; Deliberate
    Defense only with DB > 0 in round 1 or a siege."""
    assert _problems("deliberate_attack", started_confused=True) == [
        "gurps4e.strategy.started_confused"]  # fmt: skip
    assert _problems("deliberate_defense") == ["gurps4e.strategy.needs_db_first_round"]
    assert _problems("deliberate_defense", db=2) == []
    assert _problems("deliberate_defense", db=2, round_no=2) == [
        "gurps4e.strategy.needs_db_first_round"]  # fmt: skip
    assert _problems("deliberate_defense", db=2, round_no=2, siege=True) == []


@pytest.mark.parametrize(("own", "enemy", "allowed"), [(35, 10, True), (34, 10, False),
                                                       (25, 0, True)])  # fmt: skip
def test_desperate_needs_25_points_more_casualties(own, enemy, allowed):
    """gurps §A.6.3 [impl]: casualties ≥ enemy's + 25 points."""
    assert desperate_allowed(own, enemy) is allowed
    problems = _problems("attack", desperate=True, casualties=own, enemy_casualties=enemy)
    assert (problems == []) is allowed


@pytest.mark.parametrize("key", ["deliberate_attack", "deliberate_defense", "skirmish"])
def test_desperate_not_with_deliberate_or_skirmish(key):
    """gurps §A.6.3 [impl]: not with Deliberate Attack, Deliberate Defense or Skirmish."""
    problems = _problems(key, desperate=True, casualties=50, db=1)
    assert "gurps4e.strategy.not_desperate" in problems


def test_unknown_strategy_is_a_problem():
    """gurps §A.6.3: only the table's strategies exist."""
    assert _problems("charge") == ["gurps4e.strategy.unknown"]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [("defense", "all_out_defense", ("skirmish", "skirmish", True)),
     ("rally", "mobile_defense", ("skirmish", "skirmish", True)),
     ("deliberate_defense", "defense", ("skirmish", "skirmish", True)),
     ("full_retreat", "defense", ("full_retreat", "defense", False)),
     ("rally", "fighting_retreat", ("rally", "fighting_retreat", False)),
     ("full_retreat", "fighting_retreat", ("full_retreat", "fighting_retreat", False)),
     ("full_retreat", "attack", ("full_retreat", "attack", True)),
     ("parley", "fighting_retreat", ("parley", "fighting_retreat", True)),
     ("attack", "defense", ("attack", "defense", True))],
)  # fmt: skip
def test_pairing_rules(first, second, expected):
    """gurps §A.6.3 pairing [impl]: Defense vs Defense -> both Skirmish; Retreat vs Retreat or
    Defense -> no battle."""
    assert pair(first, second) == expected


def test_slow_strategy_lets_the_other_side_change_once():
    """gurps §A.6.3 [impl]: exactly one slow strategy (Deliberate Attack/Defense, refused
    Parley) -> the other side may change."""
    assert slow_change_side("deliberate_attack", "attack") == 1
    assert slow_change_side("attack", "deliberate_defense") == 0
    assert slow_change_side("deliberate_attack", "deliberate_defense") is None
    assert slow_change_side("attack", "attack") is None
    assert slow_change_side("defense", "attack", refused_parley=0) == 1


def _skill(**changes):
    args = {"skill": ("skill.strategy", 14), "bsm": [("bsm.relative_ts", 2)],
            "strategy": "attack", "enemy_strategy": "attack", "superiorities": {}, "db": 0,
            "db_any_strategy": False, "risk": 0, "significant": 0, "desperate": False,
            "parley_refused": False, "confused": False, "previous": None, "pb": 0,
            "circumstance": 0}  # fmt: skip
    return skill_terms(**{**args, **changes})


def test_strategy_roll_full_breakdown():
    """gurps §A.6.4: skill + BSM + DB (Defense only) + Risk + significant actions + strategy
    modifier + superiority +1s + Desperate + PB + special circumstances."""
    terms = _skill(strategy="defense", db=3, risk=2, significant=3, desperate=True, pb=2,
                   circumstance=-1)  # fmt: skip
    assert terms == [("skill.strategy", 14), ("bsm.relative_ts", 2), ("db", 3), ("risk", 2),
                     ("significant_actions", 3), ("strategy.defense", 1), ("desperate", 4),
                     ("pb", 2), ("gm_circumstance", -1)]  # fmt: skip
    assert sum(v for _, v in terms) == 30


def test_db_only_with_defense_strategies_and_halved_by_deliberate_attack():
    """gurps §A.5.4: DB only with Defense strategies; Deliberate Attack halves it, rounding up
    [impl]; an ambusher adds it with any strategy [inferred]."""
    assert ("db", 3) not in _skill(db=3)
    assert ("db.halved", 2) in _skill(strategy="defense", db=3, enemy_strategy="deliberate_attack")
    assert ("db", 3) in _skill(db=3, db_any_strategy=True)


def test_strategy_specific_modifiers():
    """gurps §A.6.3-4 [impl]: Parley refused −1, confused Full Retreat −2, repeated Indirect
    Attack −2, Deliberate Attack +1 with Art superiority."""
    assert ("parley_refused", -1) in _skill(strategy="defense", parley_refused=True)
    assert ("confused_retreat", -2) in _skill(strategy="full_retreat", confused=True)
    assert ("confused_retreat", -2) not in _skill(strategy="full_retreat")
    assert ("repeated", -2) in _skill(strategy="indirect_attack", previous="indirect_attack")
    assert ("repeated", -2) not in _skill(strategy="indirect_attack", previous="attack")
    terms = _skill(strategy="deliberate_attack", superiorities={"Art": 2})
    assert ("strategy_superiority.Art", 1) in terms
    assert ("strategy.deliberate_attack", 1) in terms


@pytest.mark.parametrize(
    ("margin", "strategy", "uses", "expected"),
    [(3, "indirect_attack", 0, 6), (3, "indirect_attack", 1, 5), (4, "indirect_attack", 2, 6),
     (5, "skirmish", 0, 2), (1, "skirmish", 0, 0), (5, "attack", 0, 5)],
)  # fmt: skip
def test_margin_adjustments(margin, strategy, uses, expected):
    """gurps §A.6.4 [impl]: Indirect Attack winner ×2 first use, ×1.5 up later; Skirmish ÷2."""
    assert adjusted_margin(margin, strategy, uses)[0] == expected


def _cas(a, b, winner, margin, desperate=(False, False), raid=(True, True)):
    return round_casualties((a, b), winner, margin, desperate, raid)


def test_casualties_plain_attack_follow_the_crt():
    """gurps §A.6.4 CRT: margin 5 -> loser 20 %, winner 10 %; tie 10/10."""
    assert _cas("attack", "attack", 0, 5)["casualties"] == [10, 20]
    assert _cas("attack", "defense", None, 0)["casualties"] == [10, 10]


def test_all_out_attack_doubles_own_and_adds_five_to_the_enemy_on_a_win():
    """gurps §A.6.3 [impl]: All-Out Attack own ×2; winning adds +5 % to the enemy."""
    assert _cas("all_out_attack", "attack", 0, 2)["casualties"] == [20, 20]
    assert _cas("all_out_attack", "attack", 1, 2)["casualties"] == [30, 10]


def test_all_out_defense_doubles_own():
    """gurps §A.6.3 [impl]: All-Out Defense own ×2."""
    assert _cas("attack", "all_out_defense", 0, 8)["casualties"] == [5, 50]


def test_deliberate_defense_adds_five_on_a_win_or_tie():
    """gurps §A.6.3 [impl]: Deliberate Defense winner or tie: enemy +5 %."""
    assert _cas("attack", "deliberate_defense", None, 0)["casualties"] == [15, 10]
    assert _cas("attack", "deliberate_defense", 1, 1)["casualties"] == [20, 10]
    assert _cas("attack", "deliberate_defense", 0, 1)["casualties"] == [10, 15]


def test_skirmish_and_mobile_defense_reduce_own_casualties():
    """gurps §A.6.3 [impl]: Skirmish own −5 %; Mobile Defense −5 % on a loss or tie; min 0."""
    assert _cas("skirmish", "attack", 1, 20)["casualties"] == [35, 0]
    assert _cas("skirmish", "attack", 0, 20)["casualties"] == [0, 40]
    assert _cas("attack", "mobile_defense", 0, 2)["casualties"] == [10, 10]
    assert _cas("attack", "mobile_defense", 1, 2)["casualties"] == [15, 10]


def test_fighting_retreat_halves_the_enemy_and_shares_a_loss_with_logistics():
    """gurps §A.6.3 [impl]: enemy casualties halved (round down); on a loss its casualty %
    also hits its logistics."""
    lost = _cas("attack", "fighting_retreat", 0, 2)
    assert lost["casualties"] == [5, 15]
    assert lost["logistics"] == [0, 15]
    won = _cas("attack", "fighting_retreat", 1, 2)
    assert (won["casualties"], won["logistics"]) == ([7, 10], [0, 0])


def test_full_retreat_own_minus_ten_and_the_enemy_takes_none():
    """gurps §A.6.3 [impl]: own −10 % (min 0), enemy none, logistics share always."""
    result = _cas("all_out_attack", "full_retreat", 0, 12)  # 30 + 5 (All-Out win) - 10
    assert result["casualties"] == [0, 25]
    assert result["logistics"] == [0, 25]
    assert _cas("attack", "full_retreat", 1, 12)["casualties"] == [0, 0]


def test_desperate_adds_ten_percent_own_casualties():
    """gurps §A.6.3 [impl]: Desperate +10 % own casualties, after the other adjustments."""
    assert _cas("attack", "attack", 1, 4, desperate=(True, False))["casualties"] == [30, 10]


def test_winning_raid_moves_casualties_to_the_enemy_logistics():
    """gurps §A.6.3 [impl]: a winning raider may inflict the loser's casualties on its
    logistics, not on a Desperate loser."""
    result = _cas("raid", "attack", 0, 4)
    assert (result["casualties"], result["logistics"]) == ([10, 0], [0, 20])
    assert _cas("raid", "attack", 0, 4, raid=(False, True))["casualties"] == [10, 20]
    assert _cas("raid", "attack", 0, 4, desperate=(False, True))["casualties"] == [10, 30]


def test_cumulative_casualties_never_exceed_100():
    """gurps §A.6.6: casualties stop at 100 %."""
    assert apply_casualties(90, 40) == 100
    assert apply_casualties(10, 0) == 10


def test_pb_balance_only_one_side_holds_it():
    """gurps §A.6.4 [impl]: balance = PB_w − PB_l + shift."""
    assert balance_pb((0, 0), 0, 3) == [3, 0]
    assert balance_pb((0, 2), 0, 3) == [1, 0]
    assert balance_pb((0, 4), 0, 3) == [0, 1]
    assert balance_pb((0, 3), 0, 3) == [0, 0]


def test_attack_winner_gains_pb_with_the_strategy_adjustments():
    """gurps §A.6.4 [impl]: Attack winner gains the CRT PB; vs All-Out Defense −1; vs Mobile
    Defense or Fighting Retreat +1."""
    assert position_bonus((0, 0), ("attack", "attack"), 0, 3) == ([3, 0], "attack")
    assert position_bonus((0, 2), ("attack", "attack"), 0, 1) == ([0, 1], "attack")
    assert position_bonus((0, 0), ("attack", "all_out_defense"), 0, 2)[0] == [1, 0]
    assert position_bonus((0, 0), ("attack", "mobile_defense"), 0, 2)[0] == [3, 0]
    assert position_bonus((0, 0), ("attack", "fighting_retreat"), 0, 2)[0] == [3, 0]


def test_non_attack_winners_and_ties():
    """gurps §A.6.4 [impl]: a Defense winner gains nothing; a Raid winner cuts the loser's PB
    (min 0); Mobile Defense gives the enemy 1 PB when the enemy wins or ties."""
    assert position_bonus((0, 2), ("defense", "attack"), 0, 2) == ([0, 2], "none")
    assert position_bonus((0, 3), ("raid", "attack"), 0, 2) == ([0, 1], "raid")
    assert position_bonus((0, 1), ("raid", "attack"), 0, 4) == ([0, 0], "raid")
    assert position_bonus((0, 0), ("skirmish", "mobile_defense"), 0, 2)[0] == [1, 0]
    assert position_bonus((0, 0), ("attack", "mobile_defense"), None, 0)[0] == [1, 0]
    assert position_bonus((2, 0), ("attack", "attack"), None, 0) == ([2, 0], "none")


@pytest.mark.parametrize(("strategy", "own", "winner", "fought", "leaves"), [
    ("full_retreat", 0, 1, True, True), ("fighting_retreat", 0, 0, True, True),
    ("fighting_retreat", 0, None, True, True), ("fighting_retreat", 0, 1, True, False),
    ("fighting_retreat", 0, None, False, True), ("attack", 0, 0, True, False)])  # fmt: skip
def test_leaving_the_field(strategy, own, winner, fought, leaves):
    """gurps §A.6.6 [impl]: Full Retreat always; Fighting Retreat on a win or tie."""
    assert leaves_field(strategy, own, winner, fought) is leaves


@pytest.mark.parametrize(
    ("casualties", "chance"),
    [(0, None), (5, 5), (7, 5), (10, 6), (15, 6), (20, 7), (25, 7), (30, 8), (35, 8), (40, 9),
     (80, 9)],
)  # fmt: skip
def test_misfortune_chances(casualties, chance):
    """gurps §A.6.5: 5 % → 5, 10-15 % → 6, 20-25 % → 7, 30-35 % → 8, 40 %+ → 9."""
    assert misfortune_chance(casualties) == chance


def test_misfortune_and_significant_action_modifiers():
    """gurps §A.6.2, §A.6.5: Risk; +1 Fanatic/Impetuous; −1 support/logistics when several
    elements fight; misfortune +1 Desperate; heroism base 5, +1 skill 15+, +1 commanding."""
    shared = {"risk": 2, "fanatic": True, "support_or_logistics": True, "several_elements": True}
    assert sum(v for _, v in misfortune_terms(7, desperate=True, **shared)) == 7 + 2 + 1 - 1 + 1
    heroism = significant_action_terms(skill_15=True, commands_element=True, **shared)
    assert sum(v for _, v in heroism) == 5 + 2 + 1 - 1 + 1 + 1
    alone = {**shared, "several_elements": False}
    assert ("support_or_logistics", -1) not in misfortune_terms(5, desperate=False, **alone)


@pytest.mark.parametrize(
    ("degree", "effect"),
    [("critical_success", 2), ("success", 1), ("failure", 0), ("critical_failure", -1)],
)
def test_significant_action_effects(degree, effect):
    """gurps §A.6.2: crit +2, success +1, failure 0, crit failure −1."""
    assert significant_action_effect(degree) == effect


@pytest.mark.parametrize(("risk", "ok"), [(-3, True), (3, True), (4, False), (-4, False),
                                          ("1", False), (True, False)])  # fmt: skip
def test_risk_range(risk, ok):
    """gurps §A.6.2: Risk −3 … +3."""
    assert (risk_problem(risk) is None) is ok
