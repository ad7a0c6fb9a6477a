"""URLs reversed once per process.

Django's `reverse` walks the URL resolver for every call, about ninety Python calls: a board
draws its own URLs (its poll, its live stream, the URL its buttons post to) on every render,
the same ones each time. `reversed_url` works each out once per URL configuration, script
prefix and arguments, which is all a reversed URL depends on (this project has no
language-prefixed URLs)."""

import functools

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def reversed_url(name: str, *args) -> str:
    """`reverse(name, args=args)` (the arguments hashable: ids), kept once worked out."""
    return _reversed(name, args, get_urlconf() or settings.ROOT_URLCONF, get_script_prefix())


@functools.lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple, urlconf: str, prefix: str) -> str:
    return reverse(name, args=args, urlconf=urlconf)  # (`prefix`: the thread's, read inside)
