"""A lecturer's own labels: pasted or uploaded, with the columns chosen in the app.

The contingency explorer needs two labellings (classes and clusters), the
Prayatul explorer three (truth, primary, alternative). A lecturer gives them
in one of two ways:

* **paste** a table with a header row (comma-, semicolon- or tab-separated,
  as copied from a spreadsheet), or one labelling per line as
  ``name: labels`` (``truth: 1 1 2 2``);
* **upload** a CSV/TSV file with a header row (the same reading as
  ``prayatul-edu compare``: :func:`prayatul_edu.label_files.parse_table`);

then chooses which column is which from dropdowns filled with the header.
Bad input gets an error beside the box that says what is wrong: a missing
column, labellings of different lengths, fewer than 2 instances, more than
the app can redraw live (:data:`MAX_INSTANCES`), a missing value.

:class:`LabelSource` is the pure-Python state (tests drive it directly);
:class:`LabelSourcePanel` its widgets. The apps receive an :class:`OwnLabels`.

>>> source = LabelSource(("truth", "pred")).paste("truth: 1 1 2 2\\nkmeans: 1 2 2 2")
>>> source.columns, source.chosen().columns
(['truth', 'kmeans'], {'truth': 'truth', 'pred': 'kmeans'})
>>> print(source.summary())
N = 4 instances from the pasted text; truth (truth): 2 labels, pred (kmeans): 2 labels
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import numpy as np

from ..label_files import column, parse_table
from .app import ERROR_COLOR, LIVE_CLASS, error_html
from .inputs import parse_labels

__all__ = ["MAX_INSTANCES", "MAX_UPLOAD_BYTES", "OwnLabels", "LabelSource", "LabelSourcePanel",
           "check_own", "own_inputs"]

#: The most instances the apps take: beyond it an update takes longer than a lecture allows
#: (use the library or ``prayatul-edu compare`` for larger data).
MAX_INSTANCES = 20000

#: The largest file the upload box takes (20,000 rows of a few labels fit easily).
MAX_UPLOAD_BYTES = 2_000_000

_NAMED_LINE = re.compile(r"^\s*([^:,;\t]+?)\s*:(.*)$")


@dataclass(frozen=True)
class OwnLabels:
    """The labellings an app uses: ``labels`` (role -> array), ``columns`` (role ->
    column name), ``where`` (``"the pasted text"`` or the file's name)."""

    labels: dict
    columns: dict
    where: str

    @property
    def n(self) -> int:
        return int(next(iter(self.labels.values())).shape[0])


def check_own(value, roles) -> OwnLabels | None:
    """An app's ``own`` parameter: None (no labels yet) or :class:`OwnLabels` with ``roles``."""
    if value is None:
        return None
    if not isinstance(value, OwnLabels):
        raise TypeError(f"own: expected the labels of a LabelSource (OwnLabels), got "
                        f"{type(value).__name__}")
    if set(value.labels) != set(roles):
        raise ValueError(f"own: expected the labellings {', '.join(roles)}, got "
                         f"{', '.join(value.labels)}")
    return value


def own_inputs(value, roles) -> tuple:
    """The arrays of ``roles`` in order; a clear error while no labels are loaded."""
    if value is None:
        raise ValueError("own: no labels yet; paste a table into the box 'paste labels' or "
                         "upload a CSV/TSV file")
    return tuple(value.labels[role] for role in roles)


def _named_lines(text: str) -> dict | None:
    """``{"truth": array, ...}`` when every line reads ``name: labels``, else None."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    matches = [_NAMED_LINE.match(ln) for ln in lines]
    if not lines or not all(matches):
        return None
    columns = {}
    for m in matches:
        name = m.group(1)
        if name in columns:
            raise ValueError(f"text: the name {name!r} is given twice")
        columns[name] = parse_labels(m.group(2), f"text: {name}")
    lengths = {k: v.shape[0] for k, v in columns.items()}
    if len(set(lengths.values())) > 1:
        first = next(iter(lengths))
        other = next(k for k in lengths if lengths[k] != lengths[first])
        raise ValueError(f"text: {other!r} has {lengths[other]} labels but {first!r} has "
                         f"{lengths[first]} (one label per instance in each)")
    return columns


def _upload_files(value) -> list[tuple[str, bytes]]:
    """``[(name, content)]`` from an ``ipywidgets.FileUpload`` value (ipywidgets 8: a
    tuple of dicts with ``name`` and ``content``; ipywidgets 7: a dict by file name)."""
    if isinstance(value, dict):
        return [(name, bytes(f["content"])) for name, f in value.items()]
    try:
        return [(f["name"], bytes(f["content"])) for f in value]
    except (TypeError, KeyError):
        raise TypeError("file: expected the value of an ipywidgets.FileUpload, got "
                        f"{type(value).__name__}") from None


def id_like(values) -> bool:
    """Whether a column looks like instance ids, not labels: every value distinct (a
    clustering that puts every instance alone is no one's first guess at the truth)."""
    values = np.asarray(values)
    return values.shape[0] > 2 and np.unique(values).shape[0] == values.shape[0]


def default_choice(table: dict, roles, kept: dict) -> dict:
    """Which column plays each role in a newly loaded ``table``: the one ``kept`` from the
    table before if it is still there, else the column named as the role, else the first
    column not taken yet that is not id-like (:func:`id_like`), else the first not taken.

    >>> t = {"id": np.arange(5), "class": np.array([0, 0, 1, 1, 1]),
    ...      "kmeans": np.array([1, 1, 0, 0, 0])}
    >>> default_choice(t, ("truth", "pred"), {})
    {'truth': 'class', 'pred': 'kmeans'}
    """
    choice: dict = {}
    for role in roles:
        taken = set(choice.values())
        free = [c for c in table if c not in taken] or list(table)
        pick = kept.get(role)
        if pick not in table:
            pick = role if role in table and role not in taken else next(
                (c for c in free if not id_like(table[c])), free[0])
        choice[role] = pick
    return choice


class LabelSource:
    """The lecturer's table and which of its columns plays each role.

    ``roles``: the labellings the app needs, in order (``("truth", "pred")``).
    ``paste(text)`` and ``upload(value)`` load a table; ``choose(role=column)``
    picks columns (by default a column named as the role, else the columns in
    order); ``chosen()`` gives the :class:`OwnLabels`. On bad input these raise
    a ``ValueError`` starting with ``text``, ``file`` or the role, and nothing
    changes.
    """

    def __init__(self, roles=("truth", "pred"), max_instances: int = MAX_INSTANCES):
        self.roles = tuple(roles)
        self.max_instances = int(max_instances)
        self.table: dict = {}
        self.where = ""
        self.choice: dict = {}

    @property
    def columns(self) -> list:
        """The header of the table loaded (the dropdowns' options)."""
        return list(self.table)

    # -- loading -------------------------------------------------------------
    def paste(self, text: str) -> "LabelSource":
        """Load pasted text: a table with a header row, or ``name: labels`` lines."""
        if not isinstance(text, str):
            raise TypeError(f"text: expected the labels as text, got {type(text).__name__}")
        if not text.strip():
            raise ValueError("text: paste a table with a header row, or one labelling per "
                             "line as 'name: labels'")
        table = _named_lines(text)
        if table is None:
            table = parse_table(text, "the pasted text", name="text")
        return self._load(table, "the pasted text", "text")

    def upload(self, value) -> "LabelSource":
        """Load the file of an ``ipywidgets.FileUpload``'s ``value`` (CSV/TSV, header row)."""
        files = _upload_files(value)
        if len(files) != 1:
            raise ValueError(f"file: upload one file, got {len(files)}")
        name, content = files[0]
        if len(content) > MAX_UPLOAD_BYTES:
            raise ValueError(f"file: {name} has {len(content):,} bytes; the app takes files "
                             f"up to {MAX_UPLOAD_BYTES:,} bytes")
        if not name.lower().endswith((".csv", ".tsv", ".txt")):
            raise ValueError(f"file: {name} is not a .csv, .tsv or .txt file")
        delimiter = "\t" if name.lower().endswith(".tsv") else None
        return self._load(parse_table(content, name, delimiter, name="file"), name, "file")

    def _load(self, table: dict, where: str, argument: str) -> "LabelSource":
        n = next(iter(table.values())).shape[0]
        if n < 2:
            raise ValueError(f"{argument}: {where} has {n} instance; at least 2 are needed")
        if n > self.max_instances:
            raise ValueError(f"{argument}: {where} has {n:,} instances; the app takes at most "
                             f"{self.max_instances:,} (use the library or "
                             "'prayatul-edu compare' for more)")
        if len(table) < 2:
            raise ValueError(f"{argument}: {where} has one column; give at least two "
                             "labellings (e.g. the truth and a clustering)")
        self.table, self.where = table, where
        self.choice = default_choice(table, self.roles, self.choice)
        return self

    def shared_columns(self) -> list:
        """Roles that read the same column (a lecturer comparing a column with itself,
        usually by mistake): ``[(column, [role, role]), ...]``."""
        by_column: dict = {}
        for role in self.roles:
            by_column.setdefault(self.choice.get(role), []).append(role)
        return [(c, roles) for c, roles in by_column.items() if c is not None and len(roles) > 1]

    # -- choosing --------------------------------------------------------------
    def choose(self, **columns) -> "LabelSource":
        """Which column plays each role (``choose(truth="class", pred="kmeans")``)."""
        unknown = sorted(set(columns) - set(self.roles))
        if unknown:
            raise TypeError(f"{unknown[0]}: not a role here; the roles are "
                            + ", ".join(self.roles))
        if not self.table:
            raise ValueError(f"{next(iter(columns))}: no table yet; paste labels or upload "
                             "a file first")
        for role, name in columns.items():
            column(self.table, name, self.where, role)
        self.choice = {**self.choice, **columns}
        return self

    def chosen(self) -> OwnLabels:
        """The labellings of the chosen columns (each checked for missing values)."""
        if not self.table:
            raise ValueError("text: no labels yet; paste labels or upload a file")
        labels = {role: column(self.table, self.choice[role], self.where, role)
                  for role in self.roles}
        return OwnLabels(labels, dict(self.choice), self.where)

    def summary(self) -> str:
        """``"N = 10 instances from data.csv; truth (class): 3 labels, ..."``."""
        own = self.chosen()
        parts = [f"{role} ({own.columns[role]}): {len(np.unique(own.labels[role]))} labels"
                 for role in self.roles]
        return f"N = {own.n} instances from {self.where}; " + ", ".join(parts)


class LabelSourcePanel:
    """The widgets of a :class:`LabelSource`: a box to paste into, an upload button,
    a dropdown per role, an error beside them and a one-line summary.

    ``on_labels(own)`` is called with the :class:`OwnLabels` whenever a valid
    choice is made (the apps set their model with it). ``descriptions`` names
    the roles as the app does (``{"pred": "clusters"}``).
    """

    def __init__(self, roles=("truth", "pred"), on_labels=None, descriptions=None):
        import ipywidgets as W

        self.source = LabelSource(roles)
        self.on_labels = on_labels
        descriptions = {**{r: r for r in roles}, **(descriptions or {})}
        # what a person sees, for the names an error message starts with
        self.names = {**descriptions, "text": "pasted labels", "file": "uploaded file",
                      "own": "own labels"}
        style = {"description_width": "110px"}
        self.text = W.Textarea(description="paste labels", style=style,
                               placeholder="a table with a header row (truth,kmeans,dbscan ...)"
                               " or one line per labelling: truth: 1 1 2 2",
                               layout=W.Layout(width="520px", height="74px"),
                               continuous_update=False)
        self.file = W.FileUpload(accept=".csv,.tsv,.txt", multiple=False,
                                 description="upload CSV/TSV", layout=W.Layout(width="190px"))
        self.dropdowns = {role: W.Dropdown(options=[], description=descriptions[role],
                                           style=style, layout=W.Layout(width="300px"))
                          for role in roles}
        self.error = W.HTML()
        self.info = W.HTML()
        for live in (self.error, self.info):       # announced by a screen reader
            live.add_class(LIVE_CLASS)
        self._syncing = False
        self.text.observe(lambda change: self._try(self.source.paste, change["new"]),
                          names="value")
        self.file.observe(lambda change: self._try(self.source.upload, change["new"])
                          if change["new"] else None, names="value")
        for role, dropdown in self.dropdowns.items():
            dropdown.observe(self._on_choose(role), names="value")
        self.widget = W.VBox([W.HBox([self.text, W.VBox([self.file, self.error])]),
                              W.HBox(list(self.dropdowns.values()),
                                     layout=W.Layout(flex_flow="row wrap")),
                              self.info])

    def _on_choose(self, role: str):
        def handler(change):
            if not self._syncing and change["new"] is not None:
                self._try(lambda name: self.source.choose(**{role: name}), change["new"])
        return handler

    def _try(self, action, value) -> None:
        """Load or choose; on any refusal, the table and choice stay what they were (a
        failed load never replaces the loaded table)."""
        before = (self.source.table, self.source.where, dict(self.source.choice))
        try:
            action(value)
            own = self.source.chosen()
            summary = html.escape(self.source.summary())
        except (TypeError, ValueError) as exc:
            self.source.table, self.source.where, self.source.choice = before
            self.error.value = error_html(exc, self.names)
            return
        notes = [f"note: {' and '.join(self.names.get(r, r) for r in roles)} both read the "
                 f"column {column}: pick another for one of them"
                 for column, roles in self.source.shared_columns()]
        self.info.value = summary + "".join(
            f'<br><span class="pe-error" style="color: {ERROR_COLOR}">{html.escape(n)}</span>'
            for n in notes)
        self.error.value = ""
        self._sync_dropdowns()
        if self.on_labels is not None:
            try:
                self.on_labels(own)
            except (TypeError, ValueError) as exc:   # the app refused them: say why, here
                self.error.value = error_html(exc, self.names)

    def _sync_dropdowns(self) -> None:
        self._syncing = True
        try:
            for role, dropdown in self.dropdowns.items():
                if list(dropdown.options) != self.source.columns:
                    dropdown.options = self.source.columns
                dropdown.value = self.source.choice[role]
        finally:
            self._syncing = False
