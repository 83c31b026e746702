"""Problems for a narrow terminal (80 columns, or a pipe): one block per problem instead of a table.

The problems table gives its identifier columns (code, file, sheet, cell) their whole width; on a
narrow terminal that leaves the message and the hint a few letters a line ("El / sobor / no / debe").
There each problem is printed as a block: its identifiers on one line, whole (never wrapped nor cut,
however long: the terminal folds it, a pipe keeps it one line), then its message and what to do,
indented and wrapped at words as rich wraps (a word longer than the line folded).

Thousands of problems print in a moment: the lines are laid out here, as plain strings, and each
workbook's problems go to the console as one run of styled segments printed as they are, rather than
a renderable (measured, wrapped and padded by rich) per line of each problem."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import groupby

from rich._wrap import divide_line  # the word wrapping of rich's Text, on a plain string
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style
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
    for line in text.split("\n"):
        if "\t" in line:
            expanded = Text(line)
            expanded.expand_tabs(TAB_SIZE)
            line = expanded.plain
        cuts = [0, *divide_line(line, width, fold=True), len(line)]
        lines.extend(line[start:end].rstrip() for start, end in zip(cuts, cuts[1:], strict=False))
    return lines


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
