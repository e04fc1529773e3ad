"""Reading the reference benchmark's prose: ACPBench bool/mcq records carry no PDDL, only text.

One module per reference domain (``PDDL_NAME``; ``OPENING``, the first words of its contexts;
``read``) turns a reference context into the objects, the state (static facts included) and the
goal (`Reading`); `acpgen.evaluation.reference_records` maps the question's actions
and facts to ground actions and atoms. Each reader is checked on every reference gen record of
its domain, whose PDDL says what the text means (tests/nl/test_reference_readers.py).
"""
