"""One module per game system; each defines ``SYSTEM``."""
