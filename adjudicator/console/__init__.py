"""The GM's Excel console (xlwings), apart from workbook input and output."""
