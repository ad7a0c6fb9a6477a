"""Exact odds of the checks the engines roll, for auto-play policies and previews.

* `d20_odds(modifier, dc)`: the chance of each PF2e degree of success of d20 + modifier vs
  DC (pf2e §0.1: ±10 around the DC, a natural 20 one step better, a natural 1 one worse),
  as `checks.degree_of_success` decides it;
* `THREE_D6`: the distribution of a 3d6 roll; `success_odds(skill)` the chance of each degree
  of a GURPS success roll (`checks.gurps_degree`); `margin_odds(skill)` the distribution of
  its margin (skill - roll).

All exact fractions turned into floats; cached, so a policy can ask them freely.
"""

from functools import lru_cache
from itertools import product

from warfare.engine.checks import Degree, degree_of_success, gurps_degree

Odds = tuple[float, float, float, float]
"""Chances indexed by `Degree`: (critical failure, failure, success, critical success)."""


@lru_cache(maxsize=256)
def _d20_odds(difference: int) -> Odds:
    counts = [0, 0, 0, 0]
    for die in range(1, 21):
        counts[degree_of_success(die + difference, 0, die)] += 1
    return (counts[0] / 20, counts[1] / 20, counts[2] / 20, counts[3] / 20)


def d20_odds(modifier: int, dc: int) -> Odds:
    """The chance of each degree of a PF2e check: d20 + `modifier` against `dc`."""
    return _d20_odds(modifier - dc)


THREE_D6: dict[int, float] = {}
for _faces in product(range(1, 7), repeat=3):
    THREE_D6[sum(_faces)] = THREE_D6.get(sum(_faces), 0) + 1 / 216


@lru_cache(maxsize=128)
def success_odds(skill: int) -> Odds:
    """The chance of each degree of a GURPS 3d6 success roll against effective `skill`."""
    counts = [0.0, 0.0, 0.0, 0.0]
    for roll, chance in THREE_D6.items():
        counts[gurps_degree(roll, skill)] += chance
    return (counts[0], counts[1], counts[2], counts[3])


@lru_cache(maxsize=128)
def margin_odds(skill: int) -> tuple[tuple[int, float, Degree], ...]:
    """(margin = skill - roll, chance, degree) for every 3d6 roll against `skill`."""
    return tuple(
        (skill - roll, chance, gurps_degree(roll, skill)) for roll, chance in THREE_D6.items()
    )
