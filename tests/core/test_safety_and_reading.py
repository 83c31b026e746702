"""adjudicator.intake.safety and adjudicator.intake.reading, on real files written to tmp_path."""

from __future__ import annotations

import zipfile
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.problems import ProblemList, Severity
from adjudicator.engine.sheets import Column, Kind, TableSchema
from adjudicator.intake.reading import SheetGrid, WorkbookData, read_table, read_workbook
from adjudicator.intake.safety import Limits, check_file

MOVES = TableSchema(
    "moves",
    "Fleet moves",
    (
        Column("fleet", "Fleet", required=True),
        Column("destination", "Destination", required=True),
        Column("amount", "Amount", Kind.INT),
        Column("comment", "Comment"),
    ),
    synonyms=("Movimientos de flota",),
)


def write_xlsx(
    path: Path, sheets: dict[str, dict[str, object]], states: dict[str, str] | None = None
) -> Path:
    """A real workbook: sheet name → {cell: value}; ``states`` gives a sheet's visibility."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name, cells in sheets.items():
        ws = wb.create_sheet(name)
        for ref, value in cells.items():
            ws[ref] = value
        ws.sheet_state = (states or {}).get(name, "visible")
    wb.save(path)
    return path


def write_rows(
    path: Path, sheet: str, rows: list[list[object]], first_row: int = 1, first_col: int = 1
) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = sheet
    for r, row in enumerate(rows, start=first_row):
        for c, value in enumerate(row, start=first_col):
            if value is not None:
                ws.cell(row=r, column=c, value=value)
    wb.save(path)
    return path


def codes(problems: ProblemList) -> list[str]:
    return problems.codes()


# --- read_workbook: values, positions, visibility ------------------------------------------------


def test_read_workbook_values_and_positions(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "orders.xlsx",
        {
            "Main": {"C4": "hello", "D5": 42, "E6": 2.5, "B2": "  padded  ", "A7": "   ", "F1": True},
            "Secret": {"A1": "hidden text"},
            "Deep": {"B3": 7},
        },
        states={"Secret": "hidden", "Deep": "veryHidden"},
    )
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert list(problems) == []
    assert book is not None
    assert book.name == "orders.xlsx"
    assert list(book.sheets) == ["Main", "Secret", "Deep"]

    main = book.sheets["Main"]
    assert main.visible is True
    assert main.value(4, 3) == "hello"  # C4: row 4, column 3
    assert main.value(5, 4) == 42  # D5
    assert main.value(6, 5) == 2.5  # E6
    assert main.value(2, 2) == "padded"  # text is stripped
    assert main.value(7, 1) is None  # blank text is no value
    assert main.value(1, 6) is True  # F1
    assert main.value(1, 1) is None
    assert main.value(3, 4) is None
    # Outside the used area: None, never an exception.
    assert main.value(100, 1) is None
    assert main.value(1, 100) is None
    assert main.value(0, 1) is None
    assert main.value(1, 0) is None

    secret, deep = book.sheets["Secret"], book.sheets["Deep"]
    assert secret.visible is False
    assert secret.value(1, 1) == "hidden text"
    assert deep.visible is False
    assert deep.value(3, 2) == 7  # B3 of a veryHidden sheet
    assert deep.value(2, 2) is None


def test_read_workbook_of_an_xlsm_with_macros_reads_and_warns(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "orders.xlsm", {"Main": {"B2": "value"}})
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("xl/vbaProject.bin", b"\xd0\xcf\x11\xe0 not really VBA")
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert codes(problems) == ["F14"]
    assert problems.warnings[0].severity is Severity.WARNING
    assert problems.warnings[0].file == "orders.xlsm"
    assert not problems.has_errors()
    assert book is not None
    assert book.sheets["Main"].value(2, 2) == "value"


# --- check_file / read_workbook: refused files ---------------------------------------------------


def test_a_csv_renamed_xlsx_is_f17(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    path.write_text("name,amount\nalpha,3\n", encoding="utf-8")
    assert [p.code for p in check_file(path)] == ["F17"]
    problems = ProblemList()
    assert read_workbook(path, problems) is None
    assert codes(problems) == ["F17"]
    assert problems.errors[0].file == "orders.xlsx"


def test_a_zip_that_is_not_a_workbook_is_f01(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "not a workbook")
    problems = ProblemList()
    assert read_workbook(path, problems) is None
    assert codes(problems) == ["F01"]


def test_empty_file_is_f01(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    path.write_bytes(b"")
    problems = ProblemList()
    assert read_workbook(path, problems) is None
    assert codes(problems) == ["F01"]


@pytest.mark.parametrize("name", ["orders.csv", "orders.xls", "orders.txt", "orders", "orders.xlsx.zip"])
def test_wrong_suffix_is_f03(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("name,amount\nalpha,3\n", encoding="utf-8")
    assert [p.code for p in check_file(path)] == ["F03"]
    problems = ProblemList()
    assert read_workbook(path, problems) is None
    assert codes(problems) == ["F03"]
    assert problems.errors[0].file == name


def test_suffix_is_case_insensitive(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "ORDERS.XLSX", {"Main": {"A1": 1}})
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert list(problems) == []
    assert book is not None and book.sheets["Main"].value(1, 1) == 1


@pytest.fixture(scope="module")
def zeros_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real zip holding 30 MiB of zeros, deflated to a few tens of KiB."""
    path = tmp_path_factory.mktemp("bomb") / "orders.xlsx"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        with archive.open("xl/worksheets/sheet1.xml", "w") as member:
            chunk = bytes(2**20)
            for _ in range(30):
                member.write(chunk)
    return path


def test_unpacked_size_over_the_limit_is_f02(zeros_zip: Path) -> None:
    assert zeros_zip.stat().st_size < 1 * 2**20
    # A ratio limit that cannot trigger: only the total unpacked size is judged here.
    limits = Limits(max_unpacked_bytes=10 * 2**20, max_ratio=10**9)
    assert [p.code for p in check_file(zeros_zip, limits)] == ["F02"]
    problems = ProblemList()
    assert read_workbook(zeros_zip, problems, limits) is None
    assert codes(problems) == ["F02"]
    assert problems.errors[0].file == "orders.xlsx"


def test_unpacked_size_under_the_limit_is_not_f02(zeros_zip: Path) -> None:
    limits = Limits(max_unpacked_bytes=40 * 2**20, max_ratio=10**9)
    assert check_file(zeros_zip, limits) == []


def test_compression_ratio_over_the_limit_is_f02(zeros_zip: Path) -> None:
    # The default limits: 30 MiB is under the 200 MiB total, but the ratio is far above 200.
    assert [p.code for p in check_file(zeros_zip)] == ["F02"]


def test_too_many_parts_is_f02(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "orders.xlsx", {"Main": {"A1": 1}})
    assert check_file(path) == []
    assert [p.code for p in check_file(path, Limits(max_parts=3))] == ["F02"]


def test_file_bigger_than_max_file_bytes_is_f02(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "orders.xlsx", {"Main": {"A1": "x" * 100}})
    size = path.stat().st_size
    assert check_file(path, Limits(max_file_bytes=size)) == []
    limits = Limits(max_file_bytes=size - 1)
    assert [p.code for p in check_file(path, limits)] == ["F02"]
    problems = ProblemList()
    assert read_workbook(path, problems, limits) is None
    assert codes(problems) == ["F02"]


def test_big_file_that_is_not_a_zip_is_f02_before_anything_else(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    path.write_bytes(b"\0" * 5000)
    assert [p.code for p in check_file(path, Limits(max_file_bytes=4000))] == ["F02"]


def test_xlsm_with_vba_project_is_warning_f14(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "orders.xlsm", {"Main": {"A1": 1}})
    assert check_file(path) == []
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("xl/vbaProject.bin", b"macro bytes")
    problems = check_file(path)
    assert [(p.code, p.severity) for p in problems] == [("F14", Severity.WARNING)]
    assert not problems[0].is_error


def test_ods_with_basic_macros_is_warning_f14(tmp_path: Path) -> None:
    path = tmp_path / "orders.ods"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", "<office:document-content/>")
        archive.writestr("Basic/Standard/Module1.xml", "<script:module/>")
    assert [(p.code, p.severity) for p in check_file(path)] == [("F14", Severity.WARNING)]


def test_encrypted_member_is_f15(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("EncryptedPackage", b"secret")
    data = bytearray(path.read_bytes())
    central = data.index(b"PK\x01\x02")
    data[central + 8] |= 0x1  # general purpose flag bit 0 in the central directory: encrypted
    path.write_bytes(bytes(data))
    assert [p.code for p in check_file(path)] == ["F15"]
    problems = ProblemList()
    assert read_workbook(path, problems) is None
    assert codes(problems) == ["F15"]


# --- read_table ----------------------------------------------------------------------------------


def _table_book(
    tmp_path: Path, rows: list[list[object]], sheet: str = "Fleet moves", **kw: int
) -> WorkbookData:
    path = write_rows(tmp_path / "orders.xlsx", sheet, rows, **kw)
    problems = ProblemList()
    book = read_workbook(path, problems)
    assert book is not None and list(problems) == []
    return book


def test_read_table_columns_in_any_order_and_blank_rows_skipped(tmp_path: Path) -> None:
    book = _table_book(
        tmp_path,
        [
            ["Amount", "Comment", "Destination", "Fleet"],
            [40, "go", "B2", "alpha"],
            [None, None, None, None],
            ["  ", None, "", None],  # blank text counts as blank
            [None, None, "C3", "beta"],
            [12, " note ", " D4 ", "gamma"],
        ],
    )
    problems = ProblemList()
    table = read_table(book, MOVES, problems)
    assert list(problems) == []
    assert table is not None
    assert table.sheet == "Fleet moves"
    assert table.letters == {"amount": "A", "comment": "B", "destination": "C", "fleet": "D"}
    assert list(table.frame.index) == [2, 5, 6]  # sheet rows; rows 3 and 4 are blank
    assert table.frame.index.name == "row"
    assert table.frame.at[2, "fleet"] == "alpha"
    assert table.frame.at[2, "destination"] == "B2"
    assert table.frame.at[2, "amount"] == 40
    assert table.frame.at[5, "amount"] is None
    assert table.frame.at[5, "comment"] is None
    assert table.frame.at[6, "comment"] == "note"
    assert table.frame.at[6, "destination"] == "D4"
    assert table.cell(5, "destination") == "C5"
    assert table.cell(6, "fleet") == "D6"


def test_read_table_header_below_a_title_row_and_offset_columns(tmp_path: Path) -> None:
    book = _table_book(
        tmp_path,
        [
            ["Orders of turn 3 - fill in the rows below"],
            [None],
            ["Fleet", "Destination", "Amount"],
            ["alpha", "B2", 5],
            ["beta", "C3", 6],
        ],
        first_row=2,
        first_col=2,
    )
    problems = ProblemList()
    table = read_table(book, MOVES, problems)
    assert list(problems) == []
    assert table is not None
    assert table.letters == {"fleet": "B", "destination": "C", "amount": "D"}
    assert list(table.frame.index) == [5, 6]
    assert list(table.frame["fleet"]) == ["alpha", "beta"]
    assert table.cell(6, "amount") == "D6"
    assert "comment" not in table.frame.columns  # an optional column that is absent


def test_read_table_headers_are_case_accent_and_space_insensitive(tmp_path: Path) -> None:
    book = _table_book(tmp_path, [[" FLEET ", "destination", "amount"], ["alpha", "B2", 1]])
    table = read_table(book, MOVES, ProblemList())
    assert table is not None
    assert set(table.letters) == {"fleet", "destination", "amount"}


def test_read_table_finds_the_sheet_by_its_name_among_others(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "orders.xlsx",
        {
            "Instructions": {"A1": "Fleet", "B1": "Destination", "A2": "not", "B2": "this"},
            "  fleet MOVES ": {"A1": "Fleet", "B1": "Destination", "A2": "alpha", "B2": "B2"},
        },
    )
    book = read_workbook(path, ProblemList())
    assert book is not None
    table = read_table(book, MOVES, ProblemList())
    assert table is not None
    assert table.sheet == "  fleet MOVES "
    assert list(table.frame["fleet"]) == ["alpha"]


@pytest.mark.parametrize("sheet", ["MOVIMIENTOS DE FLOTA", "moves"])
def test_read_table_finds_the_sheet_by_synonym_or_key(tmp_path: Path, sheet: str) -> None:
    book = _table_book(tmp_path, [["Fleet", "Destination"], ["alpha", "B2"]], sheet=sheet)
    table = read_table(book, MOVES, ProblemList())
    assert table is not None and table.sheet == sheet


def test_read_table_finds_a_hidden_sheet(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "orders.xlsx",
        {
            "Cover": {"A1": "x"},
            "Fleet moves": {"A1": "Fleet", "B1": "Destination", "A2": "alpha", "B2": "B2"},
        },
        states={"Fleet moves": "hidden"},
    )
    book = read_workbook(path, ProblemList())
    assert book is not None
    table = read_table(book, MOVES, ProblemList())
    assert table is not None and list(table.frame.index) == [2]


def test_read_table_missing_required_column_is_f05_at_the_header_row(tmp_path: Path) -> None:
    book = _table_book(
        tmp_path,
        [["Turn 3 orders"], ["Fleet", "Amount", "Comment"], ["alpha", 5, "x"]],
    )
    problems = ProblemList()
    table = read_table(book, MOVES, problems)
    assert table is not None  # the rest of the sheet is still read
    assert [(p.code, p.severity, p.cell, p.sheet, p.file) for p in problems] == [
        ("F05", Severity.ERROR, "A2", "Fleet moves", "orders.xlsx")
    ]
    assert list(table.frame["fleet"]) == ["alpha"]


def test_read_table_missing_optional_column_is_no_problem(tmp_path: Path) -> None:
    book = _table_book(tmp_path, [["Fleet", "Destination"], ["alpha", "B2"]])
    problems = ProblemList()
    assert read_table(book, MOVES, problems) is not None
    assert list(problems) == []


def test_read_table_each_missing_required_column_is_reported(tmp_path: Path) -> None:
    book = _table_book(tmp_path, [["Amount", "Comment"], [5, "x"]])
    problems = ProblemList()
    read_table(book, MOVES, problems)
    assert [(p.code, p.cell) for p in problems] == [("F05", "A1"), ("F05", "A1")]


def test_read_table_unknown_columns_are_one_warning_f06_at_the_first(tmp_path: Path) -> None:
    book = _table_book(
        tmp_path,
        [["Title row"], ["Fleet", "Colour", "Destination", None, "Speed"], ["alpha", "red", "B2", None, 3]],
    )
    problems = ProblemList()
    table = read_table(book, MOVES, problems)
    assert table is not None
    assert [(p.code, p.severity, p.cell, p.sheet) for p in problems] == [
        ("F06", Severity.WARNING, "B2", "Fleet moves"),
    ]
    assert problems.warnings[0].message.render() == (
        "2 columns are not used by the adjudicator and were ignored: Colour, Speed.")
    assert not problems.has_errors()
    assert set(table.frame.columns) == {"fleet", "destination"}


def test_read_table_missing_sheet_is_f04(tmp_path: Path) -> None:
    book = _table_book(tmp_path, [["Fleet", "Destination"], ["alpha", "B2"]], sheet="Something else")
    problems = ProblemList()
    assert read_table(book, MOVES, problems) is None
    assert [(p.code, p.severity, p.file) for p in problems] == [("F04", Severity.ERROR, "orders.xlsx")]


def test_read_table_missing_optional_sheet_is_no_problem(tmp_path: Path) -> None:
    optional = TableSchema("moves", "Fleet moves", MOVES.columns, optional=True)
    book = _table_book(tmp_path, [["x"]], sheet="Something else")
    problems = ProblemList()
    assert read_table(book, optional, problems) is None
    assert list(problems) == []


def test_read_table_with_only_a_header_has_no_rows(tmp_path: Path) -> None:
    book = _table_book(tmp_path, [["Fleet", "Destination", "Amount"]])
    problems = ProblemList()
    table = read_table(book, MOVES, problems)
    assert list(problems) == []
    assert table is not None
    assert len(table.frame) == 0
    assert set(table.frame.columns) == {"fleet", "destination", "amount"}


def test_read_table_on_a_given_grid(tmp_path: Path) -> None:
    grid = SheetGrid("Anything", [["Fleet", "Destination"], ["alpha", "B2"], ["", ""], ["beta", "C3"]])
    book = WorkbookData(tmp_path / "orders.xlsx", {"Anything": grid})
    problems = ProblemList()
    table = read_table(book, MOVES, problems, sheet_grid=grid)
    assert list(problems) == []
    assert table is not None
    assert list(table.frame.index) == [2, 4]
    assert list(table.frame["destination"]) == ["B2", "C3"]
