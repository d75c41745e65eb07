"""End to end: the lecture apps, served by Voila, driven in headless Chromium.

A lecturer serves an app full-screen with exactly the command in the README,
``voila notebooks/06_prayatul.ipynb``. This test runs that command (on
127.0.0.1 and a free port, without opening a browser), opens the page in
Debian's Chromium through Playwright, moves a slider with the keyboard as a
person would, and checks that the numbers shown become the ones the library
computes for the new setting and that the figure is redrawn. Screenshots of
each app before and after go to the test's output folder.

Widgets that pass the Python-side tests can still show nothing in a browser
(front-end version mismatches are the usual failure); this is the test that
catches it. It needs the ``chromium`` package (apt) and the ``voila`` and
``playwright`` Python packages; ``.ci/run`` installs them. Without them the test
is skipped - except under CI (``CI=true``), where a missing piece fails it.
"""
from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: The README's command for a lecture; the test adds only where to listen.
LECTURE_COMMANDS = {
    "prayatul": "voila notebooks/06_prayatul.ipynb",
    "silhouette": "voila notebooks/04_silhouette_graph.ipynb",
}
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--disable-dev-shm-usage"]


def _missing() -> str | None:
    if CHROMIUM is None:
        return "Debian's chromium is not installed (apt-get install chromium)"
    for module in ("voila", "playwright"):
        try:
            __import__(module)
        except ImportError:
            return f"the Python package {module} is not installed"
    return None


def _require_browser():
    reason = _missing()
    if reason:
        if os.environ.get("CI"):
            pytest.fail(f"browser test cannot run in CI: {reason}")
        pytest.skip(reason)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class VoilaServer:
    """Start the README's command on a free port; always stopped on exit."""

    def __init__(self, command: str, log_path: Path):
        self.port = _free_port()
        program, notebook = command.split()
        assert program == "voila"
        self.argv = [sys.executable, "-m", "voila", notebook, "--no-browser",
                     f"--port={self.port}", "--Voila.ip=127.0.0.1"]
        self.log_path = log_path
        self.url = f"http://127.0.0.1:{self.port}/"

    def __enter__(self):
        self.log = open(self.log_path, "wb")
        env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
        self.proc = subprocess.Popen(self.argv, cwd=ROOT, stdout=self.log,
                                     stderr=subprocess.STDOUT, env=env,
                                     start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"voila exited early; see {self.log_path}")
            try:
                urllib.request.urlopen(self.url + "voila/api/shutdown", timeout=1)
            except urllib.error.HTTPError:
                return self  # the server answers (any HTTP status): it is up
            except OSError:
                time.sleep(0.3)
                continue
            return self
        raise RuntimeError(f"voila did not start within 60 s; see {self.log_path}")

    def __exit__(self, *exc):
        import signal

        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=15)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=15)
        self.log.close()
        return False


@pytest.fixture
def output_dir(request) -> Path:
    """Screenshots and server logs: test-output/e2e/<test name>/ (kept after the run)."""
    path = ROOT / "test-output" / "e2e" / request.node.name
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture
def browser():
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            yield b
        finally:
            b.close()


def _slider(page, label: str):
    """The ipywidgets slider whose description is exactly ``label``."""
    return page.locator(".widget-slider").filter(
        has=page.locator("label.widget-label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")))


def _move_slider_right(page, label: str, steps: int = 1):
    """Focus the slider's handle and press the right arrow, as a keyboard user does."""
    handle = _slider(page, label).locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.click()
    for _ in range(steps):
        handle.press("ArrowRight")


def _shoot(page, path: Path) -> None:
    """A screenshot of the app itself (the widget box holding the figure)."""
    app = page.locator(".widget-vbox").filter(has=page.locator(".widget-image")).last
    app.scroll_into_view_if_needed()
    app.screenshot(path=str(path))


def _image_src(page) -> str:
    return page.locator(".widget-image").first.get_attribute("src") or ""


def _cell_after(page, row_label: str) -> str:
    """The text of the cell right of the cell ``row_label`` in the app's numbers (an HTML widget)."""
    cell = page.locator(f"xpath=//div[contains(@class, 'widget-html')]//td[normalize-space()="
                        f"'{row_label}']/following-sibling::td[1]").first
    return cell.inner_text(timeout=1000).strip()


def _wait_for_cell(page, row_label: str, expected: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        try:
            seen = _cell_after(page, row_label)
        except Exception:  # the table is being replaced
            seen = None
        if seen == expected:
            return
        time.sleep(0.2)
    raise AssertionError(f"{row_label!r}: the page shows {seen!r}, the library computes "
                         f"{expected!r}")


def _wait_for_redraw(page, src_before: str, timeout: float = 30.0) -> None:
    """Wait until the app's figure is no longer the one ``src_before`` showed."""
    deadline = time.monotonic() + timeout
    while _image_src(page) == src_before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _image_src(page) != src_before, "the figure was not redrawn"


def _open(browser, server: VoilaServer):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.set_default_timeout(120_000)
    page.goto(server.url, wait_until="domcontentloaded")
    page.wait_for_selector(".widget-image", state="attached")
    return page


def test_prayatul_explorer_in_the_browser(browser, output_dir):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import PrayatulModel

    model = PrayatulModel()              # what the notebook shows first
    before = model.matrix
    model.set(primary_k=model.params["primary_k"] + 1)
    after = model.matrix
    assert (after.br, after.rw) != (before.br, before.rw), "pick a change that shows"

    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = _open(browser, server)
        _wait_for_cell(page, "BR (both right)", fmt(before.br))
        _wait_for_cell(page, "RW (primary right only)", fmt(before.rw))
        src_before = _image_src(page)
        assert src_before.startswith(("data:image/png", "blob:")), src_before[:40]
        _shoot(page, output_dir / "prayatul_explorer_before.png")

        _move_slider_right(page, "primary k")

        _wait_for_cell(page, "BR (both right)", fmt(after.br))
        _wait_for_cell(page, "RW (primary right only)", fmt(after.rw))
        _wait_for_cell(page, "comparative deviation σ_c", fmt(after.comparative_deviation))
        _wait_for_redraw(page, src_before)
        _shoot(page, output_dir / "prayatul_explorer_after.png")


def test_silhouette_explorer_in_the_browser(browser, output_dir):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import SilhouetteModel

    model = SilhouetteModel()
    before = float(model.silhouette)
    model.set(k=model.params["k"] + 1)
    after = float(model.silhouette)
    assert fmt(before) != fmt(after)

    with VoilaServer(LECTURE_COMMANDS["silhouette"], output_dir / "voila.log") as server:
        page = _open(browser, server)
        _wait_for_cell(page, "silhouette s", fmt(before))
        src_before = _image_src(page)
        _shoot(page, output_dir / "silhouette_explorer_before.png")

        _move_slider_right(page, "k (KMeans)")

        _wait_for_cell(page, "silhouette s", fmt(after))
        _wait_for_redraw(page, src_before)
        _shoot(page, output_dir / "silhouette_explorer_after.png")


def test_reveal_steps_through_a_derivation_with_the_keyboard(browser, output_dir):
    """Notebook 06 reveals its small example step by step: Tab to "Next step", then Enter
    and Space each show one more step, as a lecturer with a keyboard or remote would."""
    import prayatul_edu as pe
    from prayatul_edu.widgets import StepReveal

    steps = StepReveal(pe.prayatul_matrix(truth=[0, 0, 1, 1], primary=["a", "a", "a", "a"],
                                          alternative=[7, 7, -1, -1]))
    assert [b.kind for b in steps.next().next().derivation().blocks] == ["text", "text", "table"]
    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = _open(browser, server)
        page.get_by_text(f"step 1 of {steps.total}").first.wait_for()
        button = page.get_by_role("button", name="Next step").first
        button.focus()
        page.keyboard.press("Enter")
        page.get_by_text(f"step 2 of {steps.total}").first.wait_for()
        output = page.locator(".widget-output").first
        assert output.locator("table").count() == 0      # the table is step 3
        page.keyboard.press("Space")                     # the focus stays on the button
        page.get_by_text(f"step 3 of {steps.total}").first.wait_for()
        output.locator("table").first.wait_for()
        assert "Wrong" in output.locator("table").first.inner_text()
        button.scroll_into_view_if_needed()
        page.screenshot(path=str(output_dir / "reveal_step_3.png"))


def test_prayatul_explorer_takes_an_uploaded_file_in_the_browser(browser, output_dir):
    """A lecturer uploads a CSV in the Prayatul explorer and picks its columns: the numbers
    become the library's for those columns (the browser's FileUpload value, not a stand-in)."""
    import numpy as np

    import prayatul_edu as pe
    from prayatul_edu.steps import fmt

    rng = np.random.default_rng(7)
    truth, km, db = rng.integers(0, 3, 40), rng.integers(0, 3, 40), rng.integers(-1, 2, 40)
    path = output_dir / "lecture.csv"
    path.write_text("id,class,km,db\n" + "".join(
        f"{i},{t},{a},{b}\n" for i, (t, a, b) in enumerate(zip(truth, km, db))))
    expected = pe.prayatul_matrix(truth, db, km)          # primary db, alternative km

    def dropdown(label):
        return page.locator(".widget-dropdown:visible").filter(
            has=page.locator("label", has_text=re.compile(rf"^\s*{label}\s*$"))).locator("select")

    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = _open(browser, server)
        page.get_by_role("button", name="own labels").first.click()
        with page.expect_file_chooser() as chooser:      # the browser's own file dialog
            page.get_by_role("button", name="upload CSV/TSV").first.click()
        chooser.value.set_files(str(path))
        page.get_by_text("N = 40 instances from lecture.csv").first.wait_for()
        dropdown("truth").select_option("class")       # primary: class too (the 2nd column)
        _wait_for_cell(page, "BR (both right)", fmt(pe.prayatul_matrix(truth, truth, km).br))
        src_before = _image_src(page)
        dropdown("primary").select_option("db")
        dropdown("alternative").select_option("km")
        _wait_for_cell(page, "BR (both right)", fmt(expected.br))
        _wait_for_cell(page, "RW (primary right only)", fmt(expected.rw))
        _wait_for_cell(page, "comparative deviation σ_c", fmt(expected.comparative_deviation))
        _wait_for_redraw(page, src_before)
        time.sleep(1.0)                                  # let the new image paint
        _shoot(page, output_dir / "prayatul_explorer_own_labels.png")


def test_readme_names_the_commands_the_test_uses():
    readme = (ROOT / "README.md").read_text()
    for command in LECTURE_COMMANDS.values():
        assert command in readme
