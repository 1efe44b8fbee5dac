"""At conference scale (the 2,740-paper ``icml_store``): questions an engineer choosing methods asks, a
benchmark hunter's lists and counts, and an author's co-authors. Found by three newcomers' sessions (an
industry practitioner, a benchmark and dataset hunter, a researcher following authors)."""

from __future__ import annotations

from paperchat.chat.session import ChatSession

SWE_BENCH = {
    "Cq1BNvHx74", "qnE2m3pIAb", "LyUfPOvM6I", "ybODpT8ydV", "k6p8UKRdH7", "NMdWQXosFs",
}  # fmt: skip


def _ids(answer) -> list[str]:
    return [s.paper_id for s in answer.sources]


def test_a_list_or_count_of_one_benchmarks_papers_is_every_paper_writing_it(icml_engine):
    # "Which papers report results on SWE-bench?" had listed 2 of the 6 and SWE-Flow, which never writes
    # it; "How many papers report results on GSM8K?" had counted "report results on GSM8K" word by word
    listed = icml_engine.ask("Which papers report results on SWE-bench?", mode="extractive")
    assert set(_ids(listed)) == SWE_BENCH and listed.count == 6
    assert listed.answer.startswith('6 stored papers write "SWE-bench" in their title or abstract')
    counted = icml_engine.ask("How many papers evaluate on SWE-bench?", mode="extractive")
    assert counted.count == 6
    # 16: one writes "GSM-8K" (the forty-fourth round reads a name with and without its hyphen)
    assert icml_engine.ask("How many papers report results on GSM8K?").count == 16


def test_which_benchmark_does_something_names_the_benchmark_paper(icml_engine):
    # each had abstained: "the abstract names no benchmark" (OR-Bench's name is its title's) or "names no
    # LLMs" (the question asks for a benchmark, not an LLM)
    for question, paper in [
        ("Which benchmark measures over-refusal in LLMs?", "CdFnEu0JZV"),
        ("Which benchmark evaluates LLM type inference for Python?", "xl9sv9vEDy"),
        (
            "Which benchmark evaluates LLMs on exploiting web application vulnerabilities?",
            "3pk0p4NGmQ",
        ),
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert not answer.abstained and _ids(answer)[0] == paper, question
    # asked of a paper, a named model is still required: GuardAgent's abstract names no LLM
    guard = icml_engine.ask("Which LLM does GuardAgent use as its reasoning backbone?")
    assert guard.abstained and guard.notes[-1].endswith("the abstract names no LLM")


def test_hardware_named_by_its_gpu_and_downsides_asked_other_ways(icml_engine):
    # "on an A100 GPU" gives the hardware (it had abstained, "the abstract does not give the hardware")
    hardware = icml_engine.ask("What hardware did ShadowKV use?", mode="extractive")
    assert _ids(hardware) == ["oa7MYAO6h6"] and "on an A100 GPU" in hardware.answer
    # "the catch" and "fall short" ask for a paper's own limitations (its speedups had been quoted)
    for question, paper in [
        ("What's the catch with QuantSpec?", "7SHbJENgHX"),
        ("Where does SLiM fall short?", "4UfRP8MopP"),
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert (
            answer.abstained and f"({paper}): its abstract states no limitation" in answer.notes[0]
        )
    # the note names the question's words, not its auxiliary ('writes none of "Does", "run", "CPUs"')
    floe = icml_engine.ask("Does FloE run on CPUs?", mode="extractive")
    assert floe.notes == [
        'the abstract of FloE (i5aHAkkhJH) writes none of "run", "CPUs": the quotes may not decide the '
        "question"
    ]
    # "Qwen" is written in "Qwen2.5-7B-Instruct" (the note had said KVTuner "does not write 'Qwen'")
    assert icml_engine.ask("Does KVTuner work on Qwen models?", mode="extractive").notes == []


def test_is_there_code_asks_of_the_paper_just_shown(icml_engine):
    # "is there code?" and "is there code for it?" had searched for code-generation papers
    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("Tell me about any4")
    code = chat.handle("is there code?").answer
    assert _ids(code) == ["tJmhOPkWCj"]
    assert code.answer.startswith(
        "We open source our code at https://github.com/facebookresearch/any4"
    )
    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("Tell me about FloE")
    none = chat.handle("is there code for it?").answer
    assert none.abstained and none.notes[-1] == (
        "closest paper: FloE: On-the-Fly MoE Inference on Memory-constrained GPU (i5aHAkkhJH); the "
        "abstract does not give the code link"
    )


def test_co_authors_and_years_of_an_author(icml_engine):
    # "Who are Sergey Levine's co-authors?" abstained; "... before 2025?" listed his 2025 papers
    co = icml_engine.ask("Who are Sergey Levine's co-authors?", mode="extractive")
    assert co.answer.splitlines()[:2] == [
        "Sergey Levine has 59 co-authors on 11 stored papers:",
        "Aviral Kumar: 3 papers [8][10][11].",
    ]
    assert len(co.sources) == 11
    on = icml_engine.ask("Who are the co-authors of Sergey Levine on offline RL?")
    assert on.answer.splitlines()[0] == (
        'Sergey Levine has 11 co-authors on 3 stored papers holding "offline RL":'
    )
    before = icml_engine.ask("What did Sergey Levine publish before 2025?", mode="extractive")
    assert before.abstained and before.notes == [
        'no stored paper by an author named "Sergey Levine" appeared before 2025 (stored years: 2025)'
    ]
    # a paper no store of ICML 2025 holds is not the nearest title's
    old = icml_engine.ask("Who wrote Attention Is All You Need?", mode="extractive")
    assert old.abstained and old.notes == [
        'no stored paper is titled or named "Attention Is All You Need"'
    ]
    assert _ids(icml_engine.ask("Who developed DISCO?", mode="extractive")) == ["6EZ3MDDf6p"]


def test_a_rate_asked_for_is_the_papers_own_bound(icml_engine):
    # a theory researcher's session: the answer had quoted the earlier bound DFE improves on, the
    # [Li, Feldman, ...] bound LCFPWXymVt strengthens, and oOAICE3sY7's setting without its regret
    for question, paper, bound in [
        ("What regret does DFE attain?", "hOxq91N1Sb", "$O((N^2+K)\\log T / \\Delta)$"),
        (
            "Which paper proves a near linear query lower bound for submodular maximization, and what "
            "is the bound?",
            "LCFPWXymVt",
            "We strengthen their lower bound to a nearly tight $\\tilde{\\Omega}(n)$",
        ),
        (
            "What regret does the algorithm for reinforcement learning with trajectory feedback achieve?",
            "oOAICE3sY7",
            "$\\tilde{O}\\left(\\sqrt{SAH^3K}\\right)$ in $K$ episodes",
        ),
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert _ids(answer) == [paper] and bound in answer.answer.split("[1]")[0], question


def test_download_links_pay_and_premises_a_question_does_not_make(icml_engine):
    # a download question is answered by the link, as a code question is (the link had been left out)
    for question, paper, link in [
        (
            "Where can I download the OR-Bench dataset?",
            "CdFnEu0JZV",
            "https://huggingface.co/bench-llms",
        ),
        ("Where can I download NoLiMa?", "0OshX1hiSa", "https://github.com/adobe-research/NoLiMa"),
    ]:
        answer = icml_engine.ask(question, mode="extractive")
        assert _ids(answer)[0] == paper and link in answer.answer.split("[1]")[0]
    hosted = icml_engine.ask("Where is the MIB benchmark hosted?", mode="extractive")
    assert hosted.abstained and hosted.notes[-1].endswith(
        "the abstract does not give the download link"
    )
    # annotators' pay is no abstract's (a p-value had been quoted)
    paid = icml_engine.ask("How much were the CASE-Bench annotators paid?", mode="extractive")
    assert paid.abstained and paid.notes[-1].endswith(
        "(FCHIGDCoow); the abstract does not give the pay"
    )
    # the alternative a comparison names is no premise: Liger had been declined, its abstract "denying"
    # training from scratch
    liger = icml_engine.ask(
        "Is Liger better than training a linear model from scratch?", mode="extractive"
    )
    assert _ids(liger) == ["1PfZs0xC2v"] and not liger.abstained
    # nor is what a question looking for a paper wants: GANQ's "training-free" only says it is not the one
    method = icml_engine.ask(
        "Which method lets me train a 7B model on a consumer GPU like an RTX 3090?",
        mode="extractive",
    )
    assert not any("premise" in note for note in method.notes)


def test_this_rate_refers_to_the_answer_before(icml_engine):
    # "what proof technique gives this rate?" had searched all papers and cited the one labelled RATE
    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("What convergence rate does PNGBiO get?")
    answer = chat.handle("what proof technique gives this rate?").answer
    # PNGBiO's abstract names no proof technique: declined, about PNGBiO
    assert answer.abstained and answer.notes[-1] == (
        "closest paper: Generalized Smooth Bilevel Optimization with Nonconvex Lower-Level "
        "(LVqWNYhPXR); the abstract does not give the proof technique"
    )


def test_which_of_two_named_papers_cites_both(icml_engine):
    # "Which of any4 and GANQ is more accurate at 4 bits?" had quoted GANQ alone, as if the winner
    for question, pair in [
        ("Which of any4 and GANQ is more accurate at 4 bits?", ["tJmhOPkWCj", "pkKQGJ5d99"]),
        ("Is QuantSpec faster than BanditSpec?", ["7SHbJENgHX", "ghkWIlliZ8"]),
    ]:
        assert _ids(icml_engine.ask(question, mode="extractive")) == pair, question
    # a model that is no stored paper's name is no second paper
    assert _ids(icml_engine.ask("Does FloE use less memory than Mixtral?")) == ["i5aHAkkhJH"]


def test_papers_introducing_a_benchmark_on_a_topic(icml_engine):
    # "... a benchmark for sparse autoencoders?" had listed ten SAE method papers, SAEBench ninth, no AxBench
    answer = icml_engine.ask(
        "Which papers introduce a benchmark for sparse autoencoders?", mode="extractive"
    )
    assert answer.answer.splitlines()[0] == (
        '4 stored papers with every word of "sparse autoencoders" introduce a benchmark:'
    )
    assert set(_ids(answer)) == {"qrU3yNfX0d", "9v1eW8HgMU", "K2CckZjNy0", "sSrOwve6vb"}
    assert "we introduce AxBench, a large-scale benchmark" in answer.answer and answer.count == 4
    safety = icml_engine.ask("Which papers introduce a new benchmark for LLM safety?")
    assert {"FCHIGDCoow", "CdFnEu0JZV"} <= set(_ids(safety))  # CASE-Bench and OR-Bench


def test_the_verifiers_finds(icml_engine):
    # a download question's link, not a sentence saying "open-source LLMs"
    data = icml_engine.ask("Where can I download the CASE-Bench dataset?", mode="extractive")
    assert data.answer.startswith(
        "Code and data used in the paper are available at https://anonymous.4open.science/r/CASEBench-D5DB"
    )
    assert icml_engine.ask("Where is the any4 code?").answer.startswith(
        "We open source our code at https://github.com/facebookresearch/any4"
    )
    # a title stored with non-breaking hyphens, typed with "-"
    who = icml_engine.ask(
        "Who wrote Belief-Driven Multi-Agent LLM Reasoning via Bayesian Nash Equilibrium?",
        mode="extractive",
    )
    assert _ids(who) == ["RQwexjUCxm"]
    invented = icml_engine.ask("Who invented the Transformer?", mode="extractive")
    assert invented.abstained and invented.notes == [
        'no stored paper is titled or named "Transformer"'
    ]
    assert _ids(icml_engine.ask("Who made OR-Bench?", mode="extractive")) == ["CdFnEu0JZV"]
    # either of two named papers: both quoted
    both = icml_engine.ask("Does OR-Bench or CASE-Bench have more prompts?", mode="extractive")
    assert _ids(both) == ["CdFnEu0JZV", "FCHIGDCoow"]
    chat = ChatSession(icml_engine, mode="extractive")
    chat.handle("Tell me about CASE-Bench")
    assert _ids(chat.handle("where can I get the data?").answer) == ["FCHIGDCoow"]
