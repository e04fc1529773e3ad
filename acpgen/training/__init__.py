"""acp as a training environment: rewards, multi-step episodes with exact feedback, record streams.

The ecosystem adapters (`acpgen.adapters.verifiers`, `.verifiers_episodes`, `.trl`, `.openenv`,
`.gym`) are thin layers over this package, which needs none of their libraries:

* :mod:`acpgen.training.rewards`: acp's exact score of one answer as a reward, with the strict
  reading, and the partial-credit signals (set precision, recall and F1; a plan's executable
  prefix and goal fraction);
* :mod:`acpgen.training.episode`: one episode on a record's state: a model proposes actions,
  acp answers with the exact consequence (the new state, or why an action cannot be applied),
  until the goal holds or the step budget is spent; the reward from goal, cost and invalid steps;
* :mod:`acpgen.training.policies`: scripted policies (an optimal plan, and one with known mistakes)
  for tests and benchmarks;
* :mod:`acpgen.training.sources`: records for training: a pre-built split in a seeded order per
  epoch, or records generated on the fly by a background pool;
* :mod:`acpgen.training.adaptive`: records whose difficulty follows the rewards the trainer reports
  (RLVE's rule), made ahead in the background;
* :mod:`acpgen.training.batch`: the rewards of a batch, on worker processes with a budget per answer.
"""
