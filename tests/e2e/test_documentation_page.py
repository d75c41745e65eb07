"""One page of the documentation site in the browser (helpers: ``voila_pages.py``)."""
from __future__ import annotations


def test_a_documentation_page_in_the_browser(browser, output_dir, problems,
                                              tmp_path_factory):
    """A page of the documentation site (notebook 05, its formulas and figures), served
    from 127.0.0.1: MathJax (shipped in the site) typesets every formula, the figures
    load with their alt text, nothing is fetched from elsewhere, the console stays clean."""
    import functools
    import http.server
    import threading

    from docs_site import build

    site, proc = build(tmp_path_factory)
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
