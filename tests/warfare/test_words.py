"""`warfare.words.per_language`: fixed words made once per page language and process."""

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from warfare.words import per_language

LABEL = gettext_lazy("Battle log")


def test_the_words_are_made_once_per_language_and_in_it():
    made = []

    @per_language
    def words() -> dict:
        made.append(translation.get_language())
        return {"label": str(LABEL)}

    with translation.override("en"):
        english = words()
        assert words() is english and english == {"label": "Battle log"}
    with translation.override("ru"):
        russian = words()
        assert russian["label"] == gettext("Battle log") != "Battle log"
        assert words() is russian
    with translation.override("en"):
        assert words() is english
    assert made == ["en", "ru"]
    assert words.__name__ == "words"


def test_a_language_given_is_the_one_worded():
    @per_language
    def words() -> str:
        return str(LABEL)

    with translation.override("en"):
        assert words("ru") == gettext_russian("Battle log")  # (worded in the one named)
        assert words() == "Battle log"
        assert words("ru") is words("ru")


def gettext_russian(message: str) -> str:
    with translation.override("ru"):
        return gettext(message)


def test_a_tables_entries_are_worded_once_per_language_and_table():
    from warfare.words import worded

    table = {"attacker": gettext_lazy("Battle log")}
    with translation.override("en"):
        assert worded(table, "attacker") == "Battle log"
        assert worded(table, "attacker", language="ru") == gettext_russian("Battle log")
        assert worded(table, "missing") == "missing"
        assert worded(table, "missing", "—") == "—"
        other = {"attacker": "Other"}  # (another table, never the first one's entry)
        assert worded(other, "attacker") == "Other"
    with translation.override("ru"):
        assert worded(table, "attacker") == gettext_russian("Battle log")
