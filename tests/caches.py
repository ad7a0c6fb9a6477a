"""The suite's cache, emptied between tests: with Redis (REDIS_URL), only this run's keys (its
own KEY_PREFIX), so runs sharing one Redis leave each other alone; else the local memory."""

from django.core.cache import caches
from django.core.cache.backends.redis import RedisCache


def clear_cache() -> None:
    cache = caches["default"]
    if not isinstance(cache, RedisCache):
        cache.clear()
        return
    client = cache._cache.get_client(write=True)
    keys = list(client.scan_iter(match=f"{cache.key_prefix}:*", count=1000))
    if keys:
        client.delete(*keys)
