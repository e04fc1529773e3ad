"""The data acp ships inside its package: the 13 built-in domains (``domains/<d>/domain.pddl``),
their English templates (``templates/<d>.yaml`` and the shared ``templates/questions.yaml``) and the
default pipeline configuration (``pipeline.yaml``).

Everything is found through the installed package (`importlib.resources`), never through a source
checkout, so a wheel installed anywhere carries what it needs. Planners read domain files by path, so
acp needs the package installed as files (any pip install; not a zip import). A user's own config,
templates or domain folder is an argument (``--config``, ``ACP_TEMPLATES_DIR``, ``--domain-file``)."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

DATA_DIR = Path(str(files(__name__)))
DOMAINS_DIR = DATA_DIR / "domains"
TEMPLATES_DIR = DATA_DIR / "templates"
DEFAULT_CONFIG = DATA_DIR / "pipeline.yaml"

__all__ = ["DATA_DIR", "DEFAULT_CONFIG", "DOMAINS_DIR", "TEMPLATES_DIR", "load_yaml"]

# libyaml's parser where PyYAML was built with it (the same safe constructors, about ten times faster:
# templates are read for every domain a run or an `acpgen.generate` call touches)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """The data of a YAML text (a configuration or a template), read safely; yaml.YAMLError when it is
    not valid YAML."""
    return yaml.load(text, Loader=_LOADER)
