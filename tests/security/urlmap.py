"""Every URL name of the site with the keyword arguments its pattern takes, from the resolver:
a new page is found here the day it is added, so the permission matrix cannot forget it."""

from django.urls import URLPattern, URLResolver, get_resolver

#: Django's admin has its own permission system (staff only), tested in tests/test_admin.py.
SKIPPED_NAMESPACES = {"admin"}


def _walk(patterns, namespace: str | None, keys: tuple[str, ...], prefix: str):
    for entry in patterns:
        pattern_keys = keys + tuple(getattr(entry.pattern, "converters", {}))
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            inner = ":".join(part for part in (namespace, entry.namespace) if part) or None
            if entry.namespace in SKIPPED_NAMESPACES:
                continue
            yield from _walk(entry.url_patterns, inner, pattern_keys, route)
        elif isinstance(entry, URLPattern):
            name = (
                ":".join(part for part in (namespace, entry.name) if part) if entry.name else None
            )
            yield name, route, pattern_keys


def url_kwargs(name: str, objects: dict) -> dict:
    """The keyword arguments of URL `name` from the `objects` fixture (where two apps name a
    keyword alike, the value of the URL's namespace in `objects["by_namespace"]` wins)."""
    values = {**objects, **objects.get("by_namespace", {}).get(name.split(":")[0], {})}
    return {key: values[key] for key in url_names()[name]}


def url_names() -> dict[str, tuple[str, ...]]:
    """{"kingdoms:campaign-detail": ("campaign_id",), …}; unnamed routes as "?route"."""
    found = {}
    for name, route, keys in _walk(get_resolver().url_patterns, None, (), "/"):
        if name is None and route.startswith("/admin/"):
            continue  # the admin's log-in, wrapped by our throttle
        found[name or f"?{route}"] = keys
    return found
