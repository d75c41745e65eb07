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
from docs_site import PUBLIC_MODULES, ROOT, build
from test_saved_notebooks import WIDGET_VIEW

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
    # the pages, not the assets of _static/ (the book theme ships a template there)
    pages = sorted(p for p in site.rglob("*.html") if p.relative_to(site).parts[0] != "_static")
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


def test_api_reference_is_every_public_name_and_nothing_else(site):
    """The reference's entries of each public module are its ``__all__``: a name added to
    a module without its entry (or an entry of a name that is not public) fails here."""
    import importlib
    import types

    ids = _parse(site / "docs" / "api.html").ids
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        public = set(module.__all__)
        for name in public:
            is_module = isinstance(getattr(module, name), types.ModuleType)
            entry = f"module-{module_name}.{name}" if is_module else f"{module_name}.{name}"
            assert entry in ids, f"{module_name}.{name} is public but not in the API reference"
        documented = {i[len(module_name) + 1:] for i in ids if i.startswith(module_name + ".")}
        documented |= {i[len(module_name) + 8:] for i in ids
                       if i.startswith(f"module-{module_name}.")}
        children = {d for d in documented if "." not in d} - {   # a public module's own
            m[len(module_name) + 1:] for m in PUBLIC_MODULES if m.startswith(module_name + ".")}
        assert children <= public, f"{module_name}: documented, not in __all__: " \
                                   f"{sorted(children - public)}"
    # what the README and the student's guide tell a user to call
    for entry in ("prayatul_edu.exercises.question", "prayatul_edu.exercises.Question.check",
                  "prayatul_edu.exercises.Question.hint",
                  "prayatul_edu.exercises.Question.solution", "prayatul_edu.exercises.progress",
                  "prayatul_edu.exercises.setup", "prayatul_edu.widgets.PrayatulExplorer",
                  "prayatul_edu.widgets.reveal", "prayatul_edu.compare.DatasetResult",
                  "prayatul_edu.compare.read_columns", "prayatul_edu.compare.MEASURES"):
        assert entry in ids, entry


def _widget_views(notebook: Path) -> list:
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    return [out["data"][WIDGET_VIEW]["model_id"] for cell in cells
            for out in cell.get("outputs", []) if WIDGET_VIEW in out.get("data", {})]


def _page_widget_state(html: str) -> dict:
    found = re.search(r'<script type="application/vnd\.jupyter\.widget-state\+json">(.*?)'
                      r"</script>", html, re.S)
    return json.loads(found.group(1)) if found else {}


APP_PAGES = [p for p in sorted((ROOT / "notebooks").glob("*.ipynb")) if _widget_views(p)]


@pytest.mark.parametrize("notebook", APP_PAGES, ids=lambda p: p.stem)
def test_every_page_with_an_app_carries_its_widget_state(site, notebook):
    """The page of a notebook whose outputs show widgets (an app, a reveal) carries their
    saved state, an app's figure as an Image model with its PNG, and loads the widget
    manager from the site itself, so the browser draws it with no kernel."""
    html = (site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
    state = _page_widget_state(html).get("state", {})
    views = _widget_views(notebook)
    assert set(views) <= set(state), "a widget of the page without its state"
    for model_id in views:
        assert f'"model_id": "{model_id}"' in html, "a widget's view is not on the page"
    if "Explorer(" in notebook.read_text(encoding="utf-8"):
        images = [m for m in state.values() if m["model_name"] == "ImageModel"]
        assert images and all(base64.b64decode(m["buffers"][0]["data"]).startswith(b"\x89PNG")
                              for m in images)
    scripts = [s for s in _parse(site / "notebooks" / f"{notebook.stem}.html").sources
               if "embed" in s and s.endswith(".js") or "embed.js" in s]
    assert scripts and all(not urlsplit(s).scheme for s in scripts), scripts
    assert (site / "_static" / "jupyter-widgets" / "embed.js").is_file()


def test_every_lecture_page_shows_a_figure(site):
    """Each lecture's page (01-09) shows at least one figure: a saved figure, or an app
    whose saved state holds its image."""
    lectures = sorted((ROOT / "notebooks").glob("0[1-9]_*.ipynb"))
    assert len(lectures) >= 9
    for notebook in lectures:
        page = site / "notebooks" / f"{notebook.stem}.html"
        images = [i for i in _parse(page).images if (page.parent / i["src"]).is_file()]
        state = _page_widget_state(page.read_text(encoding="utf-8")).get("state", {})
        drawn = [m for m in state.values() if m["model_name"] == "ImageModel"
                 and m.get("buffers")]
        assert images or drawn, f"{notebook.name}: a lecture page without a figure"


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


def test_every_notebook_title_is_numbered_the_same_way():
    """The site's table of contents lists the notebooks by their first heading: each one
    "# NN · Title" (07 and 07a were "07 - ..." among "06 · ..." and "08 · ...")."""
    for notebook in sorted((ROOT / "notebooks").glob("[0-9]*.ipynb")):
        first = json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]
        title = "".join(first["source"]).splitlines()[0]
        number = notebook.stem.split("_")[0]
        assert re.fullmatch(rf"# {number} · \S.*", title), (notebook.name, title)
