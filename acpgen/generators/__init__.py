"""The generator registry: one module per domain, each exporting ``GENERATOR``."""

from __future__ import annotations

import importlib

from acpgen.errors import ConfigError
from acpgen.generators.base import DOMAINS_DIR, Generator, ProblemSpec, domain_file

# The built-in domains: folder names under domains/, each with its module acpgen.generators.<domain>.
DOMAINS = (
    "ferry",
    "logistics",
    "blocksworld",
    "grid",
    "floortile",
    "grippers",
    "rovers",
    "visitall",
    "depots",
    "goldminer",
    "satellite",
    "swap",
    "alfworld",
)


def get_generator(domain: str) -> Generator:
    """The generator of a domain (by folder name), or a ConfigError listing the valid names."""
    if domain not in DOMAINS:
        raise ConfigError(f"unknown domain {domain!r}; valid domains: {', '.join(DOMAINS)}")
    generator: Generator = importlib.import_module(f"acpgen.generators.{domain}").GENERATOR
    return generator


__all__ = ["DOMAINS", "DOMAINS_DIR", "Generator", "ProblemSpec", "domain_file", "get_generator"]
