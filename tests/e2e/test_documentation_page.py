"""Pages of the documentation site in the browser (helpers: ``voila_pages.py``)."""
from __future__ import annotations

from pathlib import Path

from static_pages import served as _served

#: The widget manager's JSON-schema compiler (ajv, bundled in embed.js) warns that its
#: own schema of the widget state uses union types: said once per page, harmless
AJV_STRICT_TYPES = "strict mode: use allowUnionTypes to allow union type keyword"


def test_a_documentation_page_in_the_browser(browser, output_dir, problems,
                                              tmp_path_factory):
    """A page of the documentation site (notebook 05, its formulas and figures), served
    from 127.0.0.1: MathJax (shipped in the site) typesets every formula, the figures
    load with their alt text, nothing is fetched from elsewhere, the console stays clean."""
    from docs_site import build

    site, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with _served(site) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems.watch(page)
        page.goto(f"{address}/notebooks/05_hierarchy.html")
        formulas = page.locator("div.math, span.math").count()
        assert formulas >= 10
        # MathJax 2 typesets each formula (a span.MathJax), then its queue empties
        page.wait_for_function("() => window.MathJax && MathJax.Hub && MathJax.Hub.queue && "
                               "MathJax.Hub.queue.pending === 0 && "
                               "document.querySelectorAll('span.MathJax, div.MathJax_Display')"
                               f".length >= {formulas}", timeout=60_000)
        assert page.locator(".math span.MathJax").count() == formulas   # each one typeset
        assert page.locator(".MathJax .merror, .MathJax_Error").count() == 0
        # the saved figures (the app's figure, drawn from its state, is no <img> with alt)
        images = page.evaluate("() => [...document.images].filter(i => !i.classList"
                               ".contains('widget-image')).map(i => [i.naturalWidth, i.alt])")
        assert len(images) >= 2
        for width, alt in images:
            assert width > 0 and alt.startswith(("Dendrogram", "Three dendrograms")), alt[:60]
        page.screenshot(path=str(output_dir / "docs_05_hierarchy.png"))
        page.close()
    for p in [p for p in problems if AJV_STRICT_TYPES in p]:
        problems.remove(p)


def test_an_app_is_drawn_from_its_saved_state(browser, output_dir, problems,
                                              tmp_path_factory):
    """Notebook 06's page, with no kernel: the HTML widget manager (shipped in the site)
    draws the Prayatul explorer from the saved widget state, its figure a PNG of
    non-blank pixels, its controls where the cell left them, and the reveal beside it;
    nothing is fetched from elsewhere and the console stays clean."""
    import io

    from PIL import Image

    from docs_site import build

    site, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with _served(site) as address:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems.watch(page)
        page.goto(f"{address}/notebooks/06_prayatul.html")
        figure = page.locator("img.widget-image").first
        figure.wait_for(state="visible", timeout=60_000)
        page.wait_for_function("() => { const i = document.querySelector('img.widget-image');"
                               " return i && i.complete && i.naturalWidth > 0; }",
                               timeout=60_000)
        width, height = page.evaluate("() => { const i = document.querySelector("
                                      "'img.widget-image'); return [i.naturalWidth, "
                                      "i.naturalHeight]; }")
        assert width >= 200 and height >= 150
        # the figure's description (its alt text) is its tooltip, as in the notebook
        title = page.evaluate("() => document.querySelector('img.widget-image').title")
        assert title.startswith("Four panels on the noisy_moons data"), title[:80]
        figure.scroll_into_view_if_needed()
        shot = Image.open(io.BytesIO(figure.screenshot())).convert("L")
        histogram = shot.histogram()                 # pixels per grey level 0-255
        inked = sum(histogram[:200]) / sum(histogram)
        assert inked > 0.02, f"the app's figure is blank ({inked:.1%} of its pixels drawn)"
        assert sum(1 for count in histogram if count) > 16   # a drawing, not a flat box
        assert page.locator(".widget-slider, .widget-dropdown, .widget-toggle-buttons"
                            ).count() >= 1           # its controls
        assert page.locator(".jupyter-widgets-disconnected").count() >= 1
        # the reveal at its first step, its Markdown as HTML and its formulas typeset
        reveal = page.locator(".widget-output").filter(has_text="Prayatul matrix: primary")
        reveal.first.wait_for(timeout=60_000)
        assert page.get_by_text("step 1 of").count() >= 1
        assert reveal.first.locator("strong").count() >= 1
        assert "**" not in reveal.first.inner_text()
        page.wait_for_function("() => document.querySelectorAll("
                               "'.widget-output .math .MathJax').length > 0", timeout=60_000)
        page.screenshot(path=str(output_dir / "docs_06_prayatul_app.png"))
        page.close()
    for p in [p for p in problems if AJV_STRICT_TYPES in p]:
        problems.remove(p)


#: A block is cut when its content is wider than its box and it does not scroll
CUT_BLOCKS = """() => [...document.querySelectorAll(
    'div.highlight pre, div.cell_output, div.output, div.math, div.cell_output table')]
  .filter(el => el.scrollWidth > el.clientWidth + 1 &&
                !['auto', 'scroll'].includes(getComputedStyle(el).overflowX))
  .map(el => el.tagName + '.' + el.className + ' ' + el.scrollWidth + ' > ' + el.clientWidth)"""

#: Every formula typeset and every widget's figure loaded: the page at its final width
SETTLED = ("() => (!document.querySelector('script[src*=\"MathJax.js\"]') || window.MathJax "
           "&& MathJax.Hub && MathJax.Hub.queue && MathJax.Hub.queue.pending === 0) && "
           "[...document.querySelectorAll('img.widget-image')].every(i => i.complete) && "
           "document.querySelectorAll('script[type=\"application/vnd.jupyter.widget-view+json\"]')"
           ".length <= document.querySelectorAll('.jupyter-widgets-disconnected').length")

SCREENS_FOR_READING = {"phone": (390, 844), "laptop": (1366, 900)}


def test_pages_fit_a_phone_and_a_laptop(browser, output_dir, problems, tmp_path_factory):
    """Pages 01 and 06 (formulas, tables, code and an app each) on a 390 x 844 phone and a
    1366 px laptop: never wider than the screen, no code or output block cut (a wide one
    scrolls inside itself); the index and the exercises page too; the console clean (no
    font or other file missing). Screenshots of each in test-output/e2e/."""
    from docs_site import build

    site, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pages = ["docs/index.html", "notebooks/01_matching.html", "notebooks/06_prayatul.html",
             "docs/exercises.html"]
    with _served(site) as address:
        for screen, (width, height) in SCREENS_FOR_READING.items():
            for path in pages:
                page = browser.new_page(viewport={"width": width, "height": height})
                problems.watch(page)
                page.goto(f"{address}/{path}")
                page.wait_for_function(SETTLED, timeout=60_000)
                name = Path(path).stem
                page.screenshot(path=str(output_dir / f"{name}_{screen}.png"))
                wide = page.evaluate("document.documentElement.scrollWidth")
                assert wide <= width, f"{path} at {width} px is {wide} px wide"
                assert page.evaluate(CUT_BLOCKS) == [], f"{path} at {width} px"
                page.close()
    for p in [p for p in problems if AJV_STRICT_TYPES in p]:
        problems.remove(p)


def test_a_phone_reads_the_contents_from_a_menu(browser, output_dir, problems,
                                                tmp_path_factory):
    """On a phone the contents are behind a menu button: closed, then opened by a tap,
    with the current page marked; the page's own contents behind another button."""
    from docs_site import build

    site, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    with _served(site) as address:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        problems.watch(page)
        page.goto(f"{address}/notebooks/03_pair_counting.html")
        current = page.locator(".bd-sidebar-primary a.current").first
        assert not current.is_visible()                       # the menu is closed
        page.locator(".header-article-items button.primary-toggle").click()
        current.wait_for(state="visible", timeout=10_000)
        assert current.inner_text().startswith("03 · Pair counting")
        page.screenshot(path=str(output_dir / "menu_open_phone.png"))
        page.keyboard.press("Escape")
        page.locator(".header-article-items button.secondary-toggle").click()
        in_page = page.locator(".bd-sidebar-secondary nav.page-toc a").first
        in_page.wait_for(state="visible", timeout=10_000)
        page.close()
    for p in [p for p in problems if AJV_STRICT_TYPES in p]:
        problems.remove(p)


def test_every_page_fits_a_phone(browser, problems, tmp_path_factory):
    """Every page of the site (guides, API reference, lectures) on a 390 x 844 phone is
    no wider than the screen: a long name in inline code, a link or an API signature
    breaks onto the next line, and a wide table scrolls inside itself."""
    from docs_site import build

    site, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stderr[-3000:]
    pages = sorted(p.relative_to(site).as_posix()
                   for folder in ("docs", "notebooks") for p in (site / folder).glob("*.html"))
    assert len(pages) >= 20, pages
    wide = {}
    with _served(site) as address:
        for path in pages:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            problems.watch(page)
            page.goto(f"{address}/{path}")
            try:
                page.wait_for_function(SETTLED, timeout=120_000)
            except Exception as error:      # which page, not only that one timed out
                raise AssertionError(f"{path} did not settle: {error}") from None
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 390:
                wide[path] = width
            page.close()
    assert wide == {}, f"wider than a 390 px phone: {wide}"
    for p in [p for p in problems if AJV_STRICT_TYPES in p]:
        problems.remove(p)
