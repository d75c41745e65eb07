"""The documentation site (``python3 dev.py docs``): built offline with warnings as errors,
every notebook and guide a page, every link inside it resolving, figures with their alt
text, math from the site itself; and the README as a short entry page."""
from __future__ import annotations

import base64
import hashlib
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import prayatul_edu
from docs_site import ROOT, build

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")


class _Page(HTMLParser):
    """The ids, links, sources and images of one HTML page."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.sources, self.images = set(), [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])
        for key in ("src", "href") if tag in ("script", "img", "link") else ():
            if a.get(key):
                self.sources.append(a[key])
        if tag == "img":
            self.images.append(a)


def _parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def test_every_notebook_and_guide_is_a_page(site):
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("*.ipynb"))
    assert notebooks, "no lecture notebook"
    for name in notebooks:
        assert (site / "notebooks" / f"{name}.html").is_file(), name
    for page in (ROOT / "docs").glob("*.md"):
        assert (site / "docs" / f"{page.stem}.html").is_file(), page.name
    # the index lists them all (glob toctrees: a new notebook or page needs no edit)
    index = _parse(site / "docs" / "index.html")
    linked = {Path(urlsplit(h).path).stem for h in index.links}
    assert set(notebooks) | {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"} \
        <= linked


def test_every_internal_link_resolves(site):
    pages = sorted(site.rglob("*.html"))
    parsed = {p.resolve(): _parse(p) for p in pages}
    checked = 0
    for path, page in parsed.items():
        for href in page.links + page.sources:
            parts = urlsplit(href)
            if parts.scheme or href.startswith(("mailto:", "//")):
                continue
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.exists(), f"{path.relative_to(site)}: {href} leads nowhere"
            if parts.fragment and target.suffix == ".html":
                ids = parsed[target].ids if target in parsed else _parse(target).ids
                assert parts.fragment in ids, f"{path.relative_to(site)}: no #{parts.fragment}"
            checked += 1
    assert checked > 200            # the sidebar alone links every page from every page


def test_nothing_is_fetched_from_the_network(site):
    for path in site.rglob("*.html"):
        for source in _parse(path).sources:
            assert not urlsplit(source).scheme.startswith("http"), (path.name, source)
    page = _parse(site / "notebooks" / "02_information.html")
    mathjax = [s for s in page.sources if "MathJax.js" in s]
    assert mathjax and (site / "notebooks" / urlsplit(mathjax[0]).path).resolve().is_file()
    config = re.search(r"config=([\w-]+)", mathjax[0]).group(1)     # MathJax loads it next
    assert (site / "_static" / "config" / f"{config}.js").is_file(), config
    assert (site / "_static" / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").is_dir()
    html = (site / "notebooks" / "02_information.html").read_text(encoding="utf-8")
    assert html.count('class="math') >= 10      # LaTeX left for MathJax, not as text


def test_notebook_figures_keep_their_alt_text(site):
    seen = 0
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        alts = {}
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            for output in cell.get("outputs", []):
                if "image/png" in output.get("data", {}):
                    digest = hashlib.sha256(base64.b64decode(output["data"]["image/png"]))
                    alts[digest.hexdigest()] = output["metadata"]["image/png"]["alt"]
        images = _parse(site / "notebooks" / f"{notebook.stem}.html").images
        shown = {Path(i["src"]).stem: i.get("alt") for i in images}
        for digest, alt in alts.items():
            assert shown.get(digest) == alt, f"{notebook.name}: a figure without its alt text"
            seen += 1
    assert seen >= 3


def test_api_reference_documents_every_public_function(site):
    page = _parse(site / "docs" / "api.html")
    for name in prayatul_edu.__all__:
        assert f"prayatul_edu.{name}" in page.ids, name
    html = (site / "docs" / "api.html").read_text(encoding="utf-8")
    assert "Parameters" in html and "References" in html and "&gt;&gt;&gt;" in html


def test_benchmark_page_shows_its_plots(site):
    images = _parse(site / "docs" / "performance.html").images
    names = {Path(i["src"]).name for i in images}
    assert {"sweep_k.png", "sweep_d.png"} <= names


# ------------------------------------------------------------------ the README
def test_readme_is_a_short_entry_page_whose_links_resolve():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    for heading in ("## Two commands", "## The course", "## In a lecture", "## Documentation"):
        assert heading in readme
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if not urlsplit(link).scheme]
    assert "docs/compare.md" in local and "docs/performance.md" in local
    for link in local:
        assert (ROOT / link).exists(), f"README links {link}: no such file"
