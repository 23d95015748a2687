"""The AAG rules, one module per part of the turn, each citing the Operations Manual."""
