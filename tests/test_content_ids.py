"""A ``p-…`` id names its abstract in any store: an eval set written on a store whose file gave no ids (so its
papers are ``p-<hash of the abstract>``) had found none of its 18 gold papers in a store whose file gives
each paper its own id ("the store lacks 18 gold paper(s)"), and `summarize p-…` found nothing."""

from __future__ import annotations

import json

import pytest
from cli_env import run_cli

from paperchat import Paperchat
from paperchat.core.errors import PaperchatError
from paperchat.evaluation import runner
from paperchat.ingest.corpus import paper_id_for

PRUNE = "We prune graph neural networks by edge saliency. Accuracy stays within one percent of the dense model."
GRASP = (
    "We learn robot grasping from tactile signals. Success rises to ninety percent on new objects."
)


@pytest.fixture(scope="module")
def with_ids(tmp_path_factory):
    """A store whose file gives each paper its own id (as the ICML file does)."""
    root = tmp_path_factory.mktemp("ids")
    rows = [
        {"id": "Edge01", "title": "Edge Saliency Pruning", "abstract": PRUNE},
        {"id": "Grasp01", "title": "Tactile Grasping", "abstract": GRASP},
    ]
    (root / "own.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    pc = Paperchat(root / "store", mode="extractive")
    pc.ingest([root / "own.jsonl"])
    return pc, root


def test_a_p_id_from_another_store_names_the_paper_with_that_abstract(with_ids, tmp_path):
    pc, root = with_ids
    derived = paper_id_for(PRUNE)  # what a store of a file without ids calls it
    assert derived.startswith("p-") and pc.paper(derived).paper_id == "Edge01"
    assert pc.engine.content_ids([derived, "Edge01", "p-000000000000"]) == {derived: "Edge01"}
    # as a filter, a summary target and an eval set's gold paper
    answer = pc.ask("Which paper prunes by saliency?", papers=[derived])
    assert [s.paper_id for s in answer.sources] == ["Edge01"]
    assert pc.summarize(derived).sources[0].paper_id == "Edge01"
    questions = tmp_path / "q.jsonl"
    row = {"id": "m1", "question": "Which paper prunes GNNs by edge saliency?", "gold": [derived]}
    questions.write_text(json.dumps(row) + "\n")
    results = runner.run_eval(pc.engine, questions, baselines=(), check_support=False)
    assert results["questions"][0]["gold"] == ["Edge01"]
    # an id no stored abstract derives is still refused
    with pytest.raises(PaperchatError, match="no paper with id p-000000000000 in the store"):
        pc.paper("p-000000000000")
    ran = run_cli("summarize", "p-000000000000", store=root / "store")
    assert ran.returncode == 1 and "no paper with id p-000000000000" in ran.stderr
