"""The GM's Excel console: the xlwings glue run against a stand-in for the caller book, the committed
``gm_console.xlsm`` against what the build script makes, and ``adjudicator console``.

Excel cannot run here, and xlwings is not needed: the stand-in has the few parts of xlwings' API that
``adjudicator.console.buttons`` uses."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner
from openpyxl.utils.cell import coordinate_from_string, range_boundaries

from adjudicator.cli import EXIT_UNUSABLE, main
from adjudicator.console import buttons as xl
from adjudicator.console import workbook as console
from adjudicator.i18n import gettext_in

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "workbook_templates" / "gm_console.xlsm"


# ------------------------------------------------------------------------------------ the stand-in
class FakeRange:
    def __init__(self, sheet: FakeSheet, address: str) -> None:
        self.sheet = sheet
        first, _, last = address.partition(":")
        self.bounds = range_boundaries(f"{first}:{last or first}")  # (min_col, min_row, max_col, max_row)

    @property
    def value(self) -> Any:
        col, row = self.bounds[0], self.bounds[1]
        return self.sheet.cells.get((row, col))

    @value.setter
    def value(self, value: Any) -> None:
        col, row = self.bounds[0], self.bounds[1]
        rows = value if isinstance(value, list) and value and isinstance(value[0], list) else [[value]]
        for i, line in enumerate(rows):
            for j, item in enumerate(line):
                self.sheet.set((row + i, col + j), item)

    def clear_contents(self) -> None:
        min_col, min_row, max_col, max_row = self.bounds
        for key in [k for k in self.sheet.cells if min_row <= k[0] <= max_row and min_col <= k[1] <= max_col]:
            del self.sheet.cells[key]


class FakeSheet:
    def __init__(self, name: str, cells: dict[str, Any] | None = None) -> None:
        self.name = name
        self.cells: dict[tuple[int, int], Any] = {}
        for address, value in (cells or {}).items():
            letters, row = coordinate_from_string(address)
            self.set((row, range_boundaries(f"{letters}1")[0]), value)

    def set(self, key: tuple[int, int], value: Any) -> None:
        if value is None or value == "":
            self.cells.pop(key, None)  # xlwings reads an empty cell as None
        else:
            self.cells[key] = value

    def range(self, address: str) -> FakeRange:
        return FakeRange(self, address)

    def column(self, letter: str) -> list[Any]:
        col = range_boundaries(f"{letter}1")[0]
        return [v for (r, c), v in sorted(self.cells.items()) if c == col]

    def rows(self) -> list[list[Any]]:
        out: dict[int, list[Any]] = {}
        for (r, _c), v in sorted(self.cells.items()):
            out.setdefault(r, []).append(v)
        return [out[r] for r in sorted(out)]


class FakeApi:
    def __init__(self, caller: Any) -> None:
        if caller is not None:
            self.Caller = caller  # noqa: N815 - Excel's name; absent, as with Excel for Mac's AppleScript


class FakeApp:
    def __init__(self, caller: Any) -> None:
        self.api = FakeApi(caller)


class FakeSheets(list):
    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, str):
            return next(s for s in self if s.name == key)
        return super().__getitem__(key)


class FakeBook:
    """The parts of an ``xlwings.Book`` that ``adjudicator.console.buttons`` uses."""

    def __init__(self, fullname: Path, cells: dict[str, Any], caller: Any = None) -> None:
        self.fullname = str(fullname)
        self.sheets = FakeSheets([FakeSheet("Console", cells), FakeSheet("xlwings.conf")])
        self.app = FakeApp(caller)

    @property
    def console(self) -> FakeSheet:
        return self.sheets[0]

    def text(self) -> str:
        return "\n".join(" | ".join(str(v) for v in row) for row in self.console.rows())


def book_for(folder: Path, caller: Any = None, **cells: Any) -> FakeBook:
    values = {xl.FOLDER_CELL: str(folder), xl.LANGUAGE_CELL: "en"}  # the example campaign speaks Russian
    values.update(cells)
    return FakeBook(folder / "gm_console.xlsm", values, caller)


# --------------------------------------------------------------------------------------- the glue
def test_the_glue_does_not_need_xlwings() -> None:
    code = ("import sys, adjudicator.console.buttons, adjudicator.console.workbook, adjudicator.cli; "
            "sys.exit('xlwings' in sys.modules)")
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0


def test_check_orders_writes_the_summary_and_the_problems(example: Path) -> None:
    book = book_for(example, caller="Button 1")
    xl.main(book)
    text = book.text()
    assert "Check orders" in text and "chosen by the button you clicked" in text
    assert "Some workbooks have errors" in text
    assert "E03" in text  # a problem of the example's orders, at its cell
    header = ["Code", "File", "Sheet", "Cell", "Problem", "What to do"]
    rows = book.console.rows()
    assert header in rows
    first = rows[rows.index(header) + 1]
    assert len(first) >= 5 and first[0][:1].isalpha()
    assert ["File", "Faction", "Errors", "Warnings", "Checked copy"] in rows
    assert (example / "checks").is_dir()
    assert not (example / "turns" / "T03" / "turn.json").exists()


def test_run_turn_resolves_with_the_seed_of_the_console(example: Path) -> None:
    book = book_for(example, caller="Button 2", **{xl.SEED_CELL: 5.0})  # xlwings reads numbers as floats
    xl.main(book)
    assert "Turn 3 resolved (seed 5)." in book.text(), book.text()
    assert (example / "turns" / "T03" / "turn.json").exists()
    xl.main(book)  # turn 4: nobody has sent orders yet; the old report is replaced
    text = book.text()
    assert "Turn 4 was not resolved: orders are missing" in text and "Turn 3 resolved" not in text


def test_run_turn_waits_for_the_gm(example: Path) -> None:
    (example / "pending" / "T03" / "gm_input.xlsx").unlink()
    book = book_for(example)
    xl.run_turn(book)
    assert "waits for your decisions" in book.text()
    assert (example / "pending" / "T03" / "gm_input.xlsx").exists()


def test_make_templates_and_the_console_language(example: Path) -> None:
    book = book_for(example, caller="Button 3", **{xl.LANGUAGE_CELL: "es"})
    xl.main(book)
    assert sorted((example / "turns" / "T03" / "templates").iterdir())
    assert "ALPHA.xlsx" in book.console.column("A")
    assert book.console.range("A1").value == gettext_in("es", xl.TITLE)
    assert book.console.range(f"B{xl.OUTPUT_ROW}").value == gettext_in("es", "Make templates")
    templates = str(example / "turns" / "T03" / "templates")
    assert gettext_in("es", "Order templates: {path}").format(path=templates) in book.console.column("A")
    assert gettext_in("es", "Order templates: {path}") != "Order templates: {path}"
    book = book_for(example, caller="Button 1", **{xl.LANGUAGE_CELL: None})  # blank: the campaign's (Russian)
    xl.main(book)
    assert [gettext_in("ru", h) for h in xl.PROBLEM_HEADERS] in book.console.rows()


def test_without_a_caller_the_action_cell_decides(example: Path) -> None:
    for caller in (None, -2146826265, "Rectangle 7"):  # Excel for Mac; no macro running; not a console button
        book = book_for(example, caller=caller, **{xl.ACTION_CELL: gettext_in("es", "Make templates")})
        xl.main(book)
        assert book.console.range(f"B{xl.OUTPUT_ROW}").value == "Make templates"
        assert "Excel did not say which button was clicked" in book.text()
    book = book_for(example)  # and the Action cell is blank: only a check, which changes nothing
    xl.main(book)
    assert book.console.range(f"B{xl.OUTPUT_ROW}").value == "Check orders"


def test_actions_are_recognised_in_every_language() -> None:
    assert xl.action_named("  RUN   turn ") == xl.RUN
    for action, label in xl.ACTIONS.items():
        for lang in ("en", "es", "ru"):
            assert xl.action_named(gettext_in(lang, label)) == action
        assert xl.action_named(action) == action
    assert xl.action_named("delete everything") is None


def test_the_missing_orders_switch_is_read_in_the_console_language(example: Path) -> None:
    """The dropdown of the switch offers the console language's words, and each of them is read as meant."""
    for lang, yes, no in (("es", "sí", "no"), ("ru", "да", "нет")):
        assert (gettext_in(lang, xl.YES), gettext_in(lang, xl.NO)) == (yes, no)
        label = gettext_in(lang, dict(xl.SETTINGS)[7])
        assert f"({yes}/{no})" in label, label
        for typed, meant in ((yes, True), (yes.upper(), True), (no, False), ("", False)):
            settings = xl.read_settings(book_for(example, **{xl.LANGUAGE_CELL: lang, xl.MISSING_CELL: typed}))
            assert settings.allow_missing is meant, (lang, typed)


def test_bad_settings_are_reported_in_the_console(example: Path, tmp_path: Path) -> None:
    book = book_for(example, **{xl.SEED_CELL: "soon", xl.LANGUAGE_CELL: "fr"})
    xl.check(book)
    text = book.text()
    assert "B5" in text and "B6" in text
    assert not (example / "checks").exists()  # nothing ran
    book = book_for(tmp_path / "nowhere")
    xl.check(book)
    assert "does not exist" in book.text()
    empty = tmp_path / "empty"
    empty.mkdir()
    book = book_for(empty)
    xl.check(book)
    assert "M00" in book.text()


def test_a_blank_folder_is_the_folder_of_the_workbook(example: Path) -> None:
    book = FakeBook(example / "gm_console.xlsm", {xl.LANGUAGE_CELL: "en"}, caller="Button 1")
    xl.main(book)
    assert "Some workbooks have errors" in book.text()


def test_file_names_are_never_written_as_formulas() -> None:
    report = xl.Report(lines=["=HYPERLINK(\"x\")"])
    rows = xl.report_rows(xl.CHECK, True, report, "en", "now")
    assert rows[3][0] == "'=HYPERLINK(\"x\")"


# -------------------------------------------------------------------------------- the workbook
def _values(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    book = openpyxl.load_workbook(path)
    return {sheet.title: [row for row in sheet.iter_rows(values_only=True)] for sheet in book}


def _buttons(path: Path) -> list[tuple[str, str]]:
    with zipfile.ZipFile(path) as archive:
        vml = "".join(archive.read(n).decode() for n in archive.namelist() if n.endswith(".vml"))
    captions = re.findall(r"<font[^>]*>([^<]*)</font>", vml)
    macros = re.findall(r"<x:FmlaMacro>([^<]*)</x:FmlaMacro>", vml)
    return list(zip(captions, macros, strict=True))


def test_the_committed_console_is_what_the_script_builds(tmp_path: Path) -> None:
    pytest.importorskip("xlsxwriter")
    fresh = tmp_path / "gm_console.xlsm"
    console.build_console(fresh, console.vba_project_of(TEMPLATE))
    assert _values(fresh) == _values(TEMPLATE), "run python -m adjudicator.console.workbook"
    assert _buttons(fresh) == _buttons(TEMPLATE)
    assert (ROOT / "workbook_templates" / "gm_console.py").read_text(encoding="utf-8") == console.MODULE_TEXT


def test_the_console_carries_xlwings_vba_and_three_buttons() -> None:
    assert _buttons(TEMPLATE) == [("Check orders", "[0]!SampleCall"), ("Run turn", "[0]!SampleCall"),
                                  ("Make templates", "[0]!SampleCall")]
    vba = console.vba_project_of(TEMPLATE)
    assert vba[:8] == bytes.fromhex("D0CF11E0A1B11AE1")  # an OLE compound file, as Excel writes it
    assert b"Module1" in vba and b"xlwings" in vba
    with zipfile.ZipFile(TEMPLATE) as archive:
        assert "macroEnabled" in archive.read("[Content_Types].xml").decode()
        assert 'codeName="ThisWorkbook"' in archive.read("xl/workbook.xml").decode()
    values = _values(TEMPLATE)
    assert list(values) == ["Console", "xlwings.conf"]
    conf = [row[0] for row in values["xlwings.conf"]]
    assert conf[: len(console.CONF_KEYS)] == list(console.CONF_KEYS)
    assert conf[len(console.CONF_KEYS)] is None  # xlwings reads the keys down to the first blank cell


def test_an_installed_xlwings_gives_its_own_vba_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site" / "xlwings"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("raise ImportError('found, never imported')\n")
    with zipfile.ZipFile(package / "quickstart_standalone.xlsm", "w") as archive:
        archive.writestr("xl/vbaProject.bin", b"installed VBA")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    assert console.xlwings_quickstart() == package / "quickstart_standalone.xlsm"
    assert console.find_vba(prefer_installed=True) == b"installed VBA"
    assert console.find_vba(prefer_installed=False) == console.vba_project_of(TEMPLATE)


def test_interpreter_settings() -> None:
    assert console.interpreter_settings("win32", r"C:\py\python.exe") == {"Interpreter_Win": r"C:\py\python.exe"}
    assert console.interpreter_settings("darwin", "/v/bin/python") == {"Interpreter_Mac": "/v/bin/python"}
    assert console.interpreter_settings("linux", "/usr/bin/python3") == {}


# ------------------------------------------------------------------------------- the command
def test_adjudicator_console_writes_a_ready_console(example: Path) -> None:
    pytest.importorskip("xlsxwriter")
    result = CliRunner().invoke(main, ["console", str(example)])
    assert result.exit_code == 0, result.output
    written = example / "gm_console.xlsm"
    values = _values(written)
    sheet = values[next(iter(values))]
    assert sheet[3][1] == str(example.resolve())  # B4: the campaign folder
    assert (example / "gm_console.py").read_text(encoding="utf-8") == console.MODULE_TEXT
    assert [macro for _, macro in _buttons(written)] == ["[0]!SampleCall"] * 3
    again = CliRunner().invoke(main, ["console", str(example)])
    assert again.exit_code == EXIT_UNUSABLE and "--force" in again.output
    assert CliRunner().invoke(main, ["console", str(example), "--force"]).exit_code == 0


def test_adjudicator_console_speaks_the_campaign_language(example: Path) -> None:
    pytest.importorskip("xlsxwriter")
    result = CliRunner().invoke(main, ["--lang", "es", "console", str(example)])
    assert result.exit_code == 0, result.output
    captions = [caption for caption, _ in _buttons(example / "gm_console.xlsm")]
    assert captions == [gettext_in("es", xl.ACTIONS[a]) for a in xl.BUTTONS]


def test_adjudicator_console_needs_a_campaign(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["console", str(tmp_path)])
    assert result.exit_code == EXIT_UNUSABLE and "M00" in result.output
    assert not (tmp_path / "gm_console.xlsm").exists()


@pytest.mark.libreoffice
def test_libreoffice_reads_the_buttons_and_the_macro(soffice: str, tmp_path: Path) -> None:
    """An independent reader of the workbook (not Excel, which cannot run here): LibreOffice finds three
    buttons named Button 1 to 3, each bound to Module1.SampleCall of the VBA project, whose source it reads."""
    from tests.conftest import convert

    ods = convert(soffice, TEMPLATE, "ods", tmp_path)
    with zipfile.ZipFile(ods) as archive:
        content = archive.read("content.xml").decode()
        module = archive.read("Basic/VBAProject/Module1.xml").decode()
        modules = archive.namelist()
    names = re.findall(r'<form:button form:name="([^"]+)"[^>]*form:label="([^"]+)"', content)
    assert names == [("Button 1", "Check orders"), ("Button 2", "Run turn"), ("Button 3", "Make templates")]
    assert content.count("VBAProject.Module1.SampleCall") == 3
    assert "Sub SampleCall()" in module and "RunPython" in module
    assert "Basic/VBAProject/xlwings.xml" in modules
