"""Free-text answers read and graded on one page: ``prayatul-edu review GRADES_DIR``.

:func:`review_html` makes a static HTML page from a grades folder's grades.json: question
by question, the prompt and the model answer (from the instructor's questions module,
when the grades name it or it is given), then every student's typed answer (the
``answer`` the grader copied into grades.json) beside a field for the points (0 to the
question's) and one for a comment. The button **Download overrides.csv** builds, in
the browser, the overrides CSV :mod:`.overrides` reads (``student, question, points,
reason``; the comment is the reason, "Graded by hand." when left empty; an answer
without points is left out); then::

    prayatul-edu export GRADES_DIR --overrides overrides.csv

brings the points into grades.json, the feedback and the exports. Points given earlier
(grades.json's ``overrides``) fill the fields, so the page can be made again after an
export and the file downloaded again whole. The same review in JupyterLab:
``review.ipynb`` beside grades.json runs :func:`review_app` (ipywidgets), whose button
saves ``overrides.csv`` in the grades folder (:class:`Review`, without widgets).

Every answer, id and name on the page is the students' text: HTML-escaped, never
markup; the page runs no script but its own and loads nothing.
"""
from __future__ import annotations

import html
from pathlib import Path

from ..exercises._base import QUESTIONS
from ..exercises.authoring import HAND, load
from .finish import read_grades
from .gradebook import grades_name
from .report import write_atomic

__all__ = ["review_html", "free_text_rows", "write_review", "Review", "review_app",
           "review_notebook"]


def free_text_rows(data: dict, every: bool = False) -> dict[str, list[dict]]:
    """qid -> one entry per student with a free-text answer (or one still waiting for its
    points): ``student``, ``name``, ``answer``, ``points`` and ``reason`` given earlier
    (None, "" when none), ``max_points``, ``title``, and the grader's ``verdict`` (its
    status and feedback); in the order of grades.json. ``every``: every other question's
    answer too (grades.json's ``given``: what the student's check recorded)."""
    people = (data.get("settings") or {}).get("people") or {}
    out: dict[str, list[dict]] = {}
    for s in data["students"]:
        given = {o["question"]: o for o in s.get("overrides") or ()}
        for r in s["rows"]:
            free = "answer" in r or r["status"] == HAND
            if not free and not (every and "given" in r):
                continue
            o = given.get(r["question"])
            out.setdefault(r["question"], []).append({
                "student": s["student"], "name": (people.get(s["student"]) or {}).get("name", ""),
                "answer": str(r.get("answer") if free else r.get("given") or ""),
                "title": r.get("title", ""), "max_points": r["max_points"],
                "points": o["points"] if o else None, "reason": o["reason"] if o else "",
                "verdict": "" if free else f"{r['status']} ({r['points']:g}): "
                                           f"{r.get('feedback', '')}"})
    return out


def _question_text(qid: str) -> tuple[str, str]:
    """(prompt, model answer) of question ``qid`` on the exercise's own data, as plain
    text; ("", "") when its questions are not loaded."""
    cls = QUESTIONS.get(qid)
    if cls is None:
        return "", ""
    try:
        q = cls(seed=None)
        return q.prompt().text, q.solution().text
    except Exception as exc:   # the instructor's own code: said, the page still made
        return f"(the prompt could not be made: {type(exc).__name__})", ""


_STYLE = ("body{font-family:sans-serif;max-width:70em;margin:auto;padding:0 1em}"
          "table{border-collapse:collapse;width:100%}td,th{border:1px solid #bbb;"
          "padding:4px 6px;vertical-align:top;text-align:left}"
          "pre{white-space:pre-wrap;margin:0;font-family:inherit}"
          ".prompt,.model{background:#f4f4f4;padding:6px 10px;margin:6px 0}"
          "input[type=number]{width:5em}textarea{width:100%;min-height:3em}"
          "#download{font-size:1.1em;padding:6px 14px;margin:1em 0}"
          "#refused{color:#a00;font-weight:bold}")

#: The page's own script: the overrides CSV from the fields, downloaded.
_SCRIPT = r"""
function cell(v) { return '"' + String(v).replace(/"/g, '""') + '"'; }
function overridesCsv(refused) {
  var lines = ["student,question,points,reason"];
  document.querySelectorAll("tr.answer").forEach(function (tr) {
    var field = tr.querySelector("input[name=points]");
    var points = field.value.trim();
    var who = tr.dataset.student + " " + tr.dataset.question + ": ";
    if (field.validity.badInput) { refused.push(who + "the points are not a number"); return; }
    if (points === "") { return; }
    var value = Number(points), most = Number(field.max);
    if (!isFinite(value)) { refused.push(who + points + " is not a number"); return; }
    if (value < 0) { refused.push(who + points + " is below 0"); return; }
    if (value > most) {
      refused.push(who + points + " is more than the question's " + field.max + " points");
      return;
    }
    var reason = tr.querySelector("textarea[name=comment]").value.replace(/\s+/g, " ").trim();
    lines.push([tr.dataset.student, tr.dataset.question, points,
                reason || "Graded by hand."].map(cell).join(","));
  });
  return lines.join("\n") + "\n";
}
document.getElementById("download").addEventListener("click", function () {
  var refused = [];
  var text = overridesCsv(refused);
  var said = document.getElementById("refused");
  if (refused.length) {   // export would refuse the whole file: nothing downloaded
    said.textContent = "Not downloaded: " + refused.join("; ") +
      ". Correct the points, then download again.";
    document.getElementById("csv").value = "";
    return;
  }
  said.textContent = "";
  document.getElementById("csv").value = text;
  var a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type: "text/csv"}));
  a.download = "overrides.csv";
  document.body.appendChild(a);
  a.click();
  a.remove();
});
"""


def review_html(data: dict, title: str = "grades", every: bool = False) -> str:
    """The review page of the grades ``data`` (grades.json, see the module doc);
    ``title``: the assignment's name; ``every``: every question's answers, with the
    grader's verdict, not only the free-text ones."""
    esc = html.escape
    questions = free_text_rows(data, every)
    name = title
    n = sum(len(v) for v in questions.values())
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
             "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:\">",
             f"<title>Review: {esc(name)}</title><style>{_STYLE}</style></head><body>",
             f"<h1>Answers to grade by hand: {esc(name)}</h1>",
             f"<p>{n} answer(s) to {len(questions)} question(s). Give each answer its points "
             "and, if you like, a comment (the student reads it; empty: \"Graded by hand.\"). "
             "Then <b>Download overrides.csv</b> and run <code>prayatul-edu export "
             "GRADES_DIR --overrides overrides.csv</code>: the points go into grades.json, "
             "the feedback and the exports. An answer without points is left out; points "
             "below 0 or above the question's are refused, named, before any "
             "download.</p>"]
    for qid, rows in questions.items():
        prompt, model = _question_text(qid)
        maximum = max(r["max_points"] for r in rows)
        parts.append(f'<section class="question" id="q-{esc(qid)}">'
                     f"<h2>{esc(qid)} {esc(rows[0]['title'])} (of {maximum:g} points)</h2>")
        if prompt:
            parts.append(f'<div class="prompt"><b>Prompt</b> (the exercise\'s own data)'
                         f"<pre>{esc(prompt)}</pre></div>")
        if model:
            parts.append(f'<div class="model"><b>Model answer</b><pre>{esc(model)}</pre></div>')
        verdicts = any(r["verdict"] for r in rows)
        parts.append("<table><tr><th>student</th><th>answer</th>"
                     + ("<th>the grader's verdict</th>" if verdicts else "")
                     + "<th>points</th><th>comment</th></tr>")
        for r in rows:
            who = esc(r["student"]) + (f"<br>{esc(r['name'])}" if r["name"] else "")
            points = "" if r["points"] is None else f"{r['points']:g}"
            parts.append(
                f'<tr class="answer" data-student="{esc(r["student"])}" '
                f'data-question="{esc(qid)}"><td>{who}</td>'
                f'<td><pre class="text">{esc(r["answer"]) or "<i>(no answer)</i>"}</pre></td>'
                + (f'<td class="verdict">{esc(r["verdict"])}</td>' if verdicts else "") +
                f'<td><input type="number" name="points" min="0" max="{r["max_points"]:g}" '
                f'step="any" value="{points}" aria-label="points of {esc(r["student"])}"> '
                f'/ {r["max_points"]:g}</td>'
                f'<td><textarea name="comment" aria-label="comment to {esc(r["student"])}">'
                f'{esc(r["reason"])}</textarea></td></tr>')
        parts.append("</table></section>")
    if not questions:
        parts.append("<p>No answer waits to be graded by hand.</p>")
    parts += ['<p id="refused" role="alert"></p>',
              '<button id="download" type="button">Download overrides.csv</button>',
              '<p><label>The file downloaded (also to copy): <textarea id="csv" readonly '
              'rows="6"></textarea></label></p>',
              f"<script>{_SCRIPT}</script></body></html>"]
    return "\n".join(parts) + "\n"


class Review:
    """The review of a grades folder without widgets (what the app and a script use):
    ``questions`` (:func:`free_text_rows`), :meth:`give` points and a comment to an
    answer, :meth:`overrides_csv` / :meth:`save` the overrides file :mod:`.overrides`
    reads (the same as the page's download)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.questions = free_text_rows(read_grades(self.folder))
        self.given = {(e["student"], qid): (e["points"], e["reason"])
                      for qid, entries in self.questions.items() for e in entries
                      if e["points"] is not None}

    def give(self, student: str, question: str, points, comment: str = "") -> None:
        """Give ``student``'s answer to ``question`` its ``points`` (0 to the question's;
        None or "": not graded yet) and a ``comment`` (the reason the student reads)."""
        entry = next((e for e in self.questions.get(question, ()) if e["student"] == student),
                     None)
        if entry is None:
            raise ValueError(f"question: {student} has no free-text answer to {question!r}")
        if points is None or (isinstance(points, str) and not points.strip()):
            self.given.pop((student, question), None)
            return
        try:
            value = float(points)
        except (TypeError, ValueError):
            raise ValueError(f"points: {student} {question}: expected a number, got "
                             f"{points!r}") from None
        if not 0 <= value <= entry["max_points"]:
            raise ValueError(f"points: {student} {question}: expected 0 to "
                             f"{entry['max_points']:g}, got {value:g}")
        self.given[student, question] = (value, " ".join(str(comment or "").split()))

    def overrides_csv(self) -> str:
        """The overrides CSV of the points given (a comment left empty: "Graded by
        hand.")."""
        import csv
        import io

        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
        w.writerow(["student", "question", "points", "reason"])
        for (student, question), (points, reason) in self.given.items():
            w.writerow([student, question, f"{points:g}", reason or "Graded by hand."])
        return buf.getvalue()

    def save(self, path=None) -> Path:
        """Write :meth:`overrides_csv` to ``path`` (default ``overrides.csv`` in the
        grades folder); its path."""
        path = Path(path) if path else self.folder / "overrides.csv"
        write_atomic(path, self.overrides_csv())
        return path


def review_app(folder="."):
    """The review in JupyterLab (``review.ipynb``, written by ``prayatul-edu review``):
    per question the prompt and the model answer, per answer the student's words (as
    text), a points field and a comment; **Save overrides.csv** writes the file into
    the grades folder (:class:`Review`) and says the ``export`` command to run."""
    import ipywidgets as w

    review = Review(folder)
    esc = html.escape
    fields, parts = [], []
    for qid, entries in review.questions.items():
        prompt, model = _question_text(qid)
        parts.append(w.HTML(f"<h3>{esc(qid)} {esc(entries[0]['title'])}</h3>"
                            + (f"<p><b>Prompt</b></p><pre>{esc(prompt)}</pre>" if prompt else "")
                            + (f"<p><b>Model answer</b></p><pre>{esc(model)}</pre>"
                               if model else "")))
        for e in entries:
            who = esc(e["student"]) + (f" ({esc(e['name'])})" if e["name"] else "")
            points = w.Text(value="" if e["points"] is None else f"{e['points']:g}",
                            placeholder=f"0 to {e['max_points']:g}",
                            description="points", layout=w.Layout(width="14em"))
            comment = w.Textarea(value=e["reason"], placeholder="comment (the student reads it)",
                                 layout=w.Layout(width="100%"))
            fields.append((e["student"], qid, points, comment))
            parts.append(w.VBox([w.HTML(f"<b>{who}</b><pre style='white-space:pre-wrap'>"
                                        f"{esc(e['answer'])}</pre>"), w.HBox([points, comment])]))
    status = w.HTML()
    button = w.Button(description="Save overrides.csv", button_style="primary")

    def save(_):
        try:
            for student, qid, points, comment in fields:
                review.give(student, qid, points.value, comment.value)
        except ValueError as exc:
            status.value = f"<b>Not saved:</b> {esc(str(exc))}"
            return
        path = review.save()
        status.value = (f"Saved {len(review.given)} answer(s) to {esc(path.name)}: run "
                        f"<code>prayatul-edu export GRADES_DIR --overrides {esc(path.name)}"
                        "</code> (GRADES_DIR: this folder).")

    button.on_click(save)
    if not fields:
        parts.append(w.HTML("<p>No answer waits to be graded by hand.</p>"))
    return w.VBox(parts + [button, status])


#: The notebook ``review`` writes beside grades.json, for JupyterLab.
NOTEBOOK_SOURCE = ("from prayatul_edu.grading.review import review_app\n\n"
                   "review_app(\".\")   # the grades folder: this notebook's own")


def review_notebook() -> str:
    """``review.ipynb``: the app (:func:`review_app`) of the grades folder it sits in."""
    import nbformat

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(
            "# Free-text answers to grade\n\nRun the cell: give each answer its points and "
            "a comment, then **Save overrides.csv** and export with it (the same as "
            "`review.html`, in JupyterLab)."),
        nbformat.v4.new_code_cell(NOTEBOOK_SOURCE)])
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"review-{k}"
    return nbformat.writes(nb) + "\n"


def write_review(folder, *, questions=None, out=None, every: bool = False) -> Path:
    """Write the review page of the grades ``folder`` (``out``, default
    ``folder/review.html``); ``questions``: the instructor's exercise (its folder or
    questions module), default the one the grades name; ``every``: every question's
    answers (:func:`review_html`). Returns the page's path."""
    folder = Path(folder)
    data = read_grades(folder)
    module = questions or (data.get("settings") or {}).get("questions")
    if module:
        try:
            load(module)
        except (OSError, ValueError) as exc:
            if questions:          # the one given must load; the one recorded may be gone
                raise ValueError(f"exercise: {exc}") from None
    path = Path(out) if out else folder / "review.html"
    write_atomic(path, review_html(data, grades_name(data, folder), every))
    write_atomic(folder / "review.ipynb", review_notebook())
    return path
