"""For researchers: henderson's games as fixed action spaces, observation tensors, explicit
chance, PettingZoo, Gymnasium and OpenSpiel environments (docs/research.md).

The modules that need numpy, PettingZoo, Gymnasium or OpenSpiel import them when used;
`pip install 'henderson[rl]'` (and `[openspiel]`) installs them.
"""
