"""Browser tests: Playwright's Python API driving Debian's headless Chromium.

Without Chromium a developer's run skips these tests with a message; under CI (CI=true) a
missing browser is a failure, never a silent skip.
"""

import os
import shutil

import pytest

# The D&D 5e battle of tests/dnd5e (the live board's selection test, test_live_board.py).
from tests.dnd5e.conftest import dnd_battle, dnd_world, horde, wardens  # noqa: F401

CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def _chromium_path() -> str | None:
    candidates = [os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser"]
    for candidate in candidates:
        if candidate and os.path.exists(candidate):
            return candidate
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def browser():
    path = _chromium_path()
    if path is None:
        message = "No Chromium found: install Debian's `chromium` or set CHROMIUM_PATH."
        if os.environ.get("CI"):
            pytest.fail(f"{message} Browser tests may not be skipped under CI.")
        pytest.skip(message)
    # Playwright's sync API runs an event loop in this thread; the tests' own ORM calls are
    # synchronous and safe here.
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """Open pages in fresh browser contexts (separate cookies = separate people)."""
    contexts = []

    def open_page(viewport=None):
        context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.console_errors = []
        page.on(
            "console", lambda m: page.console_errors.append(m.text) if m.type == "error" else None
        )
        page.set_default_timeout(10_000)
        return page

    yield open_page
    for context in contexts:
        context.close()
