"""Problems for a narrow terminal (80 columns, or a pipe): one block per problem instead of a table.

The problems table gives its identifier columns (code, file, sheet, cell) their whole width; on a
narrow terminal that leaves the message and the hint a few letters a line ("El / sobor / no / debe").
There each problem is printed as a block: its identifiers on one line, whole, then its message and
what to do, indented and wrapped at words."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group
from rich.padding import Padding
from rich.text import Text

from adjudicator.engine.problems import Problem
from adjudicator.i18n import msg
from adjudicator.outputs.safe_text import for_terminal

#: The least width a table leaves the message and the hint together; less, and problems print as blocks.
READABLE_TEXT = 48


def too_narrow(problems: Sequence[Problem], width: int, lang: str) -> bool:
    """Whether a table of ``problems`` would leave its message and hint too little of ``width``."""
    headers = [msg(h).render(lang) for h in ("Code", "File", "Sheet", "Cell")]
    columns = [[p.code for p in problems], [p.file or "" for p in problems], [p.sheet or "" for p in problems],
               [p.cell or "" for p in problems]]
    taken = sum(max([len(h), *map(len, c)]) + 3 for h, c in zip(headers, columns, strict=False)) + 7
    return width - taken < READABLE_TEXT


def problem_blocks(problems: Sequence[Problem], lang: str) -> Group:
    """Each problem as ``CODE  file  sheet  cell`` (whole), then its message and its hint, indented."""
    what_to_do = msg("What to do").render(lang)
    blocks = []
    for p in problems:
        style = "red" if p.is_error else "yellow"
        where = "  ".join(for_terminal(v) for v in (p.code, p.file or "", p.sheet or "", p.cell or "") if v)
        lines = [Text(where, style=f"bold {style}", no_wrap=True, overflow="fold"),
                 _indented(Text(for_terminal(p.message.render(lang)), style=style))]
        if p.hint:
            lines.append(_indented(Text(f"{what_to_do}: {for_terminal(p.hint.render(lang))}")))
        blocks.append(Group(*lines))
    return Group(*blocks)


def _indented(text: Text) -> Padding:
    return Padding(text, (0, 0, 0, 4), expand=False)


def print_problems(console: Console, problems: Sequence[Problem], lang: str) -> bool:
    """Print ``problems`` as blocks when the console is too narrow for their table; whether it did."""
    if not too_narrow(problems, console.width, lang):
        return False
    console.print(problem_blocks(problems, lang), soft_wrap=False)  # wrapped at words, never cut
    return True
