"""The six apps in normal mode (lecture=False, as the course's notebooks show them), on one
page served by Voila: each draws its figure, the page stays clean (helpers and what every
page is checked for: ``voila_pages.py``)."""
from __future__ import annotations

from voila_pages import (LECTURE_COMMANDS, OUTPUT, PAGE_LOAD_S, SCREENS, close_page, open_page,
                         painted)

#: n app boxes, each showing a figure that holds an image (the kernel has drawn them all)
_ALL_DRAWN = """n => { const apps = [...document.querySelectorAll('.pe-app')];
    return apps.length >= n && apps.every(a => [...a.querySelectorAll('.widget-image')]
        .some(i => i.naturalWidth > 0)); }"""


def test_every_app_in_normal_mode_on_one_page(browser, servers, problems):
    """One page holds the six apps, one cell each, in the order of ``LECTURE_COMMANDS``;
    each is drawn (its figure an image), and photographed at 1280x720 and 1920x1080
    (test-output/e2e/screens/<app>_<size>_normal.png). No console error, failed request
    or request leaving 127.0.0.1 (``problems``)."""
    page = open_page(browser, servers.normal(), problems, viewport=SCREENS["1280x720"])
    apps = list(LECTURE_COMMANDS)
    page.wait_for_function(_ALL_DRAWN, arg=len(apps), timeout=PAGE_LOAD_S * 1000)
    boxes = page.locator(".pe-app")
    assert boxes.count() == len(apps), "one app box per cell"
    folder = OUTPUT / "screens"
    folder.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SCREENS.items():
        page.set_viewport_size({"width": width, "height": height})
        painted(page)
        for k, app in enumerate(apps):
            box = boxes.nth(k)
            box.scroll_into_view_if_needed()
            assert box.bounding_box()["width"] > 0.5 * width, f"{app}: a narrow box at {size}"
            box.screenshot(path=str(folder / f"{app}_{size}_normal.png"))
    close_page(page)
