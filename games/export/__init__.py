"""A player's data export."""
