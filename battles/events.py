"""Battle event codes as sentences in the page's language, worded by the battle's rule system
(its board plugin's `event_texts`, `event_params` and `event_line`)."""

from .plugins import BoardPlugin, plugin_for


def _system_text(plugin: BoardPlugin, code: str, params: dict, names: dict[str, str]):
    """The sentence of `event_texts` for the event (None: the plugin has none for it)."""
    if code not in plugin.event_texts:
        return None
    if plugin.event_params is not None:
        shown = plugin.event_params(code, params, names)
    else:
        shown = {key: names.get(value, value) if isinstance(value, str) else value
                 for key, value in params.items()}  # fmt: skip
    try:
        return str(plugin.event_texts[code]) % shown
    except (KeyError, TypeError, ValueError):
        return code


def event_text(code: str, params: dict, names: dict[str, str], system: str) -> str:
    """A sentence for one event of a battle of `system` ("" for bookkeeping events the log
    leaves out)."""
    plugin = plugin_for(system)
    text = _system_text(plugin, code, params, names)
    if text is not None:
        return text
    if code in plugin.silent_events:
        return ""
    if plugin.event_line is not None:
        return plugin.event_line(code, params, names)
    return code
