"""The class report: what the class got right, what it got wrong and why, per question.

Written by ``prayatul-edu grade`` and ``export`` beside grades.json (and built from it
alone): ``report.md`` (for a terminal) and ``report.html`` (figures drawn with
matplotlib, embedded as PNG: readable offline). One section per question: the
distribution of its points, the shares of the class correct, partly correct,
incorrect (an unreadable answer included), not attempted and not graded (a notebook
that could not be run, or an answer still to be graded by hand); the named mistakes
with how many students made each; the hints, solutions and keys asked for; and the
item's discrimination: the **item-rest correlation** (Pearson's r of the question's
points with the rest-score, the student's total without that question; for a
question scored all or nothing it is the point-biserial correlation), undefined
(shown as "n/a") when either varies not at all. Then a histogram of the totals.

An answer on a student's own variant that equals the course's answer is never said to
the student (an honest slip can give the same number); when it is distinctive (not a
value such as 0, 1/2 or 1) it is listed here, per question, with how many of its numbers
are distinctive (grades.json: ``course_answer``), for the instructor to look into.

No student's answer or output is quoted: the report holds counts, the mistakes'
names (the instructor's or the package's words) and question titles, all escaped.

>>> round(item_rest([0, 1, 1, 0], [1, 3, 4, 0]), 4)          # 3 / sqrt(1 * 10)
0.9487
"""
from __future__ import annotations

import base64
import html
import io
import math
import re
from collections import Counter
from pathlib import Path

from ..exercises import CORRECT, INCORRECT, INVALID, NOT_ATTEMPTED, PARTLY
from .late import LATE_ROW
from .report import CELL_ERROR, md_escape, write_atomic

__all__ = ["question_stats", "item_rest", "class_report_markdown", "class_report_html",
           "write_class_report", "STATUSES"]

#: The columns of the shares, in order.
STATUSES = ("correct", "partly", "incorrect", "not attempted", "error", "not graded")


def _bucket(status: str) -> str:
    return {CORRECT: "correct", PARTLY: "partly", INCORRECT: "incorrect",
            INVALID: "incorrect", NOT_ATTEMPTED: "not attempted",
            CELL_ERROR: "error"}.get(status, "not graded")


def item_rest(item, rest) -> float | None:
    """Pearson's correlation of ``item`` and ``rest`` (None when either is constant)."""
    n = len(item)
    if n < 2:
        return None
    mi, mr = sum(item) / n, sum(rest) / n
    sxy = sum((a - mi) * (b - mr) for a, b in zip(item, rest))
    sxx = sum((a - mi) ** 2 for a in item)
    syy = sum((b - mr) ** 2 for b in rest)
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return sxy / math.sqrt(sxx * syy)


def _questions(students) -> list[tuple[str, str]]:
    seen = {}
    for s in students:
        for r in s["rows"]:
            if r["question"] not in ("-", LATE_ROW):
                seen.setdefault(r["question"], r.get("title", ""))
    return list(seen.items())


def question_stats(students: list[dict]) -> list[dict]:
    """Per question (in order): ``qid``, ``title``, ``max_points``, ``n`` (students),
    ``points`` (a Counter of points), ``counts`` and ``shares`` per :data:`STATUSES`,
    ``mistakes`` (name -> students), ``course_answers`` (how distinctive -> students: a
    distinctive answer equal to the course's on a variant), ``hints`` / ``solutions``
    (students who asked, and how many calls), ``discrimination`` (item-rest r, or None),
    ``mean``."""
    totals = {s["student"]: sum(r["points"] for r in s["rows"] if r["question"] != LATE_ROW)
              for s in students}
    out = []
    for qid, title in _questions(students):
        rows = [(s, next(r for r in s["rows"] if r["question"] == qid)) for s in students
                if any(r["question"] == qid for r in s["rows"])]
        n = len(rows)
        counts = Counter(_bucket(r["status"]) for _, r in rows)
        mistakes = Counter(name for _, r in rows for name in dict.fromkeys(
            r.get("diagnosed", [])))
        errors = Counter(m.group(1) for _, r in rows if r["status"] == CELL_ERROR
                         for m in [_RAISED.search(r.get("feedback", ""))] if m)
        calls = [s.get("calls", {}).get(qid, {}) for s, _ in rows]
        item = [r["points"] for _, r in rows]
        rest = [totals[s["student"]] - r["points"] for s, r in rows]
        out.append({
            "qid": qid, "title": title, "n": n,
            "max_points": max((r["max_points"] for _, r in rows), default=0),
            "points": Counter(item), "mean": sum(item) / n if n else 0.0,
            "counts": {k: counts.get(k, 0) for k in STATUSES},
            "shares": {k: counts.get(k, 0) / n if n else 0.0 for k in STATUSES},
            "mistakes": dict(sorted(mistakes.items(), key=lambda kv: (-kv[1], kv[0]))),
            "errors": dict(sorted(errors.items(), key=lambda kv: (-kv[1], kv[0]))),
            "course_answers": dict(Counter(r["course_answer"] for _, r in rows
                                           if r.get("course_answer"))),
            "hints": (sum(1 for c in calls if c.get("hint")), sum(c.get("hint", 0)
                                                                  for c in calls)),
            "solutions": (sum(1 for c in calls if c.get("solution") or c.get("key")),
                          sum(c.get("solution", 0) + c.get("key", 0) for c in calls)),
            "discrimination": item_rest(item, rest)})
    return out


#: The exception an error row's feedback names (``... raised NameError: ...``).
_RAISED = re.compile(r"raised ([\w.]{1,60}):")


def _missing_line(missing) -> str:
    """The sentence naming the students of the roster who handed in nothing (raw)."""
    if not missing:
        return ""
    return (f"{len(missing)} student(s) of the roster handed in nothing (missing, not in "
            "the statistics): " + ", ".join(missing) + ".")


def _errors_line(q: dict) -> str:
    return ("Cells that raised (status error, no answer recorded): "
            + ", ".join(f"{name} {c}" for name, c in q["errors"].items()) + "."
            if q["errors"] else "")


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


def _r(x) -> str:
    return "n/a" if x is None else f"{x:.2f}"


def _summary(q: dict, escape) -> list[str]:
    """The cells of a question's line in the summary table (its name escaped)."""
    return ([f"{escape(q['qid'])} {escape(q['title'])}",
             f"{q['mean']:.2f} / {q['max_points']:g}"]
            + [f"{q['counts'][k]} ({_pct(q['shares'][k])})" for k in STATUSES]
            + [_r(q["discrimination"])])


def _course_line(q: dict) -> str:
    """The sentence on the students who gave the course's (distinctive) answer."""
    n = sum(q["course_answers"].values())
    how = "; ".join(f"{c}: {how}" for how, c in sorted(q["course_answers"].items()))
    return (f"The course's answer on their own variant: {n} student{'s' * (n != 1)} "
            f"({how}). A distinctive value: worth a look; the students were not told.")


def _totals(students) -> list[float]:
    return [round(sum(r["points"] for r in s["rows"]), 2) for s in students]


def class_report_markdown(students: list[dict], title: str, missing=()) -> str:
    """``report.md``: the tables of the report (see the module doc); ``missing``: the
    students of the roster who handed in nothing."""
    stats = question_stats(students)
    totals = _totals(students)
    lines = [f"# Class report: {md_escape(title)}", "",
             f"{len(students)} students. Mean total {sum(totals) / max(1, len(totals)):.2f}. "
             "Discrimination: the item-rest correlation (Pearson's r of the question's points "
             "with the rest of the total; the point-biserial for an all-or-nothing "
             "question).", "", *([md_escape(_missing_line(missing)), ""] if missing else []),
             "| question | mean points | " + " | ".join(STATUSES) + " | discrimination |",
             "| --- | --- | " + " | ".join("---" for _ in STATUSES) + " | --- |"]
    lines += ["| " + " | ".join(_summary(q, md_escape)) + " |" for q in stats]
    for q in stats:
        lines += ["", f"## {md_escape(q['qid'])} {md_escape(q['title'])}", "",
                  f"Points (of {q['max_points']:g}): " + ", ".join(
                      f"{p:g}: {c} student{'s' * (c != 1)}"
                      for p, c in sorted(q["points"].items())) + ".", "",
                  "Shares: " + ", ".join(f"{k} {q['counts'][k]} ({_pct(q['shares'][k])})"
                                         for k in STATUSES) + ".", "",
                  f"Hints asked for by {q['hints'][0]} student(s) ({q['hints'][1]} in all); "
                  f"solutions or keys by {q['solutions'][0]} ({q['solutions'][1]} in all). "
                  f"Discrimination (item-rest r): {_r(q['discrimination'])}.", ""]
        if q["errors"]:
            lines += [md_escape(_errors_line(q)), ""]
        if q["mistakes"]:
            lines += ["| named mistake | students |", "| --- | --- |"]
            lines += [f"| {md_escape(name)} | {c} ({_pct(c / q['n'])}) |"
                      for name, c in q["mistakes"].items()]
        else:
            lines.append("No named mistake was made.")
        if q["course_answers"]:
            lines += ["", md_escape(_course_line(q))]
    lines += ["", "## Totals", "", "| total | students |", "| --- | --- |"]
    lines += [f"| {t:g} | {c} |" for t, c in sorted(Counter(totals).items())]
    return "\n".join(lines) + "\n"


def _png(fig) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=80, bbox_inches="tight")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _figures(stats, totals) -> tuple[str, dict]:
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 2.6))
    ax = fig.subplots()
    ax.hist(totals, bins=min(20, max(5, len(set(totals)))), color="#4477aa")
    ax.set(xlabel="total points", ylabel="students", title="Totals")
    hist = _png(fig)
    per = {}
    for q in stats:
        fig = Figure(figsize=(3.6, 2.2))
        ax = fig.subplots()
        pts = sorted(q["points"])
        ax.bar([f"{p:g}" for p in pts], [q["points"][p] for p in pts], color="#228833")
        ax.set(xlabel=f"points (of {q['max_points']:g})", ylabel="students")
        per[q["qid"]] = _png(fig)
    return hist, per


def class_report_html(students: list[dict], title: str, missing=()) -> str:
    """``report.html``: the same as :func:`class_report_markdown`, with the figures."""
    esc = html.escape
    stats = question_stats(students)
    totals = _totals(students)
    hist, per = _figures(stats, totals)
    img = '<img alt="{}" src="data:image/png;base64,{}">'.format
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Class report: {esc(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:60em;margin:auto}"
             "table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:2px 6px}"
             "</style></head><body>",
             f"<h1>Class report: {esc(title)}</h1>",
             f"<p>{len(students)} students. Mean total "
             f"{sum(totals) / max(1, len(totals)):.2f}. Discrimination: the item-rest "
             "correlation (Pearson's r of the question's points with the rest of the total; "
             "the point-biserial for an all-or-nothing question).</p>",
             *([f'<p class="missing">{esc(_missing_line(missing))}</p>'] if missing else []),
             "<table><tr><th>question</th><th>mean points</th>"
             + "".join(f"<th>{esc(k)}</th>" for k in STATUSES)
             + "<th>discrimination</th></tr>"]
    parts += ["<tr>" + "".join(f"<td>{c}</td>" for c in _summary(q, esc)) + "</tr>"
              for q in stats]
    parts.append("</table>")
    for q in stats:
        parts += [f"<h2>{esc(q['qid'])} {esc(q['title'])}</h2>",
                  img(esc(f"points of {q['qid']}"), per[q["qid"]]),
                  "<p>Shares: " + ", ".join(f"{esc(k)} {q['counts'][k]} "
                                            f"({_pct(q['shares'][k])})" for k in STATUSES)
                  + ".</p>",
                  f"<p>Hints asked for by {q['hints'][0]} student(s) ({q['hints'][1]} in "
                  f"all); solutions or keys by {q['solutions'][0]} ({q['solutions'][1]} in "
                  f"all). Discrimination (item-rest r): {_r(q['discrimination'])}.</p>"]
        if q["errors"]:
            parts.append(f"<p>{esc(_errors_line(q))}</p>")
        if q["mistakes"]:
            parts.append("<table><tr><th>named mistake</th><th>students</th></tr>"
                         + "".join(f"<tr><td>{esc(name)}</td><td>{c} ({_pct(c / q['n'])})"
                                   "</td></tr>" for name, c in q["mistakes"].items())
                         + "</table>")
        else:
            parts.append("<p>No named mistake was made.</p>")
        if q["course_answers"]:
            parts.append(f"<p>{esc(_course_line(q))}</p>")
    parts += ["<h2>Totals</h2>", img("histogram of the totals", hist), "</body></html>"]
    return "\n".join(parts) + "\n"


def write_class_report(students: list[dict], out, title: str, missing=()) -> list[Path]:
    """Write ``report.md`` and ``report.html`` in ``out`` (``missing``: the students of
    the roster who handed in nothing, named at the top)."""
    out = Path(out)
    write_atomic(out / "report.md", class_report_markdown(students, title, missing))
    write_atomic(out / "report.html", class_report_html(students, title, missing))
    return [out / "report.md", out / "report.html"]
