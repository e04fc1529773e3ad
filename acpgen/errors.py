"""Typed errors of acp. The CLI turns an `AcpError` into a one-line message (exit 1)."""


class AcpError(Exception):
    """Base class of every error acp reports to the user."""


class PddlError(AcpError):
    """A PDDL domain or problem cannot be read or is outside the supported fragment."""


class ToolError(AcpError):
    """An external tool is missing or misconfigured (not: a planner that fails on one input)."""


class SafetyNetError(ToolError):
    """A planner call with a work budget ran into its time limit, the safety net, before its budget was
    spent: its answer would depend on the machine's speed, so nothing is concluded from it (see
    :class:`acpgen.planners.Limits`)."""


class ConfigError(AcpError):
    """A configuration value or command-line option is invalid."""


class DataError(AcpError):
    """A dataset or prediction file is malformed, or a prediction cannot be matched to a record."""
