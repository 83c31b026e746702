"""The engine core: what a ruleset is, how one is found, what a turn takes and gives.

It knows no particular ruleset and no workbook library.
"""
