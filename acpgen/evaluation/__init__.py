"""Evaluation: reading records, scoring answers, validating stored answers, reports."""
