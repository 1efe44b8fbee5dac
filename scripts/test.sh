#!/usr/bin/env bash
# Set up a virtual environment with paperchat and its test extras, then run the test suite.
# Usage: bash scripts/test.sh [pytest args]
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${PAPERCHAT_VENV:-.venv}"
PY="${PYTHON:-python3}"
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
"$VENV/bin/python" -m pip install --quiet -e '.[test]'
export ANONYMIZED_TELEMETRY=False HF_HUB_OFFLINE=1
"$VENV/bin/python" -m pytest -q "$@"
