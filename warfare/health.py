"""`GET /healthz`: is this app process able to serve? For load balancers and `docker compose`."""

import logging
import secrets

from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)


def _database() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except DatabaseError:
        logger.warning("health check: the database does not answer", exc_info=True)
        return False


def _cache() -> bool:
    key, value = "healthz", secrets.token_hex(8)
    try:
        cache.set(key, value, timeout=10)
        return cache.get(key) == value
    except Exception:  # any backend error means "not healthy"
        logger.warning("health check: the cache does not answer", exc_info=True)
        return False


@never_cache
@require_GET
def healthz(request):
    """200 {"status": "ok", "database": "ok", "cache": "ok"} when both answer, else 503 with
    the one that failed. No log-in needed; it tells nothing about any campaign."""
    checks = {"database": _database(), "cache": _cache()}
    body = {name: "ok" if ok else "failing" for name, ok in checks.items()}
    healthy = all(checks.values())
    body["status"] = "ok" if healthy else "failing"
    return JsonResponse(body, status=200 if healthy else 503)
