"""The version of acp (one place: the package metadata reads it from here)."""

__version__ = "0.2.0"
