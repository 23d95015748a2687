"""FIRST BLOOD rules, one module per part of the sequence of play (FB Sequence of Play)."""
