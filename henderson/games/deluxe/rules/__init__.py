"""The rules of Deluxe Guadalcanal, one module per part of the sequence of play (DG 4.0)."""
