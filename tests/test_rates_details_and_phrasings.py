"""Asks read by rule, as four newcomers and a verifier wrote them: a rate or bound (the paper's own bound
in asymptotic notation leads; the setting, or earlier work's bound, had been quoted instead), details an
abstract must give, and the phrasings of co-author, year, "who wrote" and comparison asks."""

from __future__ import annotations

from dataclasses import dataclass

from paperchat.answer.rates import asks_rate, rate_first, states_bound


@dataclass(frozen=True)
class Cand:
    text: str
    score: float = 0.5
    role: str = "result"


def test_a_bound_is_read_in_its_notations():
    assert states_bound("a regret of $\\tilde{O}\\left(\\sqrt{SAH^3K}\\right)$ in $K$ episodes")
    assert states_bound("a lower bound of $\\Omega(n/k)$") and states_bound("O(1/sqrt(T)) rate")
    assert states_bound("$\\mathcal{O}(\\epsilon^{-2})$ iterations")
    assert not states_bound("We study GPT-4o (O3) on 12 tasks") and not states_bound(
        "SO(3) equivariance"
    )
    assert asks_rate("What regret does DFE attain?") and asks_rate("and what is the bound?")
    assert not asks_rate("Which datasets does DFE use?")


def test_the_papers_own_bound_leads_not_earlier_works():
    earlier = Cand(
        "This paper improves the existing max-min regret upper bound of $O(K^3 \\log T)$.", 0.9
    )
    setting = Cand("We consider an MP-MAB problem where $N$ players compete for $K$ arms.", 0.8)
    ours = Cand("Our algorithm attains a regret upper bound of $O((N^2+K)\\log T / \\Delta)$.", 0.4)
    picked = [earlier, setting]
    assert rate_first(picked, [earlier, setting, ours], "What regret does DFE attain?", 3) == [
        ours,
        earlier,
        setting,
    ]
    # improving on earlier work's bound is the paper's own; a lower bound asked for leads with one
    cited = Cand("[Li, Feldman, NeurIPS'22] gave an $\\Omega(n/k)$ query lower bound.", 0.9)
    strengthened = Cand(
        "We strengthen their lower bound to a nearly tight $\\tilde{\\Omega}(n)$.", 0.3
    )
    additive = Cand("We can estimate it in $\\tilde{O}(n/k)$ queries.", 0.8)
    own = [cited, additive, strengthened]
    assert rate_first([cited, additive], own, "What lower bound does it prove?", 2) == [
        strengthened,
        cited,
    ]
    # no rate asked: unchanged
    assert rate_first([cited, additive], own, "What does it study?", 2) == [cited, additive]


def test_details_abstracts_do_not_give_are_read_by_name():
    # a theorist's, a benchmark hunter's and a practitioner's unanswerable asks had been answered
    from paperchat.answer.details import DOWNLOAD, asked_detail, holds_detail

    assert (
        asked_detail("Which theorem number states the regret lower bound in X?") == "theorem number"
    )
    assert (
        asked_detail("What are the constants hidden in the O(log log T) bound?")
        == "hidden constants"
    )
    assert asked_detail("How much were the CASE-Bench annotators paid?") == "pay"
    assert asked_detail("Where can I download the OR-Bench dataset?") == DOWNLOAD
    assert asked_detail("Where is the MIB benchmark hosted?") == DOWNLOAD
    assert holds_detail(
        "Our datasets are publicly available at https://huggingface.co/x.", DOWNLOAD
    )
    assert not holds_detail("MIB has two tracks spanning four tasks.", DOWNLOAD)
    assert holds_detail("3.04x higher throughput on an A100 GPU", "hardware")
    assert holds_detail("Our proof relies on a new coupling argument.", "proof technique")


def test_the_verifiers_phrasings_are_read():
    from paperchat.answer.coauthors import asks_for_coauthors
    from paperchat.answer.focus import PaperText
    from paperchat.answer.intent import COMPARE
    from paperchat.answer.titled import names_another_paper
    from paperchat.answer.year_asks import asked_year
    from paperchat.chat.ellipsis import spelled_out

    mentions = PaperText(
        "x", "Reversible Transformers", "We study transformers built on LoRA (Hu).", 0, 0
    )
    assert names_another_paper("Who invented the Transformer?", mentions) == "Transformer"
    assert names_another_paper("Who created the ImageNet dataset?", mentions) == "ImageNet"
    assert names_another_paper("Who developed LoRA?", mentions) == "LoRA"  # mentioned, not coined
    assert spelled_out("where can I get the data?", 1) == "Where can I download its data?"
    assert COMPARE.search("Does OR-Bench or CASE-Bench have more prompts?")
    assert (
        asked_year("Has Sergey Levine published anything since 2024?").op,
        asked_year("What did Bo Li publish in 2024?").year,
    ) == ("since", 2024)
    assert all(
        asks_for_coauthors(q)
        for q in (
            "Which researchers worked with Sergey Levine?",
            "How many people has Sergey Levine co-authored with?",
        )
    )


def test_which_benchmark_does_x_asks_for_a_paper_but_benchmark_datasets_are_asked_of_one():
    from paperchat.answer.entity_asks import asked_entity

    assert asked_entity("Which benchmark measures over-refusal in LLMs?") is None
    # another kind's noun after the first is no verb (a CI run: the audited "... benchmark datasets were
    # used in the GNN pruning paper?" had lost its "names no benchmark" abstention)
    assert (
        asked_entity("Which benchmark datasets were used in the GNN pruning paper?") == "benchmark"
    )
    assert asked_entity("Which datasets do they evaluate on?") == "datasets"
