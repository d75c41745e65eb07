"""The contingency table of two labellings: check -> code -> count, put together.

:func:`contingency_table` is where a measure's two labellings become one table:
:mod:`prayatul_edu.labels` checks and codes them (and, for few labels, counts
them in the same pass: :func:`labels.dense_table`), :mod:`prayatul_edu.counting`
builds the :class:`~prayatul_edu.counting.ContingencyTable` from the counts
and the values, or, with many labels, from the coded arrays sorted once. The
data goes down once: nothing in ``labels`` or ``counting`` calls back up here.
"""
from __future__ import annotations

import functools
import inspect

import numpy as np

from . import dask_counts
from .counting import ContingencyTable, joint_codes_of, totals_by
from .labels import Labels, check_labels, check_partitions, dense_table

__all__ = ["contingency_table", "table_of", "table_from_cells", "value_cells",
           "scikit_learn_names", "SKLEARN_LABELS"]

#: scikit-learn's names of an external measure's labellings, and ours.
SKLEARN_LABELS = {"labels_true": "truth", "labels_pred": "pred"}


def scikit_learn_names(**more):
    """A decorator: the measure also accepts scikit-learn's keyword names for its arguments.

    ``labels_true`` and ``labels_pred`` stand for ``truth`` and ``pred``
    (:data:`SKLEARN_LABELS`); ``more`` adds others, e.g.
    ``average_method="average"``. An alias is a keyword only; giving both an
    alias and the argument it stands for (by name or by position) is a
    ``TypeError`` that names both. It lives at the measures' layer because its
    wrapper calls the measure (``tests/walk.py``: nothing below may call up).
    """
    aliases = {**SKLEARN_LABELS, **more}

    def decorate(func):
        params = list(inspect.signature(func).parameters)
        position = {name: params.index(name) for name in aliases.values()}

        @functools.wraps(func)
        def measure(*args, **kwargs):
            for alias, name in aliases.items():
                if alias not in kwargs:
                    continue
                if name in kwargs or position[name] < len(args):
                    raise TypeError(f"{alias}: is scikit-learn's name for {name}; "
                                    f"got both {alias} and {name}: give one of them")
                kwargs[name] = kwargs.pop(alias)
            return func(*args, **kwargs)

        return measure

    return decorate

#: Largest dense contingency table read cell by cell; beyond it, sorting the pairs is faster.
_DENSE_TABLE_CELLS = 1 << 18


def table_of(truth: Labels, pred: Labels, *, plain: bool = False) -> ContingencyTable:
    """The :class:`ContingencyTable` of checked labellings (rows ``pred``, columns ``truth``).

    A dense table when the labels have few values (coded and counted in one
    pass, :func:`labels.dense_table`), else the coded arrays, whose cells are
    sorted out when first read. ``plain``: the plain code, codes of the
    (cluster, class) pairs counted one code at a time, which the fast paths
    must match.
    """
    if plain:
        return ContingencyTable.from_codes((pred.codes, pred.values), (truth.codes, truth.values))
    joint = dense_table(pred, truth, max_cells=_DENSE_TABLE_CELLS)   # None: too many values
    if joint is not None:
        return ContingencyTable(joint, pred.values, truth.values)
    pred_form, truth_form = pred.dense_form(), truth.dense_form()
    return ContingencyTable.from_sorted(pred_form, truth_form, pred.values, truth.values,
                                        pred.sizes(), truth.sizes(),
                                        list_now=pred.borrows or truth.borrows)


def table_from_cells(truth_values, pred_values, cell_count) -> ContingencyTable:
    """The table of non-empty cells given by value: ``cell_count[c]`` instances
    have class ``truth_values[c]`` and cluster ``pred_values[c]`` (each pair once)."""
    t = check_labels(truth_values, "truth", min_n=1)
    p = check_labels(pred_values, "pred", min_n=1)
    return ContingencyTable.from_cell_codes(p.codes, t.codes, cell_count, p.values, t.values)


def value_cells(arrays: dict, counts: np.ndarray | None = None):
    """The distinct combinations of labels and how many instances carry each.

    ``arrays`` maps a name to a 1-D array of labels (all of one length); each
    position is one instance, or ``counts[i]`` instances when ``counts`` is
    given. Returns ``(values, total)``: ``values[name]`` the label of each
    combination (cell) and ``total`` its count (int64, exact: the counts add
    up to N < 2**63). Mergeable: the cells of two parts of the data, put one
    after the other with their counts, give the cells of the whole (the Dask
    path counts each chunk on a worker and merges on the client this way).
    """
    labs = [check_labels(arr, name, min_n=1) for name, arr in arrays.items()]
    table = dense_table(*labs) if counts is None else None
    if table is not None:                                # few labels: one pass, one table
        cell = np.nonzero(table)
        return ({lab.name: lab.value_of(at) for lab, at in zip(labs, cell)},
                table[cell].astype(np.int64))
    code, k = joint_codes_of(*((lab.codes, lab.k) for lab in labs))
    member = np.empty(k, dtype=np.intp)                  # one instance of each cell
    member[code] = np.arange(code.shape[0])
    if counts is None:
        total = np.bincount(code, minlength=k).astype(np.int64)
    else:
        total = totals_by(code, k, np.asarray(counts, dtype=np.int64))
    values = {lab.name: lab.values[lab.codes[member]] for lab in labs}
    return values, total


@scikit_learn_names()
def contingency_table(truth, pred) -> ContingencyTable:
    """The contingency table of ``pred`` (rows, clusters) against ``truth`` (columns, classes).

    .. math:: n_{ij} = |C_i \\cap T_j|

    Parameters
    ----------
    truth : sequence of hashable labels, length N
        Ground-truth classes ``T_j``.
    pred : sequence of hashable labels, length N
        Clusters ``C_i`` found by an algorithm.
    labels_true, labels_pred : aliases of ``truth`` and ``pred``
        scikit-learn's names, accepted as keywords (every external measure).

    Returns
    -------
    ContingencyTable
        ``np.asarray(table)`` is the r x k count matrix; ``.clusters``,
        ``.classes``, ``.cluster_sizes``, ``.class_sizes`` give labels and
        margins. Its display states the orientation.

    References
    ----------
    M. J. Zaki and W. Meira Jr., *Data Mining and Machine Learning*, ch. 17
    (the lecture's notation).

    Examples
    --------
    >>> from prayatul_edu import contingency_table
    >>> t = contingency_table(truth=["a", "a", "b"], pred=[1, 2, 2])
    >>> t.counts.tolist()
    [[1, 0], [1, 1]]
    >>> t.cluster_sizes.tolist(), t.class_sizes.tolist()
    ([1, 2], [2, 1])

    Dask arrays (``pip install prayatul-edu[dask]``) are counted chunk by chunk
    on the workers and merged on the client (:mod:`prayatul_edu.dask_counts`).
    """
    # One instance is enough for a table (purity, entropy, ... are defined at N = 1);
    # the pair-counting measures check N >= 2 themselves.
    if dask_counts.is_dask(truth, pred):
        values, total = dask_counts.merged_cells(value_cells, truth=truth, pred=pred)
        return table_from_cells(values["truth"], values["pred"], total)
    return table_of(*check_partitions(truth=truth, pred=pred, min_n=1))
