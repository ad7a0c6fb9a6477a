"""Live board benchmark (issue 13): 50 Server-Sent Events viewers on 2 app processes.

Usage: DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/live.py
       [--viewers 50] [--processes 2] [--actions 10] [--rounds 2] [--gap 0.3]

Starts `--processes` app processes the production way (gunicorn running the ASGI app under
uvicorn workers, `warfare.settings.prod`, one worker each so that the viewers can be spread
over them) on a scratch PostgreSQL database (`<DATABASE_URL's name>_bench_live`, dropped
afterwards) and the Redis of REDIS_URL (under a key prefix of this run, deleted afterwards).
A Pathfinder battle has a GM and players who see it from four viewpoints: the GM, side A,
side B and a bystander.

The GM ends turns on the first process (`POST …/act/` as htmx sends it), in rounds: `--actions`
actions with no viewers, then `--actions` with `--viewers` viewers, spread over the processes
and the viewpoints. Each viewer holds the board's event stream open; it has the change when a
`board` event brings its new board fragment (swapped in as `static/js/live.js` does), or, on a
`changed` event, when its fetch of the fragment (`GET …/?since=<seq>` with `HX-Request`, as
live.js makes htmx do) shows the new seq. Between two actions the
GM waits until every viewer has the change, then `--gap` seconds.

Measured, and compared with the goals of issue 13:
* the GM's action latency (request sent → answer read), p50 and p95, with no viewers and with
  the viewers: p95 with viewers ≤ 1.5 × p95 without;
* the delivery time (action sent → the last viewer's fragment read): worst ≤ 1 s;
* board renders per action (the app's counter in the shared cache, `BOARD_RENDER_COUNT`, on
  for this run only) = the distinct viewpoints (the GM's and the viewers').
"""

import argparse
import asyncio
import contextlib
import functools
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SECRET = "bench-live-only-secret-key-" + "x" * 40
VIEWPOINTS = ("gm", "side a", "side b", "bystander")
GOAL_RATIO = 1.5
GOAL_DELIVERY = 1.0
DELIVERY_TIMEOUT = 5.0
FAILED: dict[int, int] = {}  # status -> how many of the viewers' fetches answered it


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _server_url() -> str:
    return os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/warfare")


@functools.cache  # (read before this run's own DATABASE_URL replaces it in os.environ)
def _database() -> str:
    """`<DATABASE_URL's name>_bench_live`: each worktree's run its own (they run side by side)."""
    return urlsplit(_server_url()).path.lstrip("/") + "_bench_live"


def _scratch_url() -> str:
    parts = urlsplit(_server_url())
    return parts._replace(path=f"/{_database()}").geturl()


def _admin(statement: str) -> None:
    import psycopg

    parts = urlsplit(_server_url())
    with psycopg.connect(parts._replace(path="/postgres").geturl(), autocommit=True) as conn:
        conn.execute(statement)


def _environment(prefix: str) -> dict:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "warfare.settings.prod",
        "DATABASE_URL": _scratch_url(),
        "REDIS_URL": os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        "CACHE_KEY_PREFIX": prefix,
        "SECRET_KEY": SECRET,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        # Plain HTTP on localhost, as docker-compose runs it.
        "SECURE_SSL_REDIRECT": "false",
        "SECURE_COOKIES": "false",
        "LOG_FORMAT": "json",
        "LOG_LEVEL": "WARNING",
        "BOARD_RENDER_COUNT": "true",
    }


# --- a minimal HTTP/1.1 client (asyncio streams: light beside the app on a 2-core machine) ----


async def _request(port: int, method: str, path: str, headers: dict, body: bytes = b""):
    """(status, headers, body) of one request on its own connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        head = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            head.append(f"Content-Length: {len(body)}")
        writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        status, answer = await _read_head(reader)
        data = await reader.read()
        if answer.get("transfer-encoding") == "chunked":
            data = _dechunk(data)
        return status, answer, data
    finally:
        writer.close()


async def _read_head(reader) -> tuple[int, dict]:
    status = int((await reader.readline()).split()[1])
    headers: dict = {}
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        name = name.strip().lower()
        if name == "set-cookie":
            headers.setdefault("set-cookie", []).append(value.strip())
        else:
            headers[name] = value.strip()
    return status, headers


def _dechunk(data: bytes) -> bytes:
    out, at = [], 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0], 16)
        if size == 0:
            return b"".join(out)
        out.append(data[end + 2 : end + 2 + size])
        at = end + 2 + size + 2


_SEQ = re.compile(rb'<div id="board" data-seq="(\d+)"')


def _parse_event(raw: bytes) -> dict:
    """{"event": name, "data": bytes} of one Server-Sent Event (its lines without the blank
    line ending it); data lines joined by newlines."""
    event, data = {}, []
    for line in raw.split(b"\n"):
        name, _, value = line.partition(b":")
        value = value[1:] if value.startswith(b" ") else value
        if name == b"data":
            data.append(value)
        elif name:
            event[name.decode()] = value.decode()
    if data:
        event["data"] = b"\n".join(data)
    return event


class Viewer:
    """One browser tab: the board's event stream, and a fetch of the board on `changed`."""

    def __init__(self, port: int, cookie: str, viewpoint: str, board: str, live: str, seq: int):
        self.port, self.cookie, self.viewpoint = port, cookie, viewpoint
        self.board, self.live = board, live
        self.seq = seq  # the seq of the board on screen
        self.told = seq  # the newest seq the stream announced
        self.has: dict[int, float] = {}  # seq -> when its board was read
        self.ready = asyncio.Event()
        self.wake = asyncio.Event()
        self.fetches = 0
        self.errors = 0  # answers neither 200 nor 304
        self.reconnects = 0
        self.pushed = 0  # boards pushed in `board` events
        self.tasks: list[asyncio.Task] = []

    def start(self) -> None:
        self.tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._fetcher())]

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)

    async def _listen(self) -> None:
        """The stream, reconnected after 2 s when it fails (`retry: 2000`, as EventSource)."""
        while True:
            with contextlib.suppress(OSError, asyncio.IncompleteReadError, ValueError):
                await self._stream()
            self.reconnects += 1
            await asyncio.sleep(2.0)

    async def _stream(self) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            head = [f"GET {self.live} HTTP/1.1", "Host: 127.0.0.1", f"Cookie: {self.cookie}",
                    "Accept: text/event-stream", "Cache-Control: no-cache"]  # fmt: skip
            writer.write(("\r\n".join(head) + "\r\n\r\n").encode())
            status, headers = await _read_head(reader)
            if status != 200:
                FAILED[status] = FAILED.get(status, 0) + 1
                return
            chunked = headers.get("transfer-encoding") == "chunked"
            buffer = b""
            while True:
                if chunked:
                    size = int((await reader.readline()).split(b";")[0], 16)
                    if size == 0:
                        return
                    piece = await reader.readexactly(size + 2)
                    buffer += piece[:-2]
                else:
                    piece = await reader.read(65536)
                    if not piece:
                        return
                    buffer += piece
                # Whole events only, each parsed at once (as a browser's EventSource does in
                # native code: this client shares the machine with the app processes).
                *events, buffer = buffer.split(b"\n\n")
                for raw in events:
                    self._event(_parse_event(raw))
        finally:
            writer.close()

    def _event(self, event: dict) -> None:
        if event.get("event") == "board":  # the board pushed: swapped in, no request
            self.ready.set()
            self.pushed += 1
            match = _SEQ.search(event["data"])
            if match and int(match[1]) > self.seq:
                self.seq = self.told = int(match[1])
                self.has[self.seq] = time.perf_counter()
        elif event.get("event") in ("seq", "changed", "ping"):
            self.ready.set()
            seq = int(event["data"].decode())
            if seq != self.seq:
                self.told = max(self.told, seq)
                self.wake.set()

    async def _fetcher(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()
            while self.told > self.seq:
                status, _headers, body = await _request(
                    self.port, "GET", f"{self.board}?since={self.seq}",
                    {"Cookie": self.cookie, "HX-Request": "true"},
                )  # fmt: skip
                self.fetches += 1
                if status not in (200, 304):
                    self.errors += 1
                    FAILED[status] = FAILED.get(status, 0) + 1
                    await asyncio.sleep(0.5)
                match = _SEQ.search(body) if status == 200 else None
                if match:
                    self.seq = int(match[1])
                    self.has[self.seq] = time.perf_counter()


# --- the run ----------------------------------------------------------------------------------


def _setup(players: int):
    """The campaign, battle and sessions in the scratch database (this process's Django)."""
    from django.test import Client

    from kingdoms.models import Controller, Role
    from tests.factories import CampaignFactory, FactionFactory, MembershipFactory, UserFactory
    from warfare.systems.pf2e import services
    from warfare.systems.pf2e import setup as pf2e_setup
    from warfare.systems.pf2e.models import Kingdom

    gm = UserFactory(username="bench-gm")
    campaign = CampaignFactory(created_by=gm)
    MembershipFactory(campaign=campaign, user=gm, role=Role.GM)
    factions = {
        "side a": FactionFactory(campaign=campaign, controlled_by=Controller.PLAYERS),
        "side b": FactionFactory(campaign=campaign),
        "bystander": FactionFactory(campaign=campaign),
    }
    sides = {"a": [], "b": []}
    for side, faction in (("a", factions["side a"]), ("b", factions["side b"])):
        Kingdom.objects.filter(faction=faction).update(level=8)
        for i in range(4):
            army = services.army_create(
                user=gm, campaign_id=campaign.pk, faction_id=faction.pk, name=f"{side}{i}",
                army_type="infantry", tactics=("keen_eyed",),
            )  # fmt: skip
            sides[side].append(army.pk)
    battle = pf2e_setup.battle_create(user=gm, campaign_id=campaign.pk, name="Bench", sides=sides)

    def cookie(user) -> str:
        client = Client()
        client.force_login(user)
        return "sessionid=" + client.cookies["sessionid"].value

    cookies = {"gm": [cookie(gm)]}
    for viewpoint, faction in factions.items():
        cookies[viewpoint] = []
        for i in range(players):
            user = UserFactory(username=f"bench-{viewpoint.replace(' ', '-')}-{i}")
            MembershipFactory(campaign=campaign, user=user, role=Role.PLAYER, faction=faction)
            cookies[viewpoint].append(cookie(user))
    return battle, cookies


def _start_apps(count: int, env: dict, log) -> tuple[list[subprocess.Popen], list[int]]:
    ports = [_free_port() for _ in range(count)]
    processes = [
        subprocess.Popen(  # noqa: S603 - this interpreter running our own code
            [
                sys.executable,
                "-m",
                "gunicorn",
                "warfare.asgi:application",
                "--worker-class",
                "uvicorn_worker.UvicornWorker",
                "--workers",
                "1",
                "--bind",
                f"127.0.0.1:{port}",
                "--access-logfile",
                "-",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
            start_new_session=True,
        )  # fmt: skip
        for port in ports
    ]
    deadline = time.monotonic() + 90
    for port in ports:
        while True:
            try:
                status, _h, _b = asyncio.run(_request(port, "GET", "/healthz", {}))
                if status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                sys.exit(f"the app process on port {port} did not start")
            time.sleep(0.2)
    return processes, ports


def _stop_apps(processes) -> None:
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(5)


class Gm:
    """The GM's browser: the board page once (session, CSRF token), then htmx actions."""

    def __init__(self, port: int, cookie: str, battle):
        self.port, self.cookie, self.battle = port, cookie, battle
        self.board = battle.get_absolute_url()
        self.act = self.board + "act/"
        self.token = ""

    async def open(self) -> None:
        status, headers, body = await _request(
            self.port, "GET", self.board, {"Cookie": self.cookie}
        )
        assert status == 200, status
        for cookie in headers.get("set-cookie", []):
            if cookie.startswith("csrftoken="):
                self.cookie += "; " + cookie.split(";")[0]
        self.token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)[1].decode()

    async def end_turn(self) -> tuple[float, float, int]:
        """One action: its latency in seconds, when it was sent, the seq it made."""
        from battles.models import Battle

        battle = await Battle.objects.aget(pk=self.battle.pk)
        actor = battle.snapshot["order"][battle.snapshot["turn"]]
        body = urlencode(
            {
                "seq": battle.seq,
                "actor": actor,
                "kind": "end_turn",
                "params": "{}",
                "csrfmiddlewaretoken": self.token,
            }  # fmt: skip
        ).encode()
        headers = {"Cookie": self.cookie, "HX-Request": "true", "X-CSRFToken": self.token,
                   "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
        start = time.perf_counter()
        status, _headers, answer = await _request(self.port, "POST", self.act, headers, body)
        took = time.perf_counter() - start
        assert status == 200, (status, answer[:500])
        self.battle = battle
        return took, start, battle.seq + 1


def _renders() -> int:
    from django.core.cache import cache

    from battles.rendering import RENDERS_KEY

    return cache.get(RENDERS_KEY) or 0


def _p(values: list[float], q: int) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[q - 1]
        if len(values) > 1
        else values[0]
    )


async def _round(gm: Gm, viewers: list[Viewer], actions: int, gap: float, out: dict) -> None:
    for _ in range(actions):
        took, sent, seq = await gm.end_turn()
        out["latency"].append(took)
        if viewers:
            deadline = time.perf_counter() + DELIVERY_TIMEOUT
            while any(v.seq < seq for v in viewers) and time.perf_counter() < deadline:
                await asyncio.sleep(0.005)
            late = [v for v in viewers if seq not in v.has]
            out["missed"] += len(late)
            times = [v.has[seq] - sent for v in viewers if seq in v.has]
            out["delivery"].append(max(times) if not late else DELIVERY_TIMEOUT)
            for v in viewers:
                took_v = v.has[seq] - sent if seq in v.has else DELIVERY_TIMEOUT
                out.setdefault("by_viewpoint", {}).setdefault(v.viewpoint, []).append(took_v)
        await asyncio.sleep(gap)


async def _bench(args, battle, cookies, ports) -> dict:
    from battles.models import Battle

    gm = Gm(ports[0], cookies["gm"][0], battle)
    await gm.open()
    quiet = {"latency": [], "delivery": [], "missed": 0}
    busy = {
        "latency": [],
        "delivery": [],
        "missed": 0,
        "fetches": 0,
        "errors": 0,
        "reconnects": 0,
        "pushed": 0,
    }
    renders = {"actions": 0, "count": 0}
    live = battle.get_absolute_url() + "live/"
    await _round(gm, [], 3, args.gap, {"latency": [], "delivery": [], "missed": 0})  # warm up
    for _ in range(args.rounds):
        await _round(gm, [], args.actions, args.gap, quiet)
        seq = (await Battle.objects.aget(pk=battle.pk)).seq
        viewers = []
        for i in range(args.viewers):
            viewpoint = VIEWPOINTS[i % len(VIEWPOINTS)]
            people = cookies[viewpoint]
            cookie = people[(i // len(VIEWPOINTS)) % len(people)]
            port = ports[(i // len(VIEWPOINTS) + i) % len(ports)]
            viewers.append(Viewer(port, cookie, viewpoint, battle.get_absolute_url(), live, seq))
        for viewer in viewers:  # people opening the board, not one burst
            viewer.start()
            await asyncio.sleep(0.02)
        await asyncio.wait_for(asyncio.gather(*(v.ready.wait() for v in viewers)), 60)
        await asyncio.sleep(1.0)  # every process's LISTEN connection is up
        before = await asyncio.to_thread(_renders)
        await _round(gm, viewers, args.actions, args.gap, busy)
        renders["count"] += await asyncio.to_thread(_renders) - before
        renders["actions"] += args.actions
        await asyncio.gather(*(v.stop() for v in viewers))
        busy["fetches"] += sum(v.fetches for v in viewers)
        busy["errors"] += sum(v.errors for v in viewers)
        busy["reconnects"] += sum(v.reconnects for v in viewers)
        busy["pushed"] += sum(v.pushed for v in viewers)
        await asyncio.sleep(0.5)
    return {"quiet": quiet, "busy": busy, "renders": renders, "viewers": viewers}


def _report(args, result: dict) -> bool:
    quiet, busy, renders = result["quiet"], result["busy"], result["renders"]
    viewers = result["viewers"]
    q50, q95 = _p(quiet["latency"], 50) * 1000, _p(quiet["latency"], 95) * 1000
    b50, b95 = _p(busy["latency"], 50) * 1000, _p(busy["latency"], 95) * 1000
    ratio = b95 / q95
    worst = max(busy["delivery"])
    viewpoints = len({"gm", *(v.viewpoint for v in viewers)})
    per_action = renders["count"] / renders["actions"]
    spread = {
        port: sum(v.port == port for v in viewers) for port in sorted({v.port for v in viewers})
    }
    print(f"{args.viewers} viewers on {args.processes} app processes {list(spread.values())}, "
          f"{viewpoints} viewpoints; {len(quiet['latency'])} + {len(busy['latency'])} actions "
          f"in {args.rounds} rounds")  # fmt: skip
    print(f"boards pushed: {busy['pushed']}; viewers' board fetches: {busy['fetches']}, "
          f"failed: {busy['errors']}; stream "
          f"reconnections: {busy['reconnects']}; failed answers by status: {FAILED}")  # fmt: skip
    print(f"GM action, no viewers:   p50 {q50:7.1f} ms  p95 {q95:7.1f} ms")
    print(f"GM action, {args.viewers} viewers: p50 {b50:7.1f} ms  p95 {b95:7.1f} ms")
    for viewpoint, times in sorted(busy.get("by_viewpoint", {}).items()):
        middle, worst_here = statistics.median(times) * 1000, max(times) * 1000
        print(f"  {viewpoint:>9}'s viewers have it (from the action sent): median "
              f"{middle:5.0f} ms, worst {worst_here:5.0f} ms")  # fmt: skip
    checks = [
        (f"action p95 with viewers / without: {ratio:.2f}x (goal <= {GOAL_RATIO}x)",
         ratio <= GOAL_RATIO),
        (f"every viewer has the change: worst {worst * 1000:.0f} ms, median "
         f"{statistics.median(busy['delivery']) * 1000:.0f} ms, {busy['missed']} missed "
         f"(goal <= {GOAL_DELIVERY * 1000:.0f} ms)", worst <= GOAL_DELIVERY and not busy["missed"]),
        (f"board renders per action: {per_action:.2f} for {viewpoints} distinct viewpoints "
         f"({per_action / viewpoints:.2f} per viewpoint; goal = {viewpoints})",
         round(per_action, 2) == viewpoints),
    ]  # fmt: skip
    for text, ok in checks:
        print(f"{text}: {'goal reached' if ok else 'GOAL MISSED'}")
    return all(ok for _text, ok in checks)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--actions", type=int, default=10, help="per round and phase")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--gap", type=float, default=0.3, help="seconds between two actions")
    args = parser.parse_args()

    prefix = f"bench-live-{os.getpid()}"
    env = _environment(prefix)
    os.environ.update({k: v for k, v in env.items() if k != "DJANGO_SETTINGS_MODULE"})
    os.environ["DJANGO_SETTINGS_MODULE"] = "warfare.settings.base"
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the GM reads the battle between actions
    _admin(f'DROP DATABASE IF EXISTS "{_database()}" WITH (FORCE)')
    _admin(f'CREATE DATABASE "{_database()}"')
    processes = []
    log = tempfile.NamedTemporaryFile("w+", prefix="bench-live-", suffix=".log")  # noqa: SIM115
    try:
        for command in (["migrate"], ["collectstatic"]):  # as the Dockerfile and compose do
            subprocess.run(  # noqa: S603 - this interpreter running our own code
                [sys.executable, "manage.py", *command, "--noinput", "-v", "0"],
                cwd=ROOT, env=env, check=True,
            )  # fmt: skip
        import django

        django.setup()
        from django.db import connection

        battle, cookies = _setup(players=max(1, args.viewers // len(VIEWPOINTS)))
        connection.close()
        processes, ports = _start_apps(args.processes, env, log)
        result = asyncio.run(_bench(args, battle, cookies, ports))
        return 0 if _report(args, result) else 1
    except BaseException:
        log.seek(0)
        print("The app processes said (last lines):\n" + "".join(log.readlines()[-40:]))
        raise
    finally:
        _stop_apps(processes)
        from django.db import connections

        connections.close_all()
        _admin(f'DROP DATABASE IF EXISTS "{_database()}" WITH (FORCE)')
        import redis

        client = redis.Redis.from_url(env["REDIS_URL"])
        keys = list(client.scan_iter(match=f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)


if __name__ == "__main__":
    sys.exit(main())
