"""Labels beyond one machine: Dask arrays counted chunk by chunk, merged exactly.

Every label measure of this package is a function of the *counts* of label
combinations (the contingency table, the group sizes of the joint
labellings), and counts of disjoint parts of the data add up. So for Dask
arrays (or Dask dataframe columns), each worker counts the distinct
combinations of its chunk - a short list of cells, not the labels - and the
client merges those lists exactly (int64 totals: they add up to N < 2**63) and
computes the measure from them. The labels themselves never leave the workers,
and the client holds only the cells.

Dask is optional (``pip install prayatul-edu[dask]``) and imported only when a
Dask collection is passed: ``import prayatul_edu`` does not import it. The
computation runs on the scheduler in use: a ``distributed.Client`` when one is
connected (a cluster, or a ``LocalCluster``), else Dask's threads.

Example (a cluster address; any ``Client`` works the same)::

    from distributed import Client
    import dask.dataframe as dd
    from prayatul_edu import adjusted_rand_index, prayatul_matrix

    client = Client("tcp://scheduler:8786")
    runs = dd.read_parquet("s3://bucket/runs/")      # columns truth, kmeans, dbscan
    adjusted_rand_index(runs["truth"], runs["kmeans"])
    prayatul_matrix(runs["truth"], runs["kmeans"], runs["dbscan"])
"""
from __future__ import annotations

import numpy as np

__all__ = ["is_dask", "merged_cells"]


def is_dask(*collections) -> bool:
    """Whether any argument is a Dask collection (checked without importing Dask)."""
    return any(type(x).__module__.split(".")[0] in ("dask", "dask_expr") for x in collections)


def _as_dask_array(x, name: str):
    """A 1-D Dask array of the labels (Dask series become arrays, NumPy data is wrapped)."""
    import dask.array as da

    if is_dask(x) and hasattr(x, "to_dask_array"):      # a dask dataframe column
        x = x.to_dask_array()
    if not is_dask(x):
        x = da.from_array(np.asarray(x), chunks=-1)
    if not hasattr(x, "chunks") or getattr(x, "ndim", None) != 1:
        raise ValueError(f"{name}: expected a 1-D Dask array or Dask series of labels, got "
                         f"{type(x).__name__} with {getattr(x, 'ndim', '?')} dimensions")
    if any(np.isnan(c) for c in x.chunks[0]):
        x = x.compute_chunk_sizes()
    return x


def _count_chunk(count, start: int, names: list, *chunks):
    """On a worker: the distinct label combinations of one chunk and their counts."""
    if chunks[0].shape[0] == 0:
        return {name: c[:0] for name, c in zip(names, chunks)}, np.zeros(0, dtype=np.int64)
    try:
        return count(dict(zip(names, chunks)))
    except (ValueError, TypeError) as exc:
        raise type(exc)(f"{exc} (the position counts from instance {start}, where this "
                        "chunk starts)") from None


def merged_cells(count, **labelings):
    """The cells of several labellings of the same instances, counted per chunk, merged.

    ``count`` is :func:`prayatul_edu.counting.value_cells` (passed in, so this
    module depends on no other of the package): it runs once per chunk on the
    workers and once more on the client over the concatenated cells of all
    chunks, with their counts. Arguments that are not Dask collections are
    wrapped as one chunk. Returns ``(values, total)`` as ``value_cells`` does.
    """
    import dask

    names = list(labelings)
    arrays = {name: _as_dask_array(x, name) for name, x in labelings.items()}
    first = arrays[names[0]]
    n = int(first.shape[0])
    for name in names[1:]:
        if int(arrays[name].shape[0]) != n:
            raise ValueError(f"{names[0]} and {name} must label the same instances, but have "
                             f"lengths {n} and {int(arrays[name].shape[0])}")
    if n < 2:
        raise ValueError(f"{names[0]}: has {n} instance(s); at least 2 are needed "
                         "(a clustering of one instance has no pairs to compare)")
    blocks = [arrays[name].rechunk(first.chunks).to_delayed().ravel() for name in names]
    starts = np.concatenate(([0], np.cumsum(first.chunks[0])[:-1]))
    per_chunk = [dask.delayed(_count_chunk, pure=True)(count, int(start), names, *chunk)
                 for start, *chunk in zip(starts, *blocks)]
    parts = dask.compute(*per_chunk)
    values = {name: np.concatenate([part[0][name] for part in parts]) for name in names}
    total = np.concatenate([part[1] for part in parts])
    return count(values, total)
