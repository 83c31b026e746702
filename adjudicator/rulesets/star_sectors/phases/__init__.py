"""The phases of a Star Sectors turn after the orders: battle losses, income."""
