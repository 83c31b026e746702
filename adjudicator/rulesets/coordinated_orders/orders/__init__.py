"""One module per sheet of declarations: coordinated orders (the active player) and AROs (the reactive)."""
