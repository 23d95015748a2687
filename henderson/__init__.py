"""henderson: Guadalcanal board wargames played with every rule enforced."""

__version__ = "0.1.0"
