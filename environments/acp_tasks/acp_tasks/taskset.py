"""acp-tasks: acp's questions, one answer each, scored exactly (the taskset of acpgen.adapters.verifiers)."""

from acpgen.adapters.verifiers import AcpTask, AcpTaskConfig, AcpTaskData, AcpTaskset, AcpTasksetConfig

__all__ = ["AcpTask", "AcpTaskConfig", "AcpTaskData", "AcpTaskset", "AcpTasksetConfig"]
