"""What changed between two eval runs: paired differences of every metric, and the questions that flipped.

Two ``results.json`` files of :func:`paperchat.evaluation.runner.run_eval`
(run A, the reference, and run B, the candidate) are paired question by
question (by ``id``). For each metric of :data:`paperchat.evaluation.stats.METRICS`
the comparison is over the questions both runs measured (in the metric's
subset in both runs, with a value for its field in both): the mean in A, in
B, the difference B - A and a paired percentile bootstrap 95% interval of
that difference (Efron & Tibshirani 1993, *An Introduction to the
Bootstrap*): ``BOOTSTRAP_RESAMPLES`` (1000) resamples of the question
indices, drawn with numpy ``default_rng(BOOTSTRAP_SEED)`` (a fixed seed, so a
comparison is reproducible), the 2.5% and 97.5% quantiles of the resampled
mean differences. A change is *significant* when that interval excludes 0,
a *regression* when it is significant and in the metric's bad direction.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from paperchat.core.errors import PaperchatError
from paperchat.evaluation.stats import BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, METRICS, bootstrap_ci
from paperchat.evaluation.stats import (
    in_subset as in_subset,  # the subset rule the run's own figures use
)

LEVEL = 0.95
_EPS = 1e-12  # an interval bound this close to 0 counts as 0 (float noise)
_QUESTION_WIDTH = 72


def load_run(path: str | Path) -> dict[str, Any]:
    """Read an eval run: ``path`` is a ``--out`` folder holding ``results.json``, or that file itself.

    Returns the loaded dict. Raises :class:`PaperchatError` (one line) when the
    file is missing, unreadable, not JSON, or not an eval run's results
    (an object with a ``questions`` list).
    """
    path = Path(path)
    file = path / "results.json" if path.is_dir() else path
    if not file.exists():
        where = f"{path} does not exist" if not path.exists() else f"{path} holds no results.json"
        raise PaperchatError(
            f"no eval run at {path}: {where} (write one with `paperchat eval --out {path}`)"
        )
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise PaperchatError(f"cannot read {file}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise PaperchatError(
            f"{file}: not a text file (expected the results.json of `paperchat eval`)"
        ) from None
    except json.JSONDecodeError as exc:
        raise PaperchatError(f"{file}: not JSON ({exc.msg}, line {exc.lineno})") from None
    _check_run(data, str(file))
    return data


def _check_run(run: Any, name: str) -> None:
    if not isinstance(run, dict) or not isinstance(run.get("questions"), list):
        raise PaperchatError(
            f"{name}: not the results.json of `paperchat eval` (no 'questions' list)"
        )
    ids = []
    for i, row in enumerate(run["questions"], 1):
        if not isinstance(row, dict) or not isinstance(row.get("id"), str):
            raise PaperchatError(f"{name}: question row {i} has no 'id'")
        ids.append(row["id"])
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise PaperchatError(
            f"{name}: question id {dupes[0]} appears more than once; ids must be unique to pair runs"
        )


def _in(row: dict[str, Any], subset: str, field: str) -> bool:
    try:
        return in_subset(row, subset) and row.get(field) is not None
    except KeyError as exc:
        raise PaperchatError(
            f"question {row['id']}: the row lacks the field {exc} (a results.json of another "
            "paperchat version?)"
        ) from None


def _value(row: dict[str, Any], field: str) -> float:
    try:
        return float(row[field])
    except (TypeError, ValueError):
        raise PaperchatError(
            f"question {row['id']}: {field} is {row[field]!r}, not a number"
        ) from None


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _round(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def _metric(
    subset: str,
    field: str,
    higher: bool,
    pairs: list[tuple[dict, dict]],
    rows_a: list[dict],
    rows_b: list[dict],
) -> dict[str, Any]:
    both = [
        (_value(ra, field), _value(rb, field))
        for ra, rb in pairs
        if _in(ra, subset, field) and _in(rb, subset, field)
    ]
    diffs = [y - x for x, y in both]
    ci = bootstrap_ci(diffs, resamples=BOOTSTRAP_RESAMPLES, seed=BOOTSTRAP_SEED, level=LEVEL)
    up, down = ci is not None and ci[0] > _EPS, ci is not None and ci[1] < -_EPS
    return {
        "subset": subset,
        "field": field,
        "higher_is_better": higher,
        "n": len(both),
        "a": _round(_mean([x for x, _ in both])),
        "b": _round(_mean([y for _, y in both])),
        "diff": _round(_mean(diffs)),
        "ci": None if ci is None else [round(ci[0], 4), round(ci[1], 4)],
        "significant": up or down,
        "regression": down if higher else up,
        "improvement": up if higher else down,
        "a_run": _round(_mean([_value(r, field) for r in rows_a if _in(r, subset, field)])),
        "b_run": _round(_mean([_value(r, field) for r in rows_b if _in(r, subset, field)])),
    }


def _flip(ra: dict[str, Any], rb: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": rb["id"],
        "kind": rb.get("kind"),
        "question": rb.get("question", ""),
        "failure": rb.get("failure", ""),
        "failure_a": ra.get("failure", ""),
    }


def compare_runs(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Compare run B with run A (two loaded ``results.json`` dicts); a JSON-ready dict.

    Questions are paired by ``id``. For every metric of ``stats.METRICS``,
    over the paired questions in the metric's subset with a value in both
    runs: ``n``, the means ``a`` and ``b``, ``diff`` (B - A, in the metric's
    unit: a share in [0, 1] for every current metric), ``ci`` (``[low, high]``,
    paired percentile bootstrap 95% interval of the difference: 1000 resamples
    of the question indices with numpy ``default_rng`` and a fixed seed;
    Efron & Tibshirani 1993), ``significant`` (the interval excludes 0),
    ``regression`` / ``improvement`` (significant, in the metric's bad / good
    direction by its higher-is-better flag), and ``a_run`` / ``b_run`` (each
    run's own mean over all its questions, as its report gives it). Values
    are ``None`` when no paired question has one. All figures rounded to 4 places.

    Returns ``{"runs": {"a": {set, retriever, mode, questions}, "b": ...},
    "paired": n, "only_a": [ids], "only_b": [ids], "reworded": [ids whose
    question text differs], "relabelled": [ids whose gold, facts, answerable or kind differ], "method": {...}, "metrics": {name: {...}},
    "regressions": [names], "improvements": [names], "newly_failing": [{id,
    kind, question, failure (B's reason), failure_a}], "newly_passing": [...],
    "config_diff": {key: {"a": value, "b": value}}}``.

    Raises :class:`PaperchatError` when a dict is not an eval run (no
    ``questions`` list, rows without ``id``, repeated ids, rows lacking a
    metric's subset fields) or when the two runs share no question id.
    """
    _check_run(a, "run A")
    _check_run(b, "run B")
    rows_a, rows_b = a["questions"], b["questions"]
    by_b = {r["id"]: r for r in rows_b}
    ids_a = {r["id"] for r in rows_a}
    pairs = [(ra, by_b[ra["id"]]) for ra in rows_a if ra["id"] in by_b]
    cfg_a, cfg_b = a.get("config") or {}, b.get("config") or {}
    if not pairs:
        sets = f" (run A: {cfg_a.get('set', '?')}, run B: {cfg_b.get('set', '?')})"
        raise PaperchatError(
            f"the two runs share no question id{sets}: nothing to compare; run both on the same "
            "eval set"
        )
    metrics = {
        name: _metric(subset, field, higher, pairs, rows_a, rows_b)
        for name, subset, field, higher in METRICS
    }
    return {
        "runs": {
            side: {
                "set": cfg.get("set"),
                "retriever": cfg.get("retriever"),
                "mode": cfg.get("mode"),
                "questions": len(rows),
            }
            for side, cfg, rows in (("a", cfg_a, rows_a), ("b", cfg_b, rows_b))
        },
        "paired": len(pairs),
        "only_a": [r["id"] for r in rows_a if r["id"] not in by_b],
        "only_b": [r["id"] for r in rows_b if r["id"] not in ids_a],
        "reworded": [ra["id"] for ra, rb in pairs if ra.get("question") != rb.get("question")],
        "relabelled": [
            ra["id"]
            for ra, rb in pairs
            if any(ra.get(key) != rb.get(key) for key in ("gold", "facts", "answerable", "kind"))
        ],
        "method": {
            "difference": "B - A over the paired questions in the metric's subset in both runs",
            "interval": "paired percentile bootstrap over questions (Efron & Tibshirani 1993)",
            "resamples": BOOTSTRAP_RESAMPLES,
            "seed": BOOTSTRAP_SEED,
            "level": LEVEL,
        },
        "metrics": metrics,
        "regressions": [name for name, m in metrics.items() if m["regression"]],
        "improvements": [name for name, m in metrics.items() if m["improvement"]],
        "newly_failing": [
            _flip(ra, rb) for ra, rb in pairs if ra.get("correct") and not rb.get("correct")
        ],
        "newly_passing": [
            _flip(ra, rb) for ra, rb in pairs if not ra.get("correct") and rb.get("correct")
        ],
        "config_diff": {
            key: {"a": cfg_a.get(key), "b": cfg_b.get(key)}
            for key in dict.fromkeys([*cfg_a, *cfg_b])
            if cfg_a.get(key) != cfg_b.get(key)
        },
    }


def _num(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{x:+.3f}" if signed else f"{x:.3f}"


def _short(text: str, width: int = _QUESTION_WIDTH) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _run_label(run: dict[str, Any]) -> str:
    return (
        f"{run.get('set') or '?'}, {run['questions']} questions, retriever {run.get('retriever') or '?'}, "
        f"mode {run.get('mode') or '?'}"
    )


def render_comparison(cmp: dict[str, Any], label_a: str = "A", label_b: str = "B") -> str:
    """The plain-text comparison a terminal user reads, from :func:`compare_runs`'s dict.

    A header (the two runs, the paired questions, config differences), one
    line per metric (n, A, B, Δ = B - A, the 95% CI of Δ, a marker ``▼ worse``
    / ``▲ better`` when the interval excludes 0), then the newly failing
    questions (with B's failure reason) and the newly passing ones.
    ``label_a`` / ``label_b`` name the runs (e.g. their folders).
    """
    runs = cmp["runs"]
    lines = [
        f"A: {label_a} ({_run_label(runs['a'])})",
        f"B: {label_b} ({_run_label(runs['b'])})",
        f"paired questions: {cmp['paired']}"
        + (f"; only in A: {len(cmp['only_a'])}" if cmp["only_a"] else "")
        + (f"; only in B: {len(cmp['only_b'])}" if cmp["only_b"] else ""),
    ]
    if cmp["config_diff"]:
        lines.append(
            "config differs: "
            + "; ".join(
                f"{k} {json.dumps(v['a'])} → {json.dumps(v['b'])}"
                for k, v in cmp["config_diff"].items()
            )
        )
    if cmp["reworded"]:
        lines.append(
            f"warning: {len(cmp['reworded'])} paired question(s) have other wording in B "
            f"(e.g. {cmp['reworded'][0]})"
        )
    if cmp.get("relabelled"):  # an edited label moves a figure as much as a code change
        lines.append(
            f"warning: {len(cmp['relabelled'])} paired question(s) have other labels in B (gold papers, "
            f"facts, answerable or kind; e.g. {cmp['relabelled'][0]})"
        )
    lines += ["", f"{'metric':36s} {'':1s} {'n':>4s} {'A':>7s} {'B':>7s} {'Δ':>7s}  95% CI of Δ"]
    for name, m in cmp["metrics"].items():
        arrow = "↑" if m["higher_is_better"] else "↓"
        ci = f"[{m['ci'][0]:+.3f}, {m['ci'][1]:+.3f}]" if m["ci"] else "–"
        mark = "▼ worse" if m["regression"] else "▲ better" if m["improvement"] else ""
        lines.append(
            f"{name:36s} {arrow} {m['n']:4d} {_num(m['a']):>7s} {_num(m['b']):>7s} "
            f"{_num(m['diff'], signed=True):>7s}  {ci:18s} {mark}".rstrip()
        )
    method = cmp["method"]
    lines += [
        "↑/↓: higher/lower is better. A, B: means over the n questions both runs measured.",
        f"CI: paired bootstrap over questions, {method['resamples']} resamples; ▼/▲: the CI excludes 0.",
    ]
    own = [
        f"  {name:36s} {'':1s} {'':4s} {_num(m['a_run']):>7s} {_num(m['b_run']):>7s}"
        for name, m in cmp["metrics"].items()
        if (_num(m["a_run"]), _num(m["b_run"])) != (_num(m["a"]), _num(m["b"]))
    ]
    if own:
        lines += [
            "",
            "each run's own figure where it differs (over all its questions, as its report.md gives it):",
            *own,
        ]
    lines += [
        "",
        f"regressions: {', '.join(cmp['regressions']) or 'none'}",
        f"improvements: {', '.join(cmp['improvements']) or 'none'}",
    ]
    for title, rows, reason in (
        ("newly failing", cmp["newly_failing"], "failure"),
        ("newly passing", cmp["newly_passing"], "failure_a"),
    ):
        lines += ["", f"{title} ({len(rows)})" + (":" if rows else "")]
        for r in rows:
            why = r[reason] or "–"
            lines.append(f"  {r['id']:8s} {_short(r['question'])}")
            lines.append(f"  {'':8s} {'B: ' if reason == 'failure' else 'was: '}{why}")
    for side in ("a", "b"):
        ids = cmp[f"only_{side}"]
        if ids:
            more = f" … (+{len(ids) - 20})" if len(ids) > 20 else ""
            lines += ["", f"only in {side.upper()} ({len(ids)}): {', '.join(ids[:20])}{more}"]
    return "\n".join(lines)
