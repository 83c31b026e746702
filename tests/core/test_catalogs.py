"""The compiled message catalogs (adjudicator.i18n.catalogs): every .mo holds what its .po says, the merged
catalogs translate exactly as the .po files merged by Babel do, and a .mo older than its .po is not used."""

from __future__ import annotations

import gettext
import io
import os
import shutil
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from adjudicator import i18n
from adjudicator.engine.registry import installed
from adjudicator.i18n import catalogs

PO_FILES = catalogs.po_files()


def _table(data: bytes) -> dict[object, str]:
    return dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("po", "lang"), PO_FILES, ids=[f"{p.parent.parent.name}-{p.stem}" for p, _ in PO_FILES])
def test_every_compiled_catalog_matches_its_po(po: Path, lang: str) -> None:
    mo = po.with_suffix(".mo")
    assert mo.is_file(), f"{mo.name} is missing: run make catalogs (make test does)"
    assert mo.stat().st_mtime_ns >= po.stat().st_mtime_ns, f"{mo.name} is older than its .po: run make catalogs"
    from_po = _table(catalogs.compile_po(po.read_bytes(), lang))
    assert _table(mo.read_bytes()) == from_po
    assert len(from_po) > 20  # a real catalog, translated


def _babel_merge(files: list, lang: str) -> gettext.GNUTranslations:
    """The catalogs merged as the project did before compiled catalogs: the .po files parsed by Babel, the
    first kept whole, a later one's translated messages added when the first lacks them."""
    merged: Catalog | None = None
    for po in files:
        with po.open("rb") as handle:
            catalog = read_po(handle, locale=lang, domain="adjudicator")
        if merged is None:
            merged = catalog
            continue
        for message in catalog:
            translated = all(message.string) if isinstance(message.string, tuple) else bool(message.string)
            if message.id and translated and not message.fuzzy and message.id not in merged:
                merged[message.id] = message
    out = io.BytesIO()
    write_mo(out, merged)  # type: ignore[arg-type]
    out.seek(0)
    return gettext.GNUTranslations(out)


@pytest.mark.parametrize("lang", ["es", "ru"])
def test_merged_catalogs_translate_as_the_po_files_merged(lang: str) -> None:
    scopes = [None, *(ruleset.locale() for ruleset in installed().values())]
    for locale in scopes:
        files = i18n.catalog_files(lang) if locale is None else i18n.scoped_catalog_files(lang, locale)
        expected = _babel_merge(files, lang)
        with i18n.ruleset_catalog(locale):
            actual = i18n.translations(lang)
        assert actual._catalog == expected._catalog, locale  # type: ignore[attr-defined]
        for n in (0, 1, 2, 5, 11, 21, 22):
            assert actual.plural(n) == expected.plural(n)  # type: ignore[attr-defined]
    with i18n.ruleset_catalog(installed()["star_sectors"].locale()):
        assert i18n.gettext_in(lang, "Orders") != "Orders"


def test_a_po_newer_than_its_mo_is_read_itself(tmp_path: Path) -> None:
    po_source = next(p for p, lang in PO_FILES if lang == "es" and p.stem == "adjudicator")
    po = tmp_path / "adjudicator.po"
    shutil.copyfile(po_source, po)
    mo = po.with_suffix(".mo")
    mo.write_bytes(catalogs.compile_po(b'msgid ""\nmsgstr ""\n"Language: es\\n"\n\nmsgid "Orders"\nmsgstr "STALE"\n',
                                       "es"))
    os.utime(mo, ns=(po.stat().st_mtime_ns - 10**9,) * 2)
    fresh = catalogs.compiled(po, "es")
    assert fresh.gettext("Orders") not in ("STALE", "Orders")
    assert fresh._catalog == _table(catalogs.compile_po(po.read_bytes(), "es"))  # type: ignore[attr-defined]
    os.utime(mo, ns=(po.stat().st_mtime_ns + 10**9,) * 2)
    catalogs.compiled.cache_clear()
    assert catalogs.compiled(po, "es").gettext("Orders") == "STALE"  # a fresh .mo is what is read
    catalogs.compiled.cache_clear()
