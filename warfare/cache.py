"""Django's `RedisCache`, keeping its Redis client.

Django's Redis cache client makes a new `redis.Redis` for every cache operation; building
one fills its table of about 200 response callbacks, which on this project's hot paths (a
board action makes about 8 cache round trips, the session of every request is read from the
cache) costs more than the round trip itself. A `redis.Redis` is safe to share between
threads (it takes a connection from its pool for each command), so one per connection pool
is kept and reused: the same commands, the same pools, the same behaviour."""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class KeptClientRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptClientRedisCacheClient
