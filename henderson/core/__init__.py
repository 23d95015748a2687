"""The game-independent core: hex grid, dice, events, actions, records, errors, data loading."""
