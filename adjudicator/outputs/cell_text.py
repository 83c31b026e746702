"""The characters no cell or comment of an .xlsx may hold.

The same pattern as openpyxl's ``ILLEGAL_CHARACTERS_RE`` (tests/core/test_lazy_imports.py compares them): the C0
controls but tab, line feed and carriage return. Kept here so that writing a checked copy or a streamed tab
does not import openpyxl for one regular expression.
"""

from __future__ import annotations

import re

ILLEGAL_CHARACTERS_RE = re.compile(r"[\000-\010]|[\013-\014]|[\016-\037]")
