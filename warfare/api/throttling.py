"""Throttles of the API: writes only, per user, at the `api-write` rate."""

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle


class WriteRateThrottle(ScopedRateThrottle):
    """ScopedRateThrottle for unsafe methods only (reads are free), on views with a
    `throttle_scope`. The rate is read on each request, so tests can change the setting."""

    def allow_request(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
