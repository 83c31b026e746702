"""Intake: a submitted workbook made safe, read, typed and identified, every problem collected."""
