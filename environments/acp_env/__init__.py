"""acp_env: acp's multi-step planning episodes as an OpenEnv environment, in the layout ``openenv init`` writes.

The environment, its pydantic types and its client are those of ``acpgen.adapters.openenv`` (re-exported
here, not copied)::

    from acp_env import AcpAction, AcpEnvClient
"""

from .client import AcpEnvClient, ServerFull, SessionClosed
from .models import AcpAction, AcpObservation, AcpState

__all__ = ["AcpAction", "AcpEnvClient", "AcpObservation", "AcpState", "ServerFull", "SessionClosed"]
