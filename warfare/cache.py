"""Django's `RedisCache`, keeping its Redis client.

Django's Redis cache client makes a new `redis.Redis` for every cache operation; building
one fills its table of about 200 response callbacks, which on this project's hot paths (a
board action makes about 8 cache round trips, the session of every request is read from the
cache) costs more than the round trip itself. A `redis.Redis` is safe to share between
threads (it takes a connection from its pool for each command), so one per connection pool
is kept and reused: the same commands, the same pools, the same behaviour."""

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError


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


def exchange(cache, writes=(), reads=()) -> tuple[list[bool], dict]:
    """Some writes and reads of `cache` (a backend, `caches[alias]`, not the proxy
    `django.core.cache.cache`) in one round trip where it is Redis (a pipeline, not a
    transaction: the writes are done in order, then the keys read), one by one elsewhere.
    `writes`: (key, value, timeout, only_if_absent) each, `only_if_absent` as `add`;
    answers (for each write, whether it was done; {key: value} of the keys `reads` found).
    A board action's answer sends its writes (the battle's new seq for the live polls, its
    render's lock) with its reads: what it must wait for once, not three times."""
    if not isinstance(cache, DjangoRedisCache):
        done = []
        for key, value, timeout, only_if_absent in writes:
            if only_if_absent:
                done.append(cache.add(key, value, timeout=timeout))
            else:
                cache.set(key, value, timeout=timeout)
                done.append(True)
        return done, cache.get_many(list(reads))
    serializer = cache._cache._serializer
    commands = []
    for key, value, timeout, only_if_absent in writes:
        command = ["SET", cache.make_key(key), serializer.dumps(value)]
        seconds = cache.get_backend_timeout(timeout)
        if seconds is not None:
            command += ["EX", seconds]
        if only_if_absent:
            command.append("NX")
        commands.append(command)
    made = [cache.make_key(key) for key in reads]
    if made:
        commands.append(["MGET", *made])
    try:
        results = _sent(cache, commands)
    except (RedisConnectionError, RedisTimeoutError):  # (a connection gone stale meanwhile)
        results = _pipelined(cache, commands)
    found = results[len(writes)] if made else []
    done = [bool(result) for result in results[: len(writes)]]  # ("OK", or nil: NX not done)
    values = {key: serializer.loads(value)
              for key, value in zip(reads, found, strict=True) if value is not None}  # fmt: skip
    return done, values


def _sent(cache, commands: list[list]) -> list:
    """The replies of `commands`, written at once on one of the pool's connections and read
    back in order: what redis-py's pipeline does, without its per-command bookkeeping (about
    half of an answer's cache work in Python, issue 13). A connection that fails is closed
    (no reply left unread on it) and the error raised."""
    pool = cache._cache.get_client(write=True).connection_pool
    connection = pool.get_connection()
    try:
        connection.send_packed_command(connection.pack_commands(commands))
        return [connection.read_response() for _ in commands]
    except BaseException:
        connection.disconnect()
        raise
    finally:
        pool.release(connection)


def _pipelined(cache, commands: list[list]) -> list:
    """`_sent` through redis-py's pipeline, with its retries on a broken connection."""
    pipeline = cache._cache.get_client(write=True).pipeline(transaction=False)
    for command in commands:
        pipeline.execute_command(*command)
    return pipeline.execute()
