"""Step rendering: every result shows how it was computed.

A result builds a :class:`Derivation` - a short list of blocks (a sentence, a
formula, the formula with the numbers plugged in, a table, a note) - and the
derivation renders itself twice:

* ``to_markdown()`` for Jupyter (``_repr_markdown_``): LaTeX formulas and
  Markdown tables;
* ``to_text()`` for a terminal (``.explain()``, and ``print`` of a non-scalar
  result): plain formulas and aligned columns.

``repr`` stays short (at most :data:`MAX_REPR` characters, so that
``print({"ari": ari})`` prints a line): the class and the number, e.g.
``AdjustedRandIndex(0.4183)``, or ``<PrayatulMatrix; .explain() shows how>``.

:class:`Result` is the base of every non-scalar result and :class:`ScalarResult`
of every number-valued one. A ``ScalarResult`` *is* a ``float`` (so
``float(r)``, ``r > 0.5``, ``f"{r:.3f}"``, ``np.isclose(r, x)`` all work) that
also carries its intermediate quantities as attributes and shows its
derivation in Jupyter and in ``.explain()``::

    >>> from prayatul_edu import purity
    >>> p = purity([0, 0, 1, 1], [0, 0, 0, 1])
    >>> float(p)
    0.75
    >>> p
    Purity(0.75)
    >>> print(p.explain().splitlines()[0])
    Purity = 0.75
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

__all__ = ["Derivation", "Result", "ScalarResult", "fmt", "fixed", "frac", "fmt_counts", "aligned",
           "MAX_REPR"]

#: Tables longer than this are cut in the rendered derivation (the data stay whole).
MAX_TABLE_ROWS = 20

#: The longest ``repr`` of a result (the derivation is in ``.explain()`` and Jupyter's display).
MAX_REPR = 100


def fmt(x: Any, digits: int = 4) -> str:
    """A number as people write it in a worked example.

    Integers print as integers, other reals with up to ``digits`` decimals and
    no trailing zeros (0.8333, 0.5, 1), NaN as ``nan``.
    """
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, Fraction):
        return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    text = f"{v:.{digits}f}".rstrip("0").rstrip(".")
    if text in {"0", "-0"}:  # tiny but non-zero: keep it visible
        return f"{v:.{digits}g}" if abs(v) >= 1e-300 else "0"
    return text


def fixed(x: Any, digits: int = 4) -> str:
    """A number with exactly ``digits`` decimals, for columns of a table (never ``-0.0000``)."""
    text = f"{float(x):.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def frac(numerator: Any, denominator: Any, digits: int = 4) -> str:
    """``'3/4 = 0.75'``: a ratio of counts shown as a fraction and its value."""
    if denominator == 0:
        return f"{fmt(numerator)}/0"
    value = float(numerator) / float(denominator)
    return f"{fmt(numerator)}/{fmt(denominator)} = {fmt(value, digits)}"


def fmt_count(n) -> str:
    """A count as the apps and figures show it: thousands separated from 10,000 on, so that
    49,990,000 reads at a glance (a number of up to four digits stays as it is).

    >>> fmt_count(9999), fmt_count(49990000), fmt_count(-12345)
    ('9999', '49,990,000', '-12,345')
    """
    n = int(n)
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


def fmt_counts(values, limit: int = 12) -> str:
    """``'2 + 1 + 1'``: a sum written out; long lists keep their first and last terms."""
    values = list(values[:limit]) if len(values) <= limit else (
        list(values[:6]) + ["..."] + list(values[-3:]))
    return " + ".join(v if isinstance(v, str) else fmt(v) for v in values)


@dataclass
class _Block:
    kind: str  # "text", "formula", "step", "table", "note"
    payload: Any


@dataclass
class Derivation:
    """An ordered list of blocks that renders as Markdown or plain text."""

    title: str
    blocks: list[_Block] = field(default_factory=list)

    # -- building ---------------------------------------------------------
    def text(self, sentence: str) -> "Derivation":
        """A sentence of prose (Markdown allowed; ``$...$`` is kept in text)."""
        self.blocks.append(_Block("text", sentence))
        return self

    def formula(self, latex: str, plain: str) -> "Derivation":
        """The general formula, in LaTeX for Jupyter and plain for terminals."""
        self.blocks.append(_Block("formula", (latex, plain)))
        return self

    def step(self, latex: str, plain: str | None = None) -> "Derivation":
        """The formula with numbers plugged in (``plain`` defaults to ``latex``)."""
        self.blocks.append(_Block("step", (latex, plain if plain is not None else latex)))
        return self

    def table(self, header: Sequence[Any], rows: Sequence[Sequence[Any]],
              caption: str | None = None, max_rows: int = MAX_TABLE_ROWS,
              total_rows: int | None = None) -> "Derivation":
        """A table; cells are formatted with :func:`fmt` unless already strings.

        At most ``max_rows`` rows are shown. ``total_rows`` says how many rows
        the full table has when the caller built only the first ones (building
        a million rows to print twenty would be slow).
        """
        rows = list(rows)
        total = len(rows) if total_rows is None else max(int(total_rows), len(rows))
        rows = rows[:max_rows]
        omitted = total - len(rows)
        cells = [[c if isinstance(c, str) else fmt(c) for c in row] for row in rows]
        head = [h if isinstance(h, str) else fmt(h) for h in header]
        self.blocks.append(_Block("table", (head, cells, caption, omitted)))
        return self

    def note(self, sentence: str) -> "Derivation":
        """Something the reader must not miss (a convention, a seed's typo...)."""
        self.blocks.append(_Block("note", sentence))
        return self

    def extend(self, other: "Derivation", heading: bool = True) -> "Derivation":
        """Append another derivation's blocks (with its title as a sub-heading)."""
        if heading:
            self.blocks.append(_Block("heading", other.title))
        self.blocks.extend(other.blocks)
        return self

    # -- rendering --------------------------------------------------------
    def to_markdown(self) -> str:
        out = [f"**{self.title}**", ""]
        for b in self.blocks:
            if b.kind == "text":
                out += [b.payload, ""]
            elif b.kind == "heading":
                out += [f"*{b.payload}*", ""]
            elif b.kind in ("formula", "step"):
                out += [f"$${b.payload[0]}$$", ""]
            elif b.kind == "note":
                out += [f"> **Note.** {b.payload}", ""]
            elif b.kind == "table":
                head, cells, caption, omitted = b.payload
                if caption:
                    out += [caption, ""]
                out.append("| " + " | ".join(_md_cell(h) for h in head) + " |")
                out.append("|" + "|".join(" --- " for _ in head) + "|")
                for row in cells:
                    out.append("| " + " | ".join(_md_cell(c) for c in row) + " |")
                if omitted:
                    out.append(f"| ... {omitted} more rows | " + " | ".join("" for _ in head[1:]) + " |")
                out.append("")
        return "\n".join(out).rstrip() + "\n"

    def to_text(self) -> str:
        out = [self.title, "=" * len(self.title)]
        for b in self.blocks:
            if b.kind == "text":
                out.append(_plain_prose(b.payload))
            elif b.kind == "heading":
                out += ["", b.payload, "-" * len(b.payload)]
            elif b.kind == "formula":
                out.append("  " + b.payload[1])
            elif b.kind == "step":
                out.append("    " + b.payload[1])
            elif b.kind == "note":
                out.append("  Note: " + _plain_prose(b.payload))
            elif b.kind == "table":
                head, cells, caption, omitted = b.payload
                if caption:
                    out.append(_plain_prose(caption))
                out.extend("  " + line for line in aligned(head, cells))
                if omitted:
                    out.append(f"  ... {omitted} more rows")
        return "\n".join(out)


def _md_cell(s: str) -> str:
    return str(s).replace("|", "\\|")


_LATEX_PLAIN = [("\\cap", "∩"), ("\\cup", "∪"), ("\\in", "in"), ("\\leq", "<="),
                ("\\le", "<="), ("\\geq", ">="), ("\\ge", ">="), ("\\neq", "!="),
                ("\\Leftrightarrow", "<=>"), ("\\Rightarrow", "=>"), ("\\cdot", "*"),
                ("\\times", "x"), ("\\sum", "sum"), ("\\log", "log"), ("\\max", "max"),
                ("\\min", "min"), ("\\sigma", "sigma"), ("\\alpha", "alpha"),
                ("\\xi", "xi"), ("\\phi", "phi"), ("\\pi", "pi"), ("\\ldots", "..."),
                ("\\dots", "..."), ("\\,", " "), ("\\;", " "), ("\\quad", "  ")]


_LATEX_GROUPS = [  # innermost groups first, applied until nothing changes
    (r"_\{([^{}]*)\}", r"_\1"),                                   # p_{ij} -> p_ij
    (r"\\(?:text|mathrm|operatorname|mathcal|mathbf|mathit)\{([^{}]*)\}", r"\1"),
    (r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)"),
    (r"\\sqrt\{([^{}]*)\}", r"sqrt(\1)"),
    (r"\\overline\{([^{}]*)\}", r"not \1"),
]


def _plain_prose(s: str) -> str:
    """Markdown/LaTeX prose as plain text for a terminal."""
    s = s.replace("**", "").replace("`", "").replace("$", "")
    s = re.sub(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])", r"\1", s)   # *emphasis*
    if "\\" in s or re.search(r"[_^]\{", s):
        s = s.replace("\\{", "\x00").replace("\\}", "\x01")              # set braces stay
        changed = True
        while changed:
            before = s
            for pattern, plain in _LATEX_GROUPS:
                s = re.sub(pattern, plain, s)
            changed = s != before
        for latex, plain in _LATEX_PLAIN:
            s = re.sub(re.escape(latex) + r"(?![A-Za-z])", plain, s)
        s = s.replace("{", "").replace("}", "").replace("\x00", "{").replace("\x01", "}")
    return s


def plain_prose(s: str) -> str:
    """Markdown/LaTeX prose as the plain text a terminal shows (what ``to_text`` prints)."""
    return _plain_prose(s)


def aligned(head: list[str], cells: list[list[str]]) -> list[str]:
    """A plain-text table's lines: the first column left-aligned, the others right-aligned,
    a rule under the header.

    >>> print("\\n".join(aligned(["k", "score"], [["a", "0.5"], ["bb", "1"]])))
    k   score
    --  -----
    a     0.5
    bb      1
    """
    table = [head] + cells
    widths = [max(len(str(r[i])) if i < len(r) else 0 for r in table) for i in range(len(head))]
    lines = []
    for k, row in enumerate(table):
        parts = []
        for i, w in enumerate(widths):
            c = str(row[i]) if i < len(row) else ""
            parts.append(c.ljust(w) if i == 0 else c.rjust(w))
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return lines


def _short(text: str) -> str:
    """``text`` cut to :data:`MAX_REPR` characters (an ellipsis marks the cut)."""
    return text if len(text) <= MAX_REPR else text[:MAX_REPR - 4] + "...)"


class Result:
    """Base of every result: renders its derivation in Jupyter and terminals.

    Subclasses implement :meth:`derivation`. ``repr`` is one short line
    (:data:`MAX_REPR` characters at most); the derivation is Jupyter's rich
    display (``_repr_markdown_``), ``.explain()`` and, for a non-scalar result,
    ``print(result)``.
    """

    def derivation(self) -> Derivation:  # pragma: no cover - abstract
        raise NotImplementedError

    def explain(self) -> str:
        """The derivation as plain text (Jupyter shows it as Markdown)."""
        return self.derivation().to_text()

    def _repr_markdown_(self) -> str:
        return self.derivation().to_markdown()

    def __repr__(self) -> str:
        return _short(f"<{type(self).__name__}; .explain() shows how it was computed>")

    def __str__(self) -> str:
        return self.explain()


class ScalarResult(float, Result):
    """A float that remembers how it was computed.

    ``ScalarResult(value, **intermediates)``: the keyword arguments become
    attributes. ``str(r)`` is the bare number; ``repr(r)`` the class and the
    number (``Purity(0.75)``, with what a reader needs to read it, e.g. the
    mean of an NMI, from :meth:`_repr_details`); ``.explain()`` the derivation.
    """

    def __new__(cls, value, **intermediates):
        self = float.__new__(cls, value)
        self.__dict__.update(intermediates)
        return self

    def __init__(self, value, **intermediates):  # noqa: D107 - handled in __new__
        pass

    def __reduce__(self):
        return (_rebuild_scalar, (type(self), float(self), dict(self.__dict__)))

    @property
    def value(self) -> float:
        return float(self)

    def __str__(self) -> str:
        return float.__repr__(self)

    def _repr_details(self) -> str:
        """What the short ``repr`` adds after the number (``", average='geometric'"``)."""
        return ""

    def __repr__(self) -> str:
        number = fmt(self)
        if number.lstrip("-").isdigit():                    # a whole number, still a float
            number += ".0"
        return _short(f"{type(self).__name__}({number}{self._repr_details()})")

    _repr_markdown_ = Result._repr_markdown_


def _rebuild_scalar(cls, value, attrs):
    obj = float.__new__(cls, value)
    obj.__dict__.update(attrs)
    return obj
