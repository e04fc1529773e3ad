"""Record sources (acpgen.training.sources): a pre-built split in a seeded order per epoch, and records
generated on the fly, which are those `acpgen.generate` makes with the epoch's seed. (The domain
sources of generation are tested in tests/generation/test_sources.py.)"""

from __future__ import annotations

import itertools

import pytest
from conftest import FIXTURES

import acpgen
from acpgen.errors import DataError
from acpgen.training.sources import GeneratedSource, SplitSource, epoch_seed

API = FIXTURES / "pipeline" / "api.yaml"


def ids(records):
    return [r["id"] for r in records]


def test_a_split_is_the_same_records_in_a_seeded_order_per_epoch(rl_split, rl_records):
    every = [r for records in rl_records.values() for r in records]
    source = SplitSource(rl_split, seed=3)
    assert len(source) == len(every) and sorted(ids(source.epoch(0))) == sorted(ids(every))
    assert ids(source.epoch(0)) == ids(SplitSource(rl_split, seed=3).epoch(0))  # reproducible
    orders = {tuple(ids(source.epoch(e))) for e in range(6)}
    assert len(orders) > 1  # epochs differ (9 records: 6 equal orders by chance are out of the question)
    assert ids(itertools.islice(source.stream(), 2 * len(source))) == ids(source.epoch(0) + source.epoch(1))
    plans = SplitSource(rl_split, keep=lambda r: r["task"] == "plan", shuffle=False)
    assert ids(plans.epoch(5)) == ids(rl_records["plan"])
    with pytest.raises(DataError, match="no record to train on"):
        SplitSource(rl_split, keep=lambda r: False)


def test_epoch_seeds_differ_between_epochs_and_seeds():
    seeds = {epoch_seed(s, e) for s in range(5) for e in range(5)}
    assert len(seeds) == 25 and all(0 <= s < 2**31 for s in seeds)


def test_generated_epochs_are_what_generate_makes_with_the_epochs_seed(tmp_path):
    source = GeneratedSource("ferry", "app", n=1, seed=7, config=API)
    for epoch in (0, 1):
        expected = list(acpgen.generate("ferry", "app", n=1, seed=epoch_seed(7, epoch), config=API))
        assert source.epoch(epoch) == expected


@pytest.mark.slow
def test_a_background_pool_gives_the_same_records_in_the_same_order():
    in_process = GeneratedSource(["ferry"], "app", n=1, seed=7, config=API)
    with GeneratedSource(["ferry"], "app", n=1, seed=7, config=API, workers=2) as pooled:
        assert list(itertools.islice(pooled.stream(), 3)) == list(itertools.islice(in_process.stream(), 3))
