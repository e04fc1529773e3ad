"""Grounding: a :class:`LiftedTask` becomes a :class:`GroundTask` over atom bit masks.

The task's action list holds the ground actions that are delete-relaxed reachable from the
initial state (every action that can ever be applied is among them; a task served by another state's grounding,
``from_strings(share=True)``, holds that state's, a superset). Any other type-correct
ground action or atom can still be named: :meth:`GroundTask.action` and
:meth:`GroundTask.atom_id` ground it on demand, so answers are matched against all type-correct
groundings, not only the relaxed-reachable ones.

A task with derived predicates (axioms) grounds its rules alongside the actions (a rule is grounded
when its body is reachable in the delete relaxation) and keeps every state closed under them: the
initial state and each successor carry exactly the derived atoms the rules give (see
:mod:`acpgen.pddl.axioms`). Tasks without axioms are grounded exactly as before.

The records of one problem ask about many of its states, each a problem of its own with the same domain,
objects and static facts. The joins of a grounding are kept per process (:class:`_Joins`), and a later
problem of the same dynamics whose initial facts an earlier grounding reached is grounded by replaying
them (:class:`_Replay`): the same actions, rules and atom numbering as joins from scratch, at a fraction
of their cost. Its ground actions are made from templates kept per dynamics too (:class:`_Template`), each
grounding numbering their atoms itself. Scoring goes further (``from_strings(share=True)``): a state whose facts an
earlier grounding of its problem reached is served by that grounding itself, numbering and all.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import operator
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from pathlib import Path

from acpgen.errors import PddlError
from acpgen.pddl.axioms import AxiomEvaluator
from acpgen.pddl.model import (
    AtomTable,
    Axiom,
    DerivingAction,
    GroundAction,
    LiftedTask,
    Literal,
    Schema,
    bits,
    canonical,
    split_canonical,
)
from acpgen.pddl.tarski_io import read_files, read_strings

_Pick = Callable[[tuple[str, ...]], tuple[str, ...]]


@dataclass
class _Body:
    """A formula in disjunctive normal form compiled against a list of parameters: each literal is
    (kind: 0 equality, 1 static, 2 fluent; predicate; pick; positive), where ``pick`` takes the values
    of the parameters followed by ``constants`` (the constants the literals name) and returns the
    literal's arguments."""

    params: tuple[str, ...]
    constants: tuple[str, ...] = ()
    disjuncts: list[tuple[tuple[int, str, _Pick, bool], ...]] = field(default_factory=list)

    def picker(self, lit: Literal) -> _Pick:
        where = [
            self.params.index(a) if a in self.params else len(self.params) + self.constants.index(a) for a in lit.args
        ]
        if not where:
            return lambda values: ()
        if len(where) == 1:
            only = where[0]
            return lambda values: (values[only],)
        return operator.itemgetter(*where)


class _FactIndex:
    """Ground facts by predicate and by (predicate, argument position, value), for joins."""

    def __init__(self) -> None:
        self.by_pred: dict[str, set[tuple[str, ...]]] = {}
        self.by_arg: dict[tuple[str, int, str], set[tuple[str, ...]]] = {}
        self.added: dict[str, list[tuple[str, ...]]] = {}  # the facts of each predicate in the order added

    def add(self, pred: str, args: tuple[str, ...]) -> bool:
        bucket = self.by_pred.setdefault(pred, set())
        if args in bucket:
            return False
        bucket.add(args)
        self.added.setdefault(pred, []).append(args)
        for i, value in enumerate(args):
            self.by_arg.setdefault((pred, i, value), set()).add(args)
        return True

    def size(self, pred: str) -> int:
        return len(self.by_pred.get(pred, ()))

    def since(self, pred: str, size: int) -> list[tuple[str, ...]]:
        """The facts of ``pred`` added after it had ``size`` of them."""
        return self.added.get(pred, [])[size:]

    def candidates(self, pred: str, known: list[tuple[int, str]]) -> list[tuple[str, ...]]:
        """Facts of ``pred`` agreeing with the smallest index bucket of the known arguments."""
        if not known:
            return list(self.by_pred.get(pred, ()))
        buckets = [self.by_arg.get((pred, i, v), ()) for i, v in known]
        return list(min(buckets, key=len))


_Fact = tuple[str, tuple[str, ...]]
_JoinKey = tuple[str, str, int]  # ("action", schema, disjunct) or ("rule", axiom position, disjunct)


@dataclass(frozen=True, slots=True)
class _Template:
    """A ground action as its facts, not yet numbered: ``facts`` in the order instantiating the action numbers them
    (its precondition's literals, then its add and delete effects), its disjuncts (:meth:`GroundTask._body_facts`)
    and effects as positions in ``facts``. It depends on the dynamics alone (domain, objects, static facts), so the
    groundings of a problem's states make each action from its template with their own numbering
    (:func:`_template_store`)."""

    name: str
    facts: tuple[_Fact, ...]
    disjuncts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    add: tuple[int, ...]
    delete: tuple[int, ...]


def _mask(found: list[int], positions: tuple[int, ...]) -> int:
    """The union of the bits at ``positions`` of ``found``."""
    mask = 0
    for i in positions:
        mask |= found[i]
    return mask


def _masks(
    found: list[int], disjuncts: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
) -> tuple[tuple[int, int], ...]:
    """Disjuncts given as positions in ``found`` (positive, negative) as bit masks."""
    return tuple((_mask(found, pos), _mask(found, neg)) for pos, neg in disjuncts)


#: action templates by dynamics key, then by (schema, arguments) (see :class:`_Template`); per process
_TEMPLATES: OrderedDict[str, dict[tuple[str, tuple[str, ...]], _Template]] = OrderedDict()
_TEMPLATES_SIZE = 32
_TEMPLATES_MAX = 400_000  # templates kept in all (some 300 bytes each); a store that holds as many takes no more


def _template_store(key: str) -> dict[tuple[str, tuple[str, ...]], _Template]:
    """The action templates kept for the dynamics ``key`` (a new, empty store for a new one, the oldest stores
    forgotten beyond :data:`_TEMPLATES_SIZE` stores or :data:`_TEMPLATES_MAX` templates)."""
    with _RECENT_LOCK:
        store = _TEMPLATES.get(key)
        if store is None:
            store = _TEMPLATES[key] = {}
            while len(_TEMPLATES) > 1 and (
                len(_TEMPLATES) > _TEMPLATES_SIZE or sum(map(len, _TEMPLATES.values())) > _TEMPLATES_MAX
            ):
                _TEMPLATES.popitem(last=False)
        else:
            _TEMPLATES.move_to_end(key)
        return store


class _Joins:
    """What the joins of one grounding found, for groundings of the same dynamics (domain, objects, static facts:
    :attr:`LiftedTask.dynamics_key`) from other initial states: every binding each join of a precondition
    disjunct or rule body returned, with the facts it needs, and the facts the relaxed exploration reached.

    A task whose initial facts are all among those reached reaches a subset of them, so each of its joins finds
    a subset of the bindings found here: :class:`_Replay` hands a join the bindings whose facts have all been
    reached since the last, sorted as the join sorts them, and the grounding is the one a join from scratch
    gives (the same actions and rules, in the same order, with the same atom numbering) at a fraction of the
    cost. The records of one problem ask about many of its states; the joins were most of their grounding."""

    def __init__(
        self,
        found: dict[_JoinKey, set[tuple[str, ...]]],
        needs_of: Callable[[_JoinKey, tuple[str, ...]], set[_Fact]],
        reached: frozenset[_Fact],
    ) -> None:
        self.reached = reached
        self.keys: list[_JoinKey] = []
        self.args: list[tuple[str, ...]] = []
        self.needs: list[int] = []
        self.waiting: dict[_Fact, list[int]] = {}
        for key in sorted(found):
            for args in sorted(found[key]):
                index = len(self.args)
                self.keys.append(key)
                self.args.append(args)
                needs = needs_of(key, args)
                self.needs.append(len(needs))
                for fact in needs:
                    self.waiting.setdefault(fact, []).append(index)

    def __len__(self) -> int:
        return len(self.args)


class _Replay:
    """The joins of one grounding answered from :class:`_Joins`: :meth:`reach` is told each new fact."""

    def __init__(self, joins: _Joins) -> None:
        self.joins = joins
        self.missing = list(joins.needs)
        self.ready: dict[_JoinKey, list[int]] = {}
        for index, count in enumerate(self.missing):
            if not count:
                self.ready.setdefault(joins.keys[index], []).append(index)

    def reach(self, fact: _Fact) -> None:
        missing, keys = self.missing, self.joins.keys
        for index in self.joins.waiting.get(fact, ()):
            missing[index] -= 1
            if not missing[index]:
                self.ready.setdefault(keys[index], []).append(index)

    def take(self, key: _JoinKey) -> list[tuple[str, ...]]:
        """The bindings of a join that became possible since it last ran, sorted (indices follow the order)."""
        args = self.joins.args
        return [args[i] for i in sorted(self.ready.pop(key, ()))]


class _Joiner:
    """How the joins of one grounding are answered: replayed from the joins of an earlier grounding of the same
    dynamics that reached every initial fact (:class:`_Joins`), else run, and what they find collected."""

    def __init__(self, key: str, init_facts: frozenset[_Fact]) -> None:
        self.key = key
        with _RECENT_LOCK:
            kept = list(_JOINS.get(key, ()))
            if kept:
                _JOINS.move_to_end(key)
        known = next((joins for joins in kept if init_facts <= joins.reached), None)
        self.replay = None if known is None else _Replay(known)
        self.found_by: dict[_JoinKey, set[tuple[str, ...]]] = {}

    def add(self, facts: _FactIndex, pred: str, args: tuple[str, ...]) -> bool:
        """Add a fact reached (True when it is new)."""
        new = facts.add(pred, args)
        if new and self.replay is not None:
            self.replay.reach((pred, args))
        return new

    def join(self, key: _JoinKey, run: Callable[[], list[tuple[str, ...]]]) -> list[tuple[str, ...]]:
        """The bindings the join ``key`` finds now (``run``: the join itself)."""
        if self.replay is not None:
            return self.replay.take(key)
        result = run()
        self.found_by.setdefault(key, set()).update(result)
        return result


#: the joins of recent groundings by dynamics key (see :class:`_Joins`); per process
_JOINS: OrderedDict[str, list[_Joins]] = OrderedDict()
_JOINS_SIZE = 32
_JOINS_PER_KEY = 3  # states of one problem need not reach each other's facts (a painted floor tile stays painted)
_JOINS_MAX_BINDINGS = 400_000  # in all (some 200 bytes each)
_JOINS_BINDINGS = 0


#: groundings of recently seen PDDL texts, kept pristine (only copies are handed out); per process
_RECENT: OrderedDict[tuple[str, str], GroundTask] = OrderedDict()
_RECENT_LOCK = threading.Lock()
_RECENT_SIZE = 256  # the states of a problem are asked about by many tasks and formats
_RECENT_MAX_ACTIONS = 150_000  # and at most this many ground actions (about 1.4 kB each: some 200 MB)
_RECENT_ACTIONS = 0
#: the texts of the groundings (in :data:`_RECENT`, while they stay there) that serve other initial states of their
#: dynamics (``from_strings(share=True)``), by dynamics key, newest first
_BASES: OrderedDict[str, list[tuple[str, str]]] = OrderedDict()
_BASES_SIZE = 32
_BASES_PER_KEY = 3  # states of one problem need not reach each other's facts (a painted floor tile stays painted)


@dataclass
class _Vocabulary:
    """What a task's objects and predicates make of atom texts, learnt on use: questions ask about tens of
    thousands of atoms, each several times, in many copies of one grounding."""

    valid: set[str] = field(default_factory=set)  # the texts :meth:`GroundTask.is_valid_atom` accepted
    fluent: tuple[str, ...] | None = None  # :meth:`GroundTask.fluent_atoms`


class GroundTask:
    """A grounded planning task; states are ints whose set bits are the true atoms."""

    def __init__(self, lifted: LiftedTask):
        self.lifted = lifted
        self.atoms = AtomTable()
        #: what is known of the atom texts; shared by the copies, whose objects and predicates are these
        self._vocabulary = _Vocabulary()
        self.static_predicates = lifted.static_predicates
        self._init_facts = lifted.init
        self._by_type = {t: lifted.objects_of(t) for t in lifted.supertypes}
        self._by_type.setdefault("object", tuple(sorted(lifted.objects)))
        for pred, args in sorted(lifted.init):
            self.atoms.id(canonical(pred, args))
        self.init = self.atoms.mask(canonical(p, a) for p, a in lifted.init)
        self.static_mask = self.atoms.mask(canonical(p, a) for p, a in lifted.init if p in self.static_predicates)
        #: the goal's literals of static predicates (and equalities) the initial state makes false: none when the
        #: goal is satisfiable; the masks leave static literals out
        self.goal_pos, self.goal_neg, self.goal_contradicted = self._goal(lifted.goal)
        self._actions: dict[str, GroundAction] = {}
        self._compiled_schemas: dict[str, tuple[_Body, list[tuple[str, _Pick]], list[tuple[str, _Pick]]]] = {}
        self.axioms: AxiomEvaluator | None = None  # the ground rules; None without derived predicates
        #: what explorations of this grounding found: state -> (states explored from it, whether that was all of
        #: them); shared by the copies (:meth:`from_strings`), whose states are numbered alike
        self.explored_sizes: dict[int, tuple[int, bool]] = {}
        self.derived_mask = 0  # bits of the derived atoms
        #: the ground rules by (rule, arguments), sorted: with :attr:`action_names`, what a state's successors
        #: depend on besides the problem's objects and static facts
        self.rule_names: tuple[tuple[int, tuple[str, ...]], ...] = ()
        self.actions: list[GroundAction] = self._relaxed_grounding()
        if self.axioms is not None:
            self.init = self.axioms.close(self.init)

    # ----- construction -------------------------------------------------------------------
    @classmethod
    def from_strings(
        cls, domain_text: str, problem_text: str, source: str = "PDDL text", share: bool = False
    ) -> GroundTask:
        """The task of the PDDL texts. The same texts grounded again in this process (a question's
        generation and its re-proof, the tasks asking about one state) are copied from the grounding
        of the first time: the copy is the task a fresh grounding gives, with its own atom numbering.

        ``share``: other texts of the same dynamics (domain, objects, static facts: the states of one problem) are
        served by an earlier grounding whose relaxation reached every initial fact of these
        (:meth:`_with_state`): the same states and successors, but the earlier grounding's atom numbering and ground
        actions, a superset of this task's (the others are applicable in no state reachable from its initial
        state). What depends on the states alone (a verdict) is unchanged; what follows the order of atoms or
        actions (a generated question's choices) can differ."""
        texts = (domain_text, problem_text)
        if share:
            lifted = read_strings(domain_text, problem_text, source)
            with _RECENT_LOCK:  # texts grounded before are copied (their own numbering: the same either way)
                kept = () if texts in _RECENT else _BASES.get(lifted.dynamics_key, ())
                bases = (_RECENT.get(key) for key in kept)
                base = next((t for t in bases if t is not None and lifted.init <= t.reached_facts), None)
            if base is not None:
                return base._with_state(lifted)
        pristine = cls._pristine(domain_text, problem_text, source)
        if share:
            with _RECENT_LOCK:
                key = pristine.lifted.dynamics_key
                kept = [k for k in _BASES.pop(key, ()) if k != texts and k in _RECENT]
                _BASES[key] = [texts, *kept][:_BASES_PER_KEY]
                while len(_BASES) > _BASES_SIZE:
                    _BASES.popitem(last=False)
        return pristine._fresh_copy()

    @classmethod
    def _pristine(cls, domain_text: str, problem_text: str, source: str) -> GroundTask:
        """The grounding of the texts kept for copies (:data:`_RECENT`), made on the first call."""
        key = (domain_text, problem_text)
        with _RECENT_LOCK:
            pristine = _RECENT.get(key)
            if pristine is not None:
                _RECENT.move_to_end(key)
        if pristine is None:
            pristine = cls(read_strings(domain_text, problem_text, source))
            with _RECENT_LOCK:
                _RECENT[key] = pristine
                global _RECENT_ACTIONS
                _RECENT_ACTIONS += len(pristine.actions)
                while len(_RECENT) > 1 and (len(_RECENT) > _RECENT_SIZE or _RECENT_ACTIONS > _RECENT_MAX_ACTIONS):
                    _RECENT_ACTIONS -= len(_RECENT.popitem(last=False)[1].actions)
        return pristine

    def _fresh_copy(self) -> GroundTask:
        """A copy that shares the immutable grounding (actions, rules, lifted task) and owns what grows
        on use: the atom table and the on-demand actions, so that using it never changes this task."""
        _ = self._triggers  # successor buckets depend on the actions only: built once, shared by the copies
        _ = self.action_names
        twin = copy.copy(self)
        twin.atoms = AtomTable(list(self.atoms.names), dict(self.atoms.index))
        twin._actions = dict(self._actions)
        return twin

    def _with_state(self, lifted: LiftedTask) -> GroundTask:
        """A copy for ``lifted``, a task of the same dynamics whose initial facts this grounding's relaxation
        reached: its initial state and goal over this grounding's atoms and actions (see :meth:`from_strings`)."""
        twin = self._fresh_copy()
        twin.lifted = lifted
        twin._init_facts = lifted.init
        twin.init = twin.close(twin.atoms.mask(canonical(p, a) for p, a in lifted.init))
        twin.goal_pos, twin.goal_neg, twin.goal_contradicted = twin._goal(lifted.goal)
        return twin

    def with_goal(self, goal: tuple[Literal, ...]) -> GroundTask:
        """This task with another goal over its objects (ground literals, as in :class:`LiftedTask`). The
        grounding depends on the objects and the initial state alone, so it is shared, not repeated;
        atoms of the new goal that the task has not numbered yet get the next bit positions."""
        twin = self._fresh_copy()
        twin.lifted = dataclasses.replace(self.lifted, goal=goal)
        twin.goal_pos, twin.goal_neg, twin.goal_contradicted = twin._goal(goal)
        return twin

    @classmethod
    def from_files(cls, domain: Path, problem: Path) -> GroundTask:
        return cls(read_files(domain, problem))

    @property
    def goal_satisfiable(self) -> bool:
        """Whether no goal literal contradicts a static fact (or an equality) of the initial state."""
        return not self.goal_contradicted

    def _goal(self, goal: tuple[Literal, ...]) -> tuple[int, int, tuple[Literal, ...]]:
        pos = neg = 0
        contradicted: list[Literal] = []
        for lit in goal:
            if lit.is_equality:
                if (lit.args[0] == lit.args[1]) != lit.positive:
                    contradicted.append(lit)
                continue
            bit = 1 << self.atoms.id(canonical(lit.predicate, lit.args))
            if lit.predicate in self.static_predicates:
                if bool(self.init & bit) != lit.positive:
                    contradicted.append(lit)
            elif lit.positive:
                pos |= bit
            else:
                neg |= bit
        return pos, neg, tuple(contradicted)

    def _relaxed_grounding(self) -> list[GroundAction]:
        """Ground actions reachable in the delete relaxation from the initial state. The joins are answered from
        an earlier grounding of the same dynamics that reached every initial fact (:class:`_Joins`), else run and
        kept for the next groundings."""
        facts = _FactIndex()
        joiner = _Joiner(self.lifted.dynamics_key, self._init_facts)
        for pred, args in sorted(self._init_facts):
            joiner.add(facts, pred, args)
        found: dict[str, GroundAction] = {}
        bits_of: dict[tuple[str, tuple[str, ...]], int] = {}  # (predicate, arguments) -> bit, for this atom table
        templates = _template_store(self.lifted.dynamics_key)
        rule_bodies = [self._compiled(axiom.params, axiom.body) for axiom in self.lifted.axioms]
        rules: dict[tuple[int, tuple[str, ...]], list[tuple[int, int, int]]] = {}
        joined: dict[tuple[str, int], tuple[int, ...]] = {}  # (schema, disjunct) -> fact counts at its last join
        tried: set[tuple[str, tuple[str, ...]]] = set()  # (schema, arguments) instantiated already
        changed = True
        while changed:
            changed = False
            for k, (axiom, body) in enumerate(zip(self.lifted.axioms, rule_bodies)):
                for pred, args in self._ground_axiom(k, axiom, body, facts, rules, bits_of, joiner):
                    changed |= joiner.add(facts, pred, args)
            for schema in self.lifted.schemas.values():
                for c, conjunction in enumerate(schema.precondition):
                    # The join depends only on the facts of its positive predicates: with none new
                    # since its last run it finds nothing new, so it is skipped.
                    sizes = tuple(facts.size(lit.predicate) for lit in conjunction if lit.positive)
                    before = joined.get((schema.name, c))
                    if before == sizes:
                        continue
                    joined[(schema.name, c)] = sizes
                    new_facts: list[tuple[str, tuple[str, ...]]] = []
                    for args in joiner.join(
                        ("action", schema.name, c), partial(self._join, schema, conjunction, facts, before)
                    ):
                        if (schema.name, args) in tried:
                            continue
                        tried.add((schema.name, args))
                        action, added = self._instantiate(schema, args, bits_of, templates)
                        if not action.precondition:
                            continue
                        found[action.name] = action
                        new_facts += added
                    for pred, args in new_facts:
                        changed |= joiner.add(facts, pred, args)
        if self.lifted.axioms:
            self._set_axioms(rules)
        #: the facts the relaxation reaches from the initial state: a task of the same dynamics whose initial
        #: facts are among them is served by this grounding (:meth:`from_strings` with ``share``)
        self.reached_facts = frozenset((pred, args) for pred, members in facts.by_pred.items() for args in members)
        if joiner.replay is None:
            self._keep_joins(joiner.key, joiner.found_by)
        self._actions.update(found)
        return [found[name] for name in sorted(found)]

    def _join(
        self,
        schema: Schema | Axiom,
        conjunction: tuple[Literal, ...],
        facts: _FactIndex,
        before: tuple[int, ...] | None,
    ) -> list[tuple[str, ...]]:
        """The argument tuples of the schema's bindings that satisfy the conjunction's positive atoms,
        sorted (the join walks hash sets, and instantiating assigns atom bit positions, which must not
        depend on the process's hash seed). ``before``: the fact counts of those atoms' predicates at
        an earlier join of the same conjunction; then only the bindings that use a fact added since are
        looked for (each atom in turn ranging over its new facts alone), with perhaps some found before:
        the earlier ones have all been tried, so what is instantiated is the same."""
        params = [v for v, _ in schema.params]
        positive = [lit for lit in conjunction if lit.positive]
        news = [
            [] if before is None or lit.is_equality else facts.since(lit.predicate, before[i])
            for i, lit in enumerate(positive)
        ]
        if before is None or any(2 * len(new) > facts.size(lit.predicate) for lit, new in zip(positive, news)):
            # the whole join (it has no duplicates); also when half an atom's facts are new
            return sorted(tuple(b[v] for v in params) for b in self._bindings(schema, conjunction, facts))
        found: set[tuple[str, ...]] = set()
        for lit, new in zip(positive, news):
            if new:
                seeded = self._bindings(schema, conjunction, facts, (lit, new))
                found.update(tuple(b[v] for v in params) for b in seeded)
        return sorted(found)

    def _ground_axiom(
        self,
        k: int,
        axiom: Axiom,
        body: _Body,
        facts: _FactIndex,
        rules: dict[tuple[int, tuple[str, ...]], list[tuple[int, int, int]]],
        bits_of: dict[tuple[str, tuple[str, ...]], int],
        joiner: _Joiner,
    ) -> list[tuple[str, tuple[str, ...]]]:
        """Ground rules of ``axiom`` (its body compiled: ``body``) whose body is relaxed-reachable from
        ``facts``; returns their head facts. ``joiner``: how a join is answered (:class:`_Joiner`)."""
        heads = []
        for c, conjunction in enumerate(axiom.body):
            for args in joiner.join(("rule", str(k), c), partial(self._join, axiom, conjunction, facts, None)):
                key = (k, args)
                if key in rules:
                    continue
                binding = dict(zip((v for v, _ in axiom.params), args))
                head_args = tuple(binding[v] for v in axiom.head)
                ground = self._ground_body(body, args + body.constants, bits_of)
                rules[key] = [
                    (1 << self.atoms.id(canonical(axiom.predicate, head_args)), pos, neg) for pos, neg in ground
                ]
                if ground:
                    heads.append((axiom.predicate, head_args))
        return heads

    def _set_axioms(self, rules: dict[tuple[int, tuple[str, ...]], list[tuple[int, int, int]]]) -> None:
        """The evaluator of the ground rules, by stratum (rules in grounding order within a stratum)."""
        stratum_of = {p: i for i, preds in enumerate(self.lifted.strata) for p in preds}
        by_stratum: list[list[tuple[int, int, int]]] = [[] for _ in self.lifted.strata]
        for (k, _), ground in rules.items():
            by_stratum[stratum_of[self.lifted.axioms[k].predicate]].extend(dict.fromkeys(ground))
        self.rule_names = tuple(sorted(key for key, ground in rules.items() if ground))
        derived = self.lifted.derived_predicates
        self.derived_mask = self.atoms.mask(name for name in self.atoms.names if split_canonical(name)[0] in derived)
        self.axioms = AxiomEvaluator(by_stratum, self.derived_mask)

    def _keep_joins(self, key: str, found_by: dict[_JoinKey, set[tuple[str, ...]]]) -> None:
        """Keep what this grounding's joins found for the next groundings of its dynamics (:class:`_Joins`)."""
        if sum(map(len, found_by.values())) > _JOINS_MAX_BINDINGS:
            return
        bodies = [
            ("action", schema.name, schema.params, schema.precondition) for schema in self.lifted.schemas.values()
        ]
        bodies += [("rule", str(k), axiom.params, axiom.body) for k, axiom in enumerate(self.lifted.axioms)]
        positive: dict[_JoinKey, tuple[tuple[str, ...], list[Literal]]] = {
            (kind, name, c): (tuple(v for v, _ in params), [x for x in conjunction if x.positive])
            for kind, name, params, dnf in bodies
            for c, conjunction in enumerate(dnf)
        }
        for params, literals in positive.values():
            if any(a.startswith("?") and a not in params for lit in literals for a in lit.args):
                return  # a variable that is no parameter: the facts a binding needs are not known

        def needs_of(join_key: _JoinKey, args: tuple[str, ...]) -> set[_Fact]:
            params, literals = positive[join_key]
            value = dict(zip(params, args))
            return {
                (lit.predicate, tuple(value.get(a, a) for a in lit.args)) for lit in literals if not lit.is_equality
            }

        joins = _Joins(found_by, needs_of, self.reached_facts)
        global _JOINS_BINDINGS
        with _RECENT_LOCK:
            kept = [joins, *_JOINS.pop(key, ())]
            for dropped in kept[_JOINS_PER_KEY:]:
                _JOINS_BINDINGS -= len(dropped)
            _JOINS[key] = kept[:_JOINS_PER_KEY]
            _JOINS_BINDINGS += len(joins)
            while len(_JOINS) > 1 and (len(_JOINS) > _JOINS_SIZE or _JOINS_BINDINGS > _JOINS_MAX_BINDINGS):
                _JOINS_BINDINGS -= sum(map(len, _JOINS.popitem(last=False)[1]))

    def close(self, state: int) -> int:
        """``state`` with its derived atoms evaluated by the rules (the state itself without axioms)."""
        return state if self.axioms is None else self.axioms.close(state)

    def _bindings(
        self,
        schema: Schema | Axiom,
        conjunction: Iterable[Literal],
        facts: _FactIndex,
        seed: tuple[Literal, list[tuple[str, ...]]] | None = None,
    ) -> Iterator[dict[str, str]]:
        """Parameter bindings satisfying the positive atoms of a conjunction against ``facts``.

        A join that always extends with the literal having the most bound arguments (then a static
        one, then the one with the fewest facts), looking up candidate facts through the most selective
        bound argument. Which arguments are bound depends only on the literals joined before, so the
        order is planned once per join, not at every step. ``seed``: one positive literal of the
        conjunction and some of its facts; it is joined first, over those facts only.
        """
        types = dict(schema.params)
        plan: list[tuple[str, list[tuple[int, str, bool]], list[tuple[int, str, int]]]] = []
        rest = [lit for lit in conjunction if lit.positive and not lit.is_equality]
        bound: set[str] = set()

        def key(lit: Literal) -> tuple[int, bool, int]:
            known = sum(1 for a in lit.args if not a.startswith("?") or a in bound)
            return (-known, lit.predicate not in self.static_predicates, facts.size(lit.predicate))

        while rest:
            lit = seed[0] if seed is not None and not plan else min(rest, key=key)
            rest = [r for r in rest if r is not lit]
            # known: (position, constant or variable, is a variable) of the arguments fixed before the literal;
            # steps: (position, variable, 0 bind it / 1 equal to its first occurrence in this literal)
            known = [(i, a, a.startswith("?")) for i, a in enumerate(lit.args) if not a.startswith("?") or a in bound]
            steps: list[tuple[int, str, int]] = []
            fresh: set[str] = set()
            for i, a in enumerate(lit.args):
                if a.startswith("?") and a not in bound:
                    steps.append((i, a, 1 if a in fresh else 0))
                    fresh.add(a)
            plan.append((lit.predicate, known, steps))
            bound |= fresh
        allowed = {v: self._objects_set(t) for v, t in types.items()}
        seed_facts = None if seed is None else seed[1]

        def extend(level: int, binding: dict[str, str]) -> Iterator[dict[str, str]]:
            if level == len(plan):
                yield from self._complete(schema, binding)
                return
            pred, known, steps = plan[level]
            values = [(i, binding[a] if variable else a) for i, a, variable in known]
            pool = seed_facts if level == 0 and seed_facts is not None else facts.candidates(pred, values)
            for fact in pool:
                if any(fact[i] != v for i, v in values):
                    continue
                new = dict(binding)
                for i, variable, repeated in steps:
                    value = fact[i]
                    if repeated:
                        if new[variable] != value:
                            break
                    elif variable in allowed and value not in allowed[variable]:
                        break
                    else:
                        new[variable] = value
                else:
                    yield from extend(level + 1, new)

        yield from extend(0, {})

    def _complete(self, schema: Schema | Axiom, binding: dict[str, str]) -> Iterator[dict[str, str]]:
        free = [(v, t) for v, t in schema.params if v not in binding]
        for values in itertools.product(*(self._by_type.get(t, ()) for _, t in free)):
            full = dict(binding)
            full.update((v, val) for (v, _), val in zip(free, values))
            yield full

    def _objects_set(self, type_name: str) -> frozenset[str]:
        cache: dict[str, frozenset[str]] = self.__dict__.setdefault("_type_sets", {})
        if type_name not in cache:
            cache[type_name] = frozenset(self._by_type.get(type_name, ()))
        return cache[type_name]

    def _instantiate(
        self,
        schema: Schema,
        args: tuple[str, ...],
        bits_of: dict[tuple[str, tuple[str, ...]], int],
        templates: dict[tuple[str, tuple[str, ...]], _Template],
    ) -> tuple[GroundAction, list[tuple[str, tuple[str, ...]]]]:
        """The ground action of ``schema`` with ``args``, and its add effects as facts: its template from
        ``templates`` (the store of the task's dynamics, :func:`_template_store`; made and kept there when missing)
        with this task's numbering."""
        template = templates.get((schema.name, args))
        if template is None:
            template = self._template(schema, args)
            if len(templates) < _TEMPLATES_MAX:
                templates[(schema.name, args)] = template
        facts = template.facts
        found = self._bits(facts, bits_of)
        disjuncts = _masks(found, template.disjuncts)
        add, delete = _mask(found, template.add), _mask(found, template.delete)
        added = [facts[i] for i in template.add]
        if self.lifted.axioms:
            return DerivingAction(template.name, disjuncts, add, delete, self.close), added
        return GroundAction(template.name, disjuncts, add, delete), added

    def _template(self, schema: Schema, args: tuple[str, ...]) -> _Template:
        """The template of ``schema``'s ground action with ``args`` (see :class:`_Template`)."""
        precondition, add_effects, delete_effects = self._compiled_schema(schema)
        values = args + precondition.constants
        facts, disjuncts = self._body_facts(precondition, values)
        position = {fact: i for i, fact in enumerate(facts)}
        added = tuple((pred, pick(values)) for pred, pick in add_effects)
        deleted = [(pred, pick(values)) for pred, pick in delete_effects]
        for fact in (*added, *deleted):
            if fact not in position:
                position[fact] = len(facts)
                facts.append(fact)
        return _Template(
            canonical(schema.name, args),
            tuple(facts),
            disjuncts,
            tuple(position[f] for f in added),
            tuple(position[f] for f in deleted),
        )

    def _bits(self, facts: Sequence[_Fact], bits_of: dict[_Fact, int]) -> list[int]:
        """The bits of ``facts`` in this task's numbering (numbered on first sight)."""
        return [bits_of.get(fact) or self._bit(fact, bits_of) for fact in facts]

    def _bit(self, key: tuple[str, tuple[str, ...]], bits_of: dict[tuple[str, tuple[str, ...]], int]) -> int:
        bit = bits_of[key] = 1 << self.atoms.id(canonical(*key))
        return bit

    def _compiled_schema(self, schema: Schema) -> tuple[_Body, list[tuple[str, _Pick]], list[tuple[str, _Pick]]]:
        """A schema's precondition and effects compiled once per task (see :class:`_Body`)."""
        found = self._compiled_schemas.get(schema.name)
        if found is None:
            body = self._compiled(schema.params, schema.precondition, (*schema.add, *schema.delete))
            add = [(lit.predicate, body.picker(lit)) for lit in schema.add]
            delete = [(lit.predicate, body.picker(lit)) for lit in schema.delete]
            found = self._compiled_schemas[schema.name] = (body, add, delete)
        return found

    def _compiled(
        self,
        params: tuple[tuple[str, str], ...],
        dnf: tuple[tuple[Literal, ...], ...],
        more: tuple[Literal, ...] = (),
    ) -> _Body:
        """``dnf`` compiled against ``params`` (and the constants of ``more`` as well)."""
        body = _Body(tuple(v for v, _ in params))
        for lit in (*(lit for conjunction in dnf for lit in conjunction), *more):
            for arg in lit.args:
                if arg not in body.params and arg not in body.constants:
                    body.constants += (arg,)
        for conjunction in dnf:
            compiled = []
            for lit in conjunction:
                kind = 0 if lit.is_equality else 1 if lit.predicate in self.static_predicates else 2
                compiled.append((kind, lit.predicate, body.picker(lit), lit.positive))
            body.disjuncts.append(tuple(compiled))
        return body

    def _ground_body(
        self, body: _Body, values: tuple[str, ...], bits_of: dict[tuple[str, tuple[str, ...]], int]
    ) -> tuple[tuple[int, int], ...]:
        """Disjuncts (positive mask, negative mask) of a compiled formula for ``values`` (the parameters'
        values, then ``body.constants``); static literals evaluated."""
        facts, disjuncts = self._body_facts(body, values)
        return _masks(self._bits(facts, bits_of), disjuncts)

    def _body_facts(
        self, body: _Body, values: tuple[str, ...]
    ) -> tuple[list[_Fact], tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]]:
        """The fluent facts of a compiled formula for ``values``, in the order its literals name them (a disjunct's
        up to its first false static literal or equality), and its disjuncts that static literals and equalities
        leave possible and that ask no fact both true and false, each as the positions of its positive and of its
        negative facts; disjuncts asking the same facts once."""
        init_facts = self._init_facts
        facts: list[_Fact] = []
        position: dict[_Fact, int] = {}
        disjuncts = []
        for conjunction in body.disjuncts:
            pos: set[int] = set()
            neg: set[int] = set()
            holds = True
            for kind, predicate, pick, positive in conjunction:
                picked = pick(values)
                if kind == 0:
                    holds = (picked[0] == picked[1]) == positive
                elif kind == 1:
                    holds = ((predicate, picked) in init_facts) == positive
                else:
                    fact = (predicate, picked)
                    at = position.get(fact)
                    if at is None:
                        at = position[fact] = len(facts)
                        facts.append(fact)
                    (pos if positive else neg).add(at)
                if not holds:
                    break
            if holds and not pos & neg:
                disjuncts.append((tuple(sorted(pos)), tuple(sorted(neg))))
        return facts, tuple(dict.fromkeys(disjuncts))

    # ----- lookup of named atoms and actions ----------------------------------------------
    def action(self, name: str) -> GroundAction | None:
        """The ground action named by canonical text, grounded on demand; None if not type-correct."""
        name = name.lower()
        found = self._actions.get(name)
        if found is not None:
            return found
        try:
            head, args = split_canonical(name)
        except IndexError:
            return None
        schema = self.lifted.schemas.get(head)
        if schema is None or len(args) != len(schema.params):
            return None
        if any(a not in self._objects_set(t) for a, (_, t) in zip(args, schema.params)):
            return None
        templates = _template_store(self.lifted.dynamics_key)
        action = self._actions[name] = self._instantiate(schema, args, {}, templates)[0]
        return action

    def is_valid_atom(self, atom: str) -> bool:
        """Whether canonical text names a type-correct ground atom of a declared predicate."""
        if atom in self._vocabulary.valid:
            return True
        try:
            head, args = split_canonical(atom.lower())
        except IndexError:
            return False
        types = self.lifted.predicates.get(head)
        if types is None or len(types) != len(args):
            return False
        if all(a in self._objects_set(t) for a, t in zip(args, types)):
            self._vocabulary.valid.add(atom)
            return True
        return False

    def is_proposition(self, atom: str) -> bool:
        """A type-correct atom of a fluent predicate: the propositions questions are about."""
        return self.is_valid_atom(atom) and not self.is_static_atom(atom)

    def atom_id(self, atom: str) -> int:
        """Bit position of a type-correct atom (raises PddlError for an invalid one)."""
        if not self.is_valid_atom(atom):
            raise PddlError(f"not a type-correct atom of this task: {atom}")
        return self.atoms.id(atom.lower())

    def is_static_atom(self, atom: str) -> bool:
        return split_canonical(atom.lower())[0] in self.static_predicates

    def all_atoms(self) -> list[str]:
        """Every type-correct ground atom of the task (fluent and static), sorted."""
        out = []
        for pred, types in sorted(self.lifted.predicates.items()):
            for args in itertools.product(*(self._by_type.get(t, ()) for t in types)):
                out.append(canonical(pred, args))
        return out

    @cached_property
    def action_names(self) -> tuple[str, ...]:
        """The names of :attr:`actions`, in their order: two groundings of one problem with the same names (and
        the same :attr:`rule_names`) step alike (a state has the same successors in both, whatever numbering
        their atoms have)."""
        return tuple(action.name for action in self.actions)

    def all_action_names(self) -> Iterator[str]:
        """Every type-correct ground action name of the task (a generator: there can be many)."""
        for schema in self.lifted.schemas.values():
            for args in itertools.product(*(self._by_type.get(t, ()) for _, t in schema.params)):
                yield canonical(schema.name, args)

    def fluent_atoms(self) -> list[str]:
        """Every type-correct ground atom of a predicate that some action changes, sorted."""
        if self._vocabulary.fluent is None:
            self._vocabulary.fluent = tuple(a for a in self.all_atoms() if not self.is_static_atom(a))
        return list(self._vocabulary.fluent)

    # ----- semantics ----------------------------------------------------------------------
    def is_goal(self, state: int) -> bool:
        return self.goal_satisfiable and state & self.goal_pos == self.goal_pos and not state & self.goal_neg

    def successors(self, state: int) -> list[tuple[int, GroundAction]]:
        """(position in ``actions``, action) of the actions applicable in ``state``, by position.

        Only the actions triggered by a fluent atom of the state are tested: each action is
        indexed under its least shared positive precondition atom (see :meth:`_triggers`).
        This is the innermost loop of exploration and random walks, hence the inlined tests.
        """
        by_atom, always, watched = self._triggers
        found = [(i, action) for i, action in always if action.applicable(state)]
        mask = state & watched  # the state's atoms that index some action (most of a large state's index none)
        while mask:
            low = mask & -mask
            mask ^= low
            for i, action, pos, neg in by_atom[low]:
                if state & pos == pos and not state & neg:
                    found.append((i, action))
        found.sort()  # by position: positions are distinct, so the actions themselves are never compared
        return found

    def applicable(self, state: int) -> list[GroundAction]:
        """Applicable ground actions in ``state``, sorted by name."""
        return [action for _, action in self.successors(state)]

    @cached_property
    def _triggers(
        self,
    ) -> tuple[dict[int, list[tuple[int, GroundAction, int, int]]], list[tuple[int, GroundAction]], int]:
        """Actions with one precondition disjunct keyed by one positive precondition atom each (by
        its bit mask, with the disjunct's masks); ``always``: disjunctive or atom-free ones; the mask of the atoms
        that key some action (preconditions hold fluent atoms only: static literals are evaluated when grounding)."""
        share: dict[int, int] = {}
        for action in self.actions:
            for pos, _ in action.precondition:
                for bit in bits(pos):
                    share[bit] = share.get(bit, 0) + 1
        by_atom: dict[int, list[tuple[int, GroundAction, int, int]]] = {}
        always: list[tuple[int, GroundAction]] = []
        for i, action in enumerate(self.actions):
            if not action.precondition:
                continue
            pos, neg = action.precondition[0]
            if len(action.precondition) > 1 or not pos:
                always.append((i, action))
            else:
                key = 1 << min(bits(pos), key=lambda b: (share[b], b))
                by_atom.setdefault(key, []).append((i, action, pos, neg))
        watched = 0
        for key in by_atom:
            watched |= key
        return by_atom, always, watched

    def state_atoms(self, state: int) -> list[str]:
        """Sorted canonical atoms of a state."""
        return sorted(self.atoms.atoms(state))

    def mask_of(self, atoms: Iterable[str]) -> int:
        return self.atoms.mask(a.lower() for a in atoms)
