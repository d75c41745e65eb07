"""Sphinx configuration of the documentation site (``python3 dev.py docs``).

The site's source is the repository itself: the Markdown pages in ``docs/`` and the
lecture notebooks in ``notebooks/`` (``include_patterns``), so a notebook is one file
in one place. Notebooks are rendered with their saved outputs by myst-nb (never
executed here: the outputs nbval checks are the ones shown), with each figure's alt
text from its output metadata. LaTeX is typeset by MathJax 2 from the
jupyter-server-mathjax package, copied into the site: nothing is fetched from the
network when building or reading it.
"""
from __future__ import annotations

import base64
import hashlib
import json
import sys
from pathlib import Path

import jupyter_server_mathjax

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent / "_ext"))

project = "prayatul-edu"
author = "prayatul-edu contributors"
copyright = "prayatul-edu contributors, MIT licence"

root_doc = "docs/index"
# The pages: every Markdown file in docs/ and every lecture notebook (not the apps'
# one-widget notebooks, which only Voila serves).
include_patterns = ["docs/*.md", "notebooks/*.ipynb"]
exclude_patterns = ["docs/_build/**"]

extensions = ["myst_nb", "sphinx.ext.autodoc", "numpydoc", "sphinx.ext.mathjax",
              "course_site"]          # docs/_ext: downloads, the apps as pictures

# ----------------------------------------------------------------- notebooks, MyST
nb_execution_mode = "off"                # saved outputs, as nbval checks them
nb_merge_streams = True
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3                 # [text](page.md#a-heading) links resolve
# A notebook shows text/html tables and markdown derivations as the notebook does
nb_render_markdown_format = "myst"
# The apps and reveal(...) as saved (scripts/execute_notebooks.py keeps their widget
# state): drawn by the HTML widget manager of ipywidgets 8, shipped in docs/_static
# (docs/_static/jupyter-widgets/NOTICE.txt), on the pages that have widgets. Its
# controls show the state the cell left; nothing is fetched (no CDN, no require.js).
nb_ipywidgets_js = {"jupyter-widgets/embed.js": {},
                    "typeset-widgets.js": {}}    # MathJax for the formulas they draw

# ----------------------------------------------------------------- API reference
autodoc_typehints = "none"               # the numpydoc sections say the types
autodoc_member_order = "bysource"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# ----------------------------------------------------------------- math, offline
MATHJAX = Path(jupyter_server_mathjax.__file__).parent / "static"
html_static_path = [str(MATHJAX),         # MathJax.js, jax/, fonts/ ... into _static/
                    "_static"]           # docs/_static: the widget manager
mathjax_path = "MathJax.js?config=TeX-AMS-MML_HTMLorMML-full"   # one file, in the package
mathjax2_config = {
    "tex2jax": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]],
                "processEscapes": True,
                # MyST marks its pages "tex2jax_ignore" and its formulas "math" (MathJax
                # 3's processHtmlClass, for MathJax 2 here)
                "processClass": "tex2jax_process|mathjax_process|math|output_area"},
    "showMathMenu": False, "messageStyle": "none",
    "HTML-CSS": {
        # the package ships the STIX web fonts only (as Jupyter's classic notebook used
        # them): never ask for the TeX fonts it lacks
        "availableFonts": [], "imageFont": None, "preferredFont": None,
        "webFont": "STIX-Web",
        # MathJax's stand-in font points at about:blank, which Chromium refuses with a
        # console error; a local() name that no machine has fetches nothing
        "styles": {"@font-face": {"font-family": "MathJax_Blank",
                                  "src": "local('MathJax_Blank')"}},
    },
}

# ----------------------------------------------------------------- checks
nitpicky = True                          # every cross-reference must resolve
# Names of other libraries (no intersphinx: the build is offline) and docstring types
nitpick_ignore_regex = [
    ("py:.*", r"(numpy|np|scipy|sklearn|matplotlib|ipywidgets|dask|distributed|pandas|"
              r"IPython|nbclient|nbformat)(\..*)?"),
    # docstrings name the library's own modules and helpers for contributors
    # (CONTRIBUTING.md describes them); the API reference documents the public functions
    ("py:mod", r"(prayatul_edu\..*|tournaments|scores|resampling|experiments)"),
    ("py:(func|data|class)", r"prayatul_edu\.(matching|paper_labels|linkages|prayatul|"
                            r"silhouette|significance)\..*"),
    ("py:(func|data|class)", r"(_\w+|READ_CELLS_BEYOND|joint_pairs_within|Experiment|"
                             r"MutualInformation|PairConfusion|MaximumMatching|MergeStep|"
                             r"raw_accuracy|maximum_matching|cut_for_clusters|collect|"
                             r"prayatul_edu\.toydata\..*)"),
    # what a question, an app's model or the grader implements for contributors
    ("py:meth", r"(compute_key|mistakes|describe|explain|point_table)"),
    ("py:mod", r"(worker|output|\.?_\w+)"),
]

# ----------------------------------------------------------------- the theme
# sphinx-book-theme, the theme of Jupyter Book: a book of notebooks with the contents on
# the left (the current page marked; a menu on phones), the page's own contents on the
# right, previous/next at the bottom, and a download button offering the page's source:
# a lecture's .ipynb (docs/_ext/course_site.py also links it under the title).
#: The project's public repository, e.g. "https://github.com/OWNER/prayatul-edu": when
#: set, each notebook's page gets launch links (Binder, Colab) and a link to the
#: repository. Off by default: a site built from a copy of the course links nothing out.
REPOSITORY_URL = ""
REPOSITORY_BRANCH = "main"


def theme_options(repository_url: str = REPOSITORY_URL,
                  branch: str = REPOSITORY_BRANCH) -> dict:
    """The book theme's options; launch links only when ``repository_url`` is set."""
    options = {
        "home_page_in_toc": True,
        "show_toc_level": 2,                 # the page's contents, on the right
        "show_navbar_depth": 1,
        "use_download_button": True,         # the page's .ipynb (or .md), and print
        "use_fullscreen_button": False,
        "navigation_with_keys": False,
        "navbar_persistent": [],             # search: in the sidebar, or the page's bar
    }
    if repository_url:
        options.update({
            "repository_url": repository_url, "repository_branch": branch,
            "path_to_docs": "", "use_repository_button": True,
            # the notebooks' paths in the repository are their page names
            "launch_buttons": {"binderhub_url": "https://mybinder.org",
                               "colab_url": "https://colab.research.google.com",
                               "notebook_interface": "jupyterlab"},
        })
    return options


html_theme = "sphinx_book_theme"
html_title = "prayatul-edu"
html_theme_options = theme_options()
html_context = {"default_mode": "light"}   # the figures are drawn on white
html_css_files = ["course.css"]          # docs/_static: apps, figures and code on a phone
html_show_sphinx = False                 # no links out of the site in the footer
html_favicon = "favicon.svg"             # browsers ask for one (a 404 otherwise)
html_show_sourcelink = False
html_copy_source = True                  # the notebooks, to download from their pages
html_sourcelink_suffix = ""              # as 01_matching.ipynb, not 01_matching.ipynb.txt


# ----------------------------------------------------------------- figures' alt text
def _alt_texts(notebook: Path) -> dict:
    """The alt text of each saved figure of ``notebook``, by the SHA-256 of its bytes."""
    out = {}
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        for output in cell.get("outputs", []):
            for mime, data in output.get("data", {}).items():
                alt = output.get("metadata", {}).get(mime, {}).get("alt")
                if mime.startswith("image/") and alt and isinstance(data, str):
                    out[hashlib.sha256(base64.b64decode(data)).hexdigest()] = alt
    return out


def _figure_alt_text(app, doctree) -> None:
    """Give each notebook figure the alt text its output carries (``show_figure``).

    myst-nb writes a figure to a file named by the SHA-256 of its bytes and reads only
    the width and height from the output's metadata; the course's figures carry their
    description as ``metadata["image/png"]["alt"]``, which goes on the page here.
    """
    source = Path(app.env.doc2path(app.env.docname))
    if source.suffix != ".ipynb":
        return
    from docutils import nodes

    alts = _alt_texts(source)
    for image in doctree.findall(nodes.image):
        digest = Path(image["uri"]).stem
        if digest in alts:
            image["alt"] = alts[digest]


def setup(app):
    app.connect("doctree-read", _figure_alt_text)
    return {"parallel_read_safe": True}
