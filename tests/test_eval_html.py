"""`paperchat eval --html` (paperchat.evaluation.html_report): report.html from a real small eval run.

One eval run through the CLI on a dozen bundled questions chosen to cover every kind, passes and failures,
both splits and a failed baseline check; the page is checked for the run's own values, then rendered in a
real headless Chromium (Debian's ``chromium`` package): a screenshot that is not blank and a DOM that holds
the charts and the question table.
"""

from __future__ import annotations

import copy
import json
import os
import re
import signal
import subprocess
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from markupsafe import escape

from paperchat.core.errors import PaperchatError
from paperchat.evaluation import questions as qs

CHROMIUM = Path("/usr/bin/chromium")
HAS_MATPLOTLIB = find_spec("matplotlib") is not None
needs_matplotlib = pytest.mark.skipif(
    not HAS_MATPLOTLIB, reason="the HTML report needs matplotlib: pip install 'paperchat[report]'"
)
#: Every kind, passes and failures (wrong facts, an abstention, an answered unanswerable), a follow-up and its
#: parent, a sentence the checker does not support (q049).
IDS = (
    "q001",
    "q004",
    "q031",
    "q037",
    "q045",
    "q049",
    "q053",
    "q058",
    "q062",
    "q063",
    "q068",
    "q072",
)
CHARTS = (
    "key metrics by question kind",
    "recall at 1, 5 and 10",
    "answered and abstained",
    "supported and unsupported answer sentences",
)


@pytest.fixture(scope="module")
def run_dir(bundled_store, tmp_path_factory) -> Path:
    """``paperchat eval --html --check`` on IDS (dev / test splits alternating) with a baseline it fails."""
    if not HAS_MATPLOTLIB:
        pytest.skip("the HTML report needs matplotlib: pip install 'paperchat[report]'")
    from click.testing import CliRunner

    from paperchat.cli.eval_cmd import eval_command
    from paperchat.cli.options import AppContext

    tmp = tmp_path_factory.mktemp("eval-html")
    lines = qs.default_question_set().read_text(encoding="utf-8").splitlines()
    rows = {q["id"]: q for q in (json.loads(line) for line in lines if line.strip())}
    assert set(IDS) <= set(rows), (
        "the bundled eval set no longer holds the questions this test picks"
    )
    small = [{**rows[i], "split": "dev" if n % 2 == 0 else "test"} for n, i in enumerate(IDS)]
    (tmp / "small.jsonl").write_text("\n".join(json.dumps(q) for q in small) + "\n")
    (tmp / "strict.json").write_text(json.dumps({"min": {"answers.fact_recall": 1.0}}))
    res = CliRunner().invoke(
        eval_command,
        [
            "--set",
            str(tmp / "small.jsonl"),
            "--out",
            str(tmp / "out"),
            "--html",
            "--check",
            "--baseline",
            str(tmp / "strict.json"),
            "-q",
        ],
        obj=AppContext({"store": str(bundled_store)}),
    )
    assert res.exit_code == 1, (
        res.output
    )  # the strict baseline fails: its failure is listed in the page
    assert f"html: {tmp / 'out' / 'report.html'}" in res.stdout
    return tmp / "out"


def _row_positions(page: str) -> dict[str, int]:
    return {m.group(1): m.start() for m in re.finditer(r'<tr id="q-([^"]+)"', page)}


@needs_matplotlib
def test_report_holds_the_runs_values(run_dir):
    page = (run_dir / "report.html").read_text(encoding="utf-8")
    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    assert page.startswith("<!DOCTYPE html>") and "http://" not in page.replace(
        "http://www.w3.org/", ""
    )
    assert (
        "<script" not in page and "@font-face" not in page and "<image" not in page
    )  # self-contained, vector only
    # one inline SVG per chart, text kept as text
    assert page.count("<svg") == 4
    for label in CHARTS:
        assert re.search(r'<svg class="chart" role="img" aria-label="' + re.escape(label), page), (
            label
        )
    assert ">recall@k</text>" in page and ">hybrid</text>" in page
    # overall figures as the Markdown report prints them: value and 95% CI
    for name in ("abstention.accuracy", "retrieval.mrr@10", "answers.fact_recall"):
        stat = results["overall"][name]
        lo, hi = stat["ci"]
        assert (
            f'<td>{name}</td><td class="num">{stat["value"]:.3f}</td>'
            f'<td class="num">[{lo:.3f}, {hi:.3f}]</td>'
        ) in page
    hybrid = results["baselines"]["hybrid"]["retrieval.recall@5"]
    assert (
        f'{hybrid["value"]:.3f} <span class="muted">[{hybrid["ci"][0]:.3f}, {hybrid["ci"][1]:.3f}]'
        in page
    )
    # the baseline check's failure, the splits, the configuration
    fact = results["overall"]["answers.fact_recall"]["value"]
    assert f"answers.fact_recall = {fact:.3f} is below the baseline minimum 1.000" in page
    assert (
        "<h3>dev split</h3>" in page
        and "<h3>test split</h3>" in page  # a user's own splits: no role
    )
    assert "small.jsonl" in page and "minilm-l6-int8" in page
    # every question, failures first
    rows = {r["id"]: r for r in results["questions"]}
    pos = _row_positions(page)
    assert set(pos) == set(IDS)
    failed = [i for i in IDS if not rows[i]["correct"]]
    passed = [i for i in IDS if rows[i]["correct"]]
    assert failed and passed
    assert max(pos[i] for i in failed) < min(pos[i] for i in passed)
    assert page.count('<span class="fail">FAIL</span>') == len(failed)
    for qid in IDS:
        assert str(escape(rows[qid]["question"])) in page  # escaped as Jinja2 escapes
        for pid in rows[qid]["gold"] + rows[qid]["ranked"]:
            assert pid in page
    for row in rows.values():  # the checker's unsupported sentences are marked in the answer
        for sent in row["unsupported"]:
            assert '<mark class="unsupported"' in page and str(escape(sent)).split("[")[0] in page


@needs_matplotlib
def test_every_text_is_escaped(run_dir):
    from paperchat.evaluation.html_report import render_html

    results = json.loads((run_dir / "results.json").read_text(encoding="utf-8"))
    evil = copy.deepcopy(results)
    row = next(r for r in evil["questions"] if not r["abstained"])
    row["question"] = 'Is <b>bold</b> & "quoted" safe?'
    row["answer"] = "First <script>alert(1)</script> claim [1]. Second claim [2]."
    row["unsupported"] = ["Second claim [2]."]
    row["gold"] = ["p-<img src=x>"]
    page = render_html(evil, ["<x> below"])
    assert "<script>alert" not in page and "<b>bold</b>" not in page and "<img src=x>" not in page
    assert (
        "Is &lt;b&gt;bold&lt;/b&gt; &amp; &#34;quoted&#34; safe?" in page
    )  # markupsafe's entities
    assert (
        'First &lt;script&gt;alert(1)&lt;/script&gt; claim <span class="marker">[1]</span>.' in page
    )
    assert (
        '<mark class="unsupported" title="not supported by its cited sources">Second claim '
        '<span class="marker">[2]</span>.</mark>'
    ) in page
    assert "<li>&lt;x&gt; below</li>" in page and "p-&lt;img src=x&gt;" in page


def test_missing_matplotlib_is_a_clear_error_before_the_eval_runs(monkeypatch, tmp_path):
    from click.testing import CliRunner

    from paperchat.cli import cli
    from paperchat.evaluation.html_report import write_html

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    hint = "the HTML report needs matplotlib: install the report extra (pip install 'paperchat[report]'"
    with pytest.raises(PaperchatError, match=re.escape(hint)):
        write_html({"config": {}, "questions": []}, tmp_path / "out")
    assert not (tmp_path / "out" / "report.html").exists()
    # From the CLI: refused before any question is asked (no store is even opened), nothing written.
    res = CliRunner().invoke(
        cli, ["--store", str(tmp_path / "store"), "eval", "--html", "--out", str(tmp_path / "run")]
    )
    assert (
        res.exit_code == 1
        and isinstance(res.exception, PaperchatError)
        and hint in str(res.exception)
    )
    assert not (tmp_path / "run").exists() and not (tmp_path / "store").exists()


def test_help_does_not_import_matplotlib():
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom paperchat.cli import cli\n"
        "import paperchat.evaluation.html_report\n"
        "r = CliRunner().invoke(cli, ['eval', '--help'])\n"
        "assert r.exit_code == 0 and '--html' in r.output, r.output\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


# -- a real browser ----------------------------------------------------------
def _chromium(tmp: Path, *args: str) -> subprocess.CompletedProcess:
    """Run headless Chromium (as root: no sandbox), killing its whole process group if it hangs."""
    cmd = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--user-data-dir={tmp / 'profile'}",
        *args,
    ]
    env = {**os.environ, "HOME": str(tmp)}
    proc = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"chromium did not finish within 60 s: {' '.join(cmd)}")
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


@needs_matplotlib
def test_chromium_renders_the_report(run_dir, tmp_path):
    if not CHROMIUM.exists():
        if os.environ.get("PAPERCHAT_REQUIRE_BROWSER") == "1":
            pytest.fail(
                f"PAPERCHAT_REQUIRE_BROWSER=1 but {CHROMIUM} is missing (apt-get install chromium)"
            )
        pytest.skip(
            f"no {CHROMIUM} (Debian's chromium package); set PAPERCHAT_REQUIRE_BROWSER=1 to fail instead"
        )
    import numpy as np
    from matplotlib import image

    url = (run_dir / "report.html").resolve().as_uri()
    shot = tmp_path / "report.png"
    res = _chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,3000", url)
    assert res.returncode == 0 and shot.is_file(), res.stderr[-2000:]
    pixels = image.imread(shot)
    assert pixels.shape[:2] == (3000, 1200)
    rgb = (pixels[..., :3] * 255).round().astype(np.uint8).reshape(-1, 3)
    colours = np.unique(rgb, axis=0)
    inked = (rgb.min(axis=1) < 200).mean()  # share of pixels clearly darker than the white page
    assert len(colours) > 500 and inked > 0.03, (len(colours), inked)

    res = _chromium(tmp_path, "--dump-dom", url)
    assert res.returncode == 0, res.stderr[-2000:]
    dom = res.stdout
    assert dom.count("<svg") == 4 and dom.count("</svg>") == 4
    assert '<table class="questions">' in dom and '<h2 id="questions">Questions</h2>' in dom
    assert set(_row_positions(dom)) == set(IDS)
    assert "<h1>paperchat eval report</h1>" in dom
