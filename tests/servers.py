"""Real app processes for the tests that need several of them, or ASGI: uvicorn serving
`warfare.asgi` on the test database and this run's Redis keys."""

import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.db import connection
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def app_processes(count: int, **env):
    """`count` uvicorn processes serving the ASGI app on the test database and the suite's
    Redis keys; yields their base URLs."""
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "warfare.settings.test",
        "DATABASE_URL": database_url,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        **env,
    }
    ports = [_free_port() for _ in range(count)]
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "warfare.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=environment,
        )  # fmt: skip
        for port in ports
    ]
    urls = [f"http://127.0.0.1:{port}" for port in ports]
    try:
        # A loaded machine (CI beside other work) may take many seconds to import Django and
        # answer the first request: wait up to a minute, a slow answer being no failure yet.
        deadline = time.monotonic() + 60
        for url in urls:
            while True:
                with contextlib.suppress(requests.RequestException):
                    if requests.get(f"{url}/healthz", timeout=5).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    pytest.fail(f"the app process at {url} did not start")
                time.sleep(0.1)
        yield urls
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def session_cookie(user) -> dict:
    """{cookie name: value} of a logged-in session of `user` (sessions live in the database,
    so every app process knows it)."""
    client = Client()
    client.force_login(user)
    return {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
