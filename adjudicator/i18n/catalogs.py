"""Compiled message catalogs: each ``.po`` file beside its ``.mo``, compiled once rather than in every process.

``make`` (and ``python -m adjudicator.i18n.catalogs``) compiles every ``.po`` of the package into the ``.mo``
beside it, exactly as :func:`compile_po` does; a wheel ships them. At run time :func:`compiled` reads the
``.mo`` with the standard library's :mod:`gettext` (no Babel, no parsing of the ``.po``) when it is at least
as new as its ``.po``, and otherwise compiles the ``.po`` in memory with Babel, so a catalog being
edited is never read stale. A test checks that every ``.mo`` holds what its ``.po`` compiles to.
"""

from __future__ import annotations

import gettext
import io
import os
import sys
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

DOMAIN = "adjudicator"


def compile_po(source: bytes, lang: str) -> bytes:
    """The ``.mo`` bytes of a ``.po`` file's bytes (fuzzy and untranslated messages left out)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    catalog = read_po(io.BytesIO(source), locale=lang, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


def _fresh_mo(po: Traversable) -> Path | None:
    """The ``.mo`` beside ``po`` if it exists and is no older than it (catalogs in the file system only)."""
    if not isinstance(po, Path):
        return None
    mo = po.with_suffix(".mo")
    try:
        return mo if os.stat(mo).st_mtime_ns >= os.stat(po).st_mtime_ns else None
    except OSError:
        return None


@cache
def compiled(po: Traversable, lang: str) -> gettext.GNUTranslations:
    """The catalog ``po`` of ``lang``, from its ``.mo`` when fresh, else compiled from the ``.po`` now."""
    mo = _fresh_mo(po)
    data = mo.read_bytes() if mo is not None else compile_po(po.read_bytes(), lang)
    return gettext.GNUTranslations(io.BytesIO(data))


def merged(catalogs: list[gettext.GNUTranslations]) -> gettext.GNUTranslations:
    """One catalog of several: a message is taken from the first catalog that translates it (its plural
    rule and headers are the first catalog's)."""
    if not catalogs:
        return gettext.NullTranslations()  # type: ignore[return-value]
    first = catalogs[0]
    out = gettext.GNUTranslations()
    out.__dict__.update({k: v for k, v in first.__dict__.items() if k != "_catalog"})
    table = dict(first._catalog)  # type: ignore[attr-defined]
    known = {key[0] if isinstance(key, tuple) else key for key in table}
    for other in catalogs[1:]:
        taken: set[str] = set()
        for key, value in other._catalog.items():  # type: ignore[attr-defined]
            msgid = key[0] if isinstance(key, tuple) else key
            if msgid and msgid not in known:
                table[key] = value
                taken.add(msgid)
        known |= taken
    out._catalog = table  # type: ignore[attr-defined]
    return out


def po_files() -> list[tuple[Path, str]]:
    """Every ``.po`` file of the package (the core's and each ruleset's), with its language."""
    package = Path(str(resources.files("adjudicator")))
    found = []
    for po in sorted(package.glob("locale/*/LC_MESSAGES/*.po")) + sorted(
            package.glob("rulesets/*/locale/*/LC_MESSAGES/*.po")):
        found.append((po, po.parent.parent.name))
    return found


def compile_all() -> list[Path]:
    """Write the ``.mo`` of every ``.po`` of the package whose ``.mo`` is missing or differs; the ones written."""
    written = []
    for po, lang in po_files():
        mo = po.with_suffix(".mo")
        data = compile_po(po.read_bytes(), lang)
        if mo.exists() and mo.read_bytes() == data:
            if mo.stat().st_mtime_ns < po.stat().st_mtime_ns:
                os.utime(mo)  # the same catalog: no older than its .po from now on
            continue
        partial = mo.with_suffix(".mo.partial")
        partial.write_bytes(data)
        os.replace(partial, mo)
        written.append(mo)
    return written


def main() -> None:
    for mo in compile_all():
        print(f"compiled {mo.relative_to(Path(str(resources.files('adjudicator'))).parent)}", file=sys.stderr)


if __name__ == "__main__":
    main()
