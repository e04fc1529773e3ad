"""acp: generator and symbolic scorer of planning-reasoning benchmarks (ACPBench, ACPBench-Hard)."""

__version__ = "0.1.0"
