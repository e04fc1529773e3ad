from acp_tasks.taskset import AcpTaskset

__all__ = ["AcpTaskset"]
