# acp: run `make help` for the targets.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEV    := tests/fixtures/acpbench-dev
OUT    := out
CONFIG ?= acpgen/data/pipeline.yaml
JOBS   ?= 2

.PHONY: help setup test test-wheel test-determinism test-slow dataset dataset-ci lm-eval-tasks score-dev bench bench-score bench-score-heldout bench-scaling bench-generate \
	bench-lengths bench-profile bench-equiv bench-equiv-planetarium bench-scale clean

help:  ## list the targets
	@grep -E '^[a-zA-Z_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# The extra rl (verifiers, TRL, OpenEnv) needs PyTorch through TRL: a CPU build is installed first, since pip would
# otherwise take PyPI's CUDA build (gigabytes). torch 2.13.0's CPU wheel lies on the project's machines; elsewhere
# give PyTorch's CPU index: make setup TORCH_INDEX="--index-url https://download.pytorch.org/whl/cpu"
TORCH       ?= torch==2.13.0
TORCH_INDEX ?=

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet '$(TORCH)' $(TORCH_INDEX)
	$(BIN)/pip install --quiet -e '.[test,inspect,hf,report,gym,cluster,plan,rl]'
	touch $(STAMP)

setup: $(STAMP)  ## create .venv and install acp with its planners, test tools and extras (a CPU PyTorch for the extra rl)

test: $(STAMP)  ## run the default (fast) test suite
	$(BIN)/python -m pytest -q

test-wheel: $(STAMP)  ## build the wheel and sdist, install into a fresh venv, run acp from outside the checkout
	rm -rf build  # setuptools reuses build/lib: a file deleted from the package would stay in the wheel
	$(BIN)/python -m pytest -q -m wheel tests/test_wheel.py

test-determinism: $(STAMP)  ## the same seed gives the same bytes with the time limits x0.25 and x2, on 1 and 2 processes and on Dask (CI)
	$(BIN)/python -m pytest -q -m slow tests/generation/test_determinism.py

test-slow: $(STAMP)  ## run only the slow tests
	$(BIN)/python -m pytest -q -m slow

DOCS_STAMP := $(VENV)/.docs-installed
$(DOCS_STAMP): $(STAMP)
	$(BIN)/pip install --quiet 'mkdocs>=1.6' 'mkdocs-material>=9.5'
	touch $(DOCS_STAMP)

.PHONY: docs
docs: $(DOCS_STAMP)  ## the documentation site from docs/ into out/site (strict: a broken link or unlisted page fails)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir $(OUT)/site

.PHONY: lint
lint: $(STAMP)  ## ruff (style, complexity), mypy and the import contract (import-linter: layers, no cycles)
	$(BIN)/ruff check acpgen tests benchmarks environments
	$(BIN)/ruff format --check acpgen tests benchmarks environments
	$(BIN)/mypy
	$(BIN)/lint-imports

dataset: $(STAMP)  ## build the benchmark from $(CONFIG) into dataset/ (all stages, splits, validate, self-score)
	$(BIN)/acp dataset --config $(CONFIG) -j $(JOBS)

dataset-ci: $(STAMP)  ## the reduced dataset CI builds (2 domains x all 18 tasks x 2 test questions)
	$(BIN)/acp dataset --config tests/fixtures/pipeline/ci.yaml -j $(JOBS)

lm-eval-tasks: $(STAMP)  ## lm-evaluation-harness task files for dataset/ (into dataset/lm_eval)
	$(BIN)/acp export lm-eval dataset

score-dev: $(STAMP)  ## score the reference dev records' own answers with acp score (a self-check)
	mkdir -p $(OUT)
	$(BIN)/acp reference-answers $(DEV) -o $(OUT)/dev-reference-predictions.jsonl
	$(BIN)/acp score $(OUT)/dev-reference-predictions.jsonl --dataset $(DEV) -o $(OUT)/dev-scores.jsonl

bench: bench-score bench-scaling bench-generate bench-lengths bench-read bench-gen bench-plan bench-rl  ## all benchmarks (not bench-profile)

# lm-eval's ACPBench-Hard scorer imports the `pddl` package (its acpbench extra pins 0.4.2); acp does not need it.
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(BIN)/pip install --quiet 'pddl==0.4.2'
	touch $(BENCH_STAMP)

bench-score: $(BENCH_STAMP)  ## acp score --recheck against lm-eval's ACPBench-Hard scorer on the same dev answers
	$(BIN)/python benchmarks/bench_score.py $(DEV)

bench-score-heldout: $(BENCH_STAMP)  ## acp score --recheck against lm-eval's scorer on answers not stored: two per reference test record (ACPBENCH=a checkout of IBM/ACPBench)
	@test -n "$(ACPBENCH)" || { echo "bench-score-heldout: set ACPBENCH=path, a checkout of github.com/IBM/ACPBench"; exit 2; }
	$(BIN)/python benchmarks/bench_score.py --heldout $(ACPBENCH) --jobs 2

bench-scaling: $(STAMP)  ## seconds per problem (plans) and per question (qa) across the configured sizes
	$(BIN)/python benchmarks/bench_scaling.py

bench-scale: $(STAMP)  ## `acp dataset` on 1 and 2 Dask workers, makespan simulated to 128 (CONFIG=benchmarks/scale.yaml: 10 min; default config: hours)
	$(BIN)/python benchmarks/bench_scale.py --config $(CONFIG) --scratch $(OUT)/bench-scale $(ARGS)

bench-profile: $(STAMP)  ## cProfile of every `acp dataset` stage on 4 domains (about an hour; out/profile)
	$(BIN)/python benchmarks/profile_dataset.py --out $(OUT)/profile

bench-generate: $(STAMP)  ## problems, plans and states per second for each configured domain
	$(BIN)/python benchmarks/bench_generate.py

bench-equiv: $(STAMP)  ## ms per `acp equivalent` check by problem size (dataset/ t2p records if built, else generated problems)
	if [ -d dataset/t2p ]; then $(BIN)/python benchmarks/bench_equiv.py --dataset dataset/t2p; \
	else $(BIN)/python benchmarks/bench_equiv.py; fi

# Side by side with Planetarium's own checker: PLANETARIUM is a checkout of BatsResearch/planetarium and
# PLANETARIUM_PYTHON the interpreter of a separate venv where it is installed with its fork of `pddl`
# (never acp's .venv); see benchmarks/planetarium_side.py.
bench-equiv-planetarium: $(STAMP)  ## acp's equivalence checker and Planetarium's on the same pairs (PLANETARIUM=checkout PLANETARIUM_PYTHON=venv/bin/python)
	$(BIN)/python benchmarks/bench_equiv.py --planetarium $(PLANETARIUM) --planetarium-python $(PLANETARIUM_PYTHON)

bench-lengths: $(STAMP)  ## acp's context lengths against the reference contexts, on the same problems
	$(BIN)/python benchmarks/context_lengths.py $(DEV)

.PHONY: report-demo
report-demo: $(STAMP)  ## acp report of two made-up models (dev answers, a perturbed copy); headless-Chromium screenshot
	command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium)
	$(BIN)/python benchmarks/report_demo.py $(DEV) --out $(OUT)/report-demo -j $(JOBS)

clean:  ## remove build artefacts and outputs (keeps .venv)
	rm -rf $(OUT) .pytest_cache build *.egg-info

.PHONY: bench-reward
bench-reward: $(STAMP)  ## latency of acpgen.score per task on warm generated records (median, p99; target 5 ms)
	$(BIN)/python benchmarks/bench_reward.py --cache $(OUT)/bench-reward

.PHONY: bench-batch
bench-batch: $(STAMP)  ## answers/s of acpgen.score_many on 1 and 2 processes, 1,024-answer batches as a trainer scores them (target: 2 at >= 1.8x)
	$(BIN)/python benchmarks/bench_batch.py --cache $(OUT)/bench-batch $(ARGS)

.PHONY: bench-gen
bench-gen: $(STAMP)  ## records/s from scratch per level, domain and task (ARGS="--split 100000": a training split, its rate and memory; "--unsolvable": the plan tasks' unsolvable records beside their solvable ones; REASONING_CORE_PYTHON=venv/bin/python: Reasoning Core's planning generator in the same run)
	$(BIN)/python benchmarks/bench_gen.py --out $(OUT)/bench-gen --cache $(OUT)/bench-gen/cache \
		$(if $(REASONING_CORE_PYTHON),--reasoning-core-python $(REASONING_CORE_PYTHON)) $(ARGS)

.PHONY: bench-read
bench-read: $(STAMP)  ## ms per acpgen.score on long, repetitive and adversarial answers up to 200,000 characters (target 50 ms)
	$(BIN)/python benchmarks/bench_read.py --cache $(OUT)/bench-read $(ARGS)

.PHONY: bench-read-prose
bench-read-prose: $(STAMP)  ## recall and false positives of acpgen.score on answers written in models' styles (correct ones, provably wrong twins), per task and style
	$(BIN)/python benchmarks/bench_read_prose.py --cache $(OUT)/bench-read-prose $(ARGS)

.PHONY: bench-rl
bench-rl: $(STAMP)  ## reward latency per training adapter (median, p99) and episodes/s of the multi-step env (scripted policies)
	$(BIN)/python benchmarks/bench_rl.py --cache $(OUT)/bench-rl $(ARGS)

.PHONY: bench-rl-sources
bench-rl-sources: $(STAMP)  ## TRL's episode_dataset and reasoning-gym's datasets from a generate run's records: rows/s before and after reuse
	$(BIN)/python benchmarks/bench_rl_sources.py --cache $(OUT)/bench-rl-sources $(ARGS)

.PHONY: bench-sessions
bench-sessions: $(STAMP)  ## OpenEnv sessions at once on the episode server: completed, refusals, step latency p50/p99 (ARGS="--sessions 256")
	$(BIN)/python benchmarks/bench_sessions.py --cache $(OUT)/bench-sessions $(ARGS)

.PHONY: bench-levels
bench-levels: $(STAMP)  ## per domain and level 1-5: question features and generation rate (3 domains; ARGS=--all)
	$(BIN)/python benchmarks/bench_levels.py --out $(OUT)/bench-levels $(ARGS)

.PHONY: bench-plan
bench-plan: $(STAMP)  ## plan, optplan by domain and level: optimal costs, perturbed plans scored, ms/score (ARGS=--all)
	$(BIN)/python benchmarks/bench_plan.py --out $(OUT)/bench-plan $(ARGS)

.PHONY: bench-planbench
bench-planbench: $(STAMP)  ## acp score against PlanBench's own verdicts on its published results (PLANBENCH=a checkout of karthikv792/LLMs-Planning; ARGS)
	@test -n "$(PLANBENCH)" || { echo "bench-planbench: set PLANBENCH=path, a checkout of github.com/karthikv792/LLMs-Planning"; exit 2; }
	$(BIN)/python benchmarks/bench_planbench.py $(PLANBENCH) $(ARGS)
