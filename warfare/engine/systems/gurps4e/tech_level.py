"""Element TS at a higher TL (gurps §A.2.1).

Entries marked `*` in the element tables double their TS for each TL above the listed one
(e.g. Light Artillery TS (1) at TL2, (2) at TL3, (4) at TL4, (8) at TL5); other entries keep
their TS whatever the TL.
"""

from fractions import Fraction


def ts_at_tl(base_ts: Fraction | int, listed_tl: int, tl: int | None, doubles: bool) -> Fraction:
    """TS of one element of a type listed at `listed_tl` with `base_ts`, fielded at `tl`
    (None: the listed TL). Only `*` types (`doubles`) change; a TL below the listed one is
    not an option of the tables and keeps the listed TS."""
    base = Fraction(base_ts)
    if not doubles or tl is None or tl <= listed_tl:
        return base
    return base * 2 ** (tl - listed_tl)
