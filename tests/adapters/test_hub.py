"""`acp export hf`: the folder is loaded offline with the real `datasets` library, every config and
split, and its rows, card header and card body are checked against the source dataset files."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from conftest import DEV, FIXTURES

from acpgen.cli import cli
from acpgen.tasks import TASKS

CI_CONFIG = FIXTURES / "pipeline" / "ci.yaml"
SPLITS = ("test", "dev")


def tiny_config(folder: Path) -> Path:
    """The CI config reduced to ferry, one test and one dev question per task and format (about 15 s)."""
    raw = yaml.safe_load(CI_CONFIG.read_text())
    raw["domains"] = {"ferry": raw["domains"]["ferry"]}
    raw["qa"]["questions_per_task"] = 2
    raw["qa"]["formats"] = ["gen", "bool", "mcq"]
    raw["dataset"] = {"test_per_domain": 1, "dev_per_task": 1}
    path = folder / "config.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def run(*args) -> object:
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> tuple[Path, Path]:
    """The reference dev records as a dataset folder (first half test, second half dev), exported."""
    root = tmp_path_factory.mktemp("hub-reference")
    files = {}
    for path in sorted(DEV.glob("*.json")):
        task, fmt = path.name.split(".")[:2]
        records = json.loads(path.read_text())
        half = len(records) // 2
        files[f"{task}/test.{fmt}.jsonl"], files[f"{task}/dev.{fmt}.jsonl"] = records[:half], records[half:]
    write_dataset(root / "ds", files)
    result = run("export", "hf", root / "ds", root / "hf")
    assert result.exit_code == 0, result.output
    return root / "ds", root / "hf"


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("hub")
    result = run("dataset", "--config", tiny_config(root), "--out", root / "ds", "--work", root / "work", "-j", "1")
    assert result.exit_code == 0, result.output
    result = run("export", "hf", root / "ds", root / "hf")
    assert result.exit_code == 0, result.output
    return root / "ds", root / "hf"


def source_files(ds: Path) -> dict[tuple[str, str], dict[str, list[dict]]]:
    """(task, format) -> split -> records, read straight from DATASET/<task>/<split>.<format>.jsonl."""
    out: dict[tuple[str, str], dict[str, list[dict]]] = {}
    for path in sorted(ds.glob("*/*.jsonl")):
        split, fmt = path.name.split(".")[:2]
        out.setdefault((path.parent.name, fmt), {})[split] = [
            json.loads(line) for line in path.read_text().splitlines()
        ]
    return out


def card(hf: Path) -> tuple[dict, str]:
    text = (hf / "README.md").read_text()
    assert text.startswith("---\n")
    header, body = text[4:].split("\n---\n", 1)
    return yaml.safe_load(header), body


def without_nulls(value):
    """Arrow fills a struct key a record lacks with null; the source simply lacks it."""
    if isinstance(value, dict):
        return {k: without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [without_nulls(v) for v in value]
    return value


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """`datasets` with its cache in tmp_path and no network at all (a connection attempt fails the test)."""
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf-home"))

    def refuse(self, address):
        raise AssertionError(f"network access to {address} while loading a local dataset folder")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    datasets = pytest.importorskip("datasets")
    datasets.disable_progress_bars()
    return lambda folder, name: datasets.load_dataset(str(folder), name=name, cache_dir=str(tmp_path / "cache"))


def check_loads_offline_with_the_source_rows(ds: Path, hf: Path, load) -> None:
    header, _ = card(hf)
    json_fields = {c["config_name"]: mixed_fields(hf, c["config_name"]) for c in header["configs"]}
    sources = source_files(ds)
    gen_tasks = {task for task, fmt in sources if fmt == "gen"}  # the reference has no t2p records
    assert gen_tasks >= {"app", "prog", "reach", "areach", "val", "just", "land", "nexta"}
    # gen for every task; bool and mcq for the 7 ACPBench tasks, the 6 reasoning-about-actions ones and pver
    with_choices = {
        "app",
        "prog",
        "reach",
        "areach",
        "val",
        "just",
        "land",
        "pver",
        *(t for t in gen_tasks if "rac_" in t),
    }
    assert len(sources) == len(gen_tasks) + 2 * len(with_choices & gen_tasks)
    for (task, fmt), splits in sources.items():
        loaded = load(hf, f"{task}_{fmt}")
        assert set(loaded) == set(splits) == set(SPLITS)
        for split, records in splits.items():
            rows = loaded[split].to_list()
            assert len(rows) == len(records) > 0
            assert [r["id"] for r in rows] == [r["id"] for r in records]
            assert [r["answer"] for r in rows] == [r["answer"] for r in records]
            for row, record in zip(rows, records, strict=True):
                for name in json_fields[f"{task}_{fmt}"]:
                    row[name] = json.loads(row[name])
                assert without_nulls(row) == without_nulls(record)


def test_reference_dev_records_load_offline_every_config_and_split(reference, offline):
    check_loads_offline_with_the_source_rows(*reference, offline)


@pytest.mark.slow
def test_generated_dataset_loads_offline_every_config_and_split(exported, offline):
    check_loads_offline_with_the_source_rows(*exported, offline)


def mixed_fields(hf: Path, config: str) -> set[str]:
    """The fields the card body names as stored in JSON text for a config."""
    _, body = card(hf)
    return {line.split("`")[3] for line in body.splitlines() if line.startswith(f"* `{config}`: `")}


def test_reference_card_header_and_body(reference):
    check_header(*reference)
    check_body(*reference)


@pytest.mark.slow
def test_generated_card_header_and_body(exported):
    check_header(*exported)
    check_body(*exported)


def check_header(ds: Path, hf: Path) -> None:
    header, _ = card(hf)
    sources = source_files(ds)
    assert header["license"] == "apache-2.0" and header["language"] == ["en"]
    assert {"question-answering", "text-generation", "multiple-choice"} <= set(header["task_categories"])
    assert header["pretty_name"] and "planning" in header["tags"]
    assert [c["config_name"] for c in header["configs"]] == [c["config_name"] for c in header["dataset_info"]]
    assert {c["config_name"] for c in header["configs"]} == {f"{t}_{f}" for t, f in sources}
    for config in header["configs"]:
        assert {d["split"] for d in config["data_files"]} == set(SPLITS)
        for entry in config["data_files"]:
            assert (hf / entry["path"]).is_file(), entry
    features = {c["config_name"]: {f["name"]: f for f in c["features"]} for c in header["dataset_info"]}
    for (task, fmt), splits in sources.items():
        keys = {k for records in splits.values() for r in records for k in r}
        assert set(features[f"{task}_{fmt}"]) == keys
    assert features["app_gen"]["id"] == {"name": "id", "dtype": "int64"}
    assert features["app_gen"]["answer"] == {"name": "answer", "list": "string"}
    assert features["val_gen"]["answer"] == {"name": "answer", "dtype": "int64"}
    assert features["just_gen"]["answer"] == {"name": "answer", "list": {"list": "string"}}
    assert features["prog_gen"]["answer"] == {
        "name": "answer",
        "struct": [{"name": "pos", "list": "string"}, {"name": "neg", "list": "string"}],
    }
    assert features["app_mcq"]["choices"] == {
        "name": "choices",
        "struct": [{"name": "text", "list": "string"}, {"name": "label", "list": "string"}],
    }
    assert features["app_bool"]["answer"] == {"name": "answer", "dtype": "string"}


def check_body(ds: Path, hf: Path) -> None:
    _, body = card(hf)
    manifest = json.loads((ds / "manifest.json").read_text())
    for (task, fmt), splits in source_files(ds).items():
        row = next(line for line in body.splitlines() if line.startswith(f"| `{task}_{fmt}` |"))
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert cells[3:5] == [str(len(splits["test"])), str(len(splits["dev"]))]
    for task in {TASKS[name] for name, _ in source_files(ds)}:
        assert f"| `{task.name}` | {task.description} |" in body
    assert "acp score predictions.jsonl --dataset data" in body
    assert f"| seed | `{manifest['seed']}` |" in body
    assert manifest["config_sha256"] in body and manifest["code_version"] in body
    assert "{{ACPBench}: Reasoning about Action, Change, and Planning}" in body
    assert "{{ACPBench} Hard: Unrestrained Reasoning about Action, Change, and Planning}" in body
    assert body.count("@inproceedings{") + body.count("@misc{") == 2


@pytest.mark.slow
def test_acp_score_reads_the_exported_data_folder(exported, tmp_path):
    _, hf = exported
    gold = tmp_path / "gold.jsonl"
    assert run("reference-answers", hf / "data", "-o", gold).exit_code == 0
    scores = tmp_path / "scores.jsonl"
    result = run("score", gold, "--dataset", hf / "data", "-o", scores)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in scores.read_text().splitlines()]
    assert len(lines) >= 22 and all(line["score"] == 1 for line in lines)


def write_dataset(folder: Path, records: dict[str, list[dict]]) -> Path:
    """A hand-made dataset folder: DATASET/<task>/<split>.<format>.jsonl and a manifest."""
    for name, items in records.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(r) + "\n" for r in items))
    (folder / "manifest.json").write_text(
        json.dumps({"acp_version": "0", "seed": 7, "config_sha256": "ab" * 32, "code_version": "cd" * 32})
    )
    return folder


def test_a_field_of_mixed_shapes_is_json_text_named_in_the_card_and_round_trips(tmp_path, offline):
    test = [
        {"id": 1, "answer": ["a", "b"], "note": {"x": 1}, "extra": [{"p": "q"}]},
        {"id": 2, "answer": {"pos": ["a"]}, "note": {"y": "z"}, "extra": [{"r": [1, 2]}, {}]},
    ]
    dev = [{"id": 3, "answer": None, "note": None, "extra": []}]
    ds = write_dataset(tmp_path / "ds", {"app/test.gen.jsonl": test, "app/dev.gen.jsonl": dev})
    result = run("export", "hf", ds, tmp_path / "hf")
    assert result.exit_code == 0, result.output
    header, _ = card(tmp_path / "hf")
    features = {f["name"]: f for f in header["dataset_info"][0]["features"]}
    assert features["answer"] == {"name": "answer", "dtype": "string"}
    assert features["note"] == {
        "name": "note",
        "struct": [{"name": "x", "dtype": "int64"}, {"name": "y", "dtype": "string"}],
    }
    assert features["extra"] == {
        "name": "extra",
        "list": [{"name": "p", "dtype": "string"}, {"name": "r", "list": "int64"}],
    }
    assert mixed_fields(tmp_path / "hf", "app_gen") == {"answer"}
    loaded = offline(tmp_path / "hf", "app_gen")
    assert [json.loads(r["answer"]) for r in loaded["test"]] == [["a", "b"], {"pos": ["a"]}]
    assert json.loads(loaded["dev"][0]["answer"]) is None
    assert [without_nulls(r["note"]) for r in loaded["test"]] == [{"x": 1}, {"y": "z"}]
    assert without_nulls(loaded["test"][1]["extra"]) == [{"r": [1, 2]}, {}]


def test_export_is_deterministic_and_drops_configs_of_an_earlier_export(tmp_path):
    record = {"id": 1, "group": "g", "answer": "yes"}
    ds = write_dataset(tmp_path / "ds", {"app/test.bool.jsonl": [record], "app/test.gen.jsonl": [record]})
    out = tmp_path / "hf"
    assert run("export", "hf", ds, out).exit_code == 0
    first = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    (ds / "app" / "test.gen.jsonl").unlink()
    assert run("export", "hf", ds, out).exit_code == 0
    assert not (out / "data" / "app_gen").exists()
    header, _ = card(out)
    assert [c["config_name"] for c in header["configs"]] == ["app_bool"]
    (ds / "app" / "test.gen.jsonl").write_text(json.dumps(record) + "\n")
    assert run("export", "hf", ds, out).exit_code == 0
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == first


def test_missing_manifest_and_unknown_task_are_errors_naming_the_file(tmp_path):
    ds = tmp_path / "ds"
    (ds / "app").mkdir(parents=True)
    (ds / "app" / "test.gen.jsonl").write_text('{"id": 1}\n')
    result = CliRunner().invoke(cli, ["export", "hf", str(ds), str(tmp_path / "hf")])
    assert result.exit_code == 1 and f"{ds / 'manifest.json'}: missing" in result.output
    write_dataset(ds, {"nosuch/test.gen.jsonl": [{"id": 1}]})
    result = CliRunner().invoke(cli, ["export", "hf", str(ds), str(tmp_path / "hf")])
    assert result.exit_code == 1 and "no task named 'nosuch' is registered" in result.output
    assert not (tmp_path / "hf" / "README.md").exists()
