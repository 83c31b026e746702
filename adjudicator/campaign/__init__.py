"""The campaign folder: the GM's master workbook, the turns, and the pipeline that runs a turn."""
