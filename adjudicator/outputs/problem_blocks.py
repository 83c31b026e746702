"""The problems on the terminal: a table where it is wide enough, else one block per problem.

The problems table gives its identifier columns (code, file, sheet, cell) their whole width; on a
narrow terminal that leaves the message and the hint a few letters a line ("El / sobor / no / debe").
There each problem is printed as a block: its identifiers on one line, whole (never wrapped nor cut,
however long: the terminal folds it, a pipe keeps it one line), then its message and what to do,
indented and wrapped at words as rich wraps (a word longer than the line folded).

Thousands of problems print in a moment: the lines are laid out here, as plain strings wrapped by rich's
own word wrapping, and go to the console as runs of styled segments printed as they are, rather than a
rich renderable per line or per cell (each measured, wrapped, padded and cropped by rich). The table is
rich's table character for character: its columns' widths are rich's, measured on the rows that decide
them, and its box is rich's (tests/core/test_problem_blocks.py compares the two)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import groupby

from rich._wrap import divide_line  # the word wrapping of rich's Text, on a plain string
from rich.box import HEAVY_HEAD
from rich.cells import cell_len
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style
from rich.table import Table
from rich.text import Text

from adjudicator.engine.problems import Problem
from adjudicator.i18n import msg
from adjudicator.outputs.safe_text import for_terminal

#: The least width a table leaves the message and the hint together; less, and problems print as blocks.
READABLE_TEXT = 48
#: How far a problem's message and hint stand in from its identifiers.
INDENT = " " * 4
TAB_SIZE = 8


def too_narrow(problems: Sequence[Problem], width: int, lang: str) -> bool:
    """Whether a table of ``problems`` would leave its message and hint too little of ``width``."""
    headers = [msg(h).render(lang) for h in ("Code", "File", "Sheet", "Cell")]
    columns = [[p.code for p in problems], [p.file or "" for p in problems], [p.sheet or "" for p in problems],
               [p.cell or "" for p in problems]]
    taken = sum(max([len(h), *map(len, c)]) + 3 for h, c in zip(headers, columns, strict=False)) + 7
    return width - taken < READABLE_TEXT


def wrapped(text: str, width: int) -> list[str]:
    """``text``'s lines wrapped at words to ``width`` cells, as rich wraps a ``Text`` (tabs expanded, a word
    longer than ``width`` folded), without the spaces that end a line."""
    lines = []
    for line in map(_expanded, text.split("\n")):
        cuts = [0, *divide_line(line, width, fold=True), len(line)]
        lines.extend(line[start:end].rstrip() for start, end in zip(cuts, cuts[1:], strict=False))
    return lines


def _expanded(line: str) -> str:
    """``line`` with its tabs expanded as rich expands them."""
    if "\t" not in line:
        return line
    expanded = Text(line)
    expanded.expand_tabs(TAB_SIZE)
    return expanded.plain


def problem_blocks(problems: Sequence[Problem], lang: str, width: int) -> Iterator[list[tuple[str, str]]]:
    """For each workbook (a run of problems of one file), its lines as (text, style): each problem as ``CODE
    file  sheet  cell`` (whole), then its message and its hint, indented and wrapped at words to ``width``
    cells with the indent."""
    what_to_do = msg("What to do").render(lang)
    inner = max(width - len(INDENT), 1)
    for _, same_file in groupby(problems, key=lambda p: p.file):
        block = []
        for p in same_file:
            style = "red" if p.is_error else "yellow"
            where = "  ".join(for_terminal(v) for v in (p.code, p.file, p.sheet, p.cell) if v)
            block.append((where.expandtabs(TAB_SIZE), f"bold {style}"))
            block.extend(_indented(for_terminal(p.message.render(lang)), inner, style))
            if p.hint:
                block.extend(_indented(f"{what_to_do}: {for_terminal(p.hint.render(lang))}", inner, ""))
        yield block


def _indented(text: str, width: int, style: str) -> Iterator[tuple[str, str]]:
    return ((f"{INDENT}{line}" if line else "", style) for line in wrapped(text, width))


def print_problems(console: Console, problems: Sequence[Problem], lang: str) -> bool:
    """Print ``problems`` as blocks when the console is too narrow for their table; whether it did."""
    if not too_narrow(problems, console.width, lang):
        return False
    styles: dict[str, Style] = {}
    new_line = Segment("\n")
    for block in problem_blocks(problems, lang, console.width):
        segments = []
        for text, style in block:
            if style not in styles:
                styles[style] = console.get_style(style)
            segments += (Segment(text, styles[style]), new_line)
        console.print(Segments(segments), soft_wrap=True)  # laid out already: printed as it is, never cut
    return True


def whole_column(table: Table, header: str, values: Iterable[str]) -> None:
    """A column of identifiers (codes, names, cells): never wrapped, never cut, as wide as its longest as shown
    (given, so that rich need not measure each of thousands of cells)."""
    shown = [_expanded(line) for value in (header, *map(for_terminal, values)) for line in value.split("\n")]
    table.add_column(header, no_wrap=True, overflow="fold", width=max(max(len(v), cell_len(v)) for v in shown))


def problems_table(problems: Sequence[Problem], lang: str) -> tuple[Table, list[tuple[list[str], str]]]:
    """The problems table's columns (code, file, sheet and cell whole; problem and what to do wrapped), and its
    rows: each problem's cells as shown, and its colour."""
    table = Table(show_lines=False, header_style="bold")
    for header, values in ((msg("Code"), [p.code for p in problems]), (msg("File"), [p.file or "" for p in problems]),
                           (msg("Sheet"), [p.sheet or "" for p in problems]),
                           (msg("Cell"), [p.cell or "" for p in problems])):
        whole_column(table, header.render(lang), values)
    for header in (msg("Problem"), msg("What to do")):
        table.add_column(header.render(lang), overflow="fold", ratio=1)
    rows = [([for_terminal(v) for v in (p.code, p.file or "", p.sheet or "", p.cell or "", p.message.render(lang),
                                        p.hint.render(lang) if p.hint else "")], "red" if p.is_error else "yellow")
            for p in problems]
    return table, rows


def print_table(console: Console, table: Table, rows: Sequence[tuple[Sequence[str], str]]) -> None:
    """Print ``table`` (its columns and headers, no rows yet) with ``rows`` (each row's cells as shown, and its
    style) as rich prints a table, laid out here: rich renders each cell on its own, seconds for thousands.

    The columns' widths are rich's own, measured on the few rows that decide them (for each column whose
    width is not given, the row with its longest line and the row with its longest word)."""
    deciding = set()
    for column, spec in enumerate(table.columns):
        for measure in (_longest_line, _longest_word) if spec.width is None and rows else ():
            deciding.add(max(range(len(rows)), key=lambda r, c=column, m=measure: m(rows[r][0][c])))
    for index in sorted(deciding):
        table.add_row(*(Text(cell) for cell in rows[index][0]), style=rows[index][1])
    options = console.options
    widths = table._calculate_column_widths(console, options.update_width(options.max_width - table._extra_width))
    box = (table.box or HEAVY_HEAD).substitute(options, safe=console.safe_box)
    header_style = console.get_style(table.header_style or "")
    styles: dict[str, Style] = {}
    new_line = Segment("\n")
    segments = [Segment(box.get_top(widths)), new_line]
    headers = [str(column.header) for column in table.columns]
    segments += _row(table, widths, headers, header_style, (box.head_left, box.head_vertical, box.head_right),
                     bottom=True)
    segments += (Segment(box.get_row(widths, "head", edge=True)), new_line)
    for number, (cells, style) in enumerate(rows):
        if style not in styles:
            styles[style] = console.get_style(style)
        edges = (box.foot_left, box.foot_vertical, box.foot_right) if number == len(rows) - 1 else (
            box.mid_left, box.mid_vertical, box.mid_right)
        segments += _row(table, widths, cells, styles[style], edges)
    segments += (Segment(box.get_bottom(widths)), new_line)
    console.print(Segments(segments), soft_wrap=True)


def _longest_line(text: str) -> int:
    return max(cell_len(line) for line in text.split("\n"))


def _longest_word(text: str) -> int:
    return max((cell_len(word) for word in text.split()), default=0)


def _row(table: Table, widths: list[int], cells: Sequence[str], style: Style, edges: tuple[str, str, str],
         bottom: bool = False) -> list[Segment]:
    """One row of the table: each cell wrapped to its column (inside a space each side), as tall as the tallest."""
    laid = []
    for column, width, text in zip(table.columns, widths, cells, strict=True):
        inner = width - 2
        lines = [_expanded(line) for line in text.split("\n")] if column.no_wrap else wrapped(text, inner)
        laid.append([f" {line}{' ' * (inner - cell_len(line))} " for line in lines])
    height = max(len(lines) for lines in laid)
    for width, lines in zip(widths, laid, strict=True):
        blank = [" " * width] * (height - len(lines))
        lines[:] = blank + lines if bottom else lines + blank
    left, divider, right = Segment(edges[0]), Segment(edges[1]), Segment(edges[2])
    segments = []
    for line in range(height):
        segments.append(left)
        for number, lines in enumerate(laid):
            if number:
                segments.append(divider)
            segments.append(Segment(lines[line], style))
        segments += (right, Segment("\n"))
    return segments
