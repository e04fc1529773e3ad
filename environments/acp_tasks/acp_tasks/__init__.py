from acp_tasks.taskset import AcpTasksEnv, AcpTaskset

__all__ = ["AcpTasksEnv", "AcpTaskset"]
