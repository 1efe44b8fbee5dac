#!/usr/bin/env bash
# The conference-scale eval gates: the offline answers to the 232 conference questions and the 404 generalization
# questions, on a store of the 2,740 papers (the bundled corpus and ../shared/data/icml2025_abstracts.jsonl),
# checked against eval/baseline_conference.json and eval/baseline_generalization.json. A benchmark that reports
# figures (about 4 minutes to embed the conference, 2 to answer), so it is a command, not a test; CI (.ci/run)
# runs it after the test suite. Usage: bash scripts/eval_gates.sh [STORE]  (default: a temporary folder; a store
# that already holds the conference is reused). Needs the venv scripts/test.sh makes (PAPERCHAT_VENV, .venv).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${PAPERCHAT_VENV:-.venv}"
CORPUS=../shared/data/icml2025_abstracts.jsonl
export ANONYMIZED_TELEMETRY=False HF_HUB_OFFLINE=1 PAPERCHAT_DAEMON=off
if [ $# -ge 1 ]; then
    STORE="$1"
else
    TMP="$(mktemp -d)"
    trap 'rm -rf "$TMP"' EXIT
    STORE="$TMP/store"
fi
OUT="${PAPERCHAT_EVAL_OUT:-$(mktemp -d)}"
for set in conference generalization; do
    "$VENV/bin/paperchat" --store "$STORE" eval --set "$set" --corpus "$CORPUS" --out "$OUT/$set" \
        --check --baseline "eval/baseline_$set.json"
done
echo "eval gates passed (reports in $OUT)"
