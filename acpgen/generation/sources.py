"""Where a run finds its domain: one of the built-in domains, or the user's own PDDL files.

A `DomainSource` is what the stages ask for the domain's PDDL text, the ``:requirements`` written
into rendered problems, the natural-language template (None: the user gave none, so only the
PDDL representation is possible) and the problem generator (None: the problems are the user's
files, copied by the problems stage). Built-in domains come from the registry
(`acpgen.generators`, `acpgen/data/domains/<d>/domain.pddl`, `acpgen/data/templates/<d>.yaml`); `acp generate
--domain-file` builds one from the paths it is given.
"""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from acpgen.config import OBFUSCATIONS
from acpgen.data import TEMPLATES_DIR
from acpgen.errors import ConfigError
from acpgen.generators import Generator, domain_file, get_generator
from acpgen.nl.describe import Describer
from acpgen.nl.pddl_words import described_template, pddl_template
from acpgen.nl.ramified import template_for
from acpgen.nl.template import (
    QUESTIONS_FILE,
    DomainTemplate,
    TemplateError,
    WrongAction,
    load_template,
    load_template_file,
    templates_dir,
)
from acpgen.nl.template_patterns import PatternDecl
from acpgen.pddl import obfuscate
from acpgen.pddl.model import LiftedTask, declared_requirements
from acpgen.pddl.tarski_io import empty_problem, read_domain, read_domain_text
from acpgen.tasks import task_texts

NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")  # a domain name is also a folder name under OUT/


def folder_name(domain: str, obfuscation: str = "none") -> str:
    """The folder of a domain's artefacts under OUT/: ``ferry``, or ``ferry-mystery`` for an obfuscated run."""
    return domain if obfuscation == "none" else f"{domain}-{obfuscation}"


@dataclass(frozen=True)
class DomainSource:
    """A domain's name (the output folder and the records' ``domain``), PDDL file, template file,
    generator (built-in domains) and folder of problem files (the user's own domains)."""

    name: str
    domain_file: Path
    template_file: Path | None = None
    generator: Generator | None = None
    problems: Path | None = None
    #: none, mystery or random: every problem and the domain are renamed (acpgen.pddl.obfuscate), and the
    #: words of the records come from the renamed PDDL (acpgen.nl.pddl_words.described_template)
    obfuscation: str = "none"
    seed: int = 0  # of the random renaming

    @property
    def folder(self) -> str:
        """The folder of the artefacts under OUT/."""
        return folder_name(self.name, self.obfuscation)

    def obfuscated_as(self, obfuscation: str, seed: int) -> DomainSource:
        """This source under a run's obfuscation (its seed sets the random renaming); itself when unchanged."""
        if obfuscation == self.obfuscation:
            return self
        return dataclasses.replace(self, obfuscation=obfuscation, seed=seed)

    @classmethod
    def builtin(cls, name: str, obfuscation: str = "none", seed: int = 0) -> DomainSource:
        """A domain of the registry (ConfigError listing the valid names for any other); ``obfuscation``
        and ``seed``: see :meth:`renaming`."""
        template = templates_dir() / f"{name}.yaml"
        return cls(name, domain_file(name), template, get_generator(name), obfuscation=obfuscation, seed=seed)

    @classmethod
    def from_files(
        cls, domain: Path, problems: Path, template: Path | None = None, name: str | None = None
    ) -> DomainSource:
        """The user's domain: its PDDL is checked now (unsupported constructs are refused, naming the
        file), and so is the template against it, before any stage runs."""
        lifted = read_domain(domain)
        name = name or lifted.domain_name
        if not NAME.fullmatch(name):
            raise ConfigError(
                f"domain name '{name}' cannot name an output folder; give --name with letters, digits, '-', '_', '.'"
            )
        if not Path(problems).is_dir():
            raise ConfigError(f"--problems {problems}: no such folder (give the folder that holds the problem files)")
        if template is not None and not Path(template).is_file():
            raise ConfigError(f"--template {template}: no such file (write one with `acp template init {domain}`)")
        source = cls(name, Path(domain), Path(template) if template else None, None, Path(problems))
        found = source.template()
        if found is not None:
            found.check(lifted)
        return source

    @cached_property
    def plain_text(self) -> str:
        """The domain file's text (before any renaming)."""
        return self.domain_file.read_text()

    @cached_property
    def text(self) -> str:
        """The PDDL domain text, as every stage and record uses it (renamed in an obfuscated run)."""
        renaming = self.renaming()
        return self.plain_text if renaming is None else obfuscate.apply(renaming, self.plain_text)

    def renaming(self, problem_text: str | None = None) -> obfuscate.Renaming | None:
        """The renaming of an obfuscated run (None: not obfuscated). Mystery names are the domain's own;
        random names depend on the run's seed, and the objects' on ``problem_text`` (without a problem:
        the domain's names, the same for every problem)."""
        if self.obfuscation == "none":
            return None
        if self.obfuscation == "mystery":
            return obfuscate.mystery(self.plain_text)
        if self.obfuscation != "random":
            raise ConfigError(f"unknown obfuscation {self.obfuscation!r}; one of {', '.join(OBFUSCATIONS)}")
        return obfuscate.randomized(self.plain_text, problem_text or empty_problem(self.plain_text), self.seed)

    def problem(self, plain_text: str) -> tuple[str, obfuscate.Renaming | None]:
        """A problem as the run uses it (renamed in an obfuscated run) and its renaming."""
        renaming = self.renaming(plain_text)
        return (plain_text, None) if renaming is None else (obfuscate.apply(renaming, plain_text), renaming)

    @property
    def requirements(self) -> str:
        """``:requirements`` of rendered problems: those the domain declares."""
        return declared_requirements(self.text)

    def template(self) -> DomainTemplate | None:
        """The domain's template (not yet checked against a problem), or None when there is none."""
        return self._template

    @cached_property
    def _template(self) -> DomainTemplate | None:
        # Read once per source (a run makes a new source, so an edited file is seen by the next run);
        # the export stage asks for it once per record.
        if self.obfuscation != "none":
            return self._pddl_words
        if self.template_file is None:
            return None
        if self.generator is not None:
            return load_template(self.name, tasks=task_texts())
        return load_template_file(self.template_file, self.name, tasks=task_texts())

    @cached_property
    def carried_template(self) -> str | None:
        """The template text the domain's records carry (field ``template``), so that whoever reads them
        (`acp score`, `acp validate`, :func:`acpgen.score`, the adapters) reads their English as it was
        written: a user's ``--template``, or a built-in domain's template edited in ``ACP_TEMPLATES_DIR``.
        None when acp's own template of the domain's name is the one used (the record's ``domain`` finds
        it), without a template (PDDL only) and in an obfuscated run (words from the renamed PDDL)."""
        if self.obfuscation != "none" or self.template_file is None:
            return None
        text = self.template_file.read_text()
        shipped = TEMPLATES_DIR / f"{self.name}.yaml"
        return None if shipped.is_file() and shipped.read_text() == text else text

    @property
    def declared_patterns(self) -> tuple[PatternDecl, ...]:
        """The abstract patterns (t2p) the template declares; none without a template or when obfuscated
        (the patterns' words are the domain's own)."""
        template = self.template()
        return template.patterns if template is not None and self.obfuscation == "none" else ()

    @property
    def wrong_actions(self) -> tuple[WrongAction, ...]:
        """The template's wrong-action texts (distractors of areach and val); none without a template."""
        template = self.template()
        return template.wrong_actions if template is not None else ()

    def describer(self, lifted: LiftedTask) -> Describer:
        """A describer of one record's task: the template's words, or PDDL syntax without a template."""
        template = self.template()
        return Describer(template_for(template, lifted) if template is not None else self._pddl_words, lifted)

    @cached_property
    def _pddl_words(self) -> DomainTemplate:
        # Made once per source from the domain alone (it reads the shared questions file): the export
        # stage asks for a describer once per record. An obfuscated domain is described in words.
        if self.obfuscation != "none":
            return described_template(read_domain_text(self.text, f"{self.name} ({self.obfuscation})"), task_texts())
        return pddl_template(read_domain(self.domain_file), task_texts())

    def check_representation(self, representation: str) -> None:
        """TemplateError unless the representation can be written: nl needs a template."""
        if self.template_file is None and self.obfuscation == "none" and representation != "pddl":
            raise TemplateError(
                f"domain {self.name} ({self.domain_file}) has no template, so the '{representation}' representation "
                f"cannot be written: use --representation pddl, or write a template with "
                f"`acp template init {self.domain_file} -o {self.name}.yaml`, fill it in and pass --template"
            )

    def templates_digest(self) -> str:
        """sha256 of the template file (if any) and the shared questions: what the export text depends on."""
        template = self.template_file.read_bytes() if self.template_file is not None else b""
        template += f"\0obfuscation={self.obfuscation}".encode() if self.obfuscation != "none" else b""
        return hashlib.sha256(template + b"\0" + (templates_dir() / QUESTIONS_FILE).read_bytes()).hexdigest()
