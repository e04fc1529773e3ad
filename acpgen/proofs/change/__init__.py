"""Reasoning about actions and change (ActionReasoningBench-style questions): action sequences from a
state, fluent types, two independent executions of a sequence, and the reader of free answers."""
