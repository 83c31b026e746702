"""One module per order type; each checks an order against the snapshot and carries it out."""
