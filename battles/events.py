"""Battle event codes as sentences in the page's language."""

from django.utils.translation import gettext_lazy as _

from warfare.events import log_text

BATTLE_TEXTS = {
    "battle.started": _("The battle begins."),
    "battle.round_started": _("Round %(round)s begins."),
}


def event_text(code: str, params: dict, names: dict[str, str]) -> str:
    shown = dict(params)
    for key in ("army", "target", "actor", "by"):
        if isinstance(shown.get(key), str) and shown[key] in names:
            shown[key] = names[shown[key]]
    shown.setdefault("army_name", shown.get("army", ""))
    template = BATTLE_TEXTS.get(code)
    if template is not None:
        try:
            return str(template) % shown
        except (KeyError, TypeError, ValueError):
            return code
    text = log_text(code, shown)
    if text != code:
        return text
    details = ", ".join(
        f"{key} {value}" for key, value in shown.items()
        if key not in {"check", "army_name"} and not isinstance(value, dict | list)
    )  # fmt: skip
    return f"{code}: {details}" if details else code
