#!/usr/bin/env bash
# The conference-scale eval gates: the offline answers to the 232 conference questions and the 1,324 generalization
# questions, on a store of the 2,740 papers (the bundled corpus and the 2,732 ICML 2025 abstracts), checked against
# eval/baseline_conference.json and eval/baseline_generalization.json. A benchmark that reports figures (about
# 6 minutes on 2 cores: 3 to embed the conference, 3 to answer), so it is a command, not a test; CI (.ci/run) runs
# it after the test suite. Both gates run; the exit status is 1 when either fails.
#
# Usage: bash scripts/eval_gates.sh [STORE]
#   STORE                        a store folder to use (kept; one that already holds the conference is reused);
#                                default: a temporary folder, removed at the end
#   PAPERCHAT_CONFERENCE_CORPUS  the ICML 2025 abstracts (default: ../shared/data/icml2025_abstracts.jsonl)
#   PAPERCHAT_EVAL_OUT           where the reports go (default: a new temporary folder, printed at the end)
#   PAPERCHAT_VENV               the venv scripts/test.sh made (default: .venv)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${PAPERCHAT_VENV:-.venv}"
CORPUS="${PAPERCHAT_CONFERENCE_CORPUS:-../shared/data/icml2025_abstracts.jsonl}"
export ANONYMIZED_TELEMETRY=False HF_HUB_OFFLINE=1 PAPERCHAT_DAEMON=off
if [ ! -x "$VENV/bin/paperchat" ]; then
    echo "error: no paperchat in $VENV; run bash scripts/test.sh first (or set PAPERCHAT_VENV)" >&2
    exit 1
fi
if [ ! -f "$CORPUS" ]; then
    echo "error: $CORPUS: no such file; set PAPERCHAT_CONFERENCE_CORPUS to the ICML 2025 abstracts (JSONL)" >&2
    exit 1
fi
if [ $# -ge 1 ]; then
    STORE="$1"
else
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    STORE="$TMP/store"
fi
OUT="${PAPERCHAT_EVAL_OUT:-$(mktemp -d)}"
failed=()
for set in conference generalization; do
    "$VENV/bin/paperchat" --store "$STORE" eval --set "$set" --corpus "$CORPUS" --out "$OUT/$set" \
        --check --baseline "eval/baseline_$set.json" || failed+=("$set")
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "eval gates failed: ${failed[*]} (reports in $OUT)" >&2
    exit 1
fi
echo "eval gates passed (reports in $OUT)"
