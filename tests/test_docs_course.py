"""The documentation site as a course a student can take (docs/_ext/course_site.py and the
book theme): every lecture and exercise notebook to download from its page, each app said
to be a picture with its controls disabled, the theme's navigation, the guides in reading
order, and launch links only when a repository is configured.
The site is built once per run (``docs_site.build``); the browser's view of it on a phone
is in tests/e2e/test_documentation_page.py."""
from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from docs_site import ROOT, build
from test_docs import APP_PAGES, _page_widget_state, _parse, _widget_views

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")
pytest.importorskip("sphinx_book_theme")

LECTURES = sorted((ROOT / "notebooks").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    out, proc = build(tmp_path_factory)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr
    return out


def _linked_files(page: Path) -> dict:
    """The files of the site that ``page`` links (not pages): path -> its bytes."""
    out = {}
    for href in _parse(page).links:
        parts = urlsplit(href)
        if parts.scheme or not parts.path or parts.path.endswith(".html"):
            continue
        target = (page.parent / unquote(parts.path)).resolve()
        if target.is_file():
            out[target] = target.read_bytes()
    return out


# ------------------------------------------------------------------ downloads
@pytest.mark.parametrize("notebook", LECTURES, ids=lambda p: p.stem)
def test_every_lecture_page_offers_its_notebook(site, notebook):
    """A lecture's page links its own .ipynb, present in the site byte for byte (the line
    under its title and the theme's download button), and says how to run it."""
    page = site / "notebooks" / f"{notebook.stem}.html"
    linked = [path for path, data in _linked_files(page).items()
              if data == notebook.read_bytes()]
    assert linked, f"{page.name} links no copy of {notebook.name}"
    assert all(path.name == notebook.name for path in linked)   # saved under its own name
    html = page.read_text(encoding="utf-8")
    line = re.search(r'<div class="notebook-download[^"]*">(.*?)</div>', html, re.S)
    assert line and notebook.name in line.group(1), "no download line under the title"
    assert "install.html#running-a-notebook-from-the-site" in line.group(1)
    # the theme's download button offers the same file
    button = re.search(r'<a href="([^"]+)"[^>]*btn-download-source-button', html)
    assert button and button.group(1) == f"../_sources/notebooks/{notebook.name}", \
        "the download button does not offer the notebook"


def test_exercises_page_links_every_exercise_notebook(site):
    """The exercises page links each exercise notebook (a copy in the site, byte for byte,
    none missing) and each one's lecture, and says how to run it."""
    page = site / "docs" / "exercises.html"
    offered = set(_linked_files(page).values())
    assert len(EXERCISES) >= 8
    for notebook in EXERCISES:
        assert notebook.read_bytes() in offered, f"exercises page: no {notebook.name}"
    links = {Path(urlsplit(h).path).name for h in _parse(page).links}
    for notebook in EXERCISES:
        assert f"{notebook.stem}.html" in links, f"no link to lecture {notebook.stem}"
    html = page.read_text(encoding="utf-8")
    assert "install.html#running-a-notebook-from-the-site" in html
    text = " ".join(re.sub(r"<[^>]+>", " ", html).split())
    assert ".venv/bin/jupyter lab 01_matching.ipynb" in text


def test_install_page_says_how_to_run_a_downloaded_notebook(site):
    html = (site / "docs" / "install.html").read_text(encoding="utf-8")
    section = re.search(r'<section id="running-a-notebook-from-the-site">(.*?)</section>',
                        html, re.S)
    assert section, "the install page has no section the download links point to"
    text = " ".join(re.sub(r"<[^>]+>", " ", section.group(1)).split())
    assert "dev.py setup" in text and "jupyter lab" in text


# ------------------------------------------------------------------ the apps, static
@pytest.mark.parametrize("notebook", APP_PAGES, ids=lambda p: p.stem)
def test_every_static_app_says_it_is_a_picture_and_its_controls_are_disabled(site,
                                                                             notebook):
    """Above each output holding widgets (an app, a reveal) a note says that it is a
    picture and how to make it live; every control of the page's saved widget state (a
    model with a ``disabled`` attribute) is drawn disabled."""
    html = (site / "notebooks" / f"{notebook.stem}.html").read_text(encoding="utf-8")
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    outputs_with_widgets = sum(
        1 for cell in cells for out in cell.get("outputs", [])
        if "application/vnd.jupyter.widget-view+json" in out.get("data", {}))
    notes = re.findall(r'<div class="static-app-note[^"]*">(.*?)</div>\s*<script '
                       r'type="application/vnd\.jupyter\.widget-view\+json">', html, re.S)
    assert len(notes) == outputs_with_widgets == len(_widget_views(notebook))
    for note in notes:
        assert "picture" in note and "greyed out" in note
        assert f"_sources/notebooks/{notebook.name}" in note      # how to make it live
    state = _page_widget_state(html)["state"]
    controls = [m for m in state.values() if "disabled" in m["state"]]
    assert controls, "no control in the saved state"
    live = [m["model_name"] for m in controls if m["state"]["disabled"] is not True]
    assert not live, f"controls drawn as if they worked: {live}"


def test_disabling_keeps_the_rest_of_the_state():
    """Only ``disabled`` changes; the notebook's own state is not modified."""
    import sys

    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    from course_site import disabled_state

    saved = {"version_major": 2, "state": {
        "a": {"model_name": "IntSliderModel", "state": {"value": 3, "disabled": False}},
        "b": {"model_name": "ImageModel", "state": {"width": "100%"}},
        "c": {"model_name": "ButtonModel", "state": {"description": "Next step",
                                                     "disabled": False}}}}
    out = disabled_state(saved)
    assert out["state"]["a"]["state"] == {"value": 3, "disabled": True}
    assert out["state"]["b"]["state"] == {"width": "100%"}
    assert out["state"]["c"]["state"]["disabled"] is True
    assert saved["state"]["a"]["state"]["disabled"] is False        # a copy


# ------------------------------------------------------------------ navigation
def test_a_lecture_page_has_the_books_navigation(site):
    """Previous/next, the page's own contents, the current page marked in the contents,
    and the menu button a phone shows the contents with."""
    page = site / "notebooks" / "03_pair_counting.html"
    html = page.read_text(encoding="utf-8")
    prev_next = re.search(r'<div class="prev-next-area">(.*?)</div>\s*</footer>', html, re.S)
    assert prev_next, "no previous/next links"
    assert 'href="02_information.html"' in prev_next.group(1)
    assert 'href="04_silhouette_graph.html"' in prev_next.group(1)
    toc = re.search(r'<nav id="pst-page-toc-nav" class="page-toc"[^>]*>(.*?)</nav>', html,
                    re.S)
    assert toc, "no in-page contents"
    ids = _parse(page).ids
    anchors = re.findall(r'href="#([^"]+)"', toc.group(1))
    assert len(anchors) >= 3 and set(anchors) <= ids
    current = re.findall(r'<li class="toctree-l1 current active"><a class="current reference '
                         r'internal" href="#">', html)
    assert len(current) == 1, "the current page is not marked in the contents"
    assert re.search(r'<button[^>]*primary-toggle[^>]*>', html), "no menu button"


#: The guides in the order a newcomer reads them (docs/index.md)
READING_ORDER = ["install", "exercises", "lecture", "library", "compare", "dask",
                 "performance", "instructor_guide", "authoring", "grading_sandbox", "api"]


def test_guides_are_in_reading_order(site):
    guides = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"}
    assert set(READING_ORDER) == guides, "a guide is missing from the reading order"
    nav = re.search(r'<nav class="bd-links bd-docs-nav[^>]*>(.*?)</nav>',
                    (site / "docs" / "index.html").read_text(encoding="utf-8"), re.S)
    order = [Path(urlsplit(h).path).stem for h in re.findall(r'href="([^"#]+)"',
                                                               nav.group(1))]
    listed = [name for name in order if name in guides]
    assert listed == READING_ORDER
    assert listed != sorted(listed)


def test_launch_links_only_when_a_repository_is_configured(site):
    """By default the site links out to no launcher; with the repository's URL set in
    docs/conf.py, every notebook page gets Binder and Colab buttons for its own path."""
    import importlib.util

    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "mybinder" not in text and "colab.research" not in text, page.name
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert conf.REPOSITORY_URL == "" and "launch_buttons" not in conf.html_theme_options
    options = conf.theme_options("https://github.com/someone/prayatul-edu", "main")
    assert options["repository_url"] == "https://github.com/someone/prayatul-edu"
    assert options["launch_buttons"]["binderhub_url"].startswith("https://")
    assert options["launch_buttons"]["colab_url"].startswith("https://")
    assert options["path_to_docs"] == ""      # a page's name is the notebook's path
