"""Fixtures of the browser tests (helpers in ``voila_pages.py``): one Chromium per test
process, the Voila servers of a test file shared by its tests, a watch on every page."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.register_assert_rewrite("voila_pages")     # its tests' failures show the values

from voila_pages import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_FLAGS,
    Browser,
    OUTPUT,
    PageProblems,
    Servers,
    require_browser,
)


def pytest_generate_tests(metafunc):
    """The tests every app gets (``voila_pages.test_every_app_...``), once per app of the
    file's ``APPS``."""
    if "app" in metafunc.fixturenames:
        metafunc.parametrize("app", metafunc.module.APPS)


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """Headless Chromium (Debian's), started once per test process (a worker of xdist),
    with a profile on disk, as a lecturer's browser has (``voila_pages.Browser``)."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            tmp_path_factory.mktemp("chromium-profile"), executable_path=CHROMIUM,
            args=CHROMIUM_FLAGS)
        try:
            yield Browser(context)
        finally:
            context.close()


@pytest.fixture(scope="module")
def servers(request):
    """The file's Voila servers (``voila_pages.Servers``), logs in test-output/e2e/<file>/:
    those of the file's ``APPS`` (lecture and normal mode) started at once, side by side,
    any other when first used; all stopped after the file's last test."""
    require_browser()
    running = Servers(OUTPUT / Path(request.module.__file__).stem)
    try:
        running.launch_apps(getattr(request.module, "APPS", ()))
        yield running
    finally:
        running.close()


@pytest.fixture
def output_dir(request) -> Path:
    """Screenshots and server logs: test-output/e2e/<test name>/ (kept after the run)."""
    path = OUTPUT / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def problems():
    found = PageProblems()
    yield found
    assert list(found) == [], "the page misbehaved:\n" + "\n".join(found)
