"""Stat block text as the creature form shows it, and back (no rules here).

Attacks are one line each, fields split by "|": name | to-hit | damage | damage type |
reach ft | range ft "normal/long" | count, e.g. ``Javelin | +5 | 1d6+3 | piercing | 5 | 30/120``
(reach: empty 5 ft, "-" none, a ranged-only attack; range: empty or "-" none). Saves and
speeds are "con +4, wis +2" and "walk 30, fly 60".
"""

import re

from django.core.exceptions import ValidationError
from django.utils.text import slugify
from django.utils.translation import gettext as _

from warfare.engine.dice import DiceError, parse_expr

ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
SPEED_MODES = ("walk", "fly", "swim", "climb")
_PAIR = re.compile(r"^\s*([a-z]+)\s*([+-]?\d+)\s*$")


def pairs_text(values: dict) -> str:
    return ", ".join(f"{key} {value:+d}" if key in ABILITIES else f"{key} {value}"
                     for key, value in values.items())  # fmt: skip


def parse_pairs(text: str, allowed: tuple[str, ...]) -> dict[str, int]:
    """ "con +4, wis +2" → {"con": 4, "wis": 2}; unknown names or numbers: ValidationError."""
    result: dict[str, int] = {}
    for part in filter(None, (p.strip() for p in (text or "").replace(";", ",").split(","))):
        match = _PAIR.match(part.lower())
        if not match or match.group(1) not in allowed:
            raise ValidationError(
                _("“%(part)s” is not one of %(names)s with a number.")
                % {"part": part, "names": ", ".join(allowed)}
            )
        result[match.group(1)] = int(match.group(2))
    return result


def attack_line(attack: dict) -> str:
    reach = attack.get("reach_ft")
    rng = attack.get("range_ft")
    long = attack.get("long_ft")
    fields = [
        attack.get("key", "").replace("_", " "),
        f"{int(attack['to_hit']):+d}",
        attack.get("damage", ""),
        attack.get("damage_type", ""),
        "-" if reach is None else str(reach),
        "-" if rng is None else (f"{rng}/{long}" if long else str(rng)),
    ]
    if int(attack.get("count", 1)) != 1:
        fields.append(str(attack["count"]))
    return " | ".join(fields)


def attacks_text(attacks: list[dict]) -> str:
    return "\n".join(attack_line(a) for a in attacks)


def _number(text: str, what: str) -> int | None:
    text = text.strip()
    if text in ("", "-", "—"):
        return None
    try:
        return int(text)
    except ValueError:
        raise ValidationError(_("%(what)s must be a number of feet.") % {"what": what}) from None


def parse_attacks(text: str) -> list[dict]:
    """The attack lines as engine `Attack.to_dict()` rows (see the module docstring)."""
    attacks: list[dict] = []
    for n, line in enumerate(filter(None, (ln.strip() for ln in (text or "").splitlines())), 1):
        fields = [f.strip() for f in line.split("|")]
        if len(fields) < 3:
            raise ValidationError(
                _("Attack line %(n)s: write at least name | to-hit | damage.") % {"n": n}
            )
        fields += [""] * (7 - len(fields))
        name, to_hit, damage, damage_type, reach, rng, count = fields[:7]
        key = slugify(name).replace("-", "_")
        if not key:
            raise ValidationError(_("Attack line %(n)s has no name.") % {"n": n})
        try:
            hit = int(to_hit)
        except ValueError:
            raise ValidationError(
                _("Attack line %(n)s: the to-hit must be a number such as +5.") % {"n": n}
            ) from None
        try:
            parse_expr(damage)
        except DiceError:
            raise ValidationError(
                _("Attack line %(n)s: “%(damage)s” is not a dice expression such as 1d8+2.")
                % {"n": n, "damage": damage}
            ) from None
        normal, long = rng, ""
        if "/" in rng:
            normal, long = rng.split("/", 1)
        reach_ft = 5 if reach == "" else _number(reach, _("Reach"))
        range_ft = _number(normal, _("Range"))
        if reach_ft is None and range_ft is None:
            raise ValidationError(
                _("Attack line %(n)s needs a reach (melee) or a range.") % {"n": n}
            )
        try:
            times = int(count or 1)
        except ValueError:
            raise ValidationError(
                _("Attack line %(n)s: the count must be a number.") % {"n": n}
            ) from None
        attacks.append({
            "key": key, "to_hit": hit, "damage": damage.replace(" ", ""),
            "damage_type": damage_type.lower(), "reach_ft": reach_ft, "range_ft": range_ft,
            "long_ft": _number(long, _("Long range")) if range_ft is not None else None,
            "count": max(1, times),
        })  # fmt: skip
    if len({a["key"] for a in attacks}) != len(attacks):
        raise ValidationError(_("Two attacks have the same name."))
    return attacks
