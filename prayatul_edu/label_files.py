"""Reading labels from files: CSV/TSV with a header row, .npy, .npz and Parquet.

:func:`read_columns` gives the columns of a file by name; :func:`column` picks
one for a role (``--truth``, ``--primary``, ...) and refuses missing values with
an error that names the role, the column and the row.
"""
from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import numpy as np

__all__ = ["read_columns", "parse_table", "column", "is_parquet", "read_parquet",
           "DEFAULT_NA", "parse_na", "MISSING_LOOKALIKES", "label_columns", "Columns",
           "INDEX_COLUMN", "EMPTY_COLUMNS", "missing_mask", "origin_of", "ORIGIN_NA"]

_FORMATS = (".csv", ".tsv", ".txt", ".npy", ".npz", ".parquet")
#: What a CSV field must be to count as missing, unless told otherwise (``--na``): only
#: the empty field. "NA" or "None" can be a cluster's name; a number column's "nan" is
#: NaN (a float) anyway.
DEFAULT_NA = ("",)
#: Fields that often stand for a missing value; never treated so unless named in ``na``,
#: but a column holding them is pointed out (:func:`label_columns`).
MISSING_LOOKALIKES = ("NA", "N/A", "n/a", "null", "NULL", "None", "nan", "NaN", "NAN", "-")
#: A column is taken as a clustering unless more than this share of its rows are
#: distinct values (coordinates, ids): a clustering has far fewer clusters than instances.
MOSTLY_DISTINCT = 0.5


def parse_na(text: str) -> tuple:
    """``--na`` as given on the command line: comma-separated tokens, ``""`` the empty field.

    >>> parse_na('NA,""')
    ('NA', '')
    >>> parse_na("")
    ('',)
    """
    return tuple(dict.fromkeys("" if t.strip() in ('""', "''") else t.strip()
                               for t in text.split(",")))


def read_columns(path, na=None) -> dict:
    """The columns of a CSV/TSV (with a header row), .npy or .npz file: name -> 1-D array.

    CSV columns whose every value is an integer (or a number) become int (float)
    arrays, others stay strings; a field equal to one of ``na`` (default: only the
    empty field; None: the default of the file's origin, which for R's ``write.csv``
    adds ``NA``, see ``origin_of``) is missing (NaN or None). A 2-D .npy array gives
    columns "0", "1", ...; a .npz gives its arrays by name, and a 2-D array ``X`` gives "X:0",
    "X:1", .... A CSV whose header leaves only its first cell empty was written by
    pandas (``DataFrame.to_csv()`` with its index): that column is left out, and the
    result's ``left_out`` (a ``Columns`` dict) says so. Raises ``ValueError`` (unknown format, ragged rows, different
    lengths, no header) or ``OSError`` (missing or unreadable file).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from prayatul_edu.compare import read_columns
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "labels.csv"
    >>> _ = path.write_text("truth,KMeans,note\\n0,1,a\\n0,1,b\\n1,0,c\\n")
    >>> columns = read_columns(path)
    >>> list(columns), columns["KMeans"].tolist(), columns["note"].tolist()
    (['truth', 'KMeans', 'note'], [1, 1, 0], ['a', 'b', 'c'])
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if is_parquet(path):
        return read_parquet(path)
    if suffix not in _FORMATS:
        raise ValueError(f"FILE: unknown format {path.suffix or '(no extension)'!r} of "
                         f"{path.name}; expected one of {', '.join(_FORMATS)}")
    if not path.is_file():
        raise OSError(f"FILE: cannot read {path}: "
                      + ("not a file" if path.exists() else "no such file"))
    if suffix in (".npy", ".npz"):
        try:
            loaded = np.load(path, allow_pickle=False)
        except Exception as exc:  # noqa: BLE001 - any failure means "not a NumPy file"
            raise ValueError(f"FILE: cannot read {path.name} as {suffix}: "
                             f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
        if suffix == ".npy":
            arrays = {"": loaded}
        else:
            with loaded:
                arrays = {k: loaded[k] for k in loaded.files}
        columns = {}
        for key, arr in arrays.items():
            if arr.dtype.names:
                columns.update({f: arr[f] for f in arr.dtype.names})
            elif arr.ndim == 1:
                columns[key or "0"] = arr
            elif arr.ndim == 2:
                columns.update({(f"{key}:{j}" if key else str(j)): arr[:, j]
                                for j in range(arr.shape[1])})
            else:
                raise ValueError(f"FILE: array {key or '(the .npy)'} has shape {arr.shape}; "
                                 "expected 1-D columns or a 2-D table")
        _same_length(columns, path.name)
        return columns
    return _read_csv(path, "\t" if suffix == ".tsv" else None, na)


def is_parquet(path) -> bool:
    """A ``.parquet`` file, or a directory (a Parquet data set of several files)."""
    path = Path(path)
    return path.suffix.lower() == ".parquet" or path.is_dir()


def read_parquet(path, columns=None, *, dask: bool = False) -> dict:
    """The columns of a Parquet file or directory: name -> 1-D array (or Dask series).

    With ``dask=True`` the columns stay lazy Dask series (``dask.dataframe``),
    read chunk by chunk where they are used; otherwise they are read into
    memory with pyarrow. Needs ``pip install prayatul-edu[dask]`` (pyarrow).
    """
    path = Path(path)
    if not path.exists():
        raise OSError(f"FILE: cannot read {path}: no such file or directory")
    try:
        if dask:
            import dask.dataframe as dd

            frame = dd.read_parquet(str(path), columns=columns)
            return {name: frame[name] for name in frame.columns}
        import pyarrow.parquet as pq

        table = pq.read_table(str(path), columns=columns)
    except ImportError as exc:
        raise ValueError(f"FILE: reading Parquet needs {exc.name}: "
                         "pip install 'prayatul-edu[dask]'") from None
    except Exception as exc:  # noqa: BLE001 - pyarrow's errors: not a Parquet data set
        if isinstance(exc, (ValueError, OSError)) and str(exc).startswith("FILE:"):
            raise
        raise ValueError(f"FILE: cannot read {path.name} as Parquet: "
                         f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
                         ) from None
    return {name: _from_arrow(table.column(name)) for name in table.column_names}


def _from_arrow(col) -> np.ndarray:
    """A pyarrow column as a NumPy array: missing values as NaN (numbers) or None."""
    arr = col.to_numpy()
    if arr.dtype.kind == "O" and col.null_count == 0:
        values = arr.tolist()
        if all(isinstance(v, str) for v in values):
            return np.array(values)
    return arr


def _read_csv(path: Path, delimiter, na=None) -> dict:
    try:
        with open(path, "rb") as f:
            content = f.read()
    except OSError as exc:
        raise OSError(f"FILE: cannot read {path}: {exc.strerror or exc}") from None
    return parse_table(content, path.name, delimiter, na=na)


def parse_table(content, where: str = "the text", delimiter: str | None = None,
                name: str = "FILE", na=None) -> dict:
    """The columns of a CSV/TSV table given as text or bytes: header name -> 1-D array.

    What :func:`read_columns` does with a CSV/TSV file, for a table that is not
    a file (pasted in an app, uploaded in a browser). The delimiter (comma,
    semicolon or tab) is guessed unless given; values are typed as in
    :func:`read_columns` (``na``: the fields read as missing; None: the default of the
    file's origin, :func:`origin_of`). Errors are ``ValueError`` starting with ``name``
    and saying ``where`` the table came from.

    pandas' C parser reads the table (``pandas.read_csv``); a table it cannot read as
    it stands (rows of another length, a header that does not name every column once,
    a value holding a line break in quotes with a missing value) is read field by
    field with :mod:`csv` instead, which names the line at fault.

    >>> cols = parse_table("truth,kmeans\\n1,a\\n2,b\\n", "pasted text", name="text")
    >>> cols["truth"].tolist(), cols["kmeans"].tolist()
    ([1, 2], ['a', 'b'])
    """
    import csv

    if isinstance(content, (bytes, bytearray, memoryview)):
        raw = bytes(content)
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValueError(f"{name}: {where} is not a UTF-8 text file") from None
        raw = raw.removeprefix(b"\xef\xbb\xbf")
    elif isinstance(content, str):
        text = content.removeprefix("\ufeff")
        raw = None
    else:
        raise TypeError(f"{name}: expected text or bytes, got {type(content).__name__}")
    text = text.removeprefix("\ufeff")
    if delimiter is None:
        try:
            delimiter = csv.Sniffer().sniff(text[:4096], delimiters=",;\t").delimiter
        except csv.Error:
            delimiter = ","
    origin = origin_of(text[:4096], delimiter)
    if na is None:
        na = ORIGIN_NA.get(origin, DEFAULT_NA)
    columns = _read_with_pandas(text if raw is None else raw, text, where, delimiter, name,
                                na, origin)
    if columns is None:
        columns = _read_field_by_field(text, where, delimiter, name, na, origin)
    columns.na, columns.origin = tuple(na), origin
    return columns


#: Who wrote a table, as :func:`origin_of` tells from its header: R's ``write.csv`` quotes
#: every name; pandas' ``to_csv`` writes its index under an empty name, unquoted.
ORIGINS = ("R", "pandas")
#: What is read as missing by default, per origin: R writes ``NA`` for a missing value.
ORIGIN_NA = {"R": ("", "NA")}


def origin_of(head: str, delimiter: str = ",") -> str | None:
    """``"R"`` when every name of the header line is in double quotes (R's ``write.csv``,
    whose row names sit under ``""``), ``"pandas"`` when the first name is empty and
    unquoted (``DataFrame.to_csv()`` with its index), else None.

    >>> origin_of('"","truth","km"\\n"1",0,1\\n'), origin_of(",truth,km\\n0,0,1\\n")
    ('R', 'pandas')
    """
    first = head.split("\n", 1)[0].rstrip("\r")
    fields = first.split(delimiter)
    if len(fields) > 1 and all(len(f) >= 2 and f[0] == f[-1] == '"' for f in fields):
        return "R"
    if len(fields) > 1 and fields[0] == "" and all(f.strip() for f in fields[1:]):
        return "pandas"
    return None


def _index_note(origin: str | None) -> str:
    """Why an unnamed first column is left out, in the words of the program that wrote it."""
    if origin == "R":
        return ("left out: an unnamed first column, as R's write.csv() writes its row names "
                "(write.csv(..., row.names = FALSE) leaves them out; a header name keeps it)")
    return ("left out: an unnamed first column, as pandas' DataFrame.to_csv() writes its "
            "index (to_csv(index=False) leaves it out; a header name keeps it)")


def _header_of(text: str, delimiter: str) -> list[str]:
    """The header's names (stripped), read by :mod:`csv` from the first non-blank line."""
    import csv

    for row in csv.reader(text[:1 << 16].splitlines()[:50], delimiter=delimiter):
        if any(f.strip() for f in row):
            return [h.strip() for h in row]
    return []


def _read_with_pandas(source, text: str, where: str, delimiter: str, name: str, na,
                      origin) -> "Columns | None":
    """The table read by pandas' C parser, typed as :func:`_typed` types it; None when it
    needs reading field by field (the header or a row is not as pandas reads it)."""
    import io

    import pandas as pd

    header = _header_of(text, delimiter)
    if len(header) < 1:
        return None
    trailing = next((j for j, h in enumerate(reversed(header)) if h), len(header))
    named = header[:len(header) - trailing]
    index = len(named) > 1 and named[0] == "" and "" not in named[1:]
    names = named[1:] if index else named
    if not names or "" in names or len(set(names)) < len(names):
        return None                                  # the careful reader names the fault
    def read(**options):
        buffer = io.BytesIO(source) if isinstance(source, bytes) else io.StringIO(source)
        return pd.read_csv(buffer, sep=delimiter, header=0, engine="c", keep_default_na=False,
                           skipinitialspace=True, skip_blank_lines=True, low_memory=False,
                           quotechar='"', **options)

    try:
        frame = read(na_values=[t for t in na] or None, na_filter=bool(na),
                     decimal="." if delimiter == "," else ",")
    except (pd.errors.ParserError, ValueError, UnicodeDecodeError, IndexError):
        return None
    if frame.shape[1] != len(header) or frame.shape[0] == 0 or \
            not isinstance(frame.index, pd.RangeIndex):
        return None                                  # rows longer than the header
    missing, decimal_comma = set(na), delimiter != ","
    texts, numbers = {}, {}                          # text to type, numbers pandas typed
    blank = None                                     # rows of empty fields only
    for j, column in enumerate(frame.columns):
        series = frame[column]
        if series.dtype == bool:
            return None                              # True/False: labels, read as text
        if series.dtype == object or pd.api.types.is_string_dtype(series.dtype):
            texts[j] = series.astype(object).str.strip()
            empty = texts[j].isna() | (texts[j] == "")
        else:
            numbers[j] = series.to_numpy()
            empty = series.isna()
        if j >= len(named) and not bool(empty.all()):
            return None                              # an unnamed column with values
        blank = empty if blank is None else (blank & empty)
    keep = range(1 if index else 0, len(named))
    if bool(blank.any()) and set(na) - {""}:
        # a missing value may be a token (NA): only rows of empty fields are blank
        fields = read(dtype=str, na_filter=False)
        blank = (fields.apply(lambda c: c.str.strip()) == "").all(axis=1)
    rows = None
    if bool(blank.any()):
        rows = ~blank.to_numpy()
        if not rows.any():
            return None                              # no data row: said by the careful reader
        # a row of empty fields made pandas read whole numbers as floats: such columns
        # are read again as text, and typed without those rows
        again = [j for j in keep if j in numbers and numbers[j].dtype.kind == "f"]
        if again:
            fields = read(usecols=again, dtype=str, na_filter=False)
            for j in again:
                texts[j] = fields.iloc[:, again.index(j)].str.strip()
                del numbers[j]
    columns = {}
    for j in keep:
        if j in numbers:
            columns[header[j]] = numbers[j] if rows is None else numbers[j][rows]
        else:
            kept = texts[j] if rows is None else texts[j][rows]
            columns[header[j]] = _typed_series(kept, missing, decimal_comma)
    if any(missing_mask(col).any() for col in columns.values()) and \
            _short_row(source, text, where, delimiter, name, len(header)):
        return None
    _repeated_header(columns, where, name)
    left_out = {}
    if trailing:
        left_out[EMPTY_COLUMNS] = (f"left out: {trailing} column{'s' * (trailing > 1)} at "
                                   "the end with no name and no value (as a spreadsheet may "
                                   "add)")
    if index:
        left_out[INDEX_COLUMN] = _index_note(origin)
    return Columns(columns, left_out)


def _typed_series(texts, missing: set, decimal_comma: bool) -> np.ndarray:
    """A column pandas left as text (stripped), typed by :func:`_typed` (what pandas read
    as missing becomes one of the ``missing`` tokens first)."""
    token = next(iter(missing), "")
    return _typed(texts.to_numpy(dtype=object, na_value=token).tolist(), missing,
                  decimal_comma=decimal_comma)


def missing_mask(col: np.ndarray) -> np.ndarray:
    """Where a column read from a table is missing (NaN, or None in a column of text)."""
    if col.dtype.kind == "f":
        return np.isnan(col)
    if col.dtype.kind == "O":
        return np.equal(col, None)
    return np.zeros(col.shape[0], dtype=bool)


def _short_row(source, text: str, where: str, delimiter: str, name: str, width: int) -> bool:
    """Raise for the first row with fewer fields than the header (pandas fills them in as
    missing); True when that cannot be told without reading field by field (quotes)."""
    if '"' in text:
        return True
    raw = source if isinstance(source, bytes) else text.encode("utf-8")
    buf = np.frombuffer(raw, dtype=np.uint8)
    ends = np.flatnonzero(buf == 10)
    if ends.size == 0 or ends[-1] != buf.size - 1:
        ends = np.append(ends, buf.size)
    starts = np.concatenate(([0], ends[:-1] + 1))
    seps = np.concatenate(([0], np.cumsum(buf == ord(delimiter))))
    fields = seps[ends] - seps[starts] + 1
    printable = np.concatenate(([0], np.cumsum(buf > 32)))
    filled = printable[ends] - printable[starts] > 0          # not a blank line
    fields = fields[filled]
    short = np.flatnonzero(fields[1:] < width)
    if short.size:
        line = int(short[0]) + 2
        raise ValueError(f"{name}: line {line} of {where} has {int(fields[line - 1])} fields, "
                         f"but the header has {width} (hint: every row needs a field per "
                         "column, empty if missing)")
    return False


def _repeated_header(columns: dict, where: str, name: str) -> None:
    """Refuse a row equal to the header (two exports joined), naming its line."""
    texts = [(h, col) for h, col in columns.items() if col.dtype.kind == "O"]
    if not texts or len(texts) < len(columns):
        return
    same = np.ones(next(iter(columns.values())).shape[0], dtype=bool)
    for h, col in texts:
        same &= col == h
    if same.any():
        line = int(np.flatnonzero(same)[0]) + 2
        raise ValueError(f"{name}: line {line} of {where} repeats the header row (hint: "
                         "files joined together? delete that line)")


def _read_field_by_field(text: str, where: str, delimiter: str, name: str, na,
                         origin) -> "Columns":
    """The careful reader: :mod:`csv` row by row, for what pandas does not read as it stands;
    it names the line of a row of the wrong length and reads rows with empty fields past
    the header's."""
    import csv

    # a line of separators only (",,,," at the end of a spreadsheet's export) is blank
    rows = [r for r in csv.reader(text.splitlines(), delimiter=delimiter)
            if any(f.strip() for f in r)]
    if len(rows) < 2:
        raise ValueError(f"{name}: {where} needs a header row and at least one data row")
    header = [h.strip() for h in rows[0]]
    left_out = {}
    empty = next((j for j, h in enumerate(reversed(header)) if h), len(header))
    if empty and len(header) > empty and all(not "".join(r[len(header) - empty:]).strip()
                                             for r in rows[1:]):
        # a spreadsheet's export can add empty columns after the last named one
        left_out[EMPTY_COLUMNS] = (f"left out: {empty} column{'s' * (empty > 1)} at the end "
                                   "with no name and no value (as a spreadsheet may add)")
        header = header[:-empty]
        rows = [r[:len(header)] for r in rows]
    if len(header) > 1 and header[0] == "" and "" not in header[1:]:
        # pandas' DataFrame.to_csv() (or R's write.csv) writes its index first, unnamed
        left_out[INDEX_COLUMN] = _index_note(origin)
        header, rows = header[1:], [r[1:] for r in rows]
    _check_header(header, where, name)
    rows = [r[:len(header)] if not "".join(r[len(header):]).strip() else r for r in rows]
    for line, row in enumerate(rows[1:], 2):
        if line > 2 and [f.strip() for f in row] == header:
            raise ValueError(f"{name}: line {line} of {where} repeats the header row (hint: "
                             "files joined together? delete that line)")
        if len(row) != len(header):
            raise ValueError(f"{name}: line {line} of {where} has {len(row)} fields, but the "
                             f"header has {len(header)}" + (
                                 " (hint: a value holding the separator must be in quotes)"
                                 if len(row) > len(header) else
                                 " (hint: every row needs a field per column, empty if missing)"))
    missing = set(na)
    return Columns({h: _typed([r[j].strip() for r in rows[1:]], missing,
                              decimal_comma=delimiter != ",")
                    for j, h in enumerate(header)}, left_out)


#: How a column that the header leaves unnamed is called in messages (pandas' index)
INDEX_COLUMN = "(unnamed first column)"
#: How empty columns at the end of every row (a spreadsheet's export) are called
EMPTY_COLUMNS = "(empty columns at the end)"


class Columns(dict):
    """A file's columns (name -> 1-D array), and ``left_out``: columns of the file that are
    not among them, each with the reason (pandas' unnamed index column)."""

    def __init__(self, columns=(), left_out=None, na=DEFAULT_NA, origin=None):
        super().__init__(columns)
        self.left_out = dict(left_out or {})
        self.na = tuple(na)          # the fields read as missing
        self.origin = origin         # who wrote the table, if its header tells (origin_of)


def _check_header(header: list, where: str, name: str) -> None:
    """Refuse a header that does not name every column once, with a one-line hint."""
    unnamed = [j + 1 for j, h in enumerate(header) if not h]
    if unnamed:
        which = ", ".join(map(str, unnamed[:5])) + (" ..." if len(unnamed) > 5 else "")
        raise ValueError(f"{name}: the header of {where} must name every column once, got "
                         f"{header}: column(s) {which} have no name (hint: write a name "
                         "for each in the first row)")
    seen = Counter(header)
    twice = [h for h, c in seen.items() if c > 1]
    if twice:
        raise ValueError(f"{name}: the header of {where} must name every column once, got "
                         f"{header}: {', '.join(map(repr, twice))} more than once (hint: "
                         "rename the repeated columns, e.g. kmeans_1, kmeans_2)")


_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+")


def _typed(values: list[str], missing: set, decimal_comma: bool = False) -> np.ndarray:
    """Strings as ints if all are, else as floats (missing -> NaN) if all are, else strings.
    With ``decimal_comma`` (a table not separated by commas: Excel in a European locale
    writes ``5,1`` for 5.1), a column of such numbers is read as floats too."""
    try:
        return np.array([int(v) for v in values], dtype=np.int64)
    except ValueError:
        pass
    try:
        return np.array([math.nan if v in missing else float(v) for v in values])
    except ValueError:
        pass
    if decimal_comma and any(_DECIMAL_COMMA.fullmatch(v) for v in values):
        try:
            return np.array([math.nan if v in missing else
                             float(v.replace(",", ".") if _DECIMAL_COMMA.fullmatch(v) else v)
                             for v in values])
        except ValueError:
            pass
    return np.array([None if v in missing else v for v in values], dtype=object)


def _is_number(text) -> bool:
    try:
        float(text)
    except (TypeError, ValueError):
        return False
    return True


def _same_length(columns: dict, where: str) -> None:
    lengths = {k: v.shape[0] for k, v in columns.items()}
    if len(set(lengths.values())) > 1:
        a, b = min(lengths, key=lengths.get), max(lengths, key=lengths.get)
        raise ValueError(f"FILE: columns {a!r} ({lengths[a]} values) and {b!r} "
                         f"({lengths[b]} values) of {where} have different lengths")


def column(columns: dict, name: str, where: str, role: str) -> np.ndarray:
    if name not in columns:
        shown = ", ".join(list(columns)[:12]) + (" ..." if len(columns) > 12 else "")
        near = [c for c in columns if str(c).strip().lower() == str(name).strip().lower()]
        hint = (f" (hint: did you mean {near[0]!r}? names are case-sensitive)" if near else
                " (hint: the first row is read as the header; this one holds numbers only, "
                "so the file may lack a header row)" if columns and all(
                    _is_number(c) for c in columns) else "")
        raise ValueError(f"{role}: no column {name!r} in {where} (columns: {shown}){hint}")
    col = columns[name]
    bad = missing_mask(col)
    if bad.any():
        raise ValueError(f"{role}: column {name!r} has a missing or NaN value in data row "
                         f"{int(np.flatnonzero(bad)[0]) + 1} (hint: --drop-missing leaves out "
                         "the rows without a label; or give them a label of their own, e.g. "
                         "-1 for noise)")
    return col


def label_columns(columns: dict, exclude=()) -> tuple[list, dict]:
    """Which columns look like clusterings, and why: ``(taken, reasons)``.

    A column is left out when it holds numbers with decimals (coordinates,
    measurements) or when more than :data:`MOSTLY_DISTINCT` of its rows, and
    more than 20, are distinct values (coordinates, ids): a clustering has far
    fewer clusters than instances. ``reasons`` says, for every column not in
    ``exclude``, what was found (and points out values such as "NA" that are
    read as labels, see :data:`MISSING_LOOKALIKES`).

    >>> cols = {"id": np.arange(100), "km": np.arange(100) % 3, "x": np.linspace(0, 1, 100)}
    >>> taken, why = label_columns(cols)
    >>> taken
    ['km']
    >>> why["id"]
    'left out: 100 distinct values in 100 rows (coordinates or ids?)'
    """
    taken, reasons = [], {}
    for name, col in columns.items():
        if name in exclude:
            continue
        col = np.asarray(col)
        n = col.shape[0]
        if col.dtype.kind == "f":
            finite = col[np.isfinite(col)]
            if np.any(finite != np.round(finite)):
                reasons[name] = "left out: numbers with decimals (coordinates or measurements?)"
                continue
        missing = missing_mask(col)          # a missing value is no cluster's name
        present = col[~missing]
        counts = Counter(present.tolist()) if col.dtype.kind in "OU" else None
        distinct = len(counts) if counts is not None else np.unique(present).shape[0]
        if distinct > 20 and distinct > MOSTLY_DISTINCT * n:
            reasons[name] = f"left out: {distinct:,} distinct values in {n:,} rows " \
                            "(coordinates or ids?)"
            continue
        taken.append(name)
        reasons[name] = f"taken: {distinct:,} clusters"
        if missing.any():
            reasons[name] += f"; {int(missing.sum()):,} missing value(s)"
        if counts is not None:
            for token in MISSING_LOOKALIKES:
                count = counts.get(token, 0)
                if count:
                    reasons[name] += (f"; {count:,} value(s) {token!r} read as a cluster's name "
                                      f"(--na {token} reads them as missing)")
    return taken, reasons
