"""The campaign folder as a store: the master workbook, its turn tabs, the lock and the commit of a turn."""
