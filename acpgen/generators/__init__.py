"""The generator registry: one module per domain, each exporting ``GENERATOR``."""

from __future__ import annotations

import importlib
from pathlib import Path

from acpgen.errors import ConfigError
from acpgen.generators.base import Generator, ProblemSpec

# Domain folder name -> module name under acpgen.generators.
DOMAINS = {
    "ferry": "ferry",
    "logistics": "logistics",
    "blocksworld": "blocksworld",
    "grid": "grid",
    "floortile": "floortile",
    "grippers": "grippers",
    "rovers": "rovers",
    "visitall": "visitall",
    "depots": "depots",
    "goldminer": "goldminer",
    "satellite": "satellite",
    "swap": "swap",
    "alfworld": "alfworld",
}

DOMAINS_DIR = Path(__file__).resolve().parents[2] / "domains"


def get_generator(domain: str) -> Generator:
    """The generator of a domain (by folder name), or a ConfigError listing the valid names."""
    if domain not in DOMAINS:
        raise ConfigError(f"unknown domain {domain!r}; valid domains: {', '.join(DOMAINS)}")
    try:
        module = importlib.import_module(f"acpgen.generators.{DOMAINS[domain]}")
    except ModuleNotFoundError as err:
        raise ConfigError(f"domain {domain!r} has no generator yet ({err.name})") from None
    return module.GENERATOR


def domain_file(domain: str) -> Path:
    """``domains/<domain>/domain.pddl``."""
    return DOMAINS_DIR / domain / "domain.pddl"


__all__ = ["DOMAINS", "DOMAINS_DIR", "Generator", "ProblemSpec", "domain_file", "get_generator"]
