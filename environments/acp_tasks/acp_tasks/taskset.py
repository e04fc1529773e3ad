"""acp-tasks: acp's questions, one answer each, scored exactly (the taskset of acpgen.adapters.verifiers), and the
env that runs them by default as a plain chat in a local subprocess (no Prime sandbox, no coding agent)."""

from acpgen.adapters.verifiers import (
    AcpTask,
    AcpTaskConfig,
    AcpTaskData,
    AcpTasksEnv,
    AcpTasksEnvConfig,
    AcpTaskset,
    AcpTasksetConfig,
)

__all__ = [
    "AcpTask",
    "AcpTaskConfig",
    "AcpTaskData",
    "AcpTasksEnv",
    "AcpTasksEnvConfig",
    "AcpTaskset",
    "AcpTasksetConfig",
]
