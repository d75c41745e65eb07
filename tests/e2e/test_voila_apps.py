"""End to end: the lecture apps, served by Voila, driven in headless Chromium.

A lecturer serves an app full-screen with exactly the command in the README,
``voila notebooks/apps/prayatul.ipynb``, from the repository's root (where
Voila reads ``voila.json``). This test runs that command (on a free port,
without opening a browser), opens the page in Debian's Chromium through
Playwright, moves a slider with the keyboard as a person would, and checks that
the numbers shown become the ones the library computes for the new setting and
that the figure is redrawn. Every page must load with no console error or
warning (but exactly the version warnings of Voila's front end against the widgets'
ones, :func:`_front_end_version_warnings` says why), no failed request and no request
leaving 127.0.0.1 (an offline lecture hall). One page of the documentation site is
opened too: its formulas typeset and its figures shown from the site alone. Reloading the page must not leave kernels behind, and a kernel whose page
vanished is culled. Screenshots of every app at 1280x720 and 1920x1080 go to
``test-output/e2e/``; the time from a key press (or a dropdown change) to the new
figure in the page is written to ``test-output/e2e/figure_latency.json``
(``benchmarks/run.py --only browser`` reports it; no test asserts a time).

Widgets that pass the Python-side tests can still show nothing in a browser
(front-end version mismatches are the usual failure); this is the test that
catches it. It needs the ``chromium`` package (apt) and the ``voila`` and
``playwright`` Python packages; ``.ci/run`` installs them. Without them the test
is skipped - except under CI (``CI=true``), where a missing piece fails it.
"""
from __future__ import annotations

import json
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
    app: f"voila notebooks/apps/{app}.ipynb"
    for app in ("prayatul", "contingency", "pair_counting", "silhouette", "dendrogram", "chance")
}
#: the lecture notebook itself (its step-by-step reveal), served the same way
NOTEBOOK_06 = "voila notebooks/06_prayatul.ipynb"
OUTPUT = ROOT / "test-output" / "e2e"
SCREENS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080)}
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

    def __init__(self, command: str, log_path: Path, extra: tuple[str, ...] = ()):
        self.port = _free_port()
        program, notebook = command.split()
        assert program == "voila"
        self.argv = [sys.executable, "-m", "voila", notebook, "--no-browser",
                     f"--port={self.port}", *extra]
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

    def kernels(self) -> int:
        """How many kernels the server runs now (its ipykernel child processes)."""
        import psutil

        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return 0
        count = 0
        for child in children:
            try:
                count += any("ipykernel" in part for part in child.cmdline())
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                pass
        return count

    def wait_for_kernels(self, at_most: int, timeout: float = 90.0) -> int:
        deadline = time.monotonic() + timeout
        while (n := self.kernels()) > at_most and time.monotonic() < deadline:
            time.sleep(0.5)
        return n

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


def _wait_for_figure_text(page, cell: str, expected: str, timeout: float = 60.0) -> None:
    """Wait until the figure's alt text (its title) gives ``cell = expected``: in lecture
    mode the Prayatul matrix's four cells are in the heatmap only, not in a table."""
    deadline = time.monotonic() + timeout
    title = None
    while time.monotonic() < deadline:
        title = page.locator(".widget-image").first.get_attribute("title") or ""
        if f"{cell} = {expected}," in title or f"{cell} = {expected}." in title:
            return
        time.sleep(0.2)
    raise AssertionError(f"{cell}: the figure says {title!r}, the library computes "
                         f"{expected!r}")


def _wait_for_redraw(page, src_before: str, timeout: float = 30.0) -> None:
    """Wait until the app's figure is no longer the one ``src_before`` showed."""
    deadline = time.monotonic() + timeout
    while _image_src(page) == src_before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _image_src(page) != src_before, "the figure was not redrawn"


def _front_end_version_warnings() -> set[str]:
    """The console warnings of Voila's front end about the widgets' front ends, exactly.

    Voila (0.5.9 and later) ships its page built on JupyterLab's 4.2 core packages. The
    widgets in that page come from two front ends built against later JupyterLabs: Voila's
    own widgets manager (``@voila-dashboards/widgets-manager8``; 0.5.13: ^4.5.10) and
    JupyterLab's widgets extension, which registers the widgets' modules
    (``@jupyter-widgets/jupyterlab-manager`` of jupyterlab_widgets; 3.0.17: ^4.6.2).
    Webpack's shared-module check warns once for each JupyterLab package they ask a newer
    version of than the page has ("Unsatisfied version 4.2.5 ... (required ^4.6.2)", "No
    satisfying version (^4.6.2) ...") and then uses the page's, which has every API they
    call: the tests below see every widget drawn and updated. The three bundles come in
    Voila's and jupyterlab_widgets' wheels, and the widgets extension cannot be left out
    (without it no widget module is registered). These messages, computed from the files
    installed, are the only version warnings a page may give: any other still fails.
    """
    from jupyter_core.paths import jupyter_path

    def newest(folder: Path) -> str:
        entries = sorted(folder.glob("static/remoteEntry.*.js"))
        return entries[0].read_text() if entries else ""

    page, needs = "", []
    for base in map(Path, jupyter_path()):
        if not page and (base / "voila/templates/base/static/voila.js").is_file():
            page = (base / "voila/templates/base/static/voila.js").read_text()
        manager = newest(base / "voila/labextensions/@voila-dashboards/widgets-manager8")
        needs += re.findall(r'"default","(@jupyterlab/[\w-]+)",!1,\[1,(\d+),(\d+),(\d+)\]',
                            manager)
        widgets = newest(base / "labextensions/@jupyter-widgets/jupyterlab-manager")
        needs += re.findall(r'shareKey:"(@jupyterlab/[\w-]+)",import:[^,]*,'
                            r'requiredVersion:"\^(\d+)\.(\d+)\.(\d+)"', widgets)
    core = dict(re.findall(r'\("(@jupyterlab/[\w-]+)","(\d+\.\d+\.\d+)"', page))
    out = set()
    for name, *wanted in needs:
        have = core.get(name)
        if have and tuple(map(int, have.split("."))) < tuple(map(int, wanted)):
            required = "^" + ".".join(wanted)
            source = f"{have} from _JUPYTERLAB.CORE_OUTPUT"
            out.add(f"Unsatisfied version {source} of shared singleton module {name} "
                    f"(required {required})")
            out.add(f"No satisfying version ({required}) of shared module {name} found in "
                    f"shared scope default.\nAvailable versions: {source}")
    return out


class PageProblems(list):
    """Everything a page does wrong: console errors and warnings, failed requests,
    HTTP errors, and any request to a host other than 127.0.0.1."""

    #: Voila's page and the widgets' front ends, built against different JupyterLabs
    FRONT_END_VERSIONS = _front_end_version_warnings()

    #: the page's own "shut my kernel down" beacon, sent while it unloads: the browser
    #: reports it as aborted although the server gets it (the kernel count proves it)
    BEACON = re.compile(r"^http://127\.0\.0\.1:\d+/voila/api/shutdown/[0-9a-f-]+$")

    @staticmethod
    def _superseded(request) -> bool:
        """A figure's in-page object URL dropped before it was read: ipywidgets' Image
        revokes its old ``blob:`` URL when the next figure arrives (or the page is left),
        which the browser reports as an aborted request. Nothing goes over the network."""
        return request.url.startswith("blob:http://127.0.0.1:") and \
            "ERR_ABORTED" in str(request.failure)

    def watch(self, page):
        local = ("http://127.0.0.1:", "ws://127.0.0.1:", "data:", "blob:", "about:")
        page.on("console", lambda m: self.append(f"console {m.type}: {m.text}")
                if m.type == "error" or (m.type == "warning" and m.text not in self.FRONT_END_VERSIONS)
                else None)
        page.on("pageerror", lambda e: self.append(f"page error: {e}"))
        page.on("request", lambda r: None if r.url.startswith(local)
                else self.append(f"request leaves localhost: {r.url}"))
        page.on("requestfailed", lambda r: None
                if self.BEACON.match(r.url) or self._superseded(r)
                else self.append(f"request failed: {r.url} ({r.failure})"))
        page.on("response", lambda r: self.append(f"HTTP {r.status}: {r.url}")
                if r.status >= 400 else None)
        return page


@pytest.fixture
def problems():
    found = PageProblems()
    yield found
    assert list(found) == [], "the page misbehaved:\n" + "\n".join(found)


def _open(browser, server: VoilaServer, problems: PageProblems | None = None,
          viewport=(1400, 1000)):
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    if problems is not None:
        problems.watch(page)
    page.set_default_timeout(120_000)
    page.goto(server.url, wait_until="domcontentloaded")
    page.wait_for_selector(".widget-image", state="attached")
    _wait_for_figure(page)
    return page


def _wait_for_figure(page) -> None:
    """Wait until the figure holds an image (the kernel has drawn it)."""
    page.wait_for_function("() => { const img = document.querySelector('.widget-image');"
                           " return img && img.naturalWidth > 0; }", timeout=120_000)


def test_prayatul_explorer_in_the_browser(browser, output_dir, problems):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import PrayatulModel

    model = PrayatulModel()              # what the notebook shows first
    before = model.matrix
    model.set(primary_k=model.params["primary_k"] + 1)
    after = model.matrix
    assert (after.br, after.rw) != (before.br, before.rw), "pick a change that shows"

    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = _open(browser, server, problems)
        _wait_for_figure_text(page, "BR", fmt(before.br))
        _wait_for_figure_text(page, "RW", fmt(before.rw))
        src_before = _image_src(page)
        assert src_before.startswith(("data:image/png", "blob:")), src_before[:40]
        _shoot(page, output_dir / "prayatul_explorer_before.png")

        _move_slider_right(page, "primary k")

        _wait_for_figure_text(page, "BR", fmt(after.br))
        _wait_for_figure_text(page, "RW", fmt(after.rw))
        _wait_for_cell(page, "comparative deviation σ_c", fmt(after.comparative_deviation))
        _wait_for_redraw(page, src_before)
        _shoot(page, output_dir / "prayatul_explorer_after.png")


def test_silhouette_explorer_in_the_browser(browser, output_dir, problems):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import SilhouetteModel

    model = SilhouetteModel()
    before = float(model.silhouette)
    model.set(k=model.params["k"] + 1)
    after = float(model.silhouette)
    assert fmt(before) != fmt(after)

    with VoilaServer(LECTURE_COMMANDS["silhouette"], output_dir / "voila.log") as server:
        page = _open(browser, server, problems)
        _wait_for_cell(page, "silhouette s", fmt(before))
        src_before = _image_src(page)
        _shoot(page, output_dir / "silhouette_explorer_before.png")

        _move_slider_right(page, "k (KMeans)")

        _wait_for_cell(page, "silhouette s", fmt(after))
        _wait_for_redraw(page, src_before)
        _shoot(page, output_dir / "silhouette_explorer_after.png")


def test_chance_explorer_in_the_browser(browser, output_dir, problems):
    from prayatul_edu.steps import fmt
    from prayatul_edu.widgets import ChanceModel

    model = ChanceModel()
    before = (fmt(float(model.observed["ARI"])), fmt(model.p_values["ARI"]))
    model.set(k=model.params["k"] + 1)
    after = (fmt(float(model.observed["ARI"])), fmt(model.p_values["ARI"]))
    assert before != after

    with VoilaServer(LECTURE_COMMANDS["chance"], output_dir / "voila.log") as server:
        page = _open(browser, server, problems)
        _wait_for_cell(page, "ARI", before[0])
        src_before = _image_src(page)
        _shoot(page, output_dir / "chance_explorer_before.png")

        _move_slider_right(page, "k (clusters)")

        _wait_for_cell(page, "ARI", after[0])
        _wait_for_redraw(page, src_before)
        _shoot(page, output_dir / "chance_explorer_after.png")


def test_reloading_the_page_leaves_no_kernel_behind(browser, output_dir, problems):
    """Each reload starts a kernel; the page's shutdown request must end the old one
    (it used to be refused: 403 '_xsrf' argument missing, one more kernel per reload)."""
    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = _open(browser, server, problems)
        assert server.wait_for_kernels(at_most=1) == 1
        for _ in range(4):
            page.reload(wait_until="domcontentloaded")
            page.wait_for_selector(".widget-image", state="attached")
            _wait_for_figure(page)
        assert server.wait_for_kernels(at_most=1) == 1, "a reload left a kernel running"
        page.goto("about:blank")                     # leaving the page unloads it
        assert server.wait_for_kernels(at_most=0) == 0, "leaving the page kept its kernel"


def test_rapid_reloads_leave_no_kernels_behind(browser, output_dir):
    """Ten reloads 0.4 s apart (a lecturer's impatient F5) start ten kernels. A page left
    once it has its kernel's id (sent before the notebook runs) shuts that kernel down on
    pagehide, even before Voila's own code has loaded; a page left sooner never learns
    the id, and its kernel is culled once idle (voila.json: 60 s, checked every 10 s).
    The time until one kernel is left is written to test-output/e2e/reloads.json."""
    with VoilaServer(LECTURE_COMMANDS["prayatul"], output_dir / "voila.log") as server:
        page = browser.new_page(viewport={"width": 1280, "height": 720})   # the pages left
        page.set_default_timeout(180_000)                # while loading: aborted requests
        page.goto(server.url, wait_until="commit")
        for _ in range(10):
            page.wait_for_timeout(400)
            page.reload(wait_until="commit")
        started = time.monotonic()
        _wait_for_figure(page)                      # the last page works
        left = server.wait_for_kernels(at_most=1, timeout=180)
        seconds = round(time.monotonic() - started, 1)
        OUTPUT.mkdir(parents=True, exist_ok=True)
        (OUTPUT / "reloads.json").write_text(json.dumps(
            {"reloads": 10, "apart_s": 0.4, "kernels_left": left,
             "seconds_until_one_kernel": seconds}, indent=2))
        assert left == 1, f"{left} kernels after the reloads"
        page.goto("about:blank")
        assert server.wait_for_kernels(at_most=0) == 0, "leaving the page kept its kernel"


def test_a_vanished_page_has_its_kernel_culled(browser, output_dir):
    """A page that goes away without a word (a crashed tab) leaves its kernel idle;
    the culler of voila.json ends it. The timeout is shortened for the test only, but
    kept longer than a page takes to connect: Voila runs the notebook before the page
    opens its websocket, and a kernel idle with no page yet would be culled too."""
    config = json.loads((ROOT / "voila.json").read_text())
    culling = config["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and culling["cull_connected"] is False
    assert config["Voila"]["tornado_settings"]["disable_check_xsrf"] is True
    fast = ("--MappingKernelManager.cull_idle_timeout=30",
            "--MappingKernelManager.cull_interval=2")
    with VoilaServer(LECTURE_COMMANDS["dendrogram"], output_dir / "voila.log", fast) as server:
        page = _open(browser, server)
        assert server.wait_for_kernels(at_most=1) == 1
        page.wait_for_timeout(35_000)                # connected: idle, but never culled
        assert server.kernels() == 1, "a kernel with its page still open was culled"
        page.close(run_before_unload=False)          # no shutdown request is sent
        assert server.wait_for_kernels(at_most=0, timeout=120) == 0, \
            "the idle kernel was not culled"


def _overflow(page) -> list[str]:
    """What of the app lies outside the viewport: figure, controls, numbers, scrollbars.

    A part inside one of the app's own scrolling boxes (the numbers beside the figure
    scroll in theirs) counts with the part of it that box shows: the box must lie inside
    the screen, and what it holds is reached by scrolling the box, not the page. Only
    boxes inside the app (``.pe-app``) count, so a scrolling page container of Voila's
    cannot hide an app that is too large."""
    return page.evaluate("""() => {
        const out = [], w = window.innerWidth, h = window.innerHeight;
        const parts = document.querySelectorAll(
            '.widget-image, .widget-slider, .widget-dropdown, .widget-text, .widget-textarea,'
            + ' .widget-html table, .widget-html pre');
        const shown = (el) => {
            const r = el.getBoundingClientRect();
            let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
            const app = el.closest('.pe-app');
            for (let a = el.parentElement; app && a && a !== app; a = a.parentElement) {
                const s = getComputedStyle(a);
                if (!/(auto|scroll)/.test(s.overflowX + ' ' + s.overflowY)) continue;
                const c = a.getBoundingClientRect();
                [left, top] = [Math.max(left, c.left), Math.max(top, c.top)];
                [right, bottom] = [Math.min(right, c.right), Math.min(bottom, c.bottom)];
            }
            return {left, top, right, bottom, width: r.width, height: r.height};
        };
        for (const el of parts) {
            const r = shown(el);
            if (r.width === 0 && r.height === 0) continue;
            if (r.left < -1 || r.top < -1 || r.right > w + 1 || r.bottom > h + 1)
                out.push(`${el.className.split(' ')[0] || el.tagName}: ` +
                         `${Math.round(r.left)},${Math.round(r.top)} to ` +
                         `${Math.round(r.right)},${Math.round(r.bottom)} in ${w}x${h}`);
        }
        const root = document.scrollingElement;
        if (root.scrollHeight > h + 1) out.push(`page scrolls: ${root.scrollHeight} > ${h}`);
        if (root.scrollWidth > w + 1) out.push(`page scrolls sideways: ${root.scrollWidth} > ${w}`);
        return out;
    }""")


#: Every box that scrolls: the page, Voila's ``#rendered_cells`` (which scrolls instead of
#: the page in the lab template), and any element of computed overflow auto or scroll
#: whose content is larger than its box (a numbers box capped in height, a derivation
#: scrolling sideways). Each as ``{box, scroll: [w, h], client: [w, h]}``. Text boxes
#: (a pasted table of 40 rows) scroll by nature and are left out.
SCROLLING = """() => {
    const found = [], seen = new Set();
    const describe = (el) => el === document.scrollingElement ? 'page'
        : el.id ? '#' + el.id
        : el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 3).join('.');
    const check = (el, always) => {
        if (!el || seen.has(el)) return;
        seen.add(el);
        const s = getComputedStyle(el);
        if (!always && !/(auto|scroll)/.test(s.overflowX + ' ' + s.overflowY)) return;
        if (s.display === 'none') return;
        if (el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1)
            found.push({box: describe(el), scroll: [el.scrollWidth, el.scrollHeight],
                        client: [el.clientWidth, el.clientHeight]});
    };
    check(document.scrollingElement, true);
    check(document.getElementById('rendered_cells'), true);
    // a text box scrolls through what was typed or pasted into it: input, not a view
    for (const el of document.querySelectorAll('body *'))
        if (!el.matches('textarea, input, select')) check(el, false);
    return found;
}"""


def _scrolling(page) -> list[str]:
    """Every box of the page that scrolls (see ``SCROLLING``), as readable lines."""
    return [f"{b['box']} scrolls: {b['scroll'][0]}x{b['scroll'][1]} in "
            f"{b['client'][0]}x{b['client'][1]}" for b in page.evaluate(SCROLLING)]


#: apps whose lecture mode is known to overflow a screen; each app gets its screenshots
#: and its overflow list in test-output/e2e/screens/<app>_overflow.json. Both show a whole
#: derivation beside the figure, longer than a screen is tall: pair counting lists every
#: pair (1437 px in 551 at 1280x720, in 949 at 1920x1080); the contingency explorer's
#: purity is 38 px too tall at 1280x720, and with own labels and the reveal on, 72 px.
KNOWN_OVERFLOW: set[str] = {"pair_counting", "contingency"}

#: the states of an app a lecturer shows besides its first one, per app: each is measured
#: and photographed at both sizes (a new app joins with its name and its states here)
STATES = {
    "prayatul": ("reveal on", "own labels"),
    "contingency": ("reveal on", "own labels"),
    "silhouette": (),
    "dendrogram": (),
    "pair_counting": (),
    "chance": (),
}
#: own labels as a lecturer pastes them (40 instances, a header row, an id column)
OWN_LABELS = "id,class,km,db\n" + "".join(f"{i},{i % 3},{i * 7 % 3},{i * 5 % 4 - 1}\n"
                                            for i in range(40))


def _enter_state(page, state: str) -> None:
    """Put the app in ``state`` as a lecturer would (a click, a paste)."""
    src = _image_src(page)
    if state == "reveal on":
        page.get_by_role("button", name="reveal step by step").first.click()
        page.get_by_text(re.compile(r"step 1 of \d+")).first.wait_for()
    elif state == "own labels":
        page.get_by_role("button", name="own labels").first.click()
        box = page.locator(".widget-textarea textarea:visible").first
        box.fill(OWN_LABELS)
        box.press("Tab")                                  # leaving the box sends it
        page.get_by_text("N = 40 instances").first.wait_for()
        _wait_for_redraw(page, src, timeout=60)
    else:                                                 # pragma: no cover - a typo
        raise ValueError(f"state: no state {state!r}")
    page.wait_for_timeout(800)                            # let the new figure paint


#: What a screen reader needs and only the page can give (the template's script):
#: a name on every slider handle, aria-pressed on every toggle button (matching what
#: it shows), and live regions holding the numbers and the messages.
ACCESSIBILITY = """() => {
    const out = [];
    for (const h of document.querySelectorAll('.widget-slider .noUi-handle'))
        if (!(h.getAttribute('aria-label') || '').trim())
            out.push('a slider handle has no aria-label');
    for (const b of document.querySelectorAll(
            '.widget-toggle-button, .widget-toggle-buttons button')) {
        const pressed = b.getAttribute('aria-pressed');
        if (pressed !== String(b.classList.contains('mod-active')))
            out.push(`toggle ${b.textContent.trim()}: aria-pressed=${pressed}`);
    }
    const live = [...document.querySelectorAll('[aria-live]')];
    if (!live.some(r => r.querySelector('table')))
        out.push('no aria-live region holds the numbers');
    if (live.length < 2) out.push(`${live.length} aria-live regions (numbers and messages)`);
    return out;
}"""


def _normal_mode_notebook(app: str) -> str:
    """The app notebook with lecture=False, written under test-output (served the same way)."""
    source = ROOT / "notebooks" / "apps" / f"{app}.ipynb"
    text = source.read_text()
    assert "(lecture=True)" in text
    target = OUTPUT / "normal" / f"{app}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text.replace("(lecture=True)", "(lecture=False)"))
    return f"voila {target.relative_to(ROOT)}"


@pytest.mark.parametrize("app", sorted(LECTURE_COMMANDS))
def test_every_app_fits_a_projector(browser, app, problems):
    """Screenshots at 1280x720 and 1920x1080 in lecture mode (in each of the app's
    ``STATES`` too) and in normal mode (test-output/e2e/screens/); in lecture mode
    figure, controls and numbers all lie inside the screen and no box scrolls: not the
    page, not Voila's #rendered_cells, not any box of overflow auto or scroll. Slider
    handles, toggle buttons and live regions are checked for a screen reader."""
    folder = OUTPUT / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    overflow, unnamed = {}, {}
    for mode, command in (("lecture", LECTURE_COMMANDS[app]),
                          ("normal", _normal_mode_notebook(app))):
        with VoilaServer(command, folder / f"{app}_{mode}_voila.log") as server:
            for size, viewport in SCREENS.items():
                page = _open(browser, server, problems, viewport=viewport)
                page.wait_for_timeout(500)               # let the image paint
                page.screenshot(path=str(folder / f"{app}_{size}_{mode}.png"))
                if mode == "lecture":
                    overflow[size] = _overflow(page) + _scrolling(page)
                    unnamed[size] = page.evaluate(ACCESSIBILITY)
                    for state in STATES[app]:
                        _enter_state(page, state)
                        shot = f"{app}_{size}_{mode}_{state.replace(' ', '_')}.png"
                        page.screenshot(path=str(folder / shot))
                        overflow[f"{size} {state}"] = _overflow(page) + _scrolling(page)
                        unnamed[f"{size} {state}"] = page.evaluate(ACCESSIBILITY)
                page.goto("about:blank")
                page.close()
    (folder / f"{app}_overflow.json").write_text(json.dumps(overflow, indent=2))
    assert unnamed == {key: [] for key in unnamed}
    if any(overflow.values()) and app in KNOWN_OVERFLOW:
        pytest.xfail(f"{app}: lecture mode does not fit yet: {overflow}")
    assert overflow == {key: [] for key in overflow}


#: per app: (what to change, how) - a slider moved one step right with the arrow key
#: (every step a value not seen before: nothing comes from the apps' caches of data sets,
#: clusterings, silhouettes and trees), a dropdown set to another option, or labels typed anew (the
#: same labels rotated by one, then Enter: results are never cached, and only the fifth
#: rotation of the pair-counting app's five labels gives labels typed before); every
#: change redraws the figure. Cached all the same: the dendrogram app's tree per data
#: set and linkage (of the 5 linkage changes through its 7 options, the 2nd returns to
#: the first linkage, whose tree was built when the page opened; building one of 30
#: points takes under 1 ms), and everywhere the glyph images of a text drawn before
#: (widgets/rendering.py: a title or leaf name met before is not rasterised again).
CHANGES = {
    "prayatul": [("slider", "primary k"), ("slider", "seed")],
    "silhouette": [("slider", "k (KMeans)"), ("slider", "seed")],
    "dendrogram": [("dropdown", "linkage"), ("slider", "seed")],
    "contingency": [("text", "clusters")],
    "pair_counting": [("text", "clusters")],
    "chance": [("slider", "k (clusters)"), ("dropdown", "measure")],
}
REPEATS = 5

_LATENCY_PROBE = """() => {
    const img = document.querySelector('.widget-image');
    window.__figureChanges = [];
    window.__inputAt = null;
    const stamp = e => { if (window.__inputAt === null) window.__inputAt = performance.now(); };
    document.addEventListener('keydown', stamp, true);
    document.addEventListener('change', stamp, true);
    document.addEventListener('input', stamp, true);
    new MutationObserver(() => {
        if (window.__inputAt !== null) {
            window.__figureChanges.push(performance.now() - window.__inputAt);
            window.__inputAt = null;
        }
    }).observe(img, {attributes: true, attributeFilter: ['src']});
}"""


def _dropdown(page, label: str):
    return page.locator(".widget-dropdown").filter(
        has=page.locator("label.widget-label", has_text=re.compile(rf"^\s*{re.escape(label)}\s*$")))


def _change(page, kind: str, label: str, step: int) -> bool:
    """Make one change; False when this control cannot change any more."""
    if kind == "slider":
        handle = _slider(page, label).locator(".noUi-handle").first
        handle.focus()
        handle.press("ArrowRight")
        return True
    if kind == "text":
        box = page.locator(".widget-text").filter(
            has=page.locator("label.widget-label", has_text=re.compile(
                rf"^\s*{re.escape(label)}\s*$"))).locator("input").first
        labels = box.input_value().split()
        box.fill(" ".join(labels[1:] + labels[:1]))
        box.press("Enter")
        return True
    select = _dropdown(page, label).locator("select").first
    options = select.locator("option").all_inner_texts()
    current = select.evaluate("s => s.options[s.selectedIndex].text")
    others = [o for o in options if o != current]
    if not others:
        return False
    select.select_option(label=others[step % len(others)])
    return True


def _figure_latencies(page, changes) -> dict[str, list[float]]:
    page.evaluate(_LATENCY_PROBE)
    times = {}
    for kind, label in changes:
        times[label] = []
        for step in range(REPEATS):
            before = page.evaluate("() => window.__figureChanges.length")
            if not _change(page, kind, label, step):
                break
            page.wait_for_function(f"() => window.__figureChanges.length > {before}",
                                   timeout=60_000)
            times[label].append(page.evaluate("() => window.__figureChanges.at(-1)"))
            page.evaluate("() => { window.__inputAt = null; }")
    return times


def test_figure_update_times_are_recorded(browser, output_dir, problems):
    """From the input (key press, dropdown change, Enter in a text box) to the new figure
    in the DOM, per app, lecture mode at 1280x720: medians written to
    test-output/e2e/figure_latency.json. Recorded, not asserted. The sliders move to new
    values only (see ``CHANGES`` for what is cached nevertheless)."""
    import statistics

    results = {}
    for app, changes in CHANGES.items():
        with VoilaServer(LECTURE_COMMANDS[app], output_dir / f"{app}_voila.log") as server:
            page = _open(browser, server, problems, viewport=SCREENS["1280x720"])
            times = _figure_latencies(page, changes)
            page.goto("about:blank")
            page.close()
        every = [t for ts in times.values() for t in ts]
        assert every, f"{app}: no change redrew the figure"
        results[app] = {"median_ms": round(statistics.median(every), 1), "changes": len(every),
                        "per_control_ms": {k: [round(t, 1) for t in v] for k, v in times.items()}}
        OUTPUT.mkdir(parents=True, exist_ok=True)                 # written app by app
        (OUTPUT / "figure_latency.json").write_text(json.dumps(
            {"browser": "chromium (headless)", "viewport": "1280x720", "apps": results},
            indent=2))
    assert set(results) == set(CHANGES)


def test_reveal_steps_through_a_derivation_with_the_keyboard(browser, output_dir):
    """Notebook 06 reveals its small example step by step: Tab to "Next step", then Enter
    and Space each show one more step, as a lecturer with a keyboard or remote would."""
    import prayatul_edu as pe
    from prayatul_edu.widgets import StepReveal

    steps = StepReveal(pe.prayatul_matrix(truth=[0, 0, 1, 1], primary=["a", "a", "a", "a"],
                                          alternative=[7, 7, -1, -1]))
    assert [b.kind for b in steps.next().next().derivation().blocks] == ["text", "text", "table"]
    with VoilaServer(NOTEBOOK_06, output_dir / "voila.log") as server:
        page = _open(browser, server)
        page.get_by_text(f"step 1 of {steps.total}").first.wait_for()
        button = page.get_by_role("button", name="Next step").first
        # its icon is drawn offline: the page took Font Awesome from the local server
        # (the template drops the CDN links), so the glyph has a loaded font and a width
        icon = page.evaluate("""() => {
            const i = [...document.querySelectorAll('button i.fa')][0];
            const before = getComputedStyle(i, '::before');
            return {family: before.fontFamily, width: i.getBoundingClientRect().width,
                    loaded: [...document.fonts].some(
                        f => f.family.replace(/"/g, '') === 'Font Awesome 5 Free'
                             && f.status === 'loaded')};
        }""")
        assert "Font Awesome" in icon["family"] and icon["loaded"], icon
        assert icon["width"] > 4, icon
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
        # the first columns that are not id-like (every value distinct): class, km, db
        _wait_for_figure_text(page, "BR", fmt(pe.prayatul_matrix(truth, km, db).br))
        src_before = _image_src(page)
        dropdown("primary").select_option("db")
        dropdown("alternative").select_option("km")
        _wait_for_figure_text(page, "BR", fmt(expected.br))
        _wait_for_figure_text(page, "RW", fmt(expected.rw))
        _wait_for_cell(page, "comparative deviation σ_c", fmt(expected.comparative_deviation))
        _wait_for_redraw(page, src_before)
        time.sleep(1.0)                                  # let the new image paint
        _shoot(page, output_dir / "prayatul_explorer_own_labels.png")


def test_readme_names_the_commands_the_test_uses():
    readme = (ROOT / "README.md").read_text()
    for command in LECTURE_COMMANDS.values():
        assert command in readme


def test_a_documentation_page_in_the_browser(browser, output_dir, problems):
    """A page of the documentation site (notebook 05, its formulas and figures), served
    from 127.0.0.1: MathJax (shipped in the site) typesets every formula, the figures
    load with their alt text, nothing is fetched from elsewhere, the console stays clean."""
    import functools
    import http.server
    import threading

    from docs_site import build

    site, proc = build()
    assert proc.returncode == 0, proc.stderr[-3000:]
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems.watch(page)
        page.goto(f"http://127.0.0.1:{server.server_address[1]}/notebooks/05_hierarchy.html")
        formulas = page.locator("div.math, span.math").count()
        assert formulas >= 10
        # MathJax 2 typesets each formula (a span.MathJax), then its queue empties
        page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue && "
                               "MathJax.Hub.queue.pending === 0 && "
                               "document.querySelectorAll('span.MathJax, div.MathJax_Display')"
                               f".length >= {formulas}", timeout=60_000)
        assert page.locator(".math span.MathJax").count() == formulas   # each one typeset
        assert page.locator(".MathJax .merror, .MathJax_Error").count() == 0
        images = page.evaluate("() => [...document.images].map(i => [i.naturalWidth, i.alt])")
        assert len(images) >= 2
        for width, alt in images:
            assert width > 0 and alt.startswith(("Dendrogram", "Three dendrograms")), alt[:60]
        page.screenshot(path=str(output_dir / "docs_05_hierarchy.png"))
        page.close()
    finally:
        server.shutdown()
