"""The apps' numbers as HTML and plain text, every number written by one formatter.

:func:`format_number` (the derivations' ``fmt``) writes the numbers of the
tables, and the figures use it too, so a value reads the same wherever it is
shown.
"""
from __future__ import annotations

import html

import numbers

from ..steps import aligned, fmt, fmt_count

__all__ = ["format_number", "html_table", "html_pre", "text_table", "plural"]


def format_number(value) -> str:
    """A number as the tables, figures and derivations write it (text stays text;
    counts with thousands separators from 10,000 on).

    >>> format_number(0.83333333), format_number(3.0), format_number("n/a")
    ('0.8333', '3', 'n/a')
    >>> format_number(49990000)
    '49,990,000'
    """
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return fmt_count(value)
    return fmt(value)


def html_table(header, rows, caption: str | None = None) -> str:
    """A small HTML table; numbers written by :func:`format_number`."""
    out = ['<table class="pe-table" style="border-collapse: collapse; font-size: 90%; '
           'margin: 4px 12px 4px 0">']
    if caption:
        out.append(f'<caption style="text-align: left; font-weight: bold">'
                   f'{html.escape(caption)}</caption>')
    out.append("<tr>" + "".join(f'<th style="padding: 1px 8px; border-bottom: 1px solid #999">'
                                f"{html.escape(format_number(h))}</th>" for h in header)
               + "</tr>")
    for row in rows:
        out.append("<tr>" + "".join(f'<td style="padding: 1px 8px; text-align: right">'
                                    f"{html.escape(format_number(c))}</td>" for c in row)
                   + "</tr>")
    out.append("</table>")
    return "".join(out)


def html_pre(text: str) -> str:
    """Plain text (a derivation) in a preformatted block: a monospace font, so its
    columns line up, and lines never broken inside a word (it scrolls in its own box
    outside lecture mode; in lecture mode it shows whole, long lines wrapped between words)."""
    return ('<pre class="pe-derivation" style="font-size: 85%; max-height: 360px; '
            "overflow: auto; line-height: 1.25; font-family: monospace; white-space: pre-wrap; "
            f'word-break: normal; overflow-wrap: normal">{html.escape(text)}</pre>')


def text_table(header, rows) -> str:
    """The same table as plain text (for ``summary()``).

    >>> print(text_table(["measure", "value"], [["purity", 0.75]]))
    measure  value
    -------  -----
    purity    0.75
    """
    cells = [[format_number(c) for c in row] for row in rows]
    return "\n".join(aligned([str(h) for h in header], cells))


def plural(count: int, noun: str) -> str:
    """``"1 cluster"``, ``"3 clusters"``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
