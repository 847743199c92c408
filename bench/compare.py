"""Performance regression check: is the working tree slower than a base revision?

A/B in one run (the default)::

    python3 bench/compare.py [--base REV] [--rounds N] [--threshold PCT] [-k EXPR] [--allow-new] [--keep]

builds the base revision (default ``main``, the last commit on main; taken
with ``git archive``) and a snapshot of the working tree (tracked and
untracked, not ignored, files) into two venvs in a temporary directory, then
runs the working tree's ``bench/`` suite on each build, alternating base and
working tree for ``--rounds`` rounds (default 3) so that load on the machine
hits both alike. Each benchmark keeps its minimum time over all rounds; the
script prints, per benchmark, both minima and the ratio working tree / base
(above 1 is slower), and fails when a ratio exceeds 1 + ``--threshold``/100
(default 10%). Both sides run the same benchmark code, so they time and
check the same workloads. Building takes a few minutes per side (2-9 on a
busy 2-core machine), a round of the full suite about half a minute per side;
``-k`` narrows the suite.

Instruction counts (the regression check that does not flake)::

    python3 bench/compare.py --instructions [--base REV] [--threshold PCT] [--quick] [-k TEXT]
                             [--accept-slower-from REV]

builds both sides as above, then counts each workload of
``bench/instructions.py`` (the benchmarks' workloads, smaller) once per side
under ``valgrind --tool=callgrind`` and prints per workload both sides'
instructions, the ratio and instructions per node; it fails when a ratio
exceeds 1 + ``--threshold``/100 (default 1%: counts of one build repeat
within 0.02%, so this needs no rounds). ``--quick`` counts the
set CI runs (every game's perft, make/unmake walk, solver, Python loops,
batched step and playouts), ``-k`` those whose names contain TEXT. ``--accept-slower-from REV`` lets
through a rise in a workload that commit REV's message names in a line
``Slower: <workload>: <reason>``. Without valgrind on PATH it fails at once.

Saved results of the same machine (pytest-benchmark's own storage,
``.benchmarks/`` under the repository, per machine id)::

    .venv/bin/python bench/compare.py --save NAME        # e.g. on the base revision
    .venv/bin/python bench/compare.py --compare-saved [ID] [--threshold PCT]

``--save`` runs the suite in the interpreter running this script and saves
it under ``NAME`` (``--benchmark-save``); ``--compare-saved`` runs it again
and compares with saved run ``ID`` (a number such as ``0001`` or a name;
default the latest) using ``--benchmark-compare`` and
``--benchmark-compare-fail=min:PCT%``. Saved runs are only comparable on the
same machine under similar load; prefer the A/B run.

Exit codes: 0 no benchmark got slower than the threshold; 1 one did, or the
suite failed on the working tree (a benchmark's count changed); 2 nothing to
compare against: a build failed, valgrind is missing, no saved run exists, or a benchmark has no
baseline (it is new, or failed on the base); ``--allow-new`` lets benchmarks
without a baseline pass, still listing them.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence

import instructions
from instructions import Count, CountError

REPO = Path(__file__).resolve().parent.parent
EXIT_OK, EXIT_SLOWER, EXIT_NO_BASELINE = 0, 1, 2


class CompareError(Exception):
    """A step that must succeed for the comparison to mean anything failed; the message says which."""


def _run(cmd: Sequence[object], cwd: Path, tmp: Optional[Path] = None) -> int:
    """Echo and run ``cmd`` in ``cwd`` (with ``TMPDIR`` set to ``tmp`` if given); returns its exit code.

    The command runs in a session of its own, ended whole if this script is stopped while it
    waits (Ctrl-C, or SIGTERM, which turns into SystemExit): pip's build backend and its
    compilers, which ninja puts in process groups of their own, would otherwise go on building
    into a deleted directory. Temporary files in ``tmp`` go with the work directory.
    """
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    env = None if tmp is None else {**os.environ, "TMPDIR": str(tmp)}
    child = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=env, start_new_session=True)
    try:
        return child.wait()
    except BaseException:
        _end_session(child.pid)
        child.wait()
        raise


def _end_session(session: int) -> None:
    """SIGKILL every process of ``session`` (its leader's pid), read from /proc where there is one."""
    members = {session}
    if os.path.isdir("/proc/self"):
        for entry in os.listdir("/proc"):
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    # Fields after the command's closing parenthesis: state, ppid, pgrp, session.
                    if int(stat.read().rsplit(")", 1)[1].split()[3]) == session:
                        members.add(int(entry))
            except (ValueError, OSError):  # not a process, or one that ended meanwhile
                continue
    for pid in members:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _remove(path: Path, wait: float = 10.0) -> None:
    """Remove the directory ``path``, trying again for up to ``wait`` seconds: a compiler that
    ``_end_session`` killed may not have died yet, and a file it writes meanwhile makes one
    ``rmtree`` leave the directory behind."""
    deadline = time.monotonic() + wait
    shutil.rmtree(path, ignore_errors=True)
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
        shutil.rmtree(path, ignore_errors=True)


def _git(*args: str) -> str:
    try:
        result = subprocess.run(["git", *args], cwd=REPO, capture_output=True, text=True)
    except FileNotFoundError:
        raise CompareError("git is not on PATH") from None
    if result.returncode != 0:
        first = (result.stderr.strip().splitlines() or ["(no message)"])[0]
        raise CompareError(f"git {' '.join(args)} failed: {first}")
    return result.stdout


def export_base(rev: str, dest: Path) -> str:
    """Write the tree of commit ``rev`` into ``dest``; returns the commit's hash (str)."""
    commit = _git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
    dest.mkdir(parents=True)
    archive = dest.parent / "base.tar"
    _git("archive", "--format=tar", "-o", str(archive), commit)
    if _run(["tar", "-x", "-f", archive, "-C", dest], REPO) != 0:
        raise CompareError(f"could not unpack {archive}")
    return commit


def export_working_tree(dest: Path) -> None:
    """Copy the working tree's tracked and untracked, not ignored, files into ``dest``.

    A snapshot, so edits made while the comparison runs do not leak into it.
    """
    names = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard").split("\0")
    for name in filter(None, names):
        source = REPO / name
        if source.is_file():  # a tracked file deleted in the working tree is skipped
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def build_venv(source: Path, venv: Path, lean: bool = False, label: str = "") -> Path:
    """Install ``source`` with its test extras into a new venv at ``venv``; returns its python.

    ``lean``: the package alone (all ``bench/instructions.py`` imports), a quicker install; ``label``
    names the side in errors (the directory is gone by the time they are read).
    """
    if _run([sys.executable, "-m", "venv", venv], source) != 0:
        raise CompareError(f"could not create a venv at {venv}")
    python = venv / "bin" / "python"
    packages = [str(source)] if lean else [f"{source}[test]"]
    tmp = venv.parent / "tmp"
    tmp.mkdir(exist_ok=True)
    if _run([python, "-m", "pip", "install", "--quiet", *packages], source, tmp) != 0:
        raise CompareError(f"building {label or source} failed (see pip's output above)")
    return python


# pytest's exit codes for a usage error (a -k expression it cannot read) and for no test run.
_USAGE_ERROR, _NO_TESTS = 4, 5


def _filter(args: argparse.Namespace) -> List[str]:
    """pytest options for ``-k``: pytest-benchmark's warning that nothing ran, an error under the
    project's filterwarnings, is left to ``_check_collected``."""
    return ["-k", args.k, "-W", "ignore:Not saving anything"] if args.k else []


def _check_collected(code: int, args: argparse.Namespace) -> None:
    """CompareError when pytest ran no benchmark: ``-k`` matched none, or pytest could not read it."""
    if code == _NO_TESTS:
        raise CompareError(f"no benchmark matches -k {args.k!r}")
    if code == _USAGE_ERROR:
        raise CompareError(f"pytest refused the arguments (-k {args.k!r}?): see its message above")


def run_suite(python: Path, suite_root: Path, json_path: Path, extra: Sequence[str]) -> int:
    """Run ``suite_root``/bench with ``python``, writing pytest-benchmark's JSON; returns pytest's exit code."""
    cmd = [python, "-m", "pytest", "bench", "-q", "-p", "no:cacheprovider", "--benchmark-quiet",
           f"--benchmark-json={json_path}", *extra]
    return _run(cmd, suite_root)


def minima(json_path: Path) -> Dict[str, float]:
    """Benchmark full name -> fastest round in seconds, from a pytest-benchmark JSON file (empty if absent)."""
    if not json_path.exists():
        return {}
    data = json.loads(json_path.read_text(encoding="utf-8"))
    return {bench["fullname"]: bench["stats"]["min"] for bench in data["benchmarks"]}


def report(base: Dict[str, float], work: Dict[str, float], threshold: float, allow_new: bool) -> int:
    """Print each benchmark's minima and ratio (working tree / base); returns the exit code."""
    limit = 1 + threshold / 100
    width = max((len(name) for name in work), default=10)
    print(f"\n{'benchmark':<{width}}  {'base min s':>11}  {'work min s':>11}  {'ratio':>6}")
    slower, new = [], []
    for name, seconds in sorted(work.items()):
        if name not in base:
            new.append(name)
            print(f"{name:<{width}}  {'-':>11}  {seconds:>11.5f}  {'-':>6}  NO BASELINE")
            continue
        ratio = seconds / base[name]
        flag = f"  SLOWER by {100 * (ratio - 1):.1f}%" if ratio > limit else ""
        if flag:
            slower.append(name)
        print(f"{name:<{width}}  {base[name]:>11.5f}  {seconds:>11.5f}  {ratio:>6.3f}{flag}")
    for name in sorted(set(base) - set(work)):
        print(f"{name:<{width}}  {base[name]:>11.5f}  {'-':>11}  {'-':>6}  NOT RUN ON THE WORKING TREE")
    if not work:
        print("no benchmark results from the working tree", file=sys.stderr)
        return EXIT_NO_BASELINE
    return verdict(slower, new, allow_new, "benchmark", f"more than {threshold:g}% slower")


def verdict(slower: Sequence[str], new: Sequence[str], allow_new: bool, noun: str, worse: str, hint: str = "") -> int:
    """Print the verdict and return the exit code: ``slower`` are ``worse`` than the base (e.g. "more than
    10% slower"), ``new`` have no baseline; ``noun`` names what they are, ``hint`` follows a failure."""
    if slower:
        print(f"\nFAIL: {len(slower)} {noun}(s) {worse} than the base{hint}", file=sys.stderr)
        return EXIT_SLOWER
    if new and not allow_new:
        print(f"\nNO BASELINE for {len(new)} {noun}(s) (new, or failed on the base); "
              "--allow-new accepts that", file=sys.stderr)
        return EXIT_NO_BASELINE
    print(f"\nOK: no {noun} {worse} than the base")
    return EXIT_OK


def merge_minima(runs: List[Dict[str, float]]) -> Dict[str, float]:
    """Per benchmark, the least of its minima over ``runs``."""
    merged: Dict[str, float] = {}
    for run in runs:
        for name, seconds in run.items():
            merged[name] = min(seconds, merged.get(name, seconds))
    return merged


# [ \t], not \s: a line with no reason must not take the next line as its reason.
SLOWER_LINE = re.compile(r"^Slower:[ \t]*(\S+?):[ \t]*(\S.*)$", re.MULTILINE)


def declared_slower(message: str) -> Dict[str, str]:
    """Workload name -> reason, from the lines ``Slower: <workload>: <reason>`` of a commit message."""
    return {match[1]: match[2].strip() for match in SLOWER_LINE.finditer(message)}


def report_instructions(base: Dict[str, Count], work: Dict[str, Count], failed: Sequence[str], threshold: float,
                        allow_new: bool, accepted: Dict[str, str]) -> int:
    """Print each workload's instructions on both sides, the ratio and instructions per node; returns the exit code.

    ``failed``: workloads that failed on the working tree; ``accepted``: workloads allowed to rise, with the reason.
    """
    limit = 1 + threshold / 100
    width = max((len(name) for name in [*work, *failed]), default=10)
    print(f"\n{'workload':<{width}}  {'base instr':>15}  {'work instr':>15}  {'ratio':>7}  "
          f"{'base/node':>10}  {'work/node':>10}  node")
    slower, new = [], []
    for name, now in sorted(work.items()):
        per = instructions.PER[instructions.by_name(name).path][1]
        if name not in base:
            new.append(name)
            print(f"{name:<{width}}  {'-':>15}  {now.instructions:>15,}  {'-':>7}  {'-':>10}  "
                  f"{now.per_node:>10,.1f}  {per}  NO BASELINE")
            continue
        was = base[name]
        ratio = now.instructions / was.instructions
        flag = ""
        if ratio > limit:
            flag = f"  MORE by {100 * (ratio - 1):.2f}%"
            if name in accepted:
                flag += f" (accepted: {accepted[name]})"
            else:
                slower.append(name)
        print(f"{name:<{width}}  {was.instructions:>15,}  {now.instructions:>15,}  {ratio:>7.4f}  "
              f"{was.per_node:>10,.1f}  {now.per_node:>10,.1f}  {per}{flag}")
    for name in failed:
        print(f"{name:<{width}}  FAILED ON THE WORKING TREE")
    if failed:
        print(f"\nFAIL: {len(failed)} workload(s) failed on the working tree (see above)", file=sys.stderr)
        return EXIT_SLOWER
    return verdict(slower, new, allow_new, "workload", f"more than {threshold:g}% more instructions",
                   "; a commit line 'Slower: <workload>: <reason>' accepts one")


def count_sides(pythons: Dict[str, Path], names: Sequence[str], script: Path) -> Dict[str, Dict[str, Count]]:
    """Count the workloads with each side's build, one callgrind run a side (``script``: the snapshot's
    bench/instructions.py). A workload that fails on a side is named on stderr and left out of its dict."""
    counts: Dict[str, Dict[str, Count]] = {}
    for side, python in pythons.items():
        print(f"counting {len(names)} workload(s) on {side} under callgrind ...", flush=True)
        try:
            results = instructions.count_all(python, names, script)
        except CountError as error:
            if side == "base":
                # Every workload would pass as "new": no check at all. (One workload failing on the base
                # is listed without a baseline; the whole run failing is not a baseline.)
                raise CompareError(f"the base's counting run failed as a whole, so nothing can be compared: {error}") \
                    from None
            print(f"{side}: {error}", file=sys.stderr)
            results = {}
        for name, result in results.items():
            if isinstance(result, str):
                print(f"{side}: {name}: {result}", file=sys.stderr)
        counts[side] = {name: c for name, c in results.items() if isinstance(c, Count)}
    return counts


def ab_instructions(args: argparse.Namespace, workdir: Path, pythons: Dict[str, Path]) -> int:
    """Count the chosen workloads on both builds and report (see the module docstring)."""
    names = workload_names(args)
    counts = count_sides(pythons, names, workdir / "work" / "bench" / "instructions.py")
    failed = [name for name in names if name not in counts["work"]]
    return report_instructions(counts["base"], counts["work"], failed, args.threshold, args.allow_new, args.accepted)


def workload_names(args: argparse.Namespace) -> List[str]:
    """The workloads ``--quick`` and ``-k`` choose; CompareError if none."""
    names = [w.name for w in instructions.select(args.quick, [args.k] if args.k else None)]
    if not names:
        raise CompareError(f"no workload matches -k {args.k!r}")
    return names


def ab(args: argparse.Namespace) -> int:
    """Build base and working tree, run the suite on both in alternation, report (see module docstring)."""
    # What can be refused is refused before minutes of building; REV's message is read now, so a
    # checkout during the run cannot change what is accepted.
    args.accepted = declared_slower(_git("log", "-1", "--format=%B", args.accept_slower_from)) \
        if args.instructions and args.accept_slower_from else {}
    if args.instructions:
        workload_names(args)
    workdir = Path(tempfile.mkdtemp(prefix="patience-ab-"))
    try:
        commit = export_base(args.base, workdir / "base")
        export_working_tree(workdir / "work")
        print(f"base {args.base} = {commit}; working tree snapshot in {workdir / 'work'}", flush=True)
        labels = {"base": f"the base {args.base} ({commit[:12]})", "work": "the working tree"}
        pythons = {side: build_venv(workdir / side, workdir / f"venv-{side}", lean=args.instructions, label=labels[side])
                   for side in ("base", "work")}
        if args.instructions:
            return ab_instructions(args, workdir, pythons)
        extra = _filter(args)
        runs: Dict[str, List[Dict[str, float]]] = {"base": [], "work": []}
        work_failed = False
        for i in range(args.rounds):
            # Alternate which side goes first so a drift in machine load favours neither.
            for side in ("base", "work") if i % 2 == 0 else ("work", "base"):
                print(f"\n== round {i + 1}/{args.rounds}: {side}", flush=True)
                json_path = workdir / f"{side}-{i}.json"
                code = run_suite(pythons[side], workdir / "work", json_path, extra)
                _check_collected(code, args)
                if code != 0:
                    print(f"the suite failed on the {side} build (pytest exit {code})", file=sys.stderr)
                    work_failed |= side == "work"
                runs[side].append(minima(json_path))
        result = report(merge_minima(runs["base"]), merge_minima(runs["work"]), args.threshold, args.allow_new)
        if work_failed:
            print("FAIL: the suite failed on the working tree (see above)", file=sys.stderr)
            return EXIT_SLOWER
        return result
    finally:
        if args.keep:
            print(f"kept {workdir}")
        else:
            _remove(workdir)


def storage_dir() -> Path:
    """Where pytest-benchmark saves runs of this interpreter's machine id (runs use cwd = repository)."""
    from pytest_benchmark.utils import get_machine_id

    return REPO / ".benchmarks" / get_machine_id()


def save(args: argparse.Namespace) -> int:
    """Run the suite in this interpreter's environment and save it under ``args.save``."""
    code = _run([sys.executable, "-m", "pytest", "bench", "-q", f"--benchmark-save={args.save}", *_filter(args)], REPO)
    _check_collected(code, args)
    if code == 0:
        print(f"saved in {storage_dir()}")
    return EXIT_SLOWER if code != 0 else EXIT_OK


def compare_saved(args: argparse.Namespace) -> int:
    """Run the suite and compare it with a saved run of this machine (see module docstring)."""
    storage = storage_dir()
    pattern = f"*{args.compare_saved}*.json" if args.compare_saved else "*.json"
    saved = sorted(storage.glob(pattern)) if storage.is_dir() else []
    if not saved:
        wanted = f"matching {args.compare_saved!r} " if args.compare_saved else ""
        print(f"no saved benchmark run {wanted}in {storage}: save one first with "
              f"'{sys.executable} bench/compare.py --save NAME' on the base revision", file=sys.stderr)
        return EXIT_NO_BASELINE
    baseline = saved[-1]
    print(f"comparing with {baseline}", flush=True)
    extra = _filter(args)
    with tempfile.TemporaryDirectory(prefix="patience-bench-") as tmp:
        json_path = Path(tmp) / "now.json"
        cmd = [sys.executable, "-m", "pytest", "bench", "-q", "-p", "no:cacheprovider",
               f"--benchmark-compare={baseline.stem.split('_')[0]}",
               f"--benchmark-compare-fail=min:{args.threshold:g}%", f"--benchmark-json={json_path}", *extra]
        code = _run(cmd, REPO)
        _check_collected(code, args)
        result = report(minima(baseline), minima(json_path), args.threshold, args.allow_new)
    if code != 0 and result == EXIT_OK:
        # pytest-benchmark's own check or an assertion failed where our ratios did not.
        print(f"FAIL: pytest exited {code} (see above)", file=sys.stderr)
        return EXIT_SLOWER
    return result


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``bench/compare.py``."""
    parser = argparse.ArgumentParser(
        description="Fail when a benchmark of bench/ got slower than a base revision (or a saved run).",
        epilog="Exit codes: 0 no regression, 1 slower or the suite failed, 2 no baseline to compare against.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--save", metavar="NAME", help="run the suite in this environment and save it as NAME")
    mode.add_argument("--compare-saved", metavar="ID", nargs="?", const="",
                      help="run the suite and compare with saved run ID (default: the latest)")
    parser.add_argument("--base", default="main", metavar="REV",
                        help="A/B: base revision to build (default: main, its last commit)")
    parser.add_argument("--rounds", type=int, default=3, metavar="N",
                        help="A/B: alternating rounds per side (default 3)")
    mode.add_argument("--instructions", action="store_true",
                      help="A/B by callgrind instruction counts of bench/instructions.py's workloads")
    parser.add_argument("--threshold", type=float, metavar="PCT",
                        help="fail when a minimum time (default 10) or an instruction count (default 1) "
                             "is more than PCT%% worse")
    parser.add_argument("--quick", action="store_true", help="--instructions: only the set CI runs")
    parser.add_argument("--accept-slower-from", metavar="REV",
                        help="--instructions: let a workload rise when REV's commit message has a line "
                             "'Slower: <workload>: <reason>'")
    parser.add_argument("-k", metavar="EXPR",
                        help="only benchmarks matching EXPR (pytest -k; --instructions: names containing EXPR)")
    parser.add_argument("--allow-new", action="store_true",
                        help="benchmarks without a baseline do not fail the comparison")
    parser.add_argument("--keep", action="store_true", help="A/B: keep the builds' temporary directory")
    return parser


def _terminated(signum: int, frame: object) -> None:
    """SIGTERM (``timeout``, a cancelled CI job, ``kill``) ends the run as Ctrl-C does: builds
    stopped and the temporary directory removed, by the ``finally`` blocks on the way out."""
    raise SystemExit(128 + signum)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the comparison with ``argv`` (default ``sys.argv[1:]``); returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be >= 1")
    if args.threshold is None:
        args.threshold = 1.0 if args.instructions else 10.0
    if not math.isfinite(args.threshold) or args.threshold < 0:
        parser.error(f"--threshold must be a finite number >= 0, got {args.threshold:g}")
    if not args.instructions and (args.quick or args.accept_slower_from):
        parser.error("--quick and --accept-slower-from go with --instructions")
    if args.instructions and shutil.which("valgrind") is None:
        print(f"compare.py: {instructions.VALGRIND_MISSING}", file=sys.stderr)
        return EXIT_NO_BASELINE
    try:
        if args.save is not None:
            return save(args)
        if args.compare_saved is not None:
            return compare_saved(args)
        return ab(args)
    except CompareError as error:
        print(f"compare.py: {error}", file=sys.stderr)
        return EXIT_NO_BASELINE


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, _terminated)
    sys.exit(main())
