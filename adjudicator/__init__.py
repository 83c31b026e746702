"""adjudicator: resolves turns of play-by-email strategy campaigns from order workbooks."""

__version__ = "0.1.0"
