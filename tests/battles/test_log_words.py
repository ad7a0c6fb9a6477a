"""Pathfinder battle sentences name things, never keys (issue 15): every temporary effect the
engine creates reads as words and says until when, an effect ending twice at once is one
line, every refusal of the battle engine is a sentence (no "battle.gm.bad_hp")."""

import re
from pathlib import Path

import pytest
from django.utils import translation

from tests.engine.battle.helpers import army, begin, run
from warfare.engine.problems import Problem
from warfare.engine.systems.pf2e.battle import actions, engine, reactions, rules
from warfare.engine.systems.pf2e.battle.actions import ADAPTABILITY_EFFECTS
from warfare.messages import MESSAGES, problem_message
from warfare.systems.pf2e.board_problems import MESSAGES as SETUP_MESSAGES
from warfare.systems.pf2e.log import event_text

SNAKE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
MODULES = (actions, engine, reactions, rules)
NAMES = {"a1": "Militia", "b1": "Raiders"}


def _sources() -> str:
    return "\n".join(Path(module.__file__).read_text(encoding="utf-8") for module in MODULES)


def _effect_conditions() -> set[str]:
    """The conditions of every Effect the engine makes (third argument), and the effects of
    Battlefield Adaptability (§6.2), False Retreat's no reactions (§8.2) and Primal Magic."""
    source = _sources()
    found = set(re.findall(r'(?:_effect|Effect)\(\s*[^,()]+,\s*[^,()]+,\s*"([a-z_]+)"', source))
    return found | set(ADAPTABILITY_EFFECTS.values()) | {"no_reactions", "sensory_assault"}


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_temporary_effect_reads_as_words_with_its_end(language):
    """pf2e §8.1-§8.2, §6.2: "Militia: +2 AC against Raiders (Guard), until the start of
    Militia's next turn." (it read "guarded 2 for a while", "attack_bonus 2 for a while")."""
    conditions = _effect_conditions()
    assert {"guarded", "attack_bonus", "netted", "no_maneuver_reactions"} <= conditions
    with translation.override(language):
        for condition in sorted(conditions):
            for boundary in ("turn_start", "turn_end", "next_strike", "encounter"):
                params = {"code": "guard.success", "army": "a1", "condition": condition,
                          "value": 2, "by": "b1", "against": "b1", "boundary": boundary,
                          "owner": "a1", "remaining": 1}  # fmt: skip
                for code in ("battle.effect_started", "battle.effect_ended"):
                    text = event_text(code, params, NAMES)
                    assert not SNAKE.findall(text), text
                    assert "Raiders" in text and "Militia" in text, text
    with translation.override("en"):
        guard = {"code": "guard.success", "army": "a1", "condition": "guarded", "value": 2,
                 "by": None, "against": "b1", "boundary": "turn_start", "owner": "a1",
                 "remaining": 1}  # fmt: skip
        assert event_text("battle.effect_started", guard, NAMES) == (
            "Militia: +2 AC against Raiders (Guard), until the start of Militia's next turn."
        )


def test_two_guards_ending_together_are_one_line():
    """pf2e §8.1 Guard twice in a turn against the same army: both end at the start of its
    next turn; the log says so once (it said "guarded ends." twice)."""
    state = begin([army("a1", level=5)], [army("b1")], order=["a1", "b1"])
    state, _, _ = run(state, "gm_correction", army="a1", engage=["b1"])
    state, _, _ = run(state, "guard", [15], target="b1")
    state, _, _ = run(state, "guard", [15], target="b1")
    assert [e.condition for e in state.effects] == ["guarded", "guarded"]
    state, _, _ = run(state, "end_turn")
    state, events, _ = run(state, "end_turn")
    ended = [e for e in events if e.code == "battle.effect_ended"]
    assert len(ended) == 1 and not state.effects


@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_refusal_of_the_battle_engine_is_a_sentence(language):
    """Every problem code of the Pathfinder battle engine has its sentence (the GM read
    "Not allowed by the rules (battle.gm.bad_hp)."); none shows a code."""
    codes = {f"battle.{code}" for code in re.findall(r'_p\(\s*"([a-z_.]+)"', _sources())}
    assert "battle.gm.bad_hp" in codes and len(codes) > 60
    missing = sorted(c for c in codes if c not in MESSAGES and c not in SETUP_MESSAGES)
    assert missing == []
    with translation.override(language):
        text = problem_message(Problem("battle.gm.bad_hp", {"hp": 9, "max_hp": 4}))
        assert "4" in text and "battle" not in text
        assert "battle." not in problem_message(Problem("battle.no_such_code", {}))


def test_an_enemys_initiative_reads_as_its_die_alone():
    """pf2e §7.3 step 1: a player sees the enemy's initiative die (typed ones marked), not
    its modifier: the sentence is still a sentence (it fell back to "battle.initiative")."""
    with translation.override("en"):
        mine = {"army": "a1", "die": 12, "source": "seeded", "modifier": 5, "total": 17}
        assert event_text("battle.initiative", mine, NAMES) == (
            "Militia: initiative d20 12 + 5 = 17.")  # fmt: skip
        theirs = {"army": "b1", "die": 12, "source": "typed"}
        assert event_text("battle.initiative", theirs, NAMES) == (
            "Raiders: initiative d20 12 (typed at the table).")  # fmt: skip
