"""Time paperchat adds before the first LLM token, against calling the same server directly.

Starts the loopback OpenAI-compatible stub from tests/openai_stub.py, then, in
one warm process and for ``--runs`` questions (median reported):

* direct: the openai client streams a chat completion from the stub; time to the first content piece;
* paperchat: ``Engine.ask(question, mode="llm", on_token=...)`` on the bundled
  store; time from the call to the first piece reaching ``on_token``
  (retrieval, source fitting, prompt rendering, the same request).

    python eval/bench_first_token.py [--runs 20] [--store DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from openai_stub import Reply, StubServer  # noqa: E402

REPLY = "ConfPO selects preference-critical tokens by the training policy's confidence [1]."


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--store", default=None)
    args = ap.parse_args()

    import openai

    from paperchat.core.settings import load_settings
    from paperchat.engine import Engine

    questions = [
        json.loads(line)["question"]
        for line in (HERE / "questions.jsonl").read_text().splitlines()
        if line.strip()
    ]
    questions = [q for q in questions if "ConfPO" not in q][: args.runs] + [
        "What does ConfPO use to pick preference-critical tokens?"
    ]
    with StubServer() as server, tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            {
                "store": args.store or tmp,
                "llm_base_url": server.base_url,
                "llm_model": "stub-model",
                "llm_api_key": "sk-bench",
                "mode": "llm",
            }
        )
        engine = Engine(settings)
        engine.ensure_corpus()
        client = openai.OpenAI(base_url=server.base_url, api_key="sk-bench", max_retries=0)
        direct, ours = [], []
        for i, q in enumerate(questions):
            server.script(Reply(REPLY), Reply(REPLY))
            t = time.perf_counter()
            first = None
            for chunk in client.chat.completions.create(
                model="stub-model", stream=True, messages=[{"role": "user", "content": q}]
            ):
                if chunk.choices and chunk.choices[0].delta.content:
                    first = first or time.perf_counter() - t
            seen: list[float] = []
            t = time.perf_counter()
            engine.ask(
                q,
                on_token=lambda piece: seen.append(time.perf_counter() - t) if not seen else None,  # noqa: B023
            )
            if i == 0:
                continue  # warm-up
            if seen and first is not None:
                direct.append(first * 1000)
                ours.append(seen[0] * 1000)
        added = [o - d for o, d in zip(ours, direct)]
        print(f"runs: {len(added)}")
        print(f"direct first token   median {statistics.median(direct):.1f} ms")
        print(f"paperchat first token median {statistics.median(ours):.1f} ms")
        print(
            f"paperchat adds        median {statistics.median(added):.1f} ms (p95 {sorted(added)[int(0.95 * (len(added) - 1))]:.1f} ms)"
        )


if __name__ == "__main__":
    main()
