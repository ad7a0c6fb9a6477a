"""The one table of GURPS 3e house defaults (gurps Part B tags [inferred], [gap],
[unverified], [rp30-ru])."""

from warfare.engine.house import Tag
from warfare.engine.systems.gurps3e.house_rules import HOUSE_DEFAULTS, house_value


def test_every_house_default_has_a_tag_a_section_and_a_unique_key():
    """Each entry names its tag and the section of gurps Part B (or §0) it comes from."""
    keys = [entry.key for entry in HOUSE_DEFAULTS]
    assert len(keys) == len(set(keys))
    for entry in HOUSE_DEFAULTS:
        assert isinstance(entry.tag, Tag) and entry.tag not in (Tag.IMPL, Tag.DISCREPANCY)
        assert entry.source.startswith("gurps §") and entry.note
        assert isinstance(entry.value, int) and not isinstance(entry.value, bool)


def test_the_casualty_fallback_is_labelled_as_not_a_3e_rule():
    """gurps §B.8: the 4e-table casualties are a clearly labelled house default."""
    fallback = [e for e in HOUSE_DEFAULTS if e.key.startswith("casualties.crt.")]
    assert len(fallback) == 14
    assert all("Not a 3e rule" in entry.note for entry in fallback)
    assert house_value("casualties.crt.20_plus.loser") == 40
