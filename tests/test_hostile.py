"""Hostile input: every file of the corpus ``tests/hostile/`` through every command that reads it.

Rulesets, house rules, scenario files, game records and scoresheets are shared between people,
so each is untrusted.  For every input of the corpus and every command that reads it
(:data:`COMMANDS`; the costly inputs the YAML loader refuses, :data:`LOADER_REFUSED`, under
two of them), the ``tysiac`` command runs in its own subprocess and must:

* exit with a non-zero status (a file may list commands that may succeed on it in an
  ``allow-ok:`` line: a formula that is valid but explodes only when played), with a
  ``file:line:col: error[code]: message`` diagnostic (or a click usage error) and never a
  Python traceback;
* stay within :data:`TIME_BUDGET` seconds of CPU time and :data:`MEMORY_BUDGET` bytes of peak
  RSS (both measured with ``os.wait4``, so a busy machine or a parallel run does not count; the address space is capped at :data:`ADDRESS_SPACE` so a blow-up ends
  quickly) and print less than :data:`OUTPUT_BUDGET` bytes;
* print no terminal escape or bidi override character and never the secret token of
  :data:`SECRET_FILE`, a file outside the corpus that several inputs try to reach;
* open no file outside the allowed folders (the corpus, pytest's temporary folder, the
  package with its rulesets and schemas, the Python installation, ``/dev``, ``/proc``), as
  recorded by an audit hook (``sys.addaudithook``) in the wrapper the command runs under;
* change no file: the inputs are hashed before and after each run, and the whole corpus and
  the secret file once more after all runs (:func:`test_corpus_and_secret_unchanged`).

Layout of the corpus: ``rulesets/``, ``scenarios/`` (YAML, a ``# hostile:`` header line says
what the file tests), ``records/``, ``sheets/`` (JSON, a sibling ``.md`` says it, as it
does for a YAML file that cannot hold a comment); folders
starting with ``_`` hold the files the cases reach through ``extends`` and are not run on
their own.  Large inputs (a 50 MB ruleset, 600,000 deals) are not committed: ``recipes.json``
describes them and they are written to a temporary folder first.

Cases that fail today wait in ``tests/hostile_pending/`` (same layout, not read here): when
the fix lands, move the file (and its ``.md``, or its recipe) into ``tests/hostile/`` and run
``.venv/bin/pytest tests/test_hostile.py``.

The runs go two at a time on a thread pool (each its own process), started on the first test
for everything selected, so the whole file takes about a minute.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import queue
import re
import resource
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NoReturn

import pytest

import tysiac_spec
from tysiac_spec._paths import RULESETS_DIR, SCHEMAS_DIR

pytestmark = pytest.mark.slow  # the whole corpus through every command: about 55 s of CPU

CORPUS = Path(__file__).resolve().parent / "hostile"
"""The committed corpus."""

KINDS = {"rulesets": ".yaml", "scenarios": ".yaml", "records": ".json", "sheets": ".json"}
"""The corpus folders and the extension of their inputs."""

SECRET_DIR = Path("/tmp/tysiac-hostile-secret")
SECRET_TOKEN = "TYSIAC-SECRET-5d1c7e0b42"
SECRET_FILE = SECRET_DIR / "secret.yaml"
SECRET_TEXT = (
    f"# {SECRET_TOKEN}: no input of the corpus may read this file or print this token\n"
    "id: secret\nkind: house\nextends: pl-standard\n"
    f"name: {{en: {SECRET_TOKEN}}}\n"
    f"description: {{en: {SECRET_TOKEN}}}\n"
)
"""A valid house ruleset outside the corpus (``extends`` / ``ruleset_file`` of several inputs
point at it by an absolute and by a ``../`` path): were it read, its token would be printed."""

TIME_BUDGET = 10.0
"""Seconds of CPU time (user and system, the run's and its children's) one run may take: a
hang or a blow-up breaks it, not a speed assert, and not a machine busy with other work (CPU
time does not grow with the load, wall time does)."""
TIMEOUT = 15.0
"""Seconds of CPU time after which a run is killed (``RLIMIT_CPU``)."""
WALL_TIMEOUT = 180.0
"""Seconds of wall time after which a run is killed: a run that waits without computing (a
blocked read, a sleep), which the CPU limit does not stop.  Generous, because a loaded
machine stretches wall time many times over."""
MEMORY_BUDGET = 300 * 2**20
"""Bytes of peak resident memory one run may use."""
ADDRESS_SPACE = 1536 * 2**20
"""RLIMIT_AS of a run, so a memory blow-up fails fast instead of swapping."""
FILE_SIZE = 64 * 2**20
"""RLIMIT_FSIZE of a run (its output files included)."""
OUTPUT_BUDGET = 20_000
"""Bytes of stdout plus stderr one run may print."""
WORKERS = max(1, min(2, os.cpu_count() or 1))

DIAGNOSTIC = re.compile(r"^(?:\S.*?: )?(?:error|warning)\[[a-z0-9_.-]+\]: \S|^Error: \S", re.M)
"""A diagnostic headline (``file:line:col: error[code]: message``, or without the location
for an input that has none), or a click usage error."""
UNSAFE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202a-\u202e\u2066-\u2069]")
"""Characters that must never reach a terminal raw: C0 controls (escape codes) and bidi
overrides."""

COMMANDS: dict[str, dict[str, tuple[str, ...]]] = {
    "rulesets": {
        "validate": ("validate", "{file}"),
        "show": ("show", "{file}"),
        "docs": ("docs", "{file}"),
        "compare": ("compare", "{file}", "pl-standard"),
        "check": ("check", "{file}"),
        "simulate": ("simulate", "{file}", "--games", "2"),
        "play": ("play", "{file}", "--seed", "1"),
    },
    "scenarios": {"check": ("check", "--file", "{file}")},
    "records": {"replay": ("replay", "{file}"), "play-resume": ("play", "--resume", "{file}")},
    "sheets": {"score": ("score", "pl-standard", "--sheet", "{file}")},
}
"""Every command that reads each kind of input, with its arguments; standard input is closed
(``play`` and ``score`` read what would be typed).  ``play`` saves to its default file in the
run's own folder."""

LOADER_REFUSED: dict[str, str] = {
    "billion-laughs.yaml": "yaml.too-large",
    "billion-laughs-in-extends.yaml": "yaml.too-large",
    "billion-laughs-in-name.yaml": "yaml.too-large",
    "billion-laughs-in-option-patch.yaml": "yaml.too-large",
    "deep-nesting-flow.yaml": "yaml.too-deep",
    "deep-nesting-flow-100k.yaml": "yaml.too-deep",
}
"""The costly ruleset inputs (alias bombs, about 1.8 s of CPU a run; flow nesting, 0.4 s)
that the YAML loader refuses, with the code of its refusal: these run under two commands of
:data:`COMMANDS`, not all seven (issue 25: the suite in about 20 minutes; under all seven
their runs took the same time within 0.2 s each).  Every ruleset command reads its file through the
same call, ``load_ruleset(path)`` (``options={}`` when none are given), before anything of its
own touches the content: ``validate`` reads the first 2,000 characters first (is it a scenario
file?) and prints the refusal itself; ``show``, ``docs``, ``compare`` (the file before
``pl-standard``), ``check`` (``registry.find`` and a ``stat`` of the scenario file first),
``simulate`` and ``play`` raise it through ``user_errors``, which prints it the same way.  So
``validate`` and ``show`` cover both ways the refusal is printed, and the limits (time,
memory, files opened) are those of the loader.  :func:`problems` checks the refusal's code:
should the loader ever accept one of these files, the run fails, and the file must go back
under every command."""
LOADER_COMMANDS = ("validate", "show")
"""The commands a :data:`LOADER_REFUSED` input runs under."""


@dataclass(frozen=True)
class Case:
    """One hostile input: ``kind`` (a corpus folder), ``name`` (its file name), ``about`` (what
    it tests), ``allow_ok`` (commands that may exit 0 on it), and ``recipe`` (the index in
    ``recipes.json`` of a generated input, else ``None``)."""

    kind: str
    name: str
    about: str
    allow_ok: frozenset[str] = frozenset()
    recipe: int | None = None

    @property
    def label(self) -> str:
        return f"{self.kind}/{self.name}"


@dataclass(frozen=True)
class Run:
    """One input through one command."""

    case: Case
    command: str

    @property
    def label(self) -> str:
        return f"{self.case.label}:{self.command}"


def _meta(text: str) -> tuple[str, frozenset[str]]:
    """What a file tests and the commands that may succeed on it, from its ``hostile:`` and
    ``allow-ok:`` lines."""
    about = re.search(r"hostile: *(.+)", text)
    allow = re.search(r"allow-ok: *(.+)", text)
    names = frozenset(a.strip() for a in allow.group(1).split(",")) if allow else frozenset()
    return (about.group(1).strip() if about else ""), names


def _header(path: Path) -> str:
    head = path.read_bytes()[:4000]
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", "replace")
    return head.decode("utf-8", "replace")


def discover(root: Path = CORPUS) -> list[Case]:
    """The cases of a corpus folder, committed files and recipes, sorted."""
    cases: list[Case] = []
    for kind, ext in KINDS.items():
        for path in sorted((root / kind).glob(f"*{ext}")):
            meta = path.with_suffix(".md") if path.with_suffix(".md").is_file() else path
            text = _header(meta) if meta.is_file() else ""
            about, allow = _meta(text)
            cases.append(Case(kind, path.name, about, allow))
    recipes = root / "recipes.json"
    if recipes.is_file():
        for i, recipe in enumerate(json.loads(recipes.read_text(encoding="utf-8"))["recipes"]):
            kind, name = recipe["file"].split("/")
            cases.append(Case(kind, name, recipe["about"], frozenset(recipe.get("allow_ok", ())), i))
    return cases


def commands_for(case: Case) -> list[str]:
    """The commands ``case`` runs under: every command of its kind, or
    :data:`LOADER_COMMANDS` for a :data:`LOADER_REFUSED` ruleset."""
    if case.kind == "rulesets" and case.name in LOADER_REFUSED:
        return list(LOADER_COMMANDS)
    return list(COMMANDS[case.kind])


CASES = discover()
RUNS = [Run(case, command) for case in CASES for command in commands_for(case)]


def generate(recipe: dict[str, object], path: Path) -> None:
    """Write a generated input: its pieces ``[text, count]`` one after the other, ``{i}`` in
    a text replaced by 0 … count-1."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as out:
        for text, count in recipe["pieces"]:  # type: ignore[attr-defined]
            if "{i}" in text:
                out.write("".join(text.replace("{i}", str(i)) for i in range(count)))
            else:
                step = max(1, 4_000_000 // max(len(text), 1))
                for start in range(0, count, step):
                    out.write(text * min(step, count - start))


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def snapshot(*roots: Path) -> dict[str, str]:
    """Every file under ``roots`` (or the file itself) with the hash of its content."""
    out: dict[str, str] = {}
    for root in roots:
        paths = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for p in paths:
            out[str(p)] = _digest(p)
    return out


def _child(req: dict[str, Any], requests: IO[str], answers: IO[str]) -> NoReturn:
    """One run, in the forked child: limits, a new session, its own streams and environment,
    the audit hook, then the command as the ``tysiac`` script runs it."""
    from tysiac_spec.cli import main

    os.setsid()
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE, FILE_SIZE))
    cpu = int(req["timeout"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))  # SIGXCPU, then SIGKILL
    requests.close()
    answers.close()
    os.chdir(req["cwd"])
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(os.open(req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
    os.dup2(os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
    sys.stdin = sys.__stdin__ = open(0, closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", closefd=False, encoding="utf-8")
    sys.stderr = sys.__stderr__ = open(2, "w", closefd=False, encoding="utf-8", errors="backslashreplace")
    for key in [k for k in os.environ if k.startswith("TYSIAC_")]:
        del os.environ[key]
    # the fast path's cache: this run's own folder, not the user's (``simulate`` writes the
    # source of a form it has not seen there; whether the user's cache already held it made
    # the run open a file outside the allowed folders or not)
    os.environ["TYSIAC_FAST_CACHE"] = os.path.join(req["cwd"], "fast-cache")
    os.environ["COLUMNS"] = "100"
    allowed = tuple(req["allowed"])
    log = open(req["log"], "a", buffering=1, encoding="utf-8")
    busy: list[int] = []

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if busy or event not in ("open", "os.listdir", "os.scandir"):
            return
        busy.append(1)
        try:
            target = args[0] if args else None
            if target is None or isinstance(target, int):
                return
            path = os.path.realpath(os.path.abspath(os.fsdecode(target)))
            if not any(path == root or path.startswith(root + os.sep) for root in allowed):
                mode = args[1] if event == "open" and len(args) > 1 else None
                log.write(json.dumps([event, path, str(mode)]) + "\n")
        except Exception as exc:  # the hook must never change what the command does
            log.write(json.dumps(["hook-error", repr(exc), ""]) + "\n")
        finally:
            busy.clear()

    sys.addaudithook(hook)
    sys.argv = ["tysiac", *req["args"]]
    code = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if exc.code is not None and not isinstance(exc.code, int):
            print(exc.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BaseException:
            pass
    os._exit(code)


def zygote() -> None:
    """Serve runs: import the CLI once, then fork one child per request.

    Requests come one per line on standard input (JSON: args, cwd, stdout, stderr, log,
    allowed, timeout in CPU seconds, wall_timeout); the answer to each is one JSON line on
    standard output: exit status, CPU seconds and peak RSS (``ru_utime + ru_stime`` and
    ``ru_maxrss`` of ``os.wait4``, KB), wall seconds, and whether it was killed at the wall
    timeout.  Importing the CLI takes most of a failing run's time, so forking from a process
    that has done it once makes the corpus run in about a minute.
    """
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    import tysiac_spec.cli  # noqa: F401  (what the fork saves)
    for module in ("check", "compare", "docs", "play", "replay", "score", "simulate", "list", "validate",
                   "show", "schema", "dsl_reference"):
        __import__(f"tysiac_spec.commands.{module}")
    # what the commands import when they run (the import machinery lists every folder on
    # sys.path, tests/ among them, which the audit hook would count as opened)
    for module in ("engine", "docs.compare", "docs.book", "docs.site", "docs.examples", "scenarios",
                   "scoresheet", "simulate", "bots", "dsl.reference"):
        __import__(f"tysiac_spec.{module}")
    import jsonschema  # noqa: F401  (ruleset.validate imports it to explain an invalid ruleset)
    for line in requests:
        req = json.loads(line)
        start = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                _child(req, requests, answers)
            finally:
                os._exit(70)
        timed_out = False
        while True:
            done, status, usage = os.wait4(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() - start > req["wall_timeout"]:
                timed_out = True
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(pid, signal.SIGKILL)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                _, status, usage = os.wait4(pid, 0)
                break
            time.sleep(0.005)
        answers.write(json.dumps({
            "returncode": os.waitstatus_to_exitcode(status), "seconds": usage.ru_utime + usage.ru_stime,
            "wall_seconds": time.monotonic() - start,
            "maxrss_kb": usage.ru_maxrss, "timed_out": timed_out,
        }) + "\n")
        answers.flush()


@dataclass
class Result:
    """What one run did."""

    returncode: int
    seconds: float
    peak_rss: int
    stdout: bytes
    stderr: bytes
    outside: list[str] = field(default_factory=list)
    timed_out: bool = False
    changed: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return (self.stdout + b"\n" + self.stderr).decode("utf-8", "replace")


class Runner:
    """Runs the selected (input, command) pairs on a small thread pool, each in its own process
    forked by one of :data:`WORKERS` zygotes (:func:`zygote`)."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.gen = base / "gen"
        self.recipes = json.loads((CORPUS / "recipes.json").read_text(encoding="utf-8"))["recipes"]
        allowed = {CORPUS, base, Path(tysiac_spec.__file__).parent, RULESETS_DIR, SCHEMAS_DIR,
                   Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix), Path("/dev"), Path("/proc"),
                   Path(__file__)}  # this file: the zygote's frames, in a traceback
        self.allowed = sorted({os.path.realpath(p) for p in allowed})
        env = {k: v for k, v in os.environ.items() if not k.startswith("TYSIAC_")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        start = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import test_hostile; test_hostile.zygote()"
        self.zygotes: queue.Queue[subprocess.Popen[str]] = queue.Queue()
        self.processes = [
            subprocess.Popen([sys.executable, "-c", start], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             text=True, encoding="utf-8", env=env, cwd=base)
            for _ in range(WORKERS)
        ]
        for process in self.processes:
            self.zygotes.put(process)
        self.pool = ThreadPoolExecutor(max_workers=WORKERS)
        self.futures: dict[Run, Future[Result]] = {}
        self.lock = threading.Lock()
        self.generated: dict[int, Future[Path]] = {}

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(timeout=30)

    def path(self, case: Case) -> Path:
        if case.recipe is None:
            return CORPUS / case.kind / case.name
        with self.lock:
            if case.recipe not in self.generated:
                fut: Future[Path] = Future()
                self.generated[case.recipe] = fut
                target = self.gen / case.kind / case.name
                try:
                    generate(self.recipes[case.recipe], target)
                    fut.set_result(target)
                except BaseException as exc:  # pragma: no cover - reported by the test
                    fut.set_exception(exc)
        return self.generated[case.recipe].result()

    def submit(self, runs: list[Run]) -> None:
        # the generated (large) inputs first, so the slowest runs do not come last
        for run in sorted(runs, key=lambda r: r.case.recipe is None):
            if run not in self.futures:
                self.futures[run] = self.pool.submit(self._run, run)

    def result(self, run: Run) -> Result:
        self.submit([run])
        return self.futures[run].result()

    def _run(self, run: Run) -> Result:
        source = self.path(run.case)
        inputs = [source, SECRET_FILE]
        before = snapshot(*inputs)
        folder = self.base / "runs" / re.sub(r"[^\w.-]", "_", run.label)
        folder.mkdir(parents=True, exist_ok=True)
        log = folder / "opened-outside.jsonl"
        log.write_text("", encoding="utf-8")
        out_path, err_path = folder / "stdout", folder / "stderr"
        request = {
            "args": [a.format(file=source) for a in COMMANDS[run.case.kind][run.command]],
            "cwd": str(folder), "stdout": str(out_path), "stderr": str(err_path), "log": str(log),
            "allowed": self.allowed, "timeout": TIMEOUT, "wall_timeout": WALL_TIMEOUT,
        }
        process = self.zygotes.get()
        try:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps(request) + "\n")
            process.stdin.flush()
            answer = process.stdout.readline()
        finally:
            self.zygotes.put(process)
        if not answer:
            raise RuntimeError(f"the zygote stopped (exit status {process.poll()})")
        done = json.loads(answer)
        outside = sorted({line for line in log.read_text(encoding="utf-8").splitlines() if line})
        after = snapshot(*inputs)
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        return Result(
            returncode=done["returncode"],
            seconds=done["seconds"],
            peak_rss=done["maxrss_kb"] * 1024,
            stdout=_head(out_path),
            stderr=_head(err_path),
            outside=outside,
            timed_out=done["timed_out"],
            changed=changed,
        )


def _head(path: Path, limit: int = 1 << 20) -> bytes:
    with path.open("rb") as f:
        data = f.read(limit + 1)
    return data


def problems(run: Run, result: Result) -> list[str]:
    """Everything wrong with one run, in words (empty when the run behaved)."""
    found: list[str] = []
    text = result.text
    size = len(result.stdout) + len(result.stderr)
    if result.timed_out:
        found.append(f"killed after {WALL_TIMEOUT:.0f} s of wall time")
    elif result.returncode in (-signal.SIGXCPU, -signal.SIGKILL) and result.seconds >= TIMEOUT:
        found.append(f"killed after {TIMEOUT:.0f} s of CPU time")
    elif result.seconds > TIME_BUDGET:
        found.append(f"took {result.seconds:.1f} s of CPU time (budget {TIME_BUDGET:.0f} s)")
    if result.peak_rss > MEMORY_BUDGET:
        found.append(f"peak RSS {result.peak_rss / 2**20:.0f} MB (budget {MEMORY_BUDGET / 2**20:.0f} MB)")
    if result.returncode < 0:
        found.append(f"killed by signal {-result.returncode}")
    elif result.returncode == 0 and run.command not in run.case.allow_ok:
        found.append("exit status 0")
    tracebacks = [line for line in text.splitlines() if line.startswith("Traceback")]
    if tracebacks:
        errors = [line for line in text.splitlines() if re.match(r"^[\w.]+(Error|Exception|Exit|Interrupt)\b", line)]
        found.append(f"traceback: {errors[-1][:160] if errors else '?'}")
    if result.returncode > 0 and not DIAGNOSTIC.search(text):
        found.append(f"no diagnostic line (output starts {text.strip()[:120]!r})")
    if size >= OUTPUT_BUDGET and result.returncode != 0:  # a refusal is short; a rule book is not
        found.append(f"printed {size:,} bytes (budget {OUTPUT_BUDGET:,})")
    if SECRET_TOKEN in text:
        found.append("printed the secret token")
    unsafe = sorted(set(UNSAFE.findall(text)))
    if unsafe:
        found.append(f"printed raw control/bidi characters {''.join(unsafe)!r}")
    if result.outside:
        found.append(f"opened outside the allowed folders: {'; '.join(result.outside[:3])}")
    if result.changed:
        found.append(f"changed files: {', '.join(result.changed)}")
    code = LOADER_REFUSED.get(run.case.name) if run.case.kind == "rulesets" else None
    if code is not None and f"error[{code}]" not in text:
        found.append(f"not refused by the loader with error[{code}]: run it under every command "
                     "again (LOADER_REFUSED)")
    return found


@pytest.fixture(scope="session")
def secret() -> Path:
    """The secret file, written when missing or different.  Its folder is fixed (the corpus
    names it) and so shared by every run of this file on the machine, another checkout's
    included: it is written through a file of this process renamed into place, so a run
    hashing it meanwhile never sees it empty or half-written."""
    SECRET_DIR.mkdir(parents=True, exist_ok=True)
    if not SECRET_FILE.is_file() or SECRET_FILE.read_text(encoding="utf-8") != SECRET_TEXT:
        partial = SECRET_DIR / f".secret.{os.getpid()}.part"
        partial.write_text(SECRET_TEXT, encoding="utf-8")
        partial.replace(SECRET_FILE)
    return SECRET_FILE


@pytest.fixture(scope="session")
def before(secret: Path) -> dict[str, str]:
    """The corpus and the secret file before any run."""
    return snapshot(CORPUS, secret)


@pytest.fixture(scope="session")
def runner(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory,
           before: dict[str, str]) -> Iterator[Runner]:
    runner = Runner(tmp_path_factory.mktemp("hostile"))
    here = Path(__file__).resolve()
    selected = [
        item.callspec.params["run"]
        for item in request.session.items
        if Path(str(item.path)).resolve() == here and hasattr(item, "callspec") and "run" in item.callspec.params
    ]
    runner.submit(selected)
    yield runner
    runner.close()
    report = os.environ.get("HOSTILE_REPORT")
    if report:  # a summary of every run, for reviewing the figures: HOSTILE_REPORT=file.json
        rows = []
        for run, future in runner.futures.items():
            if future.done() and not future.cancelled() and future.exception() is None:
                res = future.result()
                rows.append({"run": run.label, "rc": res.returncode, "seconds": round(res.seconds, 2),
                             "peak_rss_mb": round(res.peak_rss / 2**20, 1),
                             "output_bytes": len(res.stdout) + len(res.stderr),
                             "problems": problems(run, res), "tail": res.text.strip()[-300:]})
        Path(report).write_text(json.dumps(rows, indent=1, ensure_ascii=False), encoding="utf-8")


def test_corpus_is_described() -> None:
    """Every input says what it tests; the corpus has at least 60 crafted files."""
    undescribed = [case.label for case in CASES if not case.about]
    assert not undescribed
    crafted = [p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".yaml", ".json") and p.name != "recipes.json"]
    assert len(crafted) >= 60
    rulesets = {case.name for case in CASES if case.kind == "rulesets"}
    assert set(LOADER_REFUSED) <= rulesets  # a renamed file goes back under every command


@pytest.mark.parametrize("run", RUNS, ids=[run.label for run in RUNS])
def test_hostile_input(run: Run, runner: Runner) -> None:
    result = runner.result(run)
    found = problems(run, result)
    assert not found, f"{run.label} ({run.case.about}): " + "; ".join(found)


def test_corpus_and_secret_unchanged(runner: Runner, before: dict[str, str], secret: Path) -> None:
    """No run changed, added or removed a file of the corpus or the secret file (checked after
    every selected run has finished)."""
    for future in list(runner.futures.values()):
        future.exception()
    after = snapshot(CORPUS, secret)
    changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
    assert not changed
