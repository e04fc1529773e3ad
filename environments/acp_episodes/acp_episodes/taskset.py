"""acp-episodes: multi-step planning episodes, acp answering each action with its exact consequence
(the taskset and environment of acpgen.adapters.verifiers_episodes)."""

from acpgen.adapters.verifiers_episodes import (
    AcpEpisodeData,
    AcpEpisodeEnv,
    AcpEpisodeEnvConfig,
    AcpEpisodeTask,
    AcpEpisodeTaskset,
    AcpEpisodeTasksetConfig,
)

__all__ = [
    "AcpEpisodeData",
    "AcpEpisodeEnv",
    "AcpEpisodeEnvConfig",
    "AcpEpisodeTask",
    "AcpEpisodeTaskset",
    "AcpEpisodeTasksetConfig",
]
