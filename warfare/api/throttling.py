"""Throttles of the API: writes only, per user, at the `api-write` rate."""

import time

from django.core.cache import cache
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class WriteRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle for unsafe methods only (reads are free), on views with a
    `throttle_scope`. The rate is read on each request, so tests can change the setting.

    It counts in fixed windows with the cache's atomic `add` + `incr` (DRF's own throttle reads
    a list of timestamps, appends and writes it back, which two app processes can interleave):
    with the shared Redis cache, "120 a minute" is 120 over every process together."""

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        if self.rate is None:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        ident = self.get_cache_key(request, view)
        if ident is None:
            return True
        now = time.time()
        window = int(now // self.duration)
        self.window_ends = (window + 1) * self.duration
        key = f"{ident}:{window}"
        cache.add(key, 0, timeout=self.duration + 1)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, timeout=self.duration + 1)
            count = 1
        self.now = now
        return count <= self.num_requests

    def wait(self) -> float | None:
        return max(self.window_ends - self.now, 0)

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
