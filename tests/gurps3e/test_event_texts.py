"""Every event a GURPS 3e battle can produce reads as a sentence in English and Russian
(no event code, no unfilled %(param)s), whatever the dice: a property test over random
battles played by the pure engine."""

import pytest
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from warfare.engine.battle.protocol import Command, command_dice
from warfare.engine.systems.gurps3e.battle import SYSTEM
from warfare.systems.gurps3e.log import EVENT_TEXTS, event_params

SETUP = {
    "sides": [
        {"key": "a", "role": "attacker", "tl": 3, "strategy": 14,
         "units": [{"key": "u1", "troop_type": "t", "men": 100, "ts_per_man": 4,
                    "armour": "heavy", "quality": "veteran"},
                   {"key": "u2", "troop_type": "t", "men": 40, "ts_per_man": 2}]},
        {"key": "b", "role": "defender", "tl": 3, "strategy": 12,
         "defensive": [{"code": "castle"}],
         "units": [{"key": "u3", "troop_type": "t", "men": 200, "ts_per_man": 3, "morale": 9}]},
    ],
    "pcs": [
        {"key": "p1", "side": "a", "ht": 12, "tactics": 13, "weapon_skill": 14, "luck": 1,
         "role": "unit_commander", "reputation": [{"value": 1, "expires": 3}]},
        {"key": "p2", "side": "b", "ht": 10, "weapon_skill": 12, "role": "army_commander"},
    ],
    "days": 3,
}  # fmt: skip
NAMES = {"a": "Side A", "b": "Side B", "u1": "Pikes", "u2": "Archers", "u3": "Orcs",
         "p1": "Aldric", "p2": "Grask"}  # fmt: skip


def _play(seed: int, risks: list[int], luck: bool):
    """Every event of a battle played to its end (or three days) with these Risks."""
    state = SYSTEM.start(SETUP, seed)
    events = list(SYSTEM.start_events(state))
    gm = Command(None, "gm_modifiers", {"side": "b", "catastrophe": -1, "intensity": 1})
    state, new = SYSTEM.apply(state, gm, command_dice(seed, 0))
    events += new
    for index in range(1, 20):
        actors = [*state.sides, "p1", "p2"]
        moves = [(a, spec) for a in actors for spec in SYSTEM.legal_actions(state, a)]
        if not moves:
            break
        actor, spec = moves[0]
        params = {}
        if spec.key == "choose_risk":
            allowed = [option.params["risk"] for option in spec.options]
            params = {"risk": allowed[risks[index % len(risks)] % len(allowed)]}
            if luck and spec.optional_params:
                params["use_luck"] = True
        result = SYSTEM.apply(state, Command(actor, spec.key, params), command_dice(seed, index))
        state, new = result
        events += new
    return events


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**62),
    risks=st.lists(st.integers(min_value=0, max_value=12), min_size=1, max_size=4),
    luck=st.booleans(),
)
@pytest.mark.parametrize("language", ["en", "ru"])
def test_every_event_reads_as_a_sentence(language, seed, risks, luck):
    events = _play(seed, risks, luck)
    codes = {event.code for event in events}
    assert {"pc.survival", "pc.glory", "battle.strategy_contest", "battle.casualties"} <= codes
    with translation.override(language):
        for event in events:
            assert event.code in EVENT_TEXTS, event.code
            text = str(EVENT_TEXTS[event.code]) % event_params(event.code, event.params, NAMES)
            assert "%(" not in text and "{" not in text, text
            for key in ("p1", "p2", "u1", "u3"):
                assert f" {key} " not in f" {text} ", text
            if language == "ru":
                for english in (" vs ", "made by", "missed by", " wins", "routed", "Luck", " men"):
                    assert english not in text, text


def test_morale_rolls_show_their_dice_skill_and_margin():
    """gurps §B.8.3: each unit's Morale roll reads as the other 3d6 rolls do: the dice (typed
    ones marked), the Morale it was rolled against and the margin (it read "Foot 12/13
    made")."""
    from django.utils import translation

    from warfare.systems.gurps3e.log import EVENT_TEXTS, event_params

    params = {
        "side": "b",
        "test": "half_hold",
        "holds": True,
        "rolls": [
            {
                "unit": "u3",
                "made": True,
                "roll": {
                    "dice": [4, 4, 4],
                    "roll": 12,
                    "skill": 13,
                    "margin": 1,
                    "degree": "success",
                    "typed": 3,
                },
            }
        ],
    }
    with translation.override("en"):
        text = str(EVENT_TEXTS["battle.morale"]) % event_params(
            "battle.morale", params, {"b": "Side B", "u3": "Foot"}
        )
    assert "Foot 3d6 12 (4+4+4 (typed at the table)) vs 13, made by 1" in text
