"""The citation checker (paperchat.cite.checker) and the stream renumbering, without an LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperchat.answer.model_text import is_abstention
from paperchat.cite.checker import SupportChecker, missing_facts, names, numbers
from paperchat.cite.markers import StreamRenumber, answer_sentences, renumber
from paperchat.core.contract import ABSTENTION
from paperchat.ingest.corpus import bundled_corpus_files, load_file
from paperchat.ingest.embedding import get_embedder

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def abstracts() -> dict[tuple[str, int], str]:
    out = {}
    for f in bundled_corpus_files():
        for p in load_file(f)[0]:
            out[(p.source_path, p.source_index)] = p.abstract
    return out


@pytest.fixture(scope="module")
def gnn(abstracts) -> str:
    return abstracts[("000_215d12c2ee2986f8.txt", 1)]


@pytest.fixture(scope="module")
def checker():
    return SupportChecker(get_embedder())


def verify_answer(answer, sources, checker):
    return [c.to_json() for c in checker.verify_answer(answer, sources)]


def check_sentence(sentence, texts, checker):
    return checker.check_sentence(sentence, texts)


def test_numbers_and_names():
    assert numbers(
        "Pruning 70% of GPT-2 XL heads, 1,000 runs, 3.50 s, six techniques, 100x faster"
    ) == {"70", "1000", "3.5", "6", "100"}
    assert names(
        "GNN+ beats GraphSAGE on QM9 and ZINC250k, unlike KernelSHAP's Atari results."
    ) == {"GNN+", "GraphSAGE", "QM9", "ZINC250k", "KernelSHAP", "Atari"}
    assert (
        missing_facts(
            "K2IE uses RL on D4RL with MuJoCo-based tasks.",
            "reinforcement learning with K$^2$IE on D4RL in MuJoCo",
        )
        == []
    )
    assert missing_facts("GPT-3 on Meta-World with 17 tasks", "GPT-2 on MuJoCo with 14 tasks") == [
        "17",
        "GPT-3",
        "Meta-World",
    ]


def test_answer_sentences_keep_markers_with_their_sentence():
    assert answer_sentences("A holds [1]. B holds. [2] C holds [1, 3]. D.") == [
        "A holds [1].",
        "B holds. [2]",
        "C holds [1, 3].",
        "D.",
    ]
    # a break-it session: a paragraph's opening "[1]" had been moved back onto the uncited sentence before
    # it, which then passed as cited while the sentence it opened was flagged
    assert answer_sentences(
        "[1] A is simple. B uses a reward model.\n\n[1] C focuses on tokens."
    ) == [
        "[1] A is simple.",
        "B uses a reward model.",
        "[1] C focuses on tokens.",
    ]
    # after a sentence that cites its own, a leading marker opens the next sentence
    assert answer_sentences("A holds [1]. [2] B holds.") == ["A holds [1].", "[2] B holds."]


def test_an_uncited_sentence_before_a_cited_paragraph_is_flagged(gnn, checker):
    text = (
        "GNN+ integrates six widely used techniques.\n\n[1] GNN+ is a framework for classic GNNs."
    )
    out = verify_answer(text, {1: gnn}, checker)
    assert [(s["citations"], s["supported"]) for s in out][0] == ([], False)
    assert out[1]["citations"] == [1]


def test_supported_sentence(gnn, checker):
    check = check_sentence(
        "GNN+ was evaluated on 14 well-known graph-level datasets [1].", [gnn], checker
    )
    assert check.supported and check.citations == [1] and check.missing == []
    assert 0.6 <= check.score <= 1.0


def test_changed_number_is_unsupported(gnn, checker):
    check = check_sentence(
        "GNN+ was evaluated on 17 well-known graph-level datasets [1].", [gnn], checker
    )
    assert not check.supported and check.missing == ["17"]


def test_swapped_name_is_unsupported(gnn, checker):
    check = check_sentence("The study re-evaluates GCN, GIN and GraphSAGE [1].", [gnn], checker)
    assert not check.supported and check.missing == ["GraphSAGE"]


def test_sentence_without_citation_is_unsupported(gnn, checker):
    out = verify_answer("GNN+ integrates six widely used techniques.", {1: gnn}, checker)
    assert out == [
        {
            "text": "GNN+ integrates six widely used techniques.",
            "citations": [],
            "supported": False,
            "score": 0.0,
            "missing": [],
            "conflict": None,
        }
    ]


def test_wrong_source_is_unsupported(abstracts, checker):
    other = abstracts[("000_215d12c2ee2986f8.txt", 18)]
    out = verify_answer("GNN+ integrates six widely used techniques [1].", {1: other}, checker)
    assert out[0]["supported"] is False


@pytest.mark.integration  # every held-out claim through the checker
def test_checker_on_the_held_out_claims_keeps_its_reported_figures():
    """The checker on eval/claims/test.jsonl (155 claims written without sight of the checker; never tuned on).

    The figures the README and the checker's docstring report: with the learned verifier accuracy 0.774,
    precision 0.892 and recall 0.710 for "unsupported"; the rules alone 0.761 / 0.912 / 0.667 (0.690 / 0.959
    / 0.505 before the facts and cues rules).
    """
    import sys

    sys.path.insert(0, str(ROOT / "eval"))
    import calibrate_checker as cc

    figures = {}
    for learned in (True, False):
        rows = cc.judge(cc.load_claims("test"), SupportChecker(get_embedder(), learned=learned))
        stats = cc.confusion(rows)
        assert stats["n"] == 155 and stats["tp"] + stats["fn"] == 93
        figures[learned] = (
            round(stats["accuracy"], 3),
            round(stats["precision"], 3),
            round(stats["recall"], 3),
        )
        by_kind = {k: cc.confusion([r for r in rows if r["kind"] == k]) for k in cc.KINDS}
        assert by_kind["wrong-source"]["recall"] == 1.0 and by_kind["verbatim"]["fp"] == 0
    assert figures == {True: (0.774, 0.892, 0.71), False: (0.761, 0.912, 0.667)}


def test_stream_renumber_matches_renumber():
    raw = "A [3]. B [1, 3]. C [7]. D [2-3]. E [x] and [4"
    pieces = ["A [", "3", "]. B [1,", " 3]. C [7", "]. D [2-", "3]. E [x] and [4"]
    out: list[str] = []
    stream = StreamRenumber(5, out.append)
    for p in pieces:
        stream.feed(p)
    stream.close()
    # the terminal shows what is recorded: the space a dropped [7] left before the full stop goes too
    assert "".join(out) == "A [1]. B [2, 1]. C. D [3, 1]. E [x] and [4"
    text, order, invalid = renumber(raw, 5)
    assert text == "".join(out)
    assert order == stream.order == [3, 1, 2] and invalid == [7]


def test_markers_a_model_writes_with_a_word_or_in_full_width_brackets_are_citations():
    # SmolLM2 and other small models write "[Source 2]" or "【1】" for the numbered sources; they had been
    # left as text, so the sentence counted as uncited and the source was not listed
    raw = "A holds [Source 2]. B holds 【1】. Both [Paper 1, Paper 2]; see [Figure 3] and [Ref: 9]."
    pieces = [
        "A holds [Sou",
        "rce 2]. B holds 【",
        "1】. Both [Paper 1,",
        " Paper 2]; see [Fig",
        "ure 3] and [Ref: 9].",
    ]
    out: list[str] = []
    stream = StreamRenumber(3, out.append)
    for p in pieces:
        stream.feed(p)
    stream.close()
    text, order, invalid = renumber(raw, 3)
    assert text == "".join(out) == "A holds [1]. B holds [2]. Both [2, 1]; see [Figure 3] and."
    assert order == [2, 1] and invalid == [9]


def test_footnote_and_named_markers_are_citations():
    # a chat break-it session: "[1†source]" (OpenAI's style), "[^1]" and "[1: CROW]" had been left as text
    raw = "A holds [1†source]. B holds [^2]. C holds [3: CROW]; D holds a[1:3] and [Figure 3]."
    out: list[str] = []
    stream = StreamRenumber(3, out.append)
    for p in (
        "A holds [1†so",
        "urce]. B holds [^",
        "2]. C holds [3: CR",
        "OW]; D holds a[1:3] and [Figure 3].",
    ):
        stream.feed(p)
    stream.close()
    text, order, invalid = renumber(raw, 3)
    assert (
        text
        == "".join(out)
        == "A holds [1]. B holds [2]. C holds [3]; D holds a[1:3] and [Figure 3]."
    )
    assert order == [1, 2, 3] and invalid == []


def test_is_abstention():
    assert is_abstention(ABSTENTION)
    assert is_abstention(f' "{ABSTENTION.lower()}" [1]')
    assert not is_abstention(ABSTENTION + " But [1] mentions graphs.")


@pytest.mark.parametrize(
    "claim,source,reason",
    [
        (
            "CROW requires a clean reference model to work.",
            "CROW works without requiring clean reference models.",
            "the source says the opposite about 'clean' (does without it)",
        ),
        (
            "Low-rank OT can compute a one-to-one correspondence.",
            "Low-rank OT cannot compute a one-to-one correspondence.",
            "the source says it cannot or does not 'compute'",
        ),
        (
            "Like DPO, ConfPO adjusts all token probabilities.",
            "Unlike DPO, which adjusts all token probabilities, ConfPO focuses on critical tokens.",
            "the source contrasts what the claim likens ('dpo')",
        ),
        (
            "The method is always faster than baselines.",
            "The method is often faster than baselines.",
            "'always' overstates the source",
        ),
        (
            "The authors prove that the method converges.",
            "Experiments show that the method converges quickly.",
            "'prove': the source proves nothing",
        ),
        (
            "AnalogGenie-Lite is an encoder-only transformer.",
            "AnalogGenie-Lite is a decoder-only transformer.",
            "the source says 'decoder-only', not 'encoder-only'",
        ),
        (
            "Traditional models beat the generative approach.",
            "The generative approach beats traditional models.",
            "the source compares the other way round",
        ),
    ],
)
def test_cues_name_the_contradiction(claim, source, reason):
    from paperchat.cite.cues import conflict

    assert conflict(claim, source, [source]) == reason


@pytest.mark.parametrize(
    "claim,source",
    [
        ("ConfPO needs no auxiliary models.", "ConfPO requires no auxiliary models or compute."),
        (
            "The method avoids post-hoc computation.",
            "Unlike post-hoc explainers, the method avoids post-hoc computation.",
        ),
        ("It learns without supervision.", "It is an unsupervised method."),
        # a chat break-it session: both had been "the source says the opposite"
        (
            "CROW needs only a small clean dataset.",
            "CROW neutralizes backdoors without requiring clean reference models or trigger "
            "knowledge—only a small clean dataset.",
        ),
        (
            "CROW removes backdoors by enforcing consistency across layers.",
            "CROW enforces consistency across layers via adversarial perturbations.",
        ),
    ],
)
def test_cues_leave_faithful_paraphrases_alone(claim, source):
    from paperchat.cite.cues import conflict

    assert conflict(claim, source, [source]) is None


def test_bounds_complexities_counts_and_compound_names():
    source = (
        "It achieves $5.15\\times$ gains and 23.5\\% improvements with $O(\\varepsilon^{-3})$ samples on four "
        "commercial video games and five software applications, on Llama-2 and Mistral-7B."
    )
    assert missing_facts("It gains at least 5x and more than 20%.", source) == []
    assert missing_facts("It gains at least 6x.", source) == ["6"]
    # "up to N" is the most the text gives (a chat break-it session: "up to 9x" passed against 4.43x)
    assert missing_facts("It gains up to 5x.", source) == []
    assert missing_facts("It gains up to 9x.", source) == ["9"]
    # an answer's count of its own papers is no number of the text ("One paper ...", "Two papers ...")
    assert missing_facts("Two papers study video games; one of them uses Llama-2.", source) == []
    assert missing_facts("It needs O(ε^-3) samples.", source) == []
    assert missing_facts("It needs O(ε^-2) samples.", source) == ["o(eps^-2)"]
    assert missing_facts("It is tested on five commercial video games.", source) == ["5 commercial"]
    assert missing_facts("It runs on Falcon-7B.", source) == ["Falcon-7B"]
    assert missing_facts("It runs on Llama-2.", source) == []


def test_a_second_citation_to_a_paper_that_says_nothing_of_the_sentence_is_flagged(
    abstracts, checker
):
    """ "... unseen moduli [1, 3]" had passed with [3] a paper on something else: every [n] must back it."""
    confpo, crow = (
        abstracts[("000_215d12c2ee2986f8.txt", 3)],
        abstracts[("000_215d12c2ee2986f8.txt", 2)],
    )
    claim = "ConfPO identifies preference-critical tokens based on the training policy's confidence"
    (alone,) = checker.verify_answer(f"{claim} [1].", {1: confpo, 2: crow})
    (both,) = checker.verify_answer(f"{claim} [1, 2].", {1: confpo, 2: crow})
    assert alone.supported and alone.conflict is None
    assert not both.supported and both.conflict.startswith(
        "source [2] supports nothing in it (score 0."
    )
    # a second paper on the same topic that never names the sentence's method (a local-LLM session: it passed)
    attacks = abstracts[("000_215d12c2ee2986f8.txt", 4)]  # backdoor attacks in token selection
    claim = "CROW reduces attack success rates across diverse backdoor strategies"
    (alone,) = checker.verify_answer(f"{claim} [1].", {1: crow, 2: attacks})
    (padded,) = checker.verify_answer(f"{claim} [1, 2].", {1: crow, 2: attacks})
    assert alone.supported and not padded.supported
    assert padded.conflict == "source [2] names none of CROW"


def test_a_list_items_number_is_no_sentence_of_its_own():
    # a small model's numbered steps had been flagged "sentence 5 (no citation): 2."
    assert answer_sentences(
        "It works in two steps: 1.\nTokenize the input [1].\n2.\nPredict it [2]."
    ) == [
        "It works in two steps: 1. Tokenize the input [1].",
        "2. Predict it [2].",
    ]
    assert answer_sentences("Accuracy reached 2. Next claim [1].") == [
        "Accuracy reached 2.",
        "Next claim [1].",
    ]


def test_list_lines_are_sentences_and_an_interval_is_no_citation():
    # a grounding skeptic's session: an uncited bullet, or a line without a full stop, ran into the cited
    # line above and passed with it; an item's number was checked as a number of the claim; "range [0, 1]"
    # became "range [1]", citing the first source
    from paperchat.cite.markers import answer_sentences, find_citations

    answer = (
        "Key points:\n* ConfPO selects tokens by confidence [1]\n* ConfPO is widely deployed\n"
        "2. It needs no auxiliary model [1].\nA line wrapped\nmid-sentence [1]."
    )
    assert answer_sentences(answer) == [
        "Key points: ConfPO selects tokens by confidence [1]",
        "ConfPO is widely deployed",
        "It needs no auxiliary model [1].",
        "A line wrapped mid-sentence [1].",
    ]
    # a lead-in that cites is a claim of its own: the invented bullet after it is checked alone; a sentence
    # ending inside quotes ends there (a local-LLM session: each had passed inside a cited sentence)
    assert answer_sentences(
        "CROW regularizes during finetuning [1]:\n- It retrains from scratch."
    ) == [
        "CROW regularizes during finetuning [1]:",
        "It retrains from scratch.",
    ]
    assert answer_sentences('It was written by "volunteers." BenchBuilder curates data [1].') == [
        'It was written by "volunteers."',
        "BenchBuilder curates data [1].",
    ]
    assert answer_sentences(
        "It retrains from scratch (see the appendix!) CROW regularizes [1]."
    ) == [
        "It retrains from scratch (see the appendix!)",
        "CROW regularizes [1].",
    ]
    assert find_citations("scores in the range [0, 1] [2] and [0,10]") == [2]
    assert find_citations("cites [1, 3] and [2-4]") == [1, 3, 2, 3, 4]


def test_one_as_a_pronoun_is_no_number():
    # an LLM session: "... with a smoothed one [1]" was flagged "not in the cited source: 1"
    from paperchat.cite.facts import missing_facts

    cited = (
        "SmPO-Diffusion replaces the binary preference distribution with a smoothed distribution."
    )
    assert missing_facts("It replaces the binary distribution with a smoothed one.", cited) == []
    assert missing_facts("It picks one of the tokens.", cited) == []
    assert missing_facts("It trains one model per task.", cited) == ["1"]
