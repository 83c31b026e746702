"""One module per order sheet of the orders phase (3.1 repairs, 3.2 purchases, 3.5 research)."""
