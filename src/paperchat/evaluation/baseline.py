"""The baseline gate of an eval run: ``check_baseline`` compares a run's figures with ``eval/baseline.json``
(``{"min": {metric: value}, "max": {metric: value}}``) and returns one line per metric that fell
outside; the CLI exits 1 when there are any.
"""

from __future__ import annotations

import difflib
import json
import math
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.evaluation.stats import METRICS, in_subset


def load_baseline(path: str | Path) -> dict[str, Any]:
    """Read a baseline file: ``{"min": {metric: value}, "max": {metric: value}, ...}``."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PaperchatError(f"cannot read the baseline {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PaperchatError(f"{path}: not UTF-8 JSON") from None
    except json.JSONDecodeError as exc:
        raise PaperchatError(f"{path}: not JSON ({exc.msg})") from None
    if (
        not isinstance(data, dict)
        or not (isinstance(data.get("min", {}), dict) and isinstance(data.get("max", {}), dict))
        or not {"min", "max", "splits"} & set(data)  # {"answers.fact_recall": 0.99} bounds nothing
    ):
        raise PaperchatError(
            f"{path}: expected an object with 'min' and 'max' maps of metric -> value "
            '(or \'splits\': {split: {min, max}}), e.g. {"min": {"answers.fact_recall": 0.8}}'
        )
    splits = data.get("splits", {})
    if not isinstance(splits, dict) or not all(isinstance(b, dict) for b in splits.values()):
        raise PaperchatError(f"{path}: 'splits' must map each split to its {{min, max}} bounds")
    for where, bounds in [("", data)] + [(f"splits.{k}.", b) for k, b in splits.items()]:
        _check_bounds(path, where, bounds)
    return data


def _check_bounds(path: Path, where: str, bounds: dict[str, Any]) -> None:
    """Refuse, before any question is asked, a bound that is no number or names no metric (a typo would
    otherwise read as "not measured" after the whole run)."""
    known = {name for name, *_ in METRICS}
    higher = {name: better for name, _subset, _field, better in METRICS}
    for bound in ("min", "max"):
        limits = bounds.get(bound, {})
        if not isinstance(limits, dict):
            raise PaperchatError(f"{path}: {where}{bound} must map metric names to numbers")
        for name, limit in limits.items():
            if name not in known:
                close = difflib.get_close_matches(str(name), sorted(known), n=1)
                hint = f"did you mean {close[0]}? " if close else ""
                raise PaperchatError(
                    f"{path}: {where}{bound}: unknown metric {name!r} ({hint}the metrics are the "
                    "keys of results.json's 'overall', e.g. answers.fact_recall)"
                )
            if (
                isinstance(limit, bool)
                or not isinstance(limit, (int, float))
                or not math.isfinite(limit)
            ):
                raise PaperchatError(
                    f"{path}: {where}{bound}.{name} must be a number, not {json.dumps(limit)}"
                )
            if higher[name] != (bound == "min"):
                # a floor on a rate that should be low fails the perfect run and passes a worse one (an eval
                # session's min of false_abstention_rate)
                other = "max" if bound == "min" else "min"
                raise PaperchatError(
                    f"{path}: {where}{bound}.{name}: {name} is better {'higher' if higher[name] else 'lower'}, "
                    f"so bound it with {other!r}, not {bound!r}"
                )
            if not 0 <= limit <= 1:  # every metric is a share: a bound past it can never be met
                raise PaperchatError(
                    f"{path}: {where}{bound}.{name} is {limit}; every metric is a share from 0 to 1"
                )


def check_splits(
    baseline: dict[str, Any], splits: set[str], path: str | Path = "the baseline"
) -> None:
    """Refuse, before any question is asked, a baseline that bounds a split the eval set does not have
    (``splits``: its questions' ``split`` values): a misspelt "tset" had failed as "not measured" after the run."""
    unknown = sorted(set(baseline.get("splits") or {}) - splits)
    if unknown:
        close = difflib.get_close_matches(unknown[0], sorted(splits), n=1)
        hint = f"did you mean {close[0]}? " if close else ""
        raise PaperchatError(
            f"{path}: splits: the eval set has no split {unknown[0]!r} ({hint}its splits: "
            f"{', '.join(sorted(splits)) or 'none'})"
        )


def _check(
    stats: dict[str, Any], bounds: dict[str, Any], where: str, skip: frozenset[str] = frozenset()
) -> list[str]:
    failures = []
    for bound, sign in (("min", 1), ("max", -1)):
        for name, limit in sorted(bounds.get(bound, {}).items()):
            got = stats.get(name, {}).get("value")
            if got is None and name in skip:
                continue
            if got is None:
                failures.append(f"{where}{name}: not measured (baseline {bound} {limit:.3f})")
            elif sign * (got - float(limit)) < -1e-9:
                word = (
                    "below the baseline minimum" if bound == "min" else "above the baseline maximum"
                )
                failures.append(f"{where}{name} = {got:.3f} is {word} {float(limit):.3f}")
    return failures


#: what a sample lacks when a metric's subset of questions (:data:`paperchat.evaluation.stats.METRICS`) is empty;
#: only subsets the questions decide: no answered question is the answerer's doing, and still fails the check
_NONE_OF = {
    "answerable": "no answerable question",
    "unanswerable": "no unanswerable question",
    "answerable with facts": "no answerable question with required facts",
    "all": "no question",
}


#: metrics a row of their subset has a value for only when it is of one kind (its field is ``None`` otherwise)
_ONLY_OF = {"answers.all_compared_cited": "no comparison question"}


def _scopes(
    results: dict[str, Any], baseline: dict[str, Any]
) -> list[tuple[str, dict[str, Any], list, dict]]:
    """``(prefix, stats, question rows, bounds)`` for the overall figures and each split the baseline bounds."""
    rows = results.get("questions") or []
    return [("", results["overall"], rows, baseline)] + [
        (
            f"{split} split: ",
            (results.get("by_split") or {}).get(split, {}).get("overall", {}),
            [r for r in rows if r.get("split") == split],
            bounds,
        )
        for split, bounds in (baseline.get("splits") or {}).items()
    ]


def _not_in_sample(results: dict[str, Any], rows: list, bounds: dict[str, Any]) -> dict[str, str]:
    """In a quick run on a sample (``--limit``): the bounded metrics whose questions the sample lacks, and what it lacks."""
    if not (results.get("config") or {}).get("limit"):
        return {}
    if (
        not rows
    ):  # a split the sample holds no question of: nothing of it was measured, answers included
        return dict.fromkeys(
            sorted({**bounds.get("min", {}), **bounds.get("max", {})}), "no question"
        )
    subsets = {name: (subset, field) for name, subset, field, _higher in METRICS}
    lacks = {}
    for name in sorted({**bounds.get("min", {}), **bounds.get("max", {})}):
        subset, field = subsets.get(name, ("", ""))
        if subset in _NONE_OF and not any(in_subset(r, subset) for r in rows):
            lacks[name] = _NONE_OF[subset]
        elif name in _ONLY_OF and not any(r.get(field) is not None for r in rows):
            # a metric of some questions of its subset only: all compared cited of the comparisons
            lacks[name] = _ONLY_OF[name]
    return lacks


def check_baseline(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """One line per metric below its ``min`` (or above its ``max``); empty when all pass.

    ``min`` / ``max`` bound the overall figures; ``splits`` (``{split: {min, max}}``)
    bound a split's figures. A metric the results lack (e.g. citation
    precision without the checker, or a split the set does not have) fails
    too, so a gate cannot pass by measuring less; except in a quick run on a
    sample (``--limit``), where a metric the sample holds no question for
    (:func:`unmeasured`: no unanswerable question, say) is skipped.
    """
    failures = []
    for where, stats, rows, bounds in _scopes(results, baseline):
        failures += _check(stats, bounds, where, frozenset(_not_in_sample(results, rows, bounds)))
    return failures


def unmeasured(results: dict[str, Any], baseline: dict[str, Any]) -> list[str]:
    """The bounded metrics a quick run's sample (``--limit``) holds no question for, each with what it lacks
    (``abstention.abstention_rate (no unanswerable question)``); empty for a full run."""
    return [
        f"{where}{name} ({lack})"
        for where, _stats, rows, bounds in _scopes(results, baseline)
        for name, lack in _not_in_sample(results, rows, bounds).items()
    ]
