"""URLs reversed once per process.

Django's `reverse` walks the URL resolver for every call, about ninety Python calls: a board
draws its own URLs (its poll, its live stream, the URL its buttons post to) on every render,
the same ones each time. `reversed_url` works each out once per URL configuration, script
prefix and arguments, which is all a reversed URL depends on (this project has no
language-prefixed URLs)."""

import functools

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def reversed_url(name: str, *args, current_app: str | None = None) -> str:
    """`reverse(name, args=args, current_app=current_app)` (the arguments hashable: ids),
    kept once worked out (`{% url %}` too: `warfare.templatetags.urls`)."""
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    return _reversed(name, args, current_app, urlconf, get_script_prefix())


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple, current_app, urlconf: str, prefix: str) -> str:
    # (`prefix`: the thread's, which `reverse` reads itself)
    return reverse(name, args=args, current_app=current_app, urlconf=urlconf)
