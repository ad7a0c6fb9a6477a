"""An existing database upgrades to the layout of issue 12 without loss.

`tests/fixtures/upgrade/dump.sql.gz` (plain SQL, gzip-compressed) is a database at the
migrations of main commit ecae42d, the last before Pathfinder's models moved from the `warfare`
and `kingdoms` apps into `pf2e` (the four demo campaigns, and one campaign per rule system
whose battle was played through the API and applied); `exports.json` holds the campaign files
that database gave then (`tests/fixtures/upgrade/build.py` wrote both). The dump is restored
into a scratch database, migrated with `manage.py migrate`, and every campaign exported again:
the files are the same, byte for byte in JSON terms, but for the moment of the export.

Both steps run in their own process (`manage.py`), as an operator would run them, against the
scratch database; the test database of the suite is not touched.
"""

import gzip
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg
import pytest

from kingdoms import portability

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "upgrade"
pytestmark = pytest.mark.skipif(shutil.which("psql") is None, reason="needs psql")

EXPORT_ALL = """
import json, sys
from kingdoms.models import Campaign
from kingdoms.portability import campaign_export_bytes
files = {c.name: json.loads(campaign_export_bytes(c)) for c in Campaign.objects.order_by("pk")}
sys.stdout.write(json.dumps(files))
"""


@pytest.fixture
def scratch_database():
    """The URL of an empty PostgreSQL database beside the suite's, dropped afterwards."""
    url = urlparse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/warfare"))
    name = f"{url.path.lstrip('/')}_upgrade_{os.getpid()}"
    admin = urlunparse(url._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunparse(url._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _manage(database_url: str, *args: str) -> str:
    env = {**os.environ, "DATABASE_URL": database_url,
           "DJANGO_SETTINGS_MODULE": "warfare.settings.test"}  # fmt: skip
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr[-4000:]
    return done.stdout


def _without_moment(files: dict) -> dict:
    for document in files.values():
        document.pop("exported_at")
    return files


def test_a_database_of_before_the_move_migrates_and_exports_the_same_campaigns(
    scratch_database,
):
    restored = subprocess.run(
        ["psql", "-q", "-v", "ON_ERROR_STOP=1", "-d", scratch_database],
        input=gzip.decompress((FIXTURE / "dump.sql.gz").read_bytes()),
        capture_output=True, timeout=300,
    )  # fmt: skip
    assert restored.returncode == 0, restored.stderr[-4000:].decode(errors="replace")
    with psycopg.connect(scratch_database) as connection:
        before = dict(connection.execute(
            "SELECT model, id FROM django_content_type WHERE (app_label, model) IN "
            "(('warfare', 'army'), ('warfare', 'logentry'), ('warfare', 'recruitment'), "
            "('kingdoms', 'kingdom'))"
        ).fetchall())  # fmt: skip
    assert set(before) == {"army", "logentry", "recruitment", "kingdom"}

    _manage(scratch_database, "migrate", "--noinput")
    exported = json.loads(_manage(scratch_database, "shell", "--no-imports", "-c", EXPORT_ALL))

    # The files of then are format version 4: read as today's version (the auto-play
    # columns, added by a migration with their defaults, come in with the same defaults).
    then = json.loads((FIXTURE / "exports.json").read_text())
    expected = {name: portability.upgrade(document) for name, document in then.items()}
    assert len(expected) == 8
    assert _without_moment(exported) == _without_moment(expected)
    with psycopg.connect(scratch_database) as connection:
        after = dict(connection.execute(
            "SELECT model, id FROM django_content_type WHERE app_label = 'pf2e'"
        ).fetchall())  # fmt: skip
        old = connection.execute(
            "SELECT count(*) FROM django_content_type WHERE (app_label, model) IN "
            "(('warfare', 'army'), ('kingdoms', 'kingdom'))"
        ).fetchone()[0]
        codenames = {row[0] for row in connection.execute(
            "SELECT codename FROM auth_permission p JOIN django_content_type t "
            "ON t.id = p.content_type_id WHERE t.app_label = 'pf2e'"
        )}  # fmt: skip
    # The content types were renamed in place: same ids, so permissions still point at them.
    assert after == before and old == 0
    assert {"change_army", "view_kingdom", "add_logentry", "delete_recruitment"} <= codenames


def test_a_new_sqlite_database_migrates_from_zero(tmp_path):
    """`make run` uses SQLite: every migration, the moves included, runs on an empty one."""
    _manage(f"sqlite:///{tmp_path / 'fresh.sqlite3'}", "migrate", "--noinput")
