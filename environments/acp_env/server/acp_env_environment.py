"""acp's OpenEnv ``Environment``: one multi-step episode per session (``acpgen.adapters.openenv.AcpEnvironment``,
over ``acpgen.training.episode.Episode``)."""

from acpgen.adapters.openenv import AcpEnvironment

__all__ = ["AcpEnvironment"]
