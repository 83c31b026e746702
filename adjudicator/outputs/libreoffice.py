"""Converting workbooks with the real LibreOffice (headless), the one way the pictures and the tests print them:
several files in one run (each start of LibreOffice costs seconds), with a throwaway profile of their own (a
user's LibreOffice, or another conversion under way, is never disturbed)."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path


def convert(soffice: str, sources: Sequence[Path], target_ext: str, out_dir: Path, timeout: float = 900) -> list[Path]:
    """Convert ``sources`` to ``target_ext`` ("pdf", "ods", "xlsx:Calc MS Excel 2007 XML", ...) in ``out_dir``
    by one run of the LibreOffice binary ``soffice``; the converted files, in the order of ``sources``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    profile = out_dir / ".lo-profile"
    subprocess.run([soffice, f"-env:UserInstallation=file://{profile}", "--headless", "--calc", "--convert-to",
                    target_ext, "--outdir", str(out_dir), *(str(source) for source in sources)],
                   check=True, capture_output=True, timeout=timeout)
    return [out_dir / f"{Path(source).stem}.{target_ext.split(':')[0]}" for source in sources]
