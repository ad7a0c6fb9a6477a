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
