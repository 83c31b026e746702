"""Every workbook the project writes is byte-reproducible: fixed zip dates and order, and fixed created and
modified dates in docProps/core.xml, so building the same template or example twice, at two different
times, gives the same SHA-256."""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import time
import zipfile
from email.message import EmailMessage
from pathlib import Path

import openpyxl
import pytest

from adjudicator.engine.registry import find_ruleset
from adjudicator.outputs.blank_templates import build_all
from adjudicator.outputs.fast_save import ZIP_DATE
from adjudicator.outputs.reproducible import FIXED_CREATED, FIXED_DATE
from adjudicator.outputs.templates import build_order_workbook
from adjudicator.outputs.writing import atomic_save
from adjudicator.paths import examples_root
from adjudicator.scenario import build, campaign_from_data, load_scenario


def _digests(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _core(path: Path | bytes) -> bytes:
    """The workbook's docProps/core.xml, its zip members checked to carry one fixed date: openpyxl's files
    rewritten at FIXED_DATE, XlsxWriter's (fast_save.py: the GM input, checked copies, results) at its own."""
    with zipfile.ZipFile(path if isinstance(path, Path) else io.BytesIO(path)) as archive:
        assert {info.date_time for info in archive.infolist()} in ({FIXED_DATE}, {ZIP_DATE})
        assert archive.infolist()[0].filename == "[Content_Types].xml"
        return archive.read("docProps/core.xml")


def test_a_template_saved_at_another_time_is_the_same_bytes(tmp_path: Path) -> None:
    ruleset = find_ruleset("galactic_war")
    _, campaign = campaign_from_data(load_scenario(examples_root() / "galactic_war"))
    faction = sorted(campaign.factions)[0]
    paths = []
    for name, clock in (("now.xlsx", None), ("later.xlsx", dt.datetime(2031, 5, 6, 7, 8, 9))):
        wb = build_order_workbook(ruleset, campaign, faction)
        if clock:  # what openpyxl would have stamped five years on
            wb.properties.created = wb.properties.modified = clock
        atomic_save(wb, tmp_path / name)
        paths.append(tmp_path / name)
    assert paths[0].read_bytes() == paths[1].read_bytes()
    assert _core(paths[0]).count(FIXED_CREATED) == 2  # created and modified


def test_a_workbook_attached_to_a_mail_is_the_same_bytes() -> None:
    from adjudicator.mail.compose import attach_workbook

    def attached(clock: dt.datetime | None) -> bytes:
        wb = openpyxl.Workbook()
        wb.active["A1"] = "checked"
        if clock:
            wb.properties.created = wb.properties.modified = clock
        message = EmailMessage()
        attach_workbook(message, wb, "x.checked.xlsx")
        return next(message.iter_attachments()).get_content()

    first = attached(None)
    assert attached(dt.datetime(2031, 5, 6)) == first
    assert _core(first).count(FIXED_CREATED) == 2


@pytest.mark.slow
def test_the_blank_templates_built_twice_are_the_same_bytes(tmp_path: Path) -> None:
    first = build_all(tmp_path / "first")
    time.sleep(1.1)  # core.xml's dates are to the second: a clock left in them would differ
    build_all(tmp_path / "second")
    assert len(first) >= 12
    assert _digests(tmp_path / "first") == _digests(tmp_path / "second")
    assert all(_core(p).count(FIXED_CREATED) == 2 for p in first)


@pytest.mark.slow
def test_an_example_regenerated_twice_is_the_same_bytes(tmp_path: Path) -> None:
    # what `python -m adjudicator.scenario examples/star_sectors` writes
    example = examples_root() / "star_sectors"
    written = build(example, tmp_path / "first")
    time.sleep(1.1)
    build(example, tmp_path / "second")
    assert {p.name for p in written} >= {"campaign.xlsx", "gm_input.xlsx", "ALPHA.xlsx"}
    assert _digests(tmp_path / "first") == _digests(tmp_path / "second")
    for path in written:
        assert _core(path).count(FIXED_CREATED) == 2, path
