"""xlsx_package.py quotes XML attributes itself (xml.sax.saxutils costs a check urllib, http, ssl and email): its
quoting is the standard library's, character for character, so composed workbooks keep their bytes."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr as standard

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.outputs.xlsx_package import quoteattr

MARKUP = st.text(alphabet=st.sampled_from(list("ab &<>\"'\n\r\tЯñ")), max_size=12)


@given(st.one_of(MARKUP, st.text(max_size=20)))
def test_attributes_are_quoted_as_the_standard_library_quotes_them(value: str) -> None:
    assert quoteattr(value) == standard(value)
