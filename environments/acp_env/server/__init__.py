"""acp_env's server components (``acpgen.adapters.openenv``)."""

from .acp_env_environment import AcpEnvironment

__all__ = ["AcpEnvironment"]
