"""A gradebook across the term: ``prayatul-edu gradebook OUT_A OUT_B ... --out book.csv``.

One row per student (every student of any of the grades folders), one column per
assignment (its points, from the folder's grades.json: after corrections and late
penalties), then ``total`` (the points of the assignments the student has),
``missing`` (how many they lack) and, with ``weights``, ``weighted %``: the weighted
mean of the assignments' shares of their points (``sum w_a score_a / max_a`` over
``sum w_a``, times 100). A student missing from an assignment has an empty cell
there, not 0, and the assignment does not count in their total or weighted mean;
with ``missing_as_zero`` it is 0 and counts. A student grades.json lists as ``missing``
(on the roster, handed in nothing) is a row too. With a class ``roster`` (a CSV with a
column ``student``, or an LMS's roster: :mod:`.roster`), every student of it is a row,
in its order, with a ``name`` column (the roster's names), and so is anyone graded who
is not on it, after them.
"""
from __future__ import annotations

import csv
import io
from pathlib import Path

from .finish import read_grades
from .uploader import read_people
from .report import csv_safe

__all__ = ["gradebook", "gradebook_csv", "parse_weights", "grades_name"]


def grades_name(data: dict, folder: Path) -> str:
    """The assignment's name of a grades folder's grades.json ``data``: the exports'
    ``assignment``, else its students' exercises, else the folder's name."""
    exports = data.get("exports", {})
    if exports.get("assignment"):
        return exports["assignment"]
    names = sorted({s.get("exercise") for s in data["students"] if s.get("exercise")})
    return " + ".join(names) if names else folder.name


def parse_weights(text: str | None, n: int) -> list[float] | None:
    """``--weights 1,2,1``: one positive number per grades folder."""
    if not text:
        return None
    try:
        weights = [float(w) for w in text.split(",")]
    except ValueError:
        raise ValueError(f"weights: expected numbers separated by commas, got {text!r}") from None
    if len(weights) != n or any(not w > 0 for w in weights):
        raise ValueError(f"weights: expected one positive number per grades folder ({n}), "
                         f"got {text!r}")
    return weights


def gradebook(folders, *, weights=None, missing_as_zero: bool = False,
              roster=None) -> tuple[list, list]:
    """(header, rows) of the gradebook (see the module doc)."""
    people = read_people(roster) if roster is not None else None
    folders = [Path(f) for f in folders]
    if not folders:
        raise ValueError("gradebook: give at least one grades folder")
    books, names, absent = [], [], set()
    for f in folders:
        data = read_grades(f)
        name = grades_name(data, f)
        if name in names:
            name = f"{name} ({f.name})"
        names.append(name)
        absent |= {m["student"] for m in data.get("missing") or ()
                   if isinstance(m, dict) and isinstance(m.get("student"), str)}
        books.append(({s["student"]: s["total"] for s in data["students"]},
                      max((s["max_total"] for s in data["students"]), default=0)))
    students = sorted({sid for scores, _ in books for sid in scores} | absent)
    if people is not None:
        students = list(people) + [s for s in students if s not in people]
    header = (["student"] + (["name"] if people is not None else []) + [*names, "total",
                                                                         "missing"]
              + (["weighted %"] if weights else []))
    rows = []
    for sid in students:
        cells, total, missing, wsum, wgot = [], 0.0, 0, 0.0, 0.0
        for k, (scores, maximum) in enumerate(books):
            score = scores.get(sid)
            if score is None:
                missing += 1
                if not missing_as_zero:
                    cells.append("")
                    continue
                score = 0.0
            cells.append(f"{score:g}")
            total += score
            if weights and maximum > 0:
                wsum += weights[k]
                wgot += weights[k] * score / maximum
        who = [sid] + ([people[sid].name if sid in people else ""]
                       if people is not None else [])
        row = [*who, *cells, f"{round(total, 2):g}", str(missing)]
        if weights:
            row.append(f"{100 * wgot / wsum:.2f}" if wsum else "")
        rows.append(row)
    return header, rows


def gradebook_csv(folders, **kw) -> str:
    header, rows = gradebook(folders, **kw)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow([csv_safe(h) for h in header])
    w.writerows([csv_safe(c) for c in row] for row in rows)
    return buf.getvalue()
