"""The client of acp's OpenEnv environment (``acpgen.adapters.openenv.AcpEnvClient``): one WebSocket session per
client keeps its episode::

    with AcpEnvClient(base_url="http://127.0.0.1:8000").sync() as env:
        result = env.reset(index=0)
        result = env.step(AcpAction(text="(sail l1 l0)"))

A server holding its limit of sessions turns the client away: ``reset`` raises ``ServerFull`` (a ``SessionClosed``,
a ``RuntimeError``) naming the limit and the setting that raises it (``ACP_MAX_CONCURRENT_ENVS``).
"""

from acpgen.adapters.openenv import AcpEnvClient, ServerFull, SessionClosed

__all__ = ["AcpEnvClient", "ServerFull", "SessionClosed"]
