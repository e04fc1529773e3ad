"""The client of acp's OpenEnv environment (``acpgen.adapters.openenv.AcpEnvClient``): one WebSocket session per
client keeps its episode::

    with AcpEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(index=0)
        result = env.step(AcpAction(text="(sail l1 l0)"))
"""

from acpgen.adapters.openenv import AcpEnvClient

__all__ = ["AcpEnvClient"]
