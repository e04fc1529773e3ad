"""Every python and bash block of the training pages runs as written: the README's section "Training
environments" and docs/integrations/{training,verifiers,trl,openenv,reasoning-gym}.md, against the installed
libraries, in a working folder laid out as the repository's root (``tests`` and ``environments`` linked,
``out/ferry`` made by the `acp generate` command the pages name), offline.

What is put in for what a page leaves to the reader, and only that:

* ``<model>`` and ``<url>`` (vf-eval's model and endpoint): ``mock`` and a loopback OpenAI-compatible chat server
  (:class:`servers.MockChat`, on 127.0.0.1);
* port 8000 (OpenEnv's server and its client): a free port on 127.0.0.1;
* ``Qwen/Qwen3-0.6B`` (TRL's model, a download from the Hugging Face hub): a tiny local model made here as
  tests/adapters/test_trl.py makes it (one-layer Llama, character tokenizer, Qwen3's chat template).

Python blocks run in this process (a fresh namespace, the working folder as current directory), bash blocks one
command line at a time with the virtualenv's bin first on PATH; `python -m acpgen.adapters.openenv` (a server) runs
in the background, around the page's next python block, which is its client. Each run is checked beyond "no
error": vf-eval's rollouts ran and were scored (no error, no all-failed warning), the trainers have acp's rewards,
the datasets' entries score 1 with their answers, the client printed the episode's first observation and its
answer to the step. The vf-eval runs take 30-70 s each: they are slow tests (``make test-slow``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from servers import MockChat, free_port, serve

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
#: the pages (and, for the README, the section) whose blocks must run
PAGES = [
    ("README.md", "Training environments"),
    ("docs/integrations/training.md", None),
    ("docs/integrations/verifiers.md", None),
    ("docs/integrations/trl.md", None),
    ("docs/integrations/openenv.md", None),
    ("docs/integrations/reasoning-gym.md", None),
]
MODEL = "Qwen/Qwen3-0.6B"
SERVER = "python -m acpgen.adapters.openenv"


@dataclass
class Snippet:
    """One unit to run: a python block, or one command line of a bash block; ``server``: the command lines of the
    bash block before this python block that starts a server (run before, and the server around, it) or makes
    records with `acp generate` (run before it)."""

    page: str
    index: int
    lang: str
    code: str
    server: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{Path(self.page).stem}-{self.index}-{self.lang}"


def page_blocks(page: str, heading: str | None) -> list[tuple[str, str]]:
    text = (ROOT / page).read_text()
    if heading is not None:
        start = text.index(f"## {heading}")
        end = text.find("\n## ", start + 1)
        text = text[start : end if end != -1 else len(text)]
    return [(lang, body) for lang, body in re.findall(r"```(\w*)\n(.*?)```", text, flags=re.DOTALL)]


def commands(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]


def snippets() -> list[Snippet]:
    out: list[Snippet] = []
    for page, heading in PAGES:
        pending: list[str] = []
        for index, (lang, body) in enumerate(page_blocks(page, heading)):
            if lang == "python":
                out.append(Snippet(page, index, "python", body, pending))
                pending = []
            elif lang == "bash":
                lines = commands(body)
                if any(line.startswith(SERVER) for line in lines):
                    pending = lines  # run with the page's next python block, its client
                    continue
                out += [Snippet(page, index, f"bash{n}", line) for n, line in enumerate(lines)]
                # records the next python block reads: made again before it (acp generate resumes: quick), so
                # that block runs on its own too
                pending = [line for line in lines if "acp generate" in line]
        assert not any(line.startswith(SERVER) for line in pending), f"{page}: a server with no client block after it"
    return out


SNIPPETS = snippets()


def param(snippet: Snippet):
    slow = snippet.lang.startswith("bash") and snippet.code.startswith("vf-eval")
    return pytest.param(snippet, id=snippet.id, marks=[pytest.mark.slow] if slow else [])


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    """A folder like the repository's root after `make setup` and the pages' `acp generate` command: ``tests``
    and ``environments`` (linked), ``out/ferry``, and the tiny local model that stands for TRL's."""
    from test_trl import tiny_model_and_tokenizer

    folder = tmp_path_factory.mktemp("docs")
    for name in ("tests", "environments"):
        (folder / name).symlink_to(ROOT / name)
    generate = [str(BIN / "acp"), "generate", "--domain", "ferry", "--level", "1", "--formats", "gen", "--out", "out"]
    done = subprocess.run(generate, cwd=folder, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0 and (folder / "out" / "ferry" / "plan.gen.jsonl").is_file(), done.stderr[-2000:]
    model, tokenizer = tiny_model_and_tokenizer()
    model.save_pretrained(folder / "tiny-model")
    tokenizer.save_pretrained(folder / "tiny-model")
    return folder


@pytest.fixture(scope="module")
def mock_model():
    with MockChat("(sail l1 l0)") as base_url:
        yield base_url


def environ() -> dict[str, str]:
    """The shell of a user after `make setup` with the virtualenv's bin on PATH; no model hub."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    path = f"{BIN}:{env.get('PATH', '/usr/bin:/bin')}"
    return env | {"PATH": path, "HF_HUB_OFFLINE": "1", "TRL_EXPERIMENTAL_SILENCE": "1"}


def filled(code: str, mock_model: str, port: int, workdir: Path) -> str:
    """The block with what the page leaves to the reader put in (see the module docstring)."""
    code = code.replace("<model>", "mock").replace("<url>", mock_model.removesuffix("/v1"))
    code = code.replace("--port 8000", f"--port {port}").replace("127.0.0.1:8000", f"127.0.0.1:{port}")
    return code.replace(f'"{MODEL}"', json.dumps(str(workdir / "tiny-model")))


def test_the_pages_have_blocks_and_every_one_is_run():
    # the README's section (TRL's lines), every adapter's page and training.md (the adaptive source) have blocks
    assert {s.page for s in SNIPPETS} == {page for page, _ in PAGES}
    langs = [s.lang for s in SNIPPETS]
    assert langs.count("python") >= 6 and sum(lang.startswith("bash") for lang in langs) >= 4
    servers = [s for s in SNIPPETS if any(line.startswith(SERVER) for line in s.server)]
    assert len(servers) == 1  # the OpenEnv server of its page, around its client
    assert any(MODEL in s.code for s in SNIPPETS if s.page == "README.md")


def run_bash(command: str, workdir: Path) -> subprocess.CompletedProcess:
    before = set((workdir / "outputs").glob("*")) if (workdir / "outputs").exists() else set()
    done = subprocess.run(
        ["bash", "-c", command], cwd=workdir, env=environ(), capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    if command.startswith("vf-eval"):
        assert "rollout(s) failed" not in done.stderr, done.stderr[-3000:]
        runs = set((workdir / "outputs").glob("*")) - before
        assert len(runs) == 1, runs
        episodes = [json.loads(line) for line in (runs.pop() / "traces.jsonl").read_text().splitlines()]
        n = int(command.split(" -n ")[1].split()[0])
        assert len(episodes) == n and all(e["ok"] and not e["errors"] for e in episodes)
        assert all(t["rewards"] for e in episodes for t in e["traces"])  # every trace scored
    if command.startswith("vf-validate"):
        assert '"valid_rate": 1.0' in done.stdout + done.stderr
    if command.startswith("openenv validate"):
        assert "[OK]" in done.stdout, done.stdout
    return done


def run_python(snippet: Snippet, code: str, workdir: Path, monkeypatch) -> dict:
    monkeypatch.chdir(workdir)
    for key, value in environ().items():
        monkeypatch.setenv(key, value)
    namespace: dict = {"__name__": "__doc_snippet__"}
    exec(compile(code, f"{snippet.page} (block {snippet.index})", "exec"), namespace)
    return namespace


def check_python(snippet: Snippet, namespace: dict, printed: str) -> None:
    """What each kind of block must have made, beyond running."""
    if "GRPOTrainer(" in snippet.code:
        from trl import GRPOTrainer

        trainers = [v for v in namespace.values() if isinstance(v, GRPOTrainer)]
        assert trainers and all(t.model.config.model_type == "llama" for t in trainers)  # the local stand-in
        names = sorted(name for t in trainers for name in t.reward_func_names)
        assert "acp_reward" in names, names
        if "environment_factory" in snippet.code:
            assert "AcpPlanningEnv" in names
    if "reasoning_gym.create_dataset" in snippet.code:
        data = namespace["data"]
        entries = [data[i] for i in range(len(data))]
        assert entries and all(data.score_answer(e["answer"], e) == 1.0 for e in entries)
    if "acpgen.adaptive(" in snippet.code:
        assert namespace["source"].tops == {("plan", "ferry"): 4} and "('plan', 'ferry'): 4" in printed
    if "AcpEnvClient" in snippet.code:
        assert "This is a ferry domain" in printed and ("action(s) left" in printed or "goal holds" in printed)


@pytest.mark.parametrize("snippet", [param(s) for s in SNIPPETS])
def test_the_block_runs_as_written(snippet, workdir, mock_model, monkeypatch, capsys):
    port = free_port()
    code = filled(snippet.code, mock_model, port, workdir)
    if snippet.lang.startswith("bash"):
        run_bash(code, workdir)
        return
    setup = [filled(line, mock_model, port, workdir) for line in snippet.server]
    for line in setup:
        if not line.startswith(SERVER):
            run_bash(line, workdir)
    servers = [line for line in setup if line.startswith(SERVER)]
    if not servers:
        namespace = run_python(snippet, code, workdir, monkeypatch)
        check_python(snippet, namespace, capsys.readouterr().out)
        return
    (server,) = servers  # as written: its default host is 127.0.0.1
    command = [str(BIN / "python"), *server.split()[1:]]
    with serve(command, port, "/health", workdir / f"server-{port}.log", cwd=workdir, env=environ()):
        namespace = run_python(snippet, code, workdir, monkeypatch)
    check_python(snippet, namespace, capsys.readouterr().out)
