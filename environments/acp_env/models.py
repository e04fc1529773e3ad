"""The action, observation and state of acp's OpenEnv environment (``acpgen.adapters.openenv``): ``AcpAction.text``
is the next action, or several, one per line; ``AcpObservation`` the exact consequence; ``AcpState`` the
episode's measures."""

from acpgen.adapters.openenv import AcpAction, AcpObservation, AcpState

__all__ = ["AcpAction", "AcpObservation", "AcpState"]
