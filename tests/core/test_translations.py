"""Every string a player or GM reads exists in Spanish and Russian, and the catalogs match the code."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from adjudicator.i18n import LANGUAGES, fold, gettext_in

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "adjudicator" / "locale"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


RULESETS = sorted(p.parent.name for p in (ROOT / "adjudicator" / "rulesets").glob("*/__init__.py"))
DOMAINS = ["adjudicator", *RULESETS]


def po_path(domain: str, lang: str) -> Path:
    base = LOCALE if domain == "adjudicator" else ROOT / "adjudicator" / "rulesets" / domain / "locale"
    return base / lang / "LC_MESSAGES" / f"{domain}.po"


def catalog(domain: str, lang: str):  # noqa: ANN201
    with open(po_path(domain, lang), "rb") as handle:
        return read_po(handle, locale=lang)


def extract(domain: str, out: Path) -> set[str]:
    """The msgids the code marks today, extracted with Babel exactly as `make messages` does."""
    if domain == "adjudicator":
        config, source = "babel.cfg", "."
    else:
        config, source = "babel-ruleset.cfg", f"adjudicator/rulesets/{domain}"
    pot = out / f"{domain}.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "--no-location", "-F", config,
         "-k", "msg", "-k", "msg_n:1,2", "-k", "N_", "-o", str(pot), source],
        cwd=ROOT, check=True, capture_output=True,
    )
    with open(pot, "rb") as handle:
        return {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}


def test_clicks_own_messages_are_translated(tmp_path: Path) -> None:
    """The command-line library's messages (usage, errors) exist in Spanish and Russian too."""
    import click

    pot = tmp_path / "click.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "--no-location", "-k", "_",
         "-k", "ngettext:1,2", "-o", str(pot), str(Path(click.__file__).parent)],
        check=True, capture_output=True,
    )
    with open(pot, "rb") as handle:
        wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(handle) if m.id}
    assert len(wanted) > 50
    for lang in ("es", "ru"):
        with open(LOCALE / lang / "LC_MESSAGES" / "click.po", "rb") as handle:
            have = {m.id if isinstance(m.id, str) else m.id[0]: m for m in read_po(handle, locale=lang) if m.id}
        missing = sorted(w for w in wanted if w not in have or not have[w].string)
        assert not missing, f"click's messages missing in {lang} (run make messages): {missing[:5]}"


@pytest.fixture(scope="module")
def extracted(tmp_path_factory: pytest.TempPathFactory) -> dict[str, set[str]]:
    out = tmp_path_factory.mktemp("pot")
    found = {domain: extract(domain, out) for domain in DOMAINS}
    assert len(found["adjudicator"]) > 100, "extraction found almost nothing: is babel.cfg right?"
    return found


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_marked_string_is_translated(lang: str, domain: str, extracted: dict[str, set[str]]) -> None:
    wanted = extracted[domain]
    assert wanted, f"{domain} marks no string"
    messages = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog(domain, lang) if m.id}
    missing = sorted(wanted - set(messages))
    assert not missing, f"run `make messages` and translate ({domain}, {lang}): {missing[:10]}"
    empty = sorted(
        k for k in wanted
        if not all(messages[k].string if isinstance(messages[k].string, tuple) else [messages[k].string])
        or messages[k].fuzzy
    )
    assert not empty, f"untranslated or fuzzy in {domain}, {lang}: {empty[:10]}"


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_translations_keep_their_placeholders(lang: str, domain: str) -> None:
    for message in catalog(domain, lang):
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = set(PLACEHOLDER.findall(ids[0]))
        for string in strings:
            assert set(PLACEHOLDER.findall(string)) <= wanted | {"n"}, (lang, message.id)
            assert wanted <= set(PLACEHOLDER.findall(string)) | {"n"}, (lang, message.id)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_order_words_read_back_in_every_language(lang: str) -> None:
    """A dropdown word written in one language is read as the same order in any workbook."""
    from adjudicator.rulesets.star_sectors.schemas import ORDERS

    column = ORDERS.column("order")
    lookup = column.choice_lookup()
    for choice in column.choices:
        assert lookup[fold(gettext_in(lang, choice.label))] == choice.code
    headers = [fold(c.header_in(lang)) for c in ORDERS.columns]
    assert len(set(headers)) == len(headers), "two headers of the order sheet read the same"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_msgid_means_the_same_in_every_catalog(lang: str) -> None:
    """Catalogs are merged into one, so a word shared by the core and rulesets has one translation."""
    seen: dict[str, dict[str, object]] = {}
    for domain in DOMAINS:
        for message in catalog(domain, lang):
            if message.id and message.string:
                key = message.id if isinstance(message.id, str) else message.id[0]
                seen.setdefault(key, {})[domain] = message.string
    conflicts = {k: v for k, v in seen.items() if len({str(x) for x in v.values()}) > 1}
    assert not conflicts, f"one msgid, several translations ({lang}): {list(conflicts.items())[:5]}"
