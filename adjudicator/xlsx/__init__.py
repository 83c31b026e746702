"""Workbook input and output. Knows openpyxl and calamine; knows no game rules."""
