"""The IDs of the GM input's combats and accidents (INVASION:0307:N:9) show their kind in the GM's words
(INVASIÓN:0307:N:9, ВТОРЖЕНИЕ:0307:N:9) and are read back in any language's form, the old English one included,
through the real GM input workbook the turn writes."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from adjudicator.i18n import gettext_in
from adjudicator.rulesets.inner_sphere import schemas
from adjudicator.rulesets.inner_sphere.gm import read_id, shown_id
from adjudicator.turn import pipeline
from tests.helpers import make_campaign
from tests.inner_sphere.kit import W1_CHAIN, W1_REGIMENTS, W1_SYSTEMS, orders, table, world_data


def _w1_campaign(root: Path, lang: str) -> Path:
    """W1: Kurita's NS3 invades Archemar (0307) at step 9; the turn asks the GM for that combat."""
    data = world_data({"K": 1000, "D": 0}, [{**s, "income": 0} for s in W1_SYSTEMS], regiments=W1_REGIMENTS,
                      jumpships=[{"id": "N", "owner": "K", "class": "NS3", "hex": "0305"}],
                      parameters={"accident_pct": 0})
    data["settings"]["language"] = lang
    for faction in data["tables"]["factions"]:
        faction["language"] = lang
    make_campaign(root, data)
    orders(root, "K", {"movement": [{"ship": "N", **s} for s in W1_CHAIN]})
    orders(root, "D", {})
    return root


@pytest.mark.parametrize(("lang", "shown"), [("es", "INVASIÓN:0307:N:9"), ("ru", "ВТОРЖЕНИЕ:0307:N:9")])
def test_the_gm_fills_the_combat_row_the_turn_wrote_in_its_words_and_the_turn_reads_it(
        tmp_path: Path, lang: str, shown: str) -> None:
    root = _w1_campaign(tmp_path / lang, lang)
    first = pipeline.run(root)
    assert first.status == "waiting" and first.gm_input is not None
    book = openpyxl.load_workbook(first.gm_input)
    sheet = book[gettext_in(lang, schemas.COMBATS.title)]
    headers = [c.value for c in sheet[1]]
    id_col = headers.index(gettext_in(lang, "ID")) + 1
    result_col = headers.index(gettext_in(lang, "Result")) + 1
    assert sheet.cell(row=2, column=id_col).value == shown
    assert sheet.cell(row=2, column=id_col).data_type == "s"
    sheet.cell(row=2, column=result_col, value=gettext_in(lang, "Attacker takes the system"))
    book.save(first.gm_input)  # the GM fills in the workbook the turn wrote, its ID untouched
    done = pipeline.run(root)
    assert done.status == "resolved", [p.message.render("en") for p in done.gm_problems]
    assert {s["hex"]: s["owner"] for s in table(root, "systems")}["0307"] == "K"


def test_an_id_naming_no_combat_is_reported_in_the_gm_s_words(tmp_path: Path) -> None:
    root = _w1_campaign(tmp_path / "ru", "ru")
    first = pipeline.run(root)
    assert first.gm_input is not None
    book = openpyxl.load_workbook(first.gm_input)
    sheet = book[gettext_in("ru", schemas.COMBATS.title)]
    sheet.cell(row=2, column=1, value="ВТОРЖЕНИЕ:0307:N:8")  # a step the ship never invaded at
    book.save(first.gm_input)
    again = pipeline.run(root)
    assert again.status == "waiting"
    texts = [p.message.render("ru") for p in again.gm_problems if p.cell == "A2"]
    assert texts and "ВТОРЖЕНИЕ:0307:N:8" in texts[0] and "INVASION" not in texts[0]


@pytest.mark.parametrize("written", ["INVASION:0307:N:9", "INVASIÓN:0307:N:9", "invasion:0307:N:9",
                                     "ВТОРЖЕНИЕ:0307:N:9", "Вторжение:0307:N:9", " Invasión :0307:N:9 "])
def test_an_id_is_read_in_any_language_s_form(written: str) -> None:
    assert read_id(written) == "INVASION:0307:N:9"


def test_every_kind_of_id_has_a_word_in_each_language_and_reads_back() -> None:
    for ident in ("INVASION:0204:K-NS3:5", "RAID:0102:P:3", "DEFENCE_FIRE:0102:P:3", "ACCIDENT:N:7"):
        for lang in ("en", "es", "ru"):
            text = shown_id(ident).render(lang)  # type: ignore[union-attr]
            assert read_id(text) == ident, (lang, text)
            assert (text == ident) == (lang == "en"), (lang, text)
            assert " " not in text.split(":")[0] and text.split(":")[0].isupper()
    assert read_id("NOTHING:1") == "NOTHING:1" and read_id(None) == ""
