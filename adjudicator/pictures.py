"""Pictures of the workbooks players get, for the docs: each ruleset's order sheet and results report,
rendered through LibreOffice (to PDF) and pdftoppm (to PNG).

    python -m adjudicator.pictures docs/images        (or: make pictures)

Each picture comes from the ruleset's bundled example: a player's filled order workbook, and the
report of that player's results after the example turn; so the pictures are remade whenever the
workbooks change.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import openpyxl

from adjudicator.campaign import pipeline
from adjudicator.engine.registry import installed
from adjudicator.i18n import gettext_in


class MissingToolError(RuntimeError):
    """Raised when LibreOffice (soffice) or pdftoppm is not installed."""


def tools() -> tuple[str, str]:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    pdftoppm = shutil.which("pdftoppm")
    if not soffice or not pdftoppm:
        raise MissingToolError("pictures need LibreOffice (soffice) and pdftoppm (poppler-utils)")
    return soffice, pdftoppm


def only_sheet(source: Path, wanted: str, target: Path) -> Path:
    """A copy of ``source`` in which only the first sheet whose name contains ``wanted`` is visible."""
    book = openpyxl.load_workbook(source)
    keep = next(ws for ws in book.worksheets if wanted in ws.title)
    book.active = book.worksheets.index(keep)
    for ws in book.worksheets:
        ws.sheet_state = "visible" if ws is keep else "hidden"
        ws.sheet_view.tabSelected = ws is keep
    book.save(target)
    return target


def render(workbook: Path, png: Path, work: Path) -> Path:
    soffice, pdftoppm = tools()
    subprocess.run([soffice, f"-env:UserInstallation=file://{work / 'profile'}", "--headless", "--convert-to",
                    "pdf", "--outdir", str(work), str(workbook)], check=True, capture_output=True, timeout=300)
    pdf = work / f"{workbook.stem}.pdf"
    subprocess.run([pdftoppm, "-png", "-r", "90", "-f", "1", "-l", "1", "-singlefile", str(pdf),
                    str(png.with_suffix(""))], check=True, capture_output=True, timeout=120)
    return png


def pictures(out: Path, names: list[str] | None = None) -> list[Path]:
    tools()
    out.mkdir(parents=True, exist_ok=True)
    made = []
    for name, ruleset in installed().items():
        if names and name not in names:
            continue
        if not (ruleset.example_dir() / "campaign.xlsx").exists():
            continue
        with tempfile.TemporaryDirectory() as tmp:
            work = Path(tmp)
            root = work / name
            pipeline.new_campaign(ruleset, root, example=True)
            filled = sorted((root / "inbox").iterdir())[0]  # a player's filled order workbook
            template = shutil.copyfile(filled, work / filled.name)
            outcome = pipeline.run(root)
            _, campaign, _ = pipeline.open_campaign(root)
            faction = template.stem
            lang = campaign.factions[faction].language
            sheet = ruleset.order_schemas[0].title_in(lang)
            made.append(render(only_sheet(template, sheet, work / f"{name}-orders.xlsx"),
                               out / f"{name}-orders.png", work))
            if outcome.status == "resolved":
                report = gettext_in(lang, "Report")
                made.append(render(only_sheet(outcome.results[faction], report, work / f"{name}-report.xlsx"),
                                   out / f"{name}-report.png", work))
    return made


if __name__ == "__main__":  # pragma: no cover
    for path in pictures(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/images"), sys.argv[2:] or None):
        print(path)
