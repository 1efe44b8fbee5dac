#!/usr/bin/env python3
"""Builds questions.jsonl from the hand-written question specs below.

Every answerable single-paper question was written from a paper in sample.json
(the order number "#k" in the note is its position in the sample's shuffled
order). Multi-paper gold sets come from searching all 2,732 titles+abstracts
(see note for the regexes) and reading every hit. Unanswerable questions were
verified by search (off-topic regexes, near-miss names) or by reading the named
paper's abstract (false-premise).
Stdlib only. Usage: python3 build_questions.py  -> writes questions.jsonl
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import HERE

# (sample order, paper id, question, facts, sub-type)
LOOKUP = [
    (
        0,
        "7SHbJENgHX",
        "What end-to-end speed-up does QuantSpec, the self-speculative decoding method whose draft uses a hierarchical 4-bit quantized KV cache, report?",
        [["2.5×", "2.5x", "2.5"]],
        "number",
    ),
    (
        1,
        "ps3aO9MHJv",
        "Which concrete model variants does the missingness-avoiding (MA) learning framework instantiate for trees, ensembles and sparse linear models?",
        [["MA-DT"], ["MA-LASSO"], ["MA-RF"], ["MA-GBT"]],
        "list",
    ),
    (
        2,
        "AAgzsnhc28",
        "With Adversarial Post-Training (APT), what resolution and frame rate of video can the one-step generator produce in real time?",
        [["1280x720", "1280×720"], ["24fps", "24 fps"]],
        "number",
    ),
    (
        4,
        "mqDgNdiTai",
        "What technique is used to speed up the online learning in PAK-UCB, the contextual bandit for choosing among prompt-based generative models?",
        [["random Fourier features", "RFF"]],
        "method",
    ),
    (
        7,
        "dzwUOiBlQW",
        "What gFID does MAETok reach on ImageNet generation, and with how many tokens?",
        [["1.69"], ["128"]],
        "number",
    ),
    (
        9,
        "otNB7BzsiR",
        "In the paper that sets layer-wise sparsity rates of LLMs with an arithmetic progression, by how much is perplexity reduced for the 70% sparse LLaMA2-7B obtained with Wanda?",
        [["52.10"]],
        "number",
    ),
    (
        11,
        "W9s817KqYf",
        "In Windows Agent Arena, what success rate does the best multimodal agent achieve, and how does that compare to humans?",
        [["19.5"], ["74.5"]],
        "number",
    ),
    (
        13,
        "tnyxtaSve5",
        "Which disease's MRI and clinical data were collected to build the professional-level medical reasoning benchmark that comes with the Clinical Graph of Thoughts model?",
        [["Hypoxic-Ischemic Encephalopathy", "HIE"]],
        "dataset",
    ),
    (
        14,
        "h3EEUJaMLu",
        "Where is the CoastalBench coastal circulation dataset located, and roughly how many mesh cells does it have?",
        [["Florida"], ["6 million"]],
        "dataset",
    ),
    (
        17,
        "bJnSplWSCL",
        "What end-to-end inference speed-up does Ladder Residual give a 70B-parameter Transformer using tensor parallelism over 8 devices?",
        [["29%"]],
        "number",
    ),
    (
        20,
        "wKs9fHYxCV",
        "On which symbolic reasoning benchmarks does the constrained decoding algorithm CRANE show up to 10 points of accuracy gain?",
        [["GSM-symbolic"], ["FOLIO"]],
        "dataset",
    ),
    (
        30,
        "DqlN1yFyxN",
        "How much does DRMARL reduce package recirculation in the simulated warehouse destination-to-chute mapping scenario?",
        [["80%"]],
        "number",
    ),
    (
        33,
        "EIEpGfixF6",
        "When deployed on a microcontroller, how much does QUTE cut latency on average?",
        [["31%"]],
        "number",
    ),
    (
        34,
        "SyQPiZJVWY",
        "How many problems does LLM-SRBench contain, and what symbolic accuracy does the best-performing system reach on it?",
        [["239"], ["31.5%"]],
        "number",
    ),
    (
        37,
        "dqYO5LVyYh",
        "Besides supervised learning, which self-supervised frameworks does the Two-stage Symmetry Connectivity (TSC) backdoor purification defense carry over to?",
        [["SimCLR"], ["CLIP"]],
        "list",
    ),
    (
        40,
        "HDbWrsgkB9",
        "How many benchmarks and how many language models were used to test the evaluation approach that predicts question difficulty from content for item-response-theory based LM evaluation?",
        [["22"], ["183"]],
        "number",
    ),
    (
        43,
        "fE3kgW7kMp",
        "What does the Self-Information Rewrite Attack (SIRA) cost per million tokens, and against how many watermarking methods was it tested?",
        [["0.88"], ["seven", "7"]],
        "number",
    ),
    (
        44,
        "kxFu9rQ0Mu",
        "How many preference pairs are in the dataset built from raw multi-turn speech conversations for aligning full-duplex spoken dialogue models?",
        [["150,000", "150K", "150000"]],
        "number",
    ),
    (
        51,
        "DtVVltU1ak",
        "How much wearable data, and from how many individuals, was used to train the foundation models of behavioral wearable signals for health prediction?",
        [["2.5B"], ["162K"]],
        "number",
    ),
    (
        53,
        "sqjQ6p56GR",
        "What graph structure does YieldNet use as a stand-in for the transition state when predicting chemical reaction yields?",
        [["condensed graph of reaction", "CGR"]],
        "method",
    ),
    (
        54,
        "YV05KZt7v2",
        "How large are the gains of the ORCA reward on Meta-world and on Humanoid-v4 when the demonstration is temporally misaligned?",
        [["4.5"], ["6.6"]],
        "number",
    ),
    (
        56,
        "q6f9Fg9LHe",
        "What training speed-up does OmniBal report, and relative to which open-source training code?",
        [["1.8"], ["InternVL-Chat", "InternVL"]],
        "number",
    ),
    (
        58,
        "PzSG5nKe1q",
        "What model sizes were trained with RLEF on competitive programming tasks?",
        [["8B"], ["70B"]],
        "number",
    ),
    (
        62,
        "Pokj70ZAxJ",
        "By how much average mIoU does the Domain Feature Navigator (DFN) beat the previous best method for cross-domain few-shot segmentation in the 1-shot and 5-shot settings?",
        [["2.69"], ["4.68"]],
        "number",
    ),
    (
        66,
        "vDB2oX3Wl3",
        "Which deepfake benchmarks are used to evaluate the LVLM framework built from a Knowledge-guided Forgery Detector and a Forgery Prompt Learner?",
        [["FF++"], ["DFDC"], ["DF40"]],
        "list",
    ),
    (
        70,
        "x4qvBVuzzu",
        "Which consumer GPU does the state-based fine-tuning paper (a memory-saving generalization of LoRA with parallel control) use to show that 7B/8B models can be trained without quantization?",
        [["3090"]],
        "method",
    ),
    (
        76,
        "ATqGm1WyDj",
        "In 'Memory Layers at Scale', up to how many memory parameters are scaled, and on how many pretraining tokens?",
        [["128B"], ["1 trillion"]],
        "number",
    ),
    (
        79,
        "SP43jVv7fJ",
        "What is the dataset called that was built to simulate modality conflict, the input-level clash that makes multimodal LLMs hallucinate?",
        [["MMMC", "Multimodal Modality Conflict"]],
        "dataset",
    ),
    (
        80,
        "89QPmZjIhv",
        "On which datasets is the All-atom Diffusion Transformer (ADiT) evaluated?",
        [["MP20"], ["QM9"], ["GEOM-DRUGS"]],
        "dataset",
    ),
    (
        81,
        "XAckVo0iNj",
        "How large is the protected image set that SPELL, the sparse repellency method for diffusion models, is shown to steer away from?",
        [["1.2M"], ["ImageNet"]],
        "number",
    ),
    (
        82,
        "FuGps5Zyia",
        "How many human games are open-sourced with the AH2AC2 challenge, and which card game is it based on?",
        [["3,079", "3079"], ["Hanabi"]],
        "number",
    ),
    (
        84,
        "gqZO3eSZRy",
        "Across how many benchmarks does Galileo, the multimodal remote sensing model, outperform specialist models?",
        [["eleven", "11"]],
        "number",
    ),
    (
        94,
        "bWeLpOgqGp",
        "Which known duality does the neural-network framework for discovering dualities in lattice statistical mechanics rediscover, and for which model?",
        [["Kramers-Wannier"], ["Ising"]],
        "method",
    ),
    (
        100,
        "HexoeKd0g2",
        "How many new distortion types does LAION-C introduce, and which multimodal LLMs are named among the evaluated models?",
        [["six", "6"], ["GPT-4o", "Gemini"]],
        "number",
    ),
    (
        102,
        "IQN6ID0snT",
        "On which constraint satisfaction problems is ConsFormer evaluated?",
        [["Sudoku"], ["Graph Coloring"], ["Nurse Rostering"], ["MAXCUT", "max-cut"]],
        "list",
    ),
    (
        104,
        "Em2oaXd8Dc",
        "How much auxiliary memory per token does HashAttention need, and by what factor can it reduce the tokens used when trained on generic data?",
        [["32 bits"], ["16×", "16x", "16\\times"]],
        "number",
    ),
    (
        106,
        "Nvf4jFsbv9",
        "What inference-time speed-up on LLMs does the matrix multiplication algorithm for binary and ternary weight matrices achieve?",
        [["5.24"]],
        "number",
    ),
    (
        108,
        "Sg8ZqQ9J6W",
        "With limited data, by how much does RepLoRA outperform vanilla LoRA, and what share of the training data does it need to match LoRA's performance?",
        [["40.0%", "40%"], ["30.0%", "30%"]],
        "number",
    ),
    (
        111,
        "XzZC4gs1mf",
        "Which visual features does LongVU rely on to drop redundant video frames, and on which hour-long video benchmarks is it highlighted?",
        [["DINOv2"], ["VideoMME", "MLVU"]],
        "method",
    ),
    (
        114,
        "AulTigiaMv",
        "What attack success rate on AdvBench and what hallucination rate do the investigator models for behavior elicitation obtain?",
        [["100%"], ["85%"]],
        "number",
    ),
    (
        117,
        "DjJmre5IkP",
        "How much does adaptively choosing the decoding order improve Sudoku accuracy for pretrained masked diffusion models?",
        [["90"]],
        "number",
    ),
    (
        119,
        "FJKnru1xUF",
        "In AutoAdvExBench, what share of CTF-like versus real-world adversarial example defenses does the strongest agent ensemble break?",
        [["87%"], ["37%"]],
        "number",
    ),
    (
        122,
        "YtQCoUtWQ9",
        "For top quark tagging, what fraction of the parameters does EKAN need to match state-of-the-art equivariant architectures?",
        [["40"]],
        "number",
    ),
    (
        123,
        "hWYisuBbp7",
        "In the Gather-and-Aggregate study, how much MMLU accuracy does Llama-3.1-8B (after pruning) lose when just one Gather or Aggregate head is switched off?",
        [["66%"], ["25%"]],
        "number",
    ),
    (
        125,
        "NngoETL9IK",
        "How many attribution methods and how many ImageNet models are evaluated by the randomized-smoothing framework that certifies pixel-level attributions?",
        [["12"], ["5 ImageNet", "five"]],
        "number",
    ),
    (
        126,
        "RuMfpz8bTw",
        "What median speed-up and energy saving does the fused output-stationary GPU kernel for Kronecker-sparse matrices achieve in FP32?",
        [["1.4"], ["15%"]],
        "number",
    ),
    (
        128,
        "hE0uIz07cv",
        "With Llama 3.3-70B-Instruct, how much does Rejecting Instruction Preferences (RIP) raise the Arena-Hard score?",
        [["67.5"], ["82.9"]],
        "number",
    ),
    (
        134,
        "IQ4V1yRCJv",
        "What average attack success rate does FlipAttack reach across 8 LLMs, and what bypass rate against guard models?",
        [["78.97"], ["98"]],
        "number",
    ),
    (
        141,
        "9sNiCqi2RD",
        "How much more robust under paraphrasing is the end-to-end logits-perturbation watermark for LLM text than distortion-free watermarks?",
        [["37–39%", "37-39%", "37"]],
        "number",
    ),
    (
        145,
        "c5R0lKLIr3",
        "What compression ratio do the byte-level pre-trained transformers reach on out-of-distribution audio, and what does FLAC get?",
        [["0.49"], ["0.54"]],
        "number",
    ),
    (
        147,
        "F1ff8zcjPp",
        "Which three vision-language models are examined for the image-encoder early-exit (ICET) vulnerability?",
        [["LLaVA-1.5"], ["LLaVA-NeXT"], ["Llama 3.2"]],
        "list",
    ),
    (
        148,
        "BYakLzKJDz",
        "How much does iN2V improve node classification, on average and at most?",
        [["1 point"], ["6 points"]],
        "number",
    ),
    (
        149,
        "pZbv8pEkfe",
        "What average improvement over existing defenses does ICLShield report against in-context learning backdoor attacks?",
        [["26.02"]],
        "number",
    ),
    (
        152,
        "CDillQjA7N",
        "What is the multimodal theory-of-mind test dataset called in the interpretability-driven study of ToM in multimodal LLMs?",
        [["GridToM"]],
        "dataset",
    ),
    (
        154,
        "ZbWXovStjD",
        "On how many datasets and how many backbone architectures is NegMerge evaluated?",
        [["twelve", "12"], ["four", "4"]],
        "number",
    ),
    (
        157,
        "0TY5lhhdZm",
        "Which kinds of biological sequence design tasks are used to evaluate δ-Conservative Search?",
        [["DNA"], ["RNA"], ["protein"], ["peptide"]],
        "list",
    ),
    (
        158,
        "uTv5rOPZr4",
        "By how much does AoT-O3 shorten solutions relative to baseline Algorithm-of-Thoughts?",
        [["80%", "80"]],
        "number",
    ),
    (
        160,
        "EiAQrilPYP",
        "How much does MindLLM improve generalization to unseen subjects in fMRI-to-text decoding?",
        [["24.5"]],
        "number",
    ),
    (
        161,
        "uDreZphNky",
        "What numerical technique does RF-Solver use to estimate the nonlinear components of the rectified flow ODE?",
        [["Taylor expansion"]],
        "method",
    ),
    (
        169,
        "f375uEmYDf",
        "How much faster than RFDiffusion and Genie2 is ReQFlow when generating a protein backbone of length 300?",
        [["37"], ["63"]],
        "number",
    ),
]

PARAPHRASE = [
    (
        3,
        "Hi0SyHMmkd",
        "I remember a study built on toy algorithmic tasks arguing that models trained to predict one word at a time are short-sighted on open-ended, originality-demanding problems, and that adding randomness on the input side rivals output temperature. Which paper was that?",
        [["seed-conditioning"], ["next-token"]],
    ),
    (
        5,
        "QqVZ28qems",
        "Why would aggregate success across a suite of tasks, when an LLM gets many tries per task, follow a polynomial curve even though for each single problem the failure chance shrinks geometrically with more tries? I recall a paper blaming a handful of nearly impossible problems.",
        [["power law"], ["heavy tail", "heavy-tailed"]],
    ),
    (
        8,
        "iZdGZSWe1A",
        "Is there theory showing that a transformer trained on only about linearly many tasks can generalize to an exponentially large family of tasks formed by chaining a few basic operations, with experiments on sparse XOR-type functions?",
        [["parity"], ["compositional"]],
    ),
    (
        15,
        "gtVW8CO6Wf",
        "Has anyone used how consistently each individual example's embedding stays across training epochs as a supervisory signal for unsupervised clustering networks?",
        [["sample stability"]],
    ),
    (
        16,
        "jSxU7ZGe3B",
        "Does fine-tuning a vision-language model on physical-intuition and cause-and-effect judgments make it generalize the way humans do to other cognitive domains?",
        [["visual cognition"]],
    ),
    (
        19,
        "qDWvebg8mL",
        "I'm looking for work on estimating causal effects when only a few experimental units can be afforded, giving non-asymptotic error guarantees instead of central-limit arguments, and extended to social networks.",
        [["finite-sample"]],
    ),
    (
        23,
        "ZdmMDz33Io",
        "Which paper designs a payment scheme for collaborative model training so that every participant gets back exactly what they put in, as valued by a cooperative-game share, discouraging those who benefit without contributing?",
        [["reciprocal fairness"], ["Shapley"]],
    ),
    (
        24,
        "O6q2BHK1BL",
        "Is there a method that tells whether one variable causally affects a given target from observational data when hidden confounders may exist, without reconstructing the entire causal graph?",
        [["latent variables"]],
    ),
    (
        28,
        "8JGwoZceQs",
        "Which work shows that the usual ways of summarizing a transformer's output vectors (averaging, max, a class token) break down when most inputs are distractors, while an attention-based aggregator stays robust?",
        [["adaptive pooling"]],
    ),
    (
        31,
        "sQS0roNQZR",
        "Is there research on turning a model that assigns probabilities to subword units into one that assigns probabilities to plain character strings, so that details like a trailing space in the prompt stop mattering?",
        [["character-level", "character"]],
    ),
    (
        36,
        "iAkg2nVmvN",
        "Are there new guarantees for summarizing a dataset with a few representative points that hold for any kernel whenever the data or kernel matrix has a rapidly decaying spectrum, with uses like approximating attention and reordering SGD?",
        [["thinning"]],
    ),
    (
        39,
        "mHySkOp46b",
        "Is there a method that creates human-readable synthetic text for fine-tuning LLMs with provable convergence and privacy, by making the synthetic examples yield gradients that mimic those of the real data?",
        [["ADMM"]],
    ),
    (
        42,
        "QvqnPVGWAN",
        "I'm looking for a theory of why generative models, both autoregressive LLMs and diffusion models, seem to commit to a key property of their output during a brief stretch of the generation process.",
        [["critical windows"], ["stochastic localization"]],
    ),
    (
        45,
        "q4cNdrwKAk",
        "Is there a paper on choosing a small subset of positive semidefinite matrices to add to a base matrix so that the smallest eigenvalue of the sum is as large as possible, showing a simple random rounding scheme is provably good?",
        [["max-min eigenvalue augmentation"]],
    ),
    (
        48,
        "cQHwUckohW",
        "Which paper makes a diffusion sampler pick each injected noise from a fixed, finite set of pre-drawn Gaussian vectors, so that the chosen indices double as a compressed bitstream of the image?",
        [["Denoising Diffusion Codebook Model", "DDCM"]],
    ),
    (
        50,
        "I4jNAbqHnM",
        "In MDPs whose objective depends on how often states and actions are visited rather than on summed rewards, does the number of sampled episodes change a policy's expected performance over an infinite horizon?",
        [["number of trials"], ["GUMDP", "general-utility"]],
    ),
    (
        55,
        "cYNBsMTAVL",
        "Instead of re-fine-tuning every new foundation model, is there a way to train a reward model once and plug it into other pretrained models at inference, by viewing fine-tuning as maximizing a reward under a divergence penalty to the base model?",
        [["portable reward tuning", "PRT"]],
    ),
    (
        60,
        "QbOoz74GNO",
        "Is there an AutoML-style tool that automates the whole pipeline, from evaluation and model choice to tuning and ensembling, for estimating heterogeneous treatment effects?",
        [["AutoCATE"]],
    ),
    (
        65,
        "9ADQZAfcUC",
        "For adapting segmentation networks to an unlabeled target domain via self-training, is there a method that spots which classes are over- or under-predicted from their logit distributions and corrects that bias?",
        [["BLDA"]],
    ),
    (
        68,
        "OQXpFh0hqf",
        "Is there optimization theory for the multi-objective case where the objectives do not conflict but help one another, with gradient methods that scale to many related objectives?",
        [["Aligned Multi-Objective Optimization"]],
    ),
    (
        69,
        "i0m3hToUwf",
        "Can the effect of manipulating several variables at the same time be predicted using only passive data plus experiments that each manipulate one variable?",
        [["joint interventional", "joint effects"]],
    ),
    (
        72,
        "JAcOYCqNo9",
        "Which paper relates coverage guarantees of online prediction sets on adversarial data to regret notions from online learning, finding that ordinary regret is not enough but a stronger, action-remapping form of regret is tied to calibrated coverage?",
        [["swap-regret", "swap regret"], ["conformal"]],
    ),
    (
        73,
        "q7PAIE0z5p",
        "Why does a big student fine-tuned on a smaller teacher's pseudo-labels end up beating the teacher? I recall an analysis arguing that fine-tuning happens in a low-dimensional subspace and framing the gain as variance reduction.",
        [["weak-to-strong", "W2S"]],
    ),
    (
        75,
        "fY7KjywLK1",
        "Has anyone extended the row-importance scores used to subsample least-squares problems to nonlinear models, with approximation guarantees and side uses for interpretability and spotting anomalous points?",
        [["leverage score", "leverage-score"], ["adjoint operator"]],
    ),
    (
        83,
        "bkauyuzBN4",
        "How should privacy be accounted for when training forecasting models with DP-SGD, given that mini-batches are built by picking series and then contiguous windows instead of sampling records independently?",
        [["structured subsampling"], ["privacy amplification"]],
    ),
    (
        85,
        "mJAa823xKu",
        "Is there work on converting pretrained transformers into spiking networks in which each neuron fires at most once, including handling attention and the nonlinear layers?",
        [["time-to-first-spike", "TTFS"]],
    ),
    (
        89,
        "GbJqQsIwJu",
        "When does knowing which of two samples is preferred help estimate the parameters of a continuous distribution, and can it beat the usual one-over-root-n error rate?",
        [["M-estimator"], ["preference"]],
    ),
    (
        95,
        "m25ma7O7Ec",
        "Is there a tree-search planner that stays robust when the simulator's transition and reward models differ from reality, with finite-sample convergence guarantees at each node of the tree?",
        [["Monte Carlo Tree Search", "MCTS"]],
    ),
    (
        97,
        "7vdg7VICsX",
        "In two-player min-max training, is it true that less momentum helps stability, the opposite of what happens in plain minimization? I recall an analysis of this through differential equations.",
        [["heavy ball", "HB"]],
    ),
    (
        101,
        "SEj9uopOWP",
        "Is there a theory of gradient descent in wide deep linear nets from random initialization that explains why tuned learning rates carry over across widths under mean-field style parameterizations?",
        [["hyperparameter transfer"], ["deep linear"]],
    ),
    (
        103,
        "ZPQU4uGMBA",
        "Do large vision-language models genuinely understand schematic figures such as flowcharts and concept maps, or do they mostly rely on what they already know about the depicted subject?",
        [["diagram"]],
    ),
    (
        110,
        "nayOhK5DCg",
        "In text-to-image models, can directly editing intermediate activations elicit concepts that prompting fails to produce, and how few training examples does that take?",
        [["reachability", "reachable"]],
    ),
    (
        115,
        "s55Af9Emyq",
        "If the supposedly clean reference set used to calibrate a distribution-free outlier detector secretly contains a few outliers, what happens to the false-alarm guarantee, and can a small labeling budget recover the lost power?",
        [["contaminated", "contamination"], ["conformal"]],
    ),
    (
        118,
        "w4c5bLkhsz",
        "Is there a first-principles way to learn both the certainty measure and the acceptance cutoff for self-generated labels in semi-supervised learning, with a user-set error tolerance?",
        [["pseudolabel", "pseudo-label"], ["threshold"]],
    ),
    (
        120,
        "Bm706VlAtU",
        "Which defense cleans adversarial images with a diffusion model while treating the Fourier magnitude and angle components separately, keeping the low frequencies of the input?",
        [["amplitude spectrum"], ["phase"]],
    ),
    (
        129,
        "nqQcAhXGSy",
        "Is there a general method for online learning in which every action must satisfy a safety requirement the learner does not know in advance, by learning the requirement on the fly with a predictor?",
        [["safety constraint"]],
    ),
    (
        130,
        "lEV0x6aDKc",
        "Rather than learning only the objective, is there work on inferring the constraint set of an optimization problem from observed input and decision pairs?",
        [["inverse optimization"], ["feasible region"]],
    ),
    (
        133,
        "DbUmeNnNpt",
        "Is there an optimization-theory account of how transformers solve fact-retrieval tasks in context by adding a learned task-direction vector to their internal representations, like word-embedding analogies?",
        [["vector arithmetic"], ["factual-recall", "factual recall"]],
    ),
    (
        135,
        "ZwcMZ443BF",
        "For time-alternating treatment designs in online platform experiments, when does the best design depend on lingering effects of earlier treatments and on noise that is correlated over time?",
        [["switchback"], ["carryover"]],
    ),
    (
        137,
        "cN9GkuBo4w",
        "Is there a theoretical error bound for contrastive self-supervised learning that explicitly accounts for which data augmentations are used?",
        [["augmentation-aware"], ["error bound"]],
    ),
    (
        138,
        "id2CfAgEAk",
        "Is there a measure of how densely a ReLU network's piecewise-linear pieces are packed near the data, tying feature learning to adversarial robustness?",
        [["local complexity"], ["linear regions"]],
    ),
    (
        143,
        "5MiSZuBLmq",
        "Why do deep models for tabular data break down when the data distribution drifts over time, and can a random train/validation split actually help?",
        [["temporal shift", "temporal distribution shift"]],
    ),
    (
        150,
        "SFAcjdJdXz",
        "Could a generative AI assistant deliberately give weaker answers on brand-new topics to push users back to human Q&A forums, and would that improve long-run welfare and data supply?",
        [["selective response"]],
    ),
    (
        156,
        "KwSaa1Ykdf",
        "Most causally motivated subgraph methods for out-of-distribution generalization in GNNs target classification; is there work extending confounder handling to graph-level regression through contrastive learning?",
        [["causal graph regression", "CGR"]],
    ),
    (
        162,
        "W2Fe1hT7Ks",
        "How many random bits does a learning algorithm really need in order to be replicable or differentially private, and how does that relate to the online learnability of the class?",
        [["randomness complexity"], ["Littlestone"]],
    ),
    (
        163,
        "FU527ycGgW",
        "Can predictions from an oracle help get past hardness-of-approximation barriers when building dendrogram-style clusterings under standard cost and revenue objectives?",
        [["hierarchical clustering"], ["learning-augmented"]],
    ),
    (
        166,
        "6f1Hx1eneF",
        "For learned PDE emulators on grids where velocity and pressure live at offset locations, do enforcing symmetries and conservation laws help accuracy, and which of the two helps more?",
        [["staggered grid"], ["symmetries"]],
    ),
    (
        168,
        "Wqrqcc8O2v",
        "Is there a diffusion-based framework for editing images counterfactually under a Pearl-style causal model while keeping the subject's identity intact?",
        [["abduction"], ["counterfactual"]],
    ),
]

SUMMARY = [
    (
        6,
        "uRAgIVnAO6",
        "Summarize the paper that gives an efficient algorithm for multi-dimensional online forecasts that stay unbiased conditional on polynomially many events, with applications to many downstream decision makers.",
        [["swap regret"], ["multicalibration"]],
    ),
    (
        10,
        "gi9MOXNfw2",
        "Give me an overview of Vintix.",
        [["in-context reinforcement learning", "ICRL"], ["Algorithm Distillation"]],
    ),
    (
        18,
        "G5xO7oD5G7",
        "Summarize the work on learning Nash equilibria in two-player zero-sum games with imperfect information in extensive form, with last-iterate convergence when only bandit feedback is available.",
        [["last-iterate"], ["virtual transition"]],
    ),
    (22, "nshtqLv4r4", "Give me an overview of TINED.", [["Dirichlet Energy"], ["MLP"]]),
    (
        27,
        "t3zwUqibMq",
        "Summarize the paper introducing Simple Path Structural Encoding (SPSE) for graph transformers.",
        [["RRWP", "Relative Random Walk Probabilities"], ["simple path"]],
    ),
    (
        32,
        "1R84O2Xr1k",
        "Give me an overview of Lapse and the problem it addresses.",
        [["state evolvable", "SERL"], ["reuse"]],
    ),
    (
        35,
        "JRMoeNZgNl",
        "Summarize the paper proposing Data-Specific Indistinguishability (DSI) as a framework for trustworthy machine learning.",
        [["Data-Specific Indistinguishability", "DSI"], ["Gaussian mechanism"]],
    ),
    (
        46,
        "3xznpzabYQ",
        "Give me an overview of NeuralCPM.",
        [["cellular Potts model", "CPM"], ["Neural Hamiltonian"]],
    ),
    (
        47,
        "B9DOjtj9xK",
        "Summarize the SoftShape model for time-series classification.",
        [["SoftShape"], ["sparsification"]],
    ),
    (
        52,
        "kEn7Wt6Yj2",
        "Summarize the paper on using differential privacy so that sketching data structures can answer adaptive queries to search problems.",
        [["nearest neighbor"], ["regression"]],
    ),
    (
        57,
        "jMNQaNbjQl",
        "Give me an overview of the work on leveraging offline data in linear latent contextual bandits.",
        [["latent"], ["de Finetti"], ["regret"]],
    ),
    (
        61,
        "V0w8Kj3K6L",
        "Give me an overview of the suitability filter for classifier evaluation in deployment.",
        [["suitability"], ["covariate shift"]],
    ),
    (
        67,
        "fFgiXamW8E",
        "Summarize the paper proposing the OMDPD algorithm.",
        [["Optimistic Mirror Descent Primal-Dual", "OMDPD"], ["adversarial constraints"]],
    ),
    (
        71,
        "0REM9ydeLZ",
        "Give me an overview of GETA and how it evaluates the values of LLMs.",
        [["chronoeffect"], ["adaptive testing"]],
    ),
    (
        74,
        "F4HByzTu69",
        "Summarize the paper on outlier eigenvalues of the conjugate and neural tangent kernels of random deep networks with Gaussian-mixture inputs.",
        [["isolated eigenvalues"], ["Gaussian mixture"]],
    ),
    (
        78,
        "Zha2m39ZoM",
        "Give me an overview of CoTo.",
        [["LoRA", "low-rank adaptation"], ["activation probability"]],
    ),
    (
        86,
        "2wUQttiab3",
        "Summarize WGFormer.",
        [["Wasserstein gradient flow"], ["ground-state conformation"]],
    ),
    (
        87,
        "OJnoRkfq2Q",
        "Summarize the paper on fundamental limits of learning deep attention networks through sequence multi-index models.",
        [["multi-index"], ["approximate message-passing", "AMP"]],
    ),
    (
        91,
        "mBstuGUaXo",
        "Give me an overview of the paper 'Score Matching with Missing Data'.",
        [["importance weighting"], ["variational"]],
    ),
    (
        93,
        "VFM6BcxCd2",
        "Summarize the paper on online linear classification under Massart noise.",
        [["mistake bound"], ["bandit"]],
    ),
    (
        98,
        "waeJHU2oeI",
        "Summarize the work that distills an ensemble's predictive distribution into a single student model using flow matching.",
        [["ensemble distillation", "ensemble distribution distillation"], ["flow matching"]],
    ),
    (
        99,
        "PHhW4PEm2D",
        "Give me an overview of CPCL.",
        [["conformal prediction"], ["continual learning"]],
    ),
    (
        107,
        "pWs925fKyK",
        "Give me an overview of RTLDistil.",
        [["timing prediction"], ["distillation"]],
    ),
    (109, "oTCiv1bkjG", "Summarize FedBEns.", [["one-shot"], ["Laplace"]]),
    (
        113,
        "ZfDNDkg7Dh",
        "Summarize the Fourier Position Embedding (FoPE) paper.",
        [["RoPE"], ["length generalization"]],
    ),
    (
        121,
        "DidTLeezyp",
        "Give me an overview of Angle Domain Guidance (ADG).",
        [["classifier-free guidance", "CFG"], ["color distortion"]],
    ),
    (
        124,
        "s015m2jUGg",
        "Summarize the paper on efficient diffusion models for symmetric-space manifolds such as the torus and the special orthogonal group.",
        [["heat kernel"], ["Brownian motion"]],
    ),
    (
        132,
        "NE6Px91RkQ",
        "Summarize the theoretical work on stability and generalization of subgraph reasoning models for inductive knowledge graph completion.",
        [["Relational Tree Mover"], ["stability"]],
    ),
    (
        136,
        "09WRNhHYkM",
        "Give me an overview of MixBridge.",
        [["backdoor"], ["Schrödinger bridge", "Schrodinger bridge"]],
    ),
    (
        139,
        "Sk8NjQ4yhT",
        "Summarize the paper asking whether graph prompting works, analyzed from a data-operation perspective.",
        [["graph prompt"], ["data operation"]],
    ),
    (
        146,
        "ty9OcrL86v",
        "Give me an overview of PieClam.",
        [["exclusive communities"], ["autoencoder"]],
    ),
    (
        153,
        "yDTwamN4LQ",
        "Summarize the paper 'Learning with Expected Signatures: Theory and Applications'.",
        [["expected signature"], ["martingale"]],
    ),
    (
        164,
        "1wq7uK5de9",
        "Summarize the paper that compares positional encodings and persistent homology as ways to make graph neural networks more expressive.",
        [["PiPE", "Persistence-informed Positional Encoding"], ["expressive"]],
    ),
]

# (sample order, id, question, facts, sub-type: author/title)
METADATA = [
    (
        25,
        "4ufjBV6S4I",
        "Who is the first author of RAGGED, the framework for evaluating how RAG systems behave across retriever-reader configurations and retrieval depths?",
        [["Jennifer Hsia"]],
        "author",
    ),
    (
        38,
        "v26vwjxOEz",
        "What is the full title of the paper that introduces the EMMA benchmark for multimodal reasoning?",
        [["Reason in Multimodality"]],
        "title",
    ),
    (
        59,
        "f4CPc211U1",
        "Who wrote the paper proposing RP2G, a robust projected policy gradient approach for average-reward MDPs that goes beyond rectangular ambiguity sets?",
        [["Qiuhao Wang"], ["Marek Petrik"]],
        "author",
    ),
    (
        88,
        "RBly0nOr2h",
        "What is the title of the paper that proposes CSBM for solving the Schrödinger bridge problem on discrete spaces with discrete-time Iterative Markovian Fitting?",
        [["Categorical Schrödinger Bridge Matching", "Categorical Schrodinger Bridge Matching"]],
        "title",
    ),
    (
        96,
        "1nEBAkpfb9",
        "Who are the authors of 'Distillation Scaling Laws'?",
        [["Dan Busbridge"]],
        "author",
    ),
    (
        112,
        "CdqBQwFG9i",
        "What is the title of the paper that introduces a Boolean logical representation of decision trees to handle the fact that many different trees share one decision boundary?",
        [["Predictive Equivalence"]],
        "title",
    ),
    (
        140,
        "M7mVzCV6uU",
        "Who proposed FedGVI, the federated learning framework robust to both prior and likelihood misspecification?",
        [["Terje Mildner"]],
        "author",
    ),
    (
        144,
        "o4KpjiCdrk",
        "Which researchers wrote the paper on geometry-informed neural networks (GINNs) that train shape-generative neural fields without data?",
        [["Arturs Berzins"]],
        "author",
    ),
    (151, "rc65N9xIrY", "Who is the first author of DistiLLM-2?", [["Jongwoo Ko"]], "author"),
    (
        165,
        "6YUdCt7rUR",
        "What is the title of the FDGen paper, which addresses both feature and structural bias in graph generation?",
        [["Fairness-Aware Graph Generation"]],
        "title",
    ),
    (
        21,
        "vQubr1uBUw",
        "What is the title of the ICML 2025 oral about lossless speculative decoding when the drafter and the target model do not share a vocabulary?",
        [["Heterogeneous Vocabularies"]],
        "title",
    ),
    (
        64,
        "zm53HtGiXN",
        "Who are the authors of PARM, the single preference-aware autoregressive reward model for multi-objective test-time alignment?",
        [["Baijiong Lin"]],
        "author",
    ),
]

# (question, gold ids, search terms, note extra)
MULTI = [
    (
        "Which papers use LLMs to write formal proofs that are checked by Lean or Isabelle?",
        ["AzF9xAMrBK", "GCjsjnl8yA", "zWArMedNuW"],
        r"Lean|Lean4|Isabelle|Coq|miniF2F|theorem prov|prover|formal proof|proof assistant|autoformali",
        "AlphaVerus (Verus code verification) and PDE-Controller (autoformalization of PDEs) are not theorem proving in Lean/Isabelle; excluded",
    ),
    (
        "Which papers report experiments on Sudoku puzzles?",
        ["IQN6ID0snT", "DjJmre5IkP"],
        r"sudoku",
        "",
    ),
    (
        "Which papers study learning under Massart noise?",
        ["VFM6BcxCd2", "yTfQt7vK6M"],
        r"Massart|Tsybakov|bounded label noise",
        "",
    ),
    (
        "Which papers have results involving the Littlestone dimension?",
        ["4gUVnk2Hyo", "W2Fe1hT7Ks"],
        r"Littlestone",
        "",
    ),
    (
        "Which papers study dueling bandits or optimization from dueling feedback?",
        ["WMHNs2Necq", "mqljEW2NQl", "ATNEHkXFrW", "EscpGI2XAx"],
        r"dueling|preference-based bandit|preference feedback.{0,30}bandit",
        "",
    ),
    (
        "Which papers build on Koopman operator theory?",
        ["71Mm8GDGYd", "GzFKZctIzj", "29eZ8pWc8E", "Svk7jjhlSu", "Xg1BGlybfq"],
        r"Koopman|dynamic mode decomposition|\bDMD\b",
        "",
    ),
    (
        "Which papers generate protein backbones conditioned on a desired flexibility or dynamics profile?",
        ["890gHX7ieS", "2dlTi4S4JN"],
        r"protein backbone|designab|protein.{0,80}(flexib|dynamic|motion|normal mode)|(flexib|normal mode).{0,80}protein",
        "other protein-generation papers (ReQFlow, Pallatom, energy-based flow matching) do not condition on dynamics; excluded",
    ),
    (
        "Which papers analyze switchback designs or switchback policies for experimentation?",
        ["3YTjTQhX8B", "ZwcMZ443BF"],
        r"switchback|A/B test|carryover|randomized experiment",
        "A/B-testing paper BwYQ1MTrCR does not involve switchback; excluded",
    ),
    ("Which papers use Kalman filtering?", ["71Mm8GDGYd", "CAPNgWkEEk"], r"Kalman", ""),
    (
        "Which papers study how votes on crowdsourced LLM leaderboards such as Chatbot Arena can be manipulated?",
        ["zf9zwCRKyP", "5cDc71jLc1"],
        r"Chatbot Arena|LMArena|LMSYS|arena|leaderboard.{0,80}(manipul|rig|attack)|vote rigging|voting-based",
        "other Chatbot Arena papers (Arena-Hard, P2L, non-transitivity, am-ELO) do not study vote manipulation; excluded",
    ),
    (
        "Which papers address Byzantine-robust distributed or federated learning?",
        ["iBOMvaa2aN", "zU4VCPHYRC", "OOYPeymDz2"],
        r"Byzantine|malicious (workers|clients|devices)",
        "SPMC (federated backdoor defense) is not framed as Byzantine robustness; excluded",
    ),
    (
        "Which multi-agent reinforcement learning papers evaluate on StarCraft II or SMAC?",
        ["FYvrNKYu6H", "VSIjdKPGp8", "JPkJAyutW0", "bnhFueOeav"],
        r"StarCraft|SMAC|multi-agent challenge",
        "",
    ),
    (
        "Which papers study grokking, i.e., generalization that arrives long after the training data is fit?",
        ["36hVB7DEB0", "d2qpEYzyyy", "FRjRuSWF3e", "lyUJH51URt"],
        r"grok|delayed generalization",
        "GrokFormer only matches by name; excluded",
    ),
    (
        "Which papers study neural collapse?",
        ["aoLFIUlyPE", "ZrhGq664om"],
        r"neural collapse|\bNC\b",
        "",
    ),
    (
        "Which papers analyze or extend the Shampoo optimizer?",
        ["zpuKPuSYru", "GzS6b5Xvvu"],
        r"Shampoo|Muon|SOAP optimizer",
        "Modular Duality only mentions Muon; excluded",
    ),
    (
        "Which papers are about causal abstraction between high-level and low-level structural causal models?",
        ["WDybFnCPaB", "J16AIOkjjY"],
        r"causal abstraction",
        "",
    ),
    (
        "Which papers use or improve the Frank-Wolfe algorithm?",
        ["cUNfm13VUR", "AulTigiaMv", "hgM387MPm1"],
        r"Frank.?Wolfe|conditional gradient",
        "",
    ),
    (
        "Which papers extend GFlowNets beyond acyclic state spaces?",
        ["GGgnmOlnRY", "czqxB524oo"],
        r"GFlowNet|generative flow network|non-acyclic|cyclic",
        "",
    ),
    (
        "Which papers involve mode connectivity between trained neural networks?",
        ["dqYO5LVyYh", "Zha2m39ZoM", "qaJuLzY6iL", "E8dMQGsKZv"],
        r"mode connectivity|\bLMC\b",
        "LMC = Langevin Monte Carlo in umWKZCfzQs; excluded",
    ),
    (
        "Which papers decode or generate images, text, or speech from human brain recordings?",
        ["1W2WlYRq0K", "EiAQrilPYP", "i6uxIAAMje", "pFqUNiwC7Z", "06UlFIly8J"],
        r"fMRI|\bEEG\b|\bMEG\b|brain signal|brain activity|neural decoding|brain.{0,60}decod|decod.{0,40}brain|brain-computer|brainwave",
        "NeuroTree (disorder classification), LBM fine-tuning and BCI neural adaptation do not decode images/text/speech; excluded",
    ),
    (
        "Which papers evaluate on ARC-style abstract reasoning puzzles, i.e., the Abstraction and Reasoning Corpus or a variant of it?",
        ["dsBjxI6l8W", "z4IG090qt2", "asgBo3FNdg", "qyMxunrR2j"],
        r"ARC-AGI|Abstraction and Reasoning|\bARC\b",
        "qyMxunrR2j uses 1D-ARC (a simplified variant); ARC Easy / AI2-ARC question-answering uses (DataDecide, MixMin, Text-to-LoRA) are a different benchmark; excluded",
    ),
    (
        "Which papers work on TabPFN-style tabular foundation models that predict through in-context learning?",
        ["d60cmFf89H", "0VvD1PmNzM", "5DD3RCcVcT", "bma2FB5MNs", "q9lITFNKds"],
        r"TabPFN|tabular foundation|prior-data fitted|tabular.{0,100}in-context|in-context.{0,100}tabular",
        "Xsyrolw1Q1 uses PFNs for scaling-law extrapolation, not tabular prediction; excluded",
    ),
    (
        "Which papers use spatial transcriptomics data?",
        ["30RWdxmJV1", "jeJGH6UDOL", "Ossg1IbHDT", "MRmI68k3gd"],
        r"transcriptom|spatial (genomics|omics)|spatially resolved",
        "single-cell (non-spatial) transcriptomics papers excluded",
    ),
    (
        "Which papers propose attacks that remove or evade watermarks in LLM-generated text?",
        ["5dF4mqVVqK", "AsODat0dkE", "fE3kgW7kMp"],
        r"watermark.{0,80}(remov|evad|evasion|attack|scrub|spoof)|(remov|evad|evasion|attack|scrub|spoof).{0,80}watermark",
        "hSCxEZLvxI detects spoofing (a defense) and KGMark watermarks knowledge graphs; excluded",
    ),
    (
        "Which papers propose multi-bit watermarks that embed a message in LLM-generated text?",
        ["Zvyb3WAg03", "DVjkling5x", "dktpDfUTtj"],
        r"multi-bit|multibit|message embedding|watermark",
        "",
    ),
    (
        "Which papers run experiments on MovieLens data?",
        ["edN2rEemj6", "jMNQaNbjQl", "fbRbrtSvKm"],
        r"MovieLens",
        "",
    ),
    (
        "Which papers evaluate LLM reasoning on the Game of 24 puzzle?",
        ["yNpYb376zf", "qyMxunrR2j"],
        r"Game of 24|Game24|24 game|Game-24",
        "",
    ),
    (
        "Which papers propose tree-sliced variants of the Wasserstein distance?",
        ["SwXYV7CIw9", "StaRAs9n49"],
        r"sliced|slicing",
        "other sliced-OT papers (max-sliced, ESPFormer, s-OTDD, SW gradient dynamics) are not tree-sliced; excluded",
    ),
]

OFFTOPIC = [
    ("What is the boiling point of water at the summit of Mount Everest?", None),
    ("Can you give me a sourdough bread recipe with a long cold fermentation?", None),
    ("Who won the 2018 FIFA World Cup final, and what was the score?", None),
    ("How do I change the engine oil on a 2015 Honda Civic?", None),
    ("What were the main causes of the French Revolution?", None),
    ("How does the Duckworth-Lewis method decide rain-affected cricket matches?", None),
    ("What's the capital of Australia and why isn't it Sydney?", None),
    ("Which vaccines are recommended before travelling to Kenya?", None),
    ("Which ICML 2025 papers do sign language recognition from video?", r"sign language"),
    (
        "Are there papers on deep learning for optical flow estimation between video frames?",
        r"optical flow",
    ),
    (
        "Which papers detect counterfeit banknotes with neural networks?",
        r"banknote|counterfeit|currency",
    ),
    (
        "Is there work on reinforcement learning for elevator dispatching in tall buildings?",
        r"elevator",
    ),
    (
        "Are there papers that monitor honeybee hives with machine learning?",
        r"\bbees?\b|beekeep|honeybee|\bhives?\b",
    ),
    ("Which papers use machine learning to forecast volcanic eruptions?", r"volcan"),
    ("Is there any paper on classifying whale songs with deep learning?", r"whale|cetacean"),
    (
        "Which papers classify skin lesions for dermatology diagnosis?",
        r"dermatolog|skin lesion|melanoma",
    ),
    (
        "Are there ICML 2025 papers on detecting sarcasm or irony in social media posts?",
        r"sarcas|\birony\b",
    ),
]

NEARMISS = [
    (
        "QuantSpek",
        "What end-to-end speed-up does QuantSpek report for long-context LLM inference on edge devices?",
    ),
    ("MEATok", "What gFID does the MEATok image tokenizer reach on ImageNet 256×256?"),
    ("HushAttention", "By how much does HushAttention reduce attention latency in FlashDecode?"),
    ("FlopAttack", "What attack success rate does FlopAttack achieve against GPT-4o?"),
    (
        "ReQFlux",
        "How many sampling steps does ReQFlux need to generate a 300-residue protein backbone?",
    ),
    (
        "TimeBasis",
        "Which datasets is TimeBasis, the lightweight long-term forecaster, evaluated on?",
    ),
    (
        "DistiLLM-3",
        "What loss function does DistiLLM-3 use to distill reasoning traces into small models?",
    ),
    (
        "PAK-TS",
        "What regret bound does the PAK-TS algorithm achieve for prompt-aware model selection?",
    ),
    ("GEKA", "Which moral-value benchmarks does GEKA generate adaptive test items for?"),
    (
        "WassFormer",
        "How accurate is WassFormer at molecular conformation prediction on the QM9 dataset?",
    ),
    ("FlashMorph-3", "What speed-up does FlashMorph-3 report on H100 GPUs?"),
    ("RepDoRA", "How much does RepDoRA improve over DoRA on commonsense reasoning benchmarks?"),
    ("KVSqueeze", "How much KV-cache memory does KVSqueeze save on LongBench?"),
    ("TabGlide", "What accuracy does TabGlide reach on the OpenML-CC18 tabular benchmark?"),
    (
        "SpecHydra",
        "How many draft heads does SpecHydra use, and what acceptance length does it reach?",
    ),
    ("ProofAugur", "What pass rate does ProofAugur achieve on miniF2F-test?"),
    (
        "StealthQuill",
        "How many bits per token can the StealthQuill watermark embed in LLM-generated text?",
    ),
]

# (sample order, real paper id, question, what is absent)
FALSEPREMISE = [
    (
        12,
        "fmlol78Qqf",
        "What accuracy does BSemiFL reach on CIFAR-100 with 100 clients?",
        "abstract names no dataset and no absolute accuracy, only 'up to 9.8%' improvement",
    ),
    (
        26,
        "MrphqqwnKv",
        "How many milliseconds per forward pass does Erwin take on the ShapeNet-Car benchmark compared with PointTransformer v3?",
        "abstract gives no runtime numbers, no ShapeNet-Car, no PointTransformer",
    ),
    (
        29,
        "BdO4R6XxUH",
        "How many labeled images per class did DCBM use on CUB-200, and what accuracy did it reach?",
        "abstract names no dataset (no CUB) and no accuracy",
    ),
    (
        41,
        "afDHwQ1ZDO",
        "How many GPU hours of fine-tuning did ∞-Video need to train its continuous-time memory module?",
        "the method is training-free; no GPU hours given",
    ),
    (
        49,
        "iwkCnlOa2A",
        "What mIoU gain does the complex wavelet mutual information (CWMI) loss give on Cityscapes?",
        "abstract names no dataset (no Cityscapes) and gives no mIoU number",
    ),
    (
        63,
        "1W2WlYRq0K",
        "How many subjects from the Natural Scenes Dataset were used to train MindAligner, and what SSIM did it report?",
        "abstract names no dataset, subject count or SSIM",
    ),
    (
        77,
        "EHqQaBYYlE",
        "What percentage of evaluation prompts does the RL-based active evaluation acquisition policy need to keep to estimate MMLU scores within 1%?",
        "abstract gives no percentage and does not mention MMLU",
    ),
    (
        90,
        "2dqiqST8ZJ",
        "What learning rate and batch size does OTPR use when fine-tuning its diffusion policy?",
        "abstract gives no hyperparameters",
    ),
    (
        92,
        "oAKe7MG9GM",
        "What score does Wasserstein Policy Optimization achieve on Atari Breakout?",
        "abstract reports DeepMind Control Suite and a fusion task only; no Atari, no scores",
    ),
    (
        105,
        "j9pVnmulQm",
        "How many video clips are in WorldSimBench's HF-Embodied Dataset?",
        "abstract gives no dataset size",
    ),
    (
        116,
        "jeJGH6UDOL",
        "What ARI does Spotscape achieve on the DLPFC dataset?",
        "abstract names no dataset (no DLPFC) and no ARI",
    ),
    (
        127,
        "49g4c8MWHy",
        "How many GPUs and how many hours of training did the preference-controllable RL (PCRL) meta-policy require?",
        "abstract gives no compute details",
    ),
    (
        131,
        "sncnyt4CzJ",
        "What cumulative regret does the best-of-both-worlds policy optimization algorithm for CMDPs with bandit feedback report on MuJoCo HalfCheetah?",
        "abstract is theoretical; no MuJoCo, no empirical regret",
    ),
    (
        142,
        "JRg8P2bX8P",
        "How many GPU hours does Step-DAD need to train its design policy before the experiment starts?",
        "abstract gives no compute or training time",
    ),
    (
        155,
        "890gHX7ieS",
        "What fraction of FliPS-generated backbones are designable (scRMSD below 2 Å), compared with RFdiffusion?",
        "abstract gives no designability percentage and no RFdiffusion comparison",
    ),
    (
        159,
        "QgSfbgzgbH",
        "What AUCCESS score does Causal-PIK achieve on the PHYRE benchmark?",
        "abstract says only that it needs fewer actions; no AUCCESS or score",
    ),
    (
        167,
        "GhTdNOMfOD",
        "How many parameters does TimeBase have, and what MSE does it get on ETTh1?",
        "abstract gives no parameter count, no dataset names, no MSE",
    ),
]


def main():
    qs = []

    def add(q):
        qs.append(q)

    for o, pid, q, facts, sub in LOOKUP:
        add(
            dict(
                question=q,
                kind="lookup",
                answerable=True,
                gold=[{"id": pid}],
                facts=facts,
                note=f"{sub}; sample #{o}",
            )
        )
    for o, pid, q, facts in PARAPHRASE:
        add(
            dict(
                question=q,
                kind="paraphrase",
                answerable=True,
                gold=[{"id": pid}],
                facts=facts,
                note=f"paraphrase (no method name / distinctive phrases); sample #{o}",
            )
        )
    for q, gold, terms, extra in MULTI:
        n = f"complete set from full-file search; search terms (regex over titles+abstracts): {terms}"
        if extra:
            n += f"; {extra}"
        add(
            dict(
                question=q,
                kind="multi-paper",
                answerable=True,
                gold=[{"id": g} for g in gold],
                facts=[],
                note=n,
            )
        )
    for o, pid, q, facts in SUMMARY:
        add(
            dict(
                question=q,
                kind="summary",
                answerable=True,
                gold=[{"id": pid}],
                facts=facts,
                note=f"summary; sample #{o}",
            )
        )
    for o, pid, q, facts, sub in METADATA:
        add(
            dict(
                question=q,
                kind="metadata",
                answerable=True,
                gold=[{"id": pid}],
                facts=facts,
                note=f"{sub}; sample #{o}",
            )
        )
    for q, rx in OFFTOPIC:
        n = (
            "off-topic: not about ML papers"
            if rx is None
            else f"off-topic: ML topic absent from the file; verify-regex: {rx}"
        )
        add(dict(question=q, kind="unanswerable", answerable=False, gold=[], facts=[], note=n))
    for name, q in NEARMISS:
        add(
            dict(
                question=q,
                kind="unanswerable",
                answerable=False,
                gold=[],
                facts=[],
                note=f"near-miss: made-up name: {name}",
            )
        )
    for o, pid, q, absent in FALSEPREMISE:
        add(
            dict(
                question=q,
                kind="unanswerable",
                answerable=False,
                gold=[],
                facts=[],
                note=f"false-premise: real paper {pid} (sample #{o}); {absent}",
            )
        )
    with open(os.path.join(HERE, "questions.jsonl"), "w", encoding="utf-8") as f:
        for i, q in enumerate(qs, 1):
            out = {"id": f"cq{i:03d}"}
            out.update(q)
            f.write(json.dumps(out, ensure_ascii=False) + "\n")
    print(len(qs), "questions written")


if __name__ == "__main__":
    main()
