"""What makes the documentation site a course a student can take (docs/conf.py loads it).

* **Each lecture's notebook to download.** The site keeps each page's source
  (``html_copy_source``, under its own name: ``_sources/notebooks/01_matching.ipynb``);
  the theme's download button offers it, and a line under each lecture's title links it
  and says how to run it.
* **The apps as pictures, said so.** An app on a page is drawn from the widget state the
  notebook saved: no kernel runs behind it, so moving a control would change nothing.
  Every control of the saved state is drawn disabled, and a note above each app says that
  it is a picture and how to make it live (download the notebook, run it in Jupyter).
"""
from __future__ import annotations

import json
from pathlib import PurePosixPath

from docutils import nodes

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"

#: Where the site explains how to install the package and open a notebook in Jupyter
INSTALL_PAGE = "docs/install.html#running-a-notebook-from-the-site"


def _relative(docname: str, target: str) -> str:
    """The URL of ``target`` (a path from the site's root) from the page ``docname``."""
    depth = len(PurePosixPath(docname).parts) - 1
    return "../" * depth + target


def notebook_url(docname: str) -> str:
    """Where the page ``docname`` (a notebook) finds its own ``.ipynb`` in the site."""
    return _relative(docname, f"_sources/{docname}.ipynb")


def _paragraph(*parts) -> nodes.paragraph:
    """A paragraph of text and ``(text, url)`` links."""
    para = nodes.paragraph()
    for part in parts:
        if isinstance(part, tuple):
            text, url = part
            para += nodes.reference(text, text, refuri=url, internal=True)
        else:
            para += nodes.Text(part)
    return para


def _run_it(docname: str) -> list:
    """How to run the notebook of ``docname``: its link, then Jupyter."""
    name = PurePosixPath(docname).name + ".ipynb"
    return ["download ", (name, notebook_url(docname)),
            ", open it in Jupyter with the course installed (",
            ("how", _relative(docname, INSTALL_PAGE)), ") and run it from the top"]


def _download_line(docname: str) -> nodes.container:
    line = _paragraph("This page is a notebook. To run its code and use its apps yourself, ",
                      *_run_it(docname), ".")
    return nodes.container("", line, classes=["notebook-download"])


def _static_app_note(docname: str) -> nodes.container:
    title = nodes.paragraph("", "", nodes.strong("", "A picture, not the live app"))
    body = _paragraph("Below is what the notebook showed when it was run. Its buttons and "
                      "sliders are greyed out: nothing computes behind this page, so they "
                      "could not change the figures. To make it live, ",
                      *_run_it(docname), ".")
    return nodes.container("", title, body, classes=["static-app-note"])


def _is_widget_view(node) -> bool:
    return isinstance(node, nodes.raw) and f'type="{WIDGET_VIEW}"' in node.astext()


def mark_notebook_page(app, doctree) -> None:
    """A notebook's page: its download line under the title, a note above each app."""
    docname = app.env.docname
    if not str(app.env.doc2path(docname)).endswith(".ipynb"):
        return
    section = next(iter(doctree.findall(nodes.section)), None)
    if section is not None:
        title = next(iter(section.findall(nodes.title)), None)
        section.insert(section.index(title) + 1 if title is not None else 0,
                       _download_line(docname))
    # one note per output holding a widget (an app and its controls are one output)
    outputs = {id(view.parent): view for view in doctree.findall(_is_widget_view)}
    for view in outputs.values():
        parent = view.parent
        parent.insert(parent.index(view), _static_app_note(docname))


def disabled_state(state: dict) -> dict:
    """The saved widget state with every control disabled (a model with a ``disabled``
    attribute: sliders, dropdowns, buttons, toggles, text boxes)."""
    out = json.loads(json.dumps(state))
    for model in out.get("state", {}).values():
        attributes = model.get("state", {})
        if "disabled" in attributes:
            attributes["disabled"] = True
    return out


def disable_saved_controls(app, doctree) -> None:
    """The page's widget state (which myst-nb put among its scripts) with its controls
    disabled, so that the widget manager draws them greyed out."""
    from myst_nb.core.render import sanitize_script_content
    from myst_nb.sphinx_ import NbMetadataCollector

    for _uri, kwargs in NbMetadataCollector.get_js_files(app.env, app.env.docname).values():
        if kwargs.get("type") == WIDGET_STATE and kwargs.get("body"):
            # escaped as myst-nb does it (no "</script>" inside the tag); json reads "<\/"
            state = json.loads(kwargs["body"])
            kwargs["body"] = sanitize_script_content(json.dumps(disabled_state(state)))


def setup(app):
    app.connect("doctree-read", mark_notebook_page)
    app.connect("doctree-read", disable_saved_controls)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
