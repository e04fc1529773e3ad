"""Proofs: the oracle, problem equivalence, state features, claims, and the semantics of action sequences."""
