"""What a page leaves on the server: reloading, reloading impatiently, or vanishing must
not leave kernels running (each holds its notebook's memory: ten are 2.3 GB). The count
is the server's ipykernel processes (helpers: ``voila_pages.py``)."""
from __future__ import annotations

import json
import time

from voila_pages import (
    CHANGES,
    LECTURE_COMMANDS,
    OUTPUT,
    PAGE_LOAD_S,
    ROOT,
    change,
    close_page,
    image_src,
    open_page,
    wait_for_figure,
    wait_for_redraw,
)

#: Ten reloads 0.4 s apart must be down to one kernel this soon after the last reload
#: (the kernels of the pages left while they loaded end as their requests are dropped;
#: measured: about 1 s, quiet or busy). The lecture's own limit: "within seconds".
RAPID_RELOADS_SETTLE_S = 10
#: The culler's idle time in the test of a vanished page (voila.json: a minute): far
#: longer than a page takes from the end of its notebook's run (the page's HTML is whole)
#: to opening its websocket, while its kernel is idle and unconnected (measured on 2
#: cores: 0.5-0.9 s, also with four busy processes beside it).
CULL_IDLE_S = 8
#: The app whose pages are reloaded, left and culled here. What is tested is the server's
#: kernel manager and culler, the same for every app; the contingency app is the lightest
#: to load (the CPU of making an app: contingency 0.8 s, prayatul 2.5 s, dendrogram 3.0 s).
APP = "contingency"


def test_reloading_the_page_leaves_no_kernel_behind(browser, servers, problems):
    """A reload starts a kernel; the page's shutdown request must end the old one (it
    used to be refused: 403 '_xsrf' argument missing, one more kernel per reload)."""
    server = servers.lecture(APP)
    page = open_page(browser, server, problems)
    assert server.wait_for_kernels(at_most=1) == 1
    page.reload(wait_until="commit", timeout=PAGE_LOAD_S * 1000)
    page.wait_for_selector(".widget-image", state="attached")
    wait_for_figure(page)
    assert server.wait_for_kernels(at_most=1) == 1, "the reload left a kernel running"
    close_page(page)                             # leaving the page unloads it
    assert server.wait_for_kernels(at_most=0) == 0, "leaving the page kept its kernel"


def test_rapid_reloads_leave_no_kernels_behind(browser, servers):
    """Ten reloads 0.4 s apart (a lecturer's impatient F5) start ten kernels. A page left
    while it loads closes the connection of its request, and the server's kernel manager
    (voila.json: prayatul_edu.widgets.serving.LectureKernelManager) shuts its kernel down
    at once, whether the kernel had started or not; a page left once it has arrived shuts
    its kernel down itself (pagehide). Within ``RAPID_RELOADS_SETTLE_S`` of the last reload
    one kernel is left, the last page's, and that page works. The kernel count, second by
    second, is written to test-output/e2e/reloads.json."""
    server = servers.lecture(APP)
    assert server.wait_for_kernels(at_most=0) == 0
    page = browser.new_page(viewport={"width": 1280, "height": 720})   # the pages left
    page.set_default_timeout(PAGE_LOAD_S * 1000)      # while loading: aborted requests
    page.goto(server.url, wait_until="commit")
    for _ in range(10):
        page.wait_for_timeout(400)
        page.reload(wait_until="commit")
    started = time.monotonic()
    timeline, settled = [], None
    while time.monotonic() - started < RAPID_RELOADS_SETTLE_S + 5:
        count = server.kernels()
        timeline.append([round(time.monotonic() - started, 1), count])
        if count <= 1 and settled is None:
            settled = timeline[-1][0]
        if settled is not None and time.monotonic() - started > settled + 2:
            break                                    # and stays there
        time.sleep(0.25)
    wait_for_figure(page)                            # the last page works
    figure_after = round(time.monotonic() - started, 1)
    left = server.kernels()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    (OUTPUT / "reloads.json").write_text(json.dumps(
        {"reloads": 10, "apart_s": 0.4, "seconds_until_one_kernel": settled,
         "kernels_left": left, "last_page_drawn_after_s": figure_after,
         "kernels_after_last_reload": timeline}, indent=2))
    assert settled is not None and settled <= RAPID_RELOADS_SETTLE_S, \
        f"kernels after the last reload (seconds, count): {timeline}"
    assert left == 1, f"{left} kernels once the last page was drawn"
    close_page(page)
    assert server.wait_for_kernels(at_most=0) == 0, "leaving the page kept its kernel"


def test_a_vanished_page_has_its_kernel_culled(browser, servers):
    """A page that goes away without a word (a crashed tab) leaves its kernel idle;
    the culler of voila.json ends it, but never the kernel of a page still open, however
    long idle. The timeout is shortened for the test only (``CULL_IDLE_S``), but kept
    longer than a page takes to connect: Voila runs the notebook before the page opens
    its websocket, and a kernel idle with no page yet would be culled too. Two pages:
    the first stays open, the second vanishes; when the second's kernel is culled, the
    first's has been idle longer, and must still answer."""
    config = json.loads((ROOT / "voila.json").read_text())
    culling = config["MappingKernelManager"]
    assert culling["cull_idle_timeout"] > 0 and culling["cull_connected"] is False
    assert config["Voila"]["tornado_settings"]["disable_check_xsrf"] is True
    fast = (f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_S}",
            "--MappingKernelManager.cull_interval=1")
    server = servers.get(f"{APP}_fast_culling", LECTURE_COMMANDS[APP], fast)
    stays = open_page(browser, server)
    vanishes = open_page(browser, server)
    assert server.wait_for_kernels(at_most=2) == 2
    vanishes.close(run_before_unload=False)          # no shutdown request is sent
    assert server.wait_for_kernels(at_most=1, timeout=120) == 1, \
        "the idle kernel of the vanished page was not culled"
    src = image_src(stays)                           # the one left is the open page's:
    change(stays, *CHANGES[APP][0], step=0)          # it still answers
    wait_for_redraw(stays, src)
    assert server.kernels() == 1
    close_page(stays)
    assert server.wait_for_kernels(at_most=0) == 0, "leaving the page kept its kernel"
