from acp_episodes.taskset import AcpEpisodeEnv, AcpEpisodeTaskset

__all__ = ["AcpEpisodeEnv", "AcpEpisodeTaskset"]
