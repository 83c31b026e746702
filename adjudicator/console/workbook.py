"""The GM's Excel console, ``gm_console.xlsm``: how it is built, and ``adjudicator console FOLDER``.

The workbook is made the way xlwings' quickstart makes a standalone workbook: it carries xlwings' own
VBA project, taken byte for byte from ``xlwings/quickstart_standalone.xlsm`` (the ``xlwings`` module
and ``Module1.SampleCall``, which runs ``import gm_console; gm_console.main()``: the module named after
the workbook), and a ``xlwings.conf`` sheet with the interpreter settings. No VBA is written or edited
here: XlsxWriter embeds that VBA project and adds three form buttons bound to ``SampleCall``;
:func:`adjudicator.console.buttons.main` works out which one was clicked.

The committed ``workbook_templates/gm_console.xlsm`` is rebuilt with::

    python -m adjudicator.console.workbook --template workbook_templates/gm_console.xlsm \
        [--quickstart path/to/xlwings/quickstart_standalone.xlsm]

Without ``--quickstart`` the VBA project of the existing template (else of the installed xlwings) is kept.
``adjudicator console FOLDER`` builds a console for one campaign, with the VBA project of the installed
xlwings when there is one (so that the VBA module matches the Python package), its folder filled in and
the interpreter set to the Python that runs the command.

Building needs XlsxWriter; reading the result (the tests) needs only openpyxl and zipfile.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import io
import os
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import click

from adjudicator.console import buttons as xl
from adjudicator.i18n import LANGUAGES, N_, msg

WORKBOOK_NAME = "gm_console.xlsm"
MODULE_NAME = "gm_console.py"  # SampleCall imports the module named after the workbook
TEMPLATE = Path(__file__).resolve().parents[2] / "workbook_templates" / WORKBOOK_NAME
VBA_PART = "xl/vbaProject.bin"
QUICKSTART = "quickstart_standalone.xlsm"
MACRO = "SampleCall"  # the macro of xlwings' standalone quickstart; every button runs it

MODULE_TEXT = '''\
"""The Python side of gm_console.xlsm (keep both files in the same folder, with these names).

The workbook's buttons run xlwings' macro SampleCall, which runs ``import gm_console; gm_console.main()``.
See docs/console.md of adjudicator.
"""

from adjudicator.xl import check, main, make_templates, run_turn

__all__ = ["check", "main", "make_templates", "run_turn"]
'''

# The xlwings.conf sheet: keys from A1 down, without a gap (xlwings reads A1 to the first blank cell).
CONF_KEYS = ("Interpreter_Win", "Interpreter_Mac", "PYTHONPATH", "Conda Path", "Conda Env", "Show Console",
             "Use UDF Server")
CONF_NOTES = (
    N_("Interpreter_Win, Interpreter_Mac: the full path of the Python in which adjudicator[excel] is installed "
       "(blank: python on the PATH)."),
    N_("Conda Path and Conda Env: only if that Python is a conda environment. PYTHONPATH: extra folders, if any."),
    N_("This workbook must keep the name gm_console.xlsm and stay beside gm_console.py: its macro runs "
       "gm_console.main()."),
)


class ConsoleBuildError(RuntimeError):
    """Raised when the console cannot be built (no XlsxWriter, no VBA project to take)."""


# ------------------------------------------------------------------------------------ the VBA project
def vba_project_of(workbook: Path) -> bytes:
    """The VBA project (``xl/vbaProject.bin``) of an ``.xlsm`` workbook."""
    with zipfile.ZipFile(workbook) as archive:
        return archive.read(VBA_PART)


def xlwings_quickstart() -> Path | None:
    """xlwings' ``quickstart_standalone.xlsm`` in the installed xlwings, found without importing xlwings."""
    try:
        spec = importlib.util.find_spec("xlwings")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = Path(folder) / QUICKSTART
        if candidate.is_file():
            return candidate
    return None


def find_vba(prefer_installed: bool, template: Path | None = TEMPLATE) -> bytes:
    """The VBA project to embed: the installed xlwings' first when ``prefer_installed``, else the template's."""
    sources = [xlwings_quickstart(), template] if prefer_installed else [template, xlwings_quickstart()]
    for source in sources:
        if source is not None and source.is_file():
            return vba_project_of(source)
    raise ConsoleBuildError(msg("No xlwings VBA project found: install adjudicator[excel] (it brings xlwings).")
                            .render())


# ------------------------------------------------------------------------------------------ building
def build_console(path: Path, vba: bytes, lang: str = "en", folder: str = "",
                  interpreter: dict[str, str] | None = None) -> Path:
    """Write the console workbook to ``path`` (an ``.xlsm``), labels and captions in ``lang``."""
    try:
        import xlsxwriter
    except ImportError as error:
        raise ConsoleBuildError(msg("Building the console needs XlsxWriter: pip install xlsxwriter.").render()) \
            from error
    tr = lambda text: msg(text).render(lang)  # noqa: E731
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(suffix=".xlsm", dir=path.parent)
    os.close(handle)
    try:
        book = xlsxwriter.Workbook(temporary)
        book.set_properties({"title": tr(xl.TITLE), "created": datetime.datetime(2026, 1, 1)})
        book.set_vba_name("ThisWorkbook")  # the document modules of xlwings' VBA project:
        book.add_vba_project(io.BytesIO(vba), is_stream=True)  # ThisWorkbook, Sheet1, Sheet2
        _console_sheet(book, tr, folder)
        _conf_sheet(book, tr, interpreter or {})
        book.close()
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp made it private
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
    return path


def _console_sheet(book: Any, tr: Any, folder: str) -> None:
    sheet = book.add_worksheet(tr(xl.CONSOLE_SHEET)[:31])
    sheet.set_vba_name("Sheet1")
    title = book.add_format({"bold": True, "font_size": 14})
    label = book.add_format({"bold": True, "text_wrap": True, "valign": "vcenter"})
    entry = book.add_format({"bg_color": "#FFF2CC", "border": 1, "valign": "vcenter", "indent": 1})
    wrapped = book.add_format({"text_wrap": True, "valign": "top"})  # the report's messages and hints
    for column, width in zip("ABCDEF", (54, 50, 16, 16, 60, 60), strict=True):  # A: a label in two lines
        sheet.set_column(f"{column}:{column}", width, wrapped if column in "EF" else None)
    # Printed (or saved as PDF) as it is seen: landscape, its columns one page wide, the title rows on each page.
    sheet.set_landscape()
    sheet.set_paper(9)  # A4
    sheet.fit_to_pages(1, 0)
    sheet.repeat_rows(0, 1)
    sheet.write("A1", tr(xl.TITLE), title)
    sheet.write("A2", tr(xl.INTRO))
    for row, text in xl.SETTINGS:
        sheet.set_row(row - 1, 33)
        sheet.write(f"A{row}", tr(text), label)
        sheet.write_blank(f"B{row}", None, entry)
    if folder:
        sheet.write_string(xl.FOLDER_CELL, folder, entry)
    sheet.write_string(xl.MISSING_CELL, tr(xl.NO), entry)
    sheet.write_string(xl.ACTION_CELL, tr(xl.ACTIONS[xl.CHECK]), entry)
    sheet.data_validation(xl.SEED_CELL, {"validate": "integer", "criteria": ">=", "value": 0,
                                         "ignore_blank": True})
    sheet.data_validation(xl.LANGUAGE_CELL, {"validate": "list", "source": list(LANGUAGES), "ignore_blank": True})
    sheet.data_validation(xl.MISSING_CELL, {"validate": "list", "source": [tr(xl.YES), tr(xl.NO)],
                                            "ignore_blank": True})
    sheet.data_validation(xl.ACTION_CELL, {"validate": "list", "source": [tr(xl.ACTIONS[a]) for a in xl.BUTTONS],
                                           "ignore_blank": True})
    # Three form buttons in this order (Excel names them Button 1, 2, 3), all bound to xlwings' SampleCall.
    for number, action in enumerate(xl.BUTTONS):
        sheet.insert_button(f"C{4 + 2 * number}", {"macro": MACRO, "caption": tr(xl.ACTIONS[action]),
                                                   "width": 150, "height": 34, "x_offset": 8})
    sheet.activate()


def _conf_sheet(book: Any, tr: Any, interpreter: dict[str, str]) -> None:
    sheet = book.add_worksheet(xl.CONF_SHEET)
    sheet.set_vba_name("Sheet2")
    sheet.set_column("A:A", 18)
    sheet.set_column("B:B", 60)
    sheet.set_landscape()
    sheet.set_paper(9)  # A4
    sheet.fit_to_pages(1, 0)  # the notes below the keys run past column B: all on one page width
    for row, key in enumerate(CONF_KEYS):
        sheet.write_string(row, 0, key)
        if key in ("Show Console", "Use UDF Server"):
            sheet.write_boolean(row, 1, False)
        elif interpreter.get(key):
            sheet.write_string(row, 1, interpreter[key])
    for row, note in enumerate(CONF_NOTES, start=len(CONF_KEYS) + 1):
        sheet.write_string(row, 0, tr(note))


def interpreter_settings(platform: str = sys.platform, executable: str = sys.executable) -> dict[str, str]:
    """The xlwings.conf interpreter of this platform: the Python that runs ``adjudicator console``."""
    if platform.startswith("win"):
        return {"Interpreter_Win": executable}
    if platform == "darwin":
        return {"Interpreter_Mac": executable}
    return {}


def write_module(folder: Path) -> Path:
    target = folder / MODULE_NAME
    target.write_text(MODULE_TEXT, encoding="utf-8")
    return target


# ------------------------------------------------------------------------------------------ commands
@click.command("console")
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Replace an existing gm_console.xlsm (its settings are lost).")
def console_command(folder: Path, force: bool) -> None:
    """Write FOLDER/gm_console.xlsm, the GM's Excel console for the campaign in FOLDER."""
    from adjudicator import cli  # here: cli imports this module at its end
    from adjudicator.store.folder import CampaignBusyError
    from adjudicator.turn import pipeline

    lang = cli.State.lang or "en"
    try:
        with pipeline.opened(folder) as (_, campaign, _):
            lang = cli.language(campaign.language)
    except pipeline.CampaignError as error:
        cli.fail(error, lang)
    except CampaignBusyError:
        cli.say(msg("Another adjudicator is working on this campaign; try again when it has finished."), lang,
                "red")
        sys.exit(cli.EXIT_UNUSABLE)
    target = folder / WORKBOOK_NAME
    if target.exists() and not force:
        cli.say(msg("{path} exists; use --force to replace it (the settings written in it are lost).",
                    path=str(target)), lang, "red")
        sys.exit(cli.EXIT_UNUSABLE)
    try:
        build_console(target, find_vba(prefer_installed=True), lang, str(folder.resolve()), interpreter_settings())
    except ConsoleBuildError as error:
        cli.say(str(error), lang, "red")
        sys.exit(cli.EXIT_UNUSABLE)
    write_module(folder)
    cli.say(msg("Console written: {path}", path=str(target)), lang, "green")
    if xlwings_quickstart() is None:
        cli.say(msg("xlwings is not installed in this Python: the console's buttons need it "
                    "(pip install adjudicator[excel])."), lang, "yellow")


def main(argv: list[str] | None = None) -> None:
    """``python -m adjudicator.console.workbook --template workbook_templates/gm_console.xlsm``: rebuild it."""
    parser = argparse.ArgumentParser(description="Build the GM's Excel console template.")
    parser.add_argument("--template", type=Path, default=TEMPLATE, help="the .xlsm to write")
    parser.add_argument("--quickstart", type=Path, help="xlwings' quickstart_standalone.xlsm to take the VBA from")
    args = parser.parse_args(argv)
    vba = vba_project_of(args.quickstart) if args.quickstart else find_vba(False, args.template)
    build_console(args.template, vba)
    print(args.template)
    print(write_module(args.template.parent))


if __name__ == "__main__":  # pragma: no cover
    main()
