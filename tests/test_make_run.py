"""`make run` (README "Run it"): it takes a port, and a port already taken is said at once,
before anything is installed. The Makefile is run as a newcomer would run it."""

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _make(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=30)  # fmt: skip


def test_make_run_serves_on_the_port_given():
    commands = _make("-n", "run", "PORT=8001").stdout
    assert "runserver 127.0.0.1:8001" in commands
    assert "runserver 127.0.0.1:8000" in _make("-n", "run").stdout


def test_a_port_already_taken_is_said_before_anything_is_installed(tmp_path):
    venv = tmp_path / "venv"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = _make("run", f"PORT={port}", f"VENV={venv}")
    assert result.returncode != 0
    assert f"Port {port} on 127.0.0.1 is taken" in result.stderr
    assert f"PORT={port + 1} make run" in result.stderr
    assert not venv.exists()  # nothing was installed


def test_a_port_that_is_not_a_number_is_refused(tmp_path):
    result = _make("run", "PORT=eighty", f"VENV={tmp_path / 'venv'}")
    assert result.returncode != 0
    assert "PORT must be a number from 1 to 65535, not 'eighty'." in result.stderr
    assert not (tmp_path / "venv").exists()
