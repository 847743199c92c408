"""Winnability surveys: solve a range of numbered deals into an SQLite file, and report on it.

``run_survey`` solves deals ``A..B`` of one game and writes one ``Row`` per
deal to a table ``deals`` of an SQLite database, committing each row as soon as
its deal finishes, so a killed survey loses at most the deals being solved.
Rows are keyed by game, engine version, node limit, table size, player, threads and deal. The
engine version is a digest of the game's lines of the bench signature and a revision
number (``signature.engine_version``), so it changes whenever what the engine computes
for that game changes, and not with the package version. Running again with the same
settings skips the deals already stored; running with another node limit,
table size, player, threads or engine version adds rows under their own key
beside the old ones, never mixing them: ``summarize`` and the ``patience
report`` command treat each (game, engine version, node limit, table bytes,
player, threads) as a separate survey.

The package's modules, whose public names are all importable from here:

- ``store``: the SQLite file (which files it writes, durability, reading where nothing
  can be written, ``read_rows``; ``FileKind`` for the perft database too);
- ``execution``: solving in this process, local worker processes or on Dask
  (``run_survey``, ``solve_deal``, ``check_scheduler_address``, ``on_dask``, ``held_database``);
- ``statistics``: the figures of a survey (``summarize``, ``wilson_interval``);
- ``report``: the text of ``patience report`` and its plot;
- ``perft``: a perft split into subtrees, counted on Dask or here and kept in a perft database of
  its own kind (``run_perft``), resumable as a survey is.

Numbers and deal ranges are read and checked by ``patience_engine.limits``.
"""

from .._errors import MissingExtraError
from ..limits import MAX_SQLITE_INTEGER, MAX_SURVEY_DEAL, parse_deal_range, parse_decimal
from .execution import (
    DEFAULT_NODE_LIMIT,
    JOBS_PER_CPU,
    SurveyRun,
    Tasks,
    check_engine_version,
    check_scheduler_address,
    cluster_threads,
    connect,
    default_jobs,
    held_database,
    on_dask,
    play_deal,
    run_survey,
    solve_deal,
)
from .perft import (
    DEFAULT_PERFT_DB,
    MIN_SPLIT_PLIES,
    PERFT_FILE,
    SUBTREES_PER_THREAD,
    PerftRun,
    Subtree,
    count_subtrees,
    run_perft,
    split_plies,
    subtree_positions,
)
from .report import format_report, plot
from .statistics import (
    Z_95,
    Comparison,
    Merged,
    Summary,
    compare_with_thoughtful,
    contradict,
    merge_rows,
    percentile,
    summarize,
    wilson_interval,
)
from .store import (
    APPLICATION_ID,
    DEFAULT_DB,
    PERFT_APPLICATION_ID,
    SCHEMA_VERSION,
    SURVEY_FILE,
    THOUGHTFUL,
    FileKind,
    Row,
    SurveyFile,
    SurveyFileError,
    claim_database,
    close_database,
    insert_into,
    insert_rows,
    open_database,
    read_rows,
    release_database,
)

__all__ = [
    "APPLICATION_ID",
    "DEFAULT_DB",
    "DEFAULT_NODE_LIMIT",
    "DEFAULT_PERFT_DB",
    "JOBS_PER_CPU",
    "MAX_SQLITE_INTEGER",
    "MAX_SURVEY_DEAL",
    "MIN_SPLIT_PLIES",
    "PERFT_APPLICATION_ID",
    "PERFT_FILE",
    "SCHEMA_VERSION",
    "SUBTREES_PER_THREAD",
    "SURVEY_FILE",
    "Comparison",
    "FileKind",
    "Merged",
    "MissingExtraError",
    "PerftRun",
    "Row",
    "Subtree",
    "Summary",
    "SurveyFile",
    "SurveyFileError",
    "SurveyRun",
    "THOUGHTFUL",
    "Tasks",
    "Z_95",
    "check_engine_version",
    "check_scheduler_address",
    "claim_database",
    "close_database",
    "cluster_threads",
    "compare_with_thoughtful",
    "connect",
    "contradict",
    "count_subtrees",
    "default_jobs",
    "format_report",
    "held_database",
    "insert_into",
    "insert_rows",
    "merge_rows",
    "on_dask",
    "open_database",
    "parse_deal_range",
    "parse_decimal",
    "percentile",
    "play_deal",
    "plot",
    "read_rows",
    "release_database",
    "run_perft",
    "run_survey",
    "solve_deal",
    "split_plies",
    "subtree_positions",
    "summarize",
    "wilson_interval",
]
