"""Questions that ask which model a paper used, and whether its abstract names one.

"Which LLM does GuardAgent use as its reasoning backbone?" is answered by a
model's name (GPT-4, Llama-3-8B, a ViT-L); an abstract that names none cannot
answer it, however close its sentences are to the question, so the answerer
abstains. :func:`asked_model` finds the ask ("which LLM / backbone / language
model / vision encoder ..."), :func:`names_a_model` looks for a model family's
name (a list of the families ML papers report, after the model cards of the
Hugging Face hub) or a parameter count ("7B", "350M").
"""

from __future__ import annotations

import re

from paperchat.answer.asked_head import lead_with

#: "which (pretrained) LLM / backbone / language model / encoder ...": the ask for a model by name; not
#: "what accuracy could foundation models reach" (a verb between: the ask is something else); "which model
#: came out on top" asks for a model too.
_ASKED = re.compile(
    # (not "Which benchmark evaluates LLMs on ...?": it asks for a benchmark, a benchmark hunter's session)
    r"\b(?:which|what)\s+(?:(?!(?:papers?|works?|studies|can|could|do|does|did|is|are|was|were|will|would|"
    r"should|may|might|has|have|had|benchmarks?|datasets?|methods?|approach(?:es)?|frameworks?|tools?|"
    # "What causes LLMs to make errors ...?" asks why, not which LLM (a science journalist's was declined,
    # "the abstract names no LLMs")
    r"causes?|makes?|leads?|drives?|helps?|lets?|allows?|enables?|prevents?|stops?|hurts?|limits?|keeps?|"
    r"forces?|affects?|determines?|explains?|happens)\b)"
    r"[\w-]+\s+){0,2}?(llms?|vlms?|mllms?|backbones?|encoders?|"
    r"(?:language|base|pretrained|foundation|vision[- ]language|backbone|draft|reward|teacher|student) models?)\b"
    r"|\b(?:which|what) (models?) (?:came|comes|did|does|was|is|performed|scored|ranked|topped|won)\b"
    r"(?!\s+(?:that|which|papers?|works?)\b)",
    re.I,
)
#: Model families ML abstracts name (case as written), and parameter counts.
_FAMILY = re.compile(
    r"\b(?:GPT|Llama|LLaMA|Qwen|Mistral|Mixtral|Gemma|Phi|Claude|Gemini|PaLM|BERT|RoBERTa|DeBERTa|T5|OPT|"
    r"Pythia|Falcon|Vicuna|Alpaca|Zephyr|DeepSeek|Yi|Baichuan|ChatGLM|GLM|InternLM|InternVL|OLMo|StarCoder|"
    r"CodeLlama|BLOOM|MPT|Nemotron|Granite|Grok|Command-R|ViT|DeiT|ResNet|EfficientNet|ConvNeXt|VGG|Swin|"
    r"CLIP|SigLIP|DINO|MAE|BLIP|LLaVA|Flamingo|U-?Net|Stable Diffusion|SDXL|FLUX|Flux|DiT|Whisper|wav2vec|"
    r"HuBERT|Mamba|RWKV|Transformer|o1|o3|o4)\w*"
    r"|\b\d+(?:\.\d+)?[BM]\b"
)


#: A verb of choosing before "which": "... when picking which open LLM to fine-tune" is what the paper does,
#: not an ask for a model.
_CHOOSING = re.compile(r"\b(?:pick|choos|select|decid|determin|predict|know)\w*\s+$", re.I)


def asked_model(question: str) -> str | None:
    """The kind of model ``question`` asks for by name ("LLM", "backbone", "language model"), else ``None``."""
    for match in _ASKED.finditer(question):
        if not _CHOOSING.search(question, 0, match.start()):
            return match.group(1) or match.group(2)
    return None


#: A coined name (capitals or digits inside: "Attention-DeepSets", "GraphSAGE", "MLP").
_COINED = r"(?:[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z]{2,})"


#: An architecture described by its kind, which answers "what model does it analyse?" (not "which LLM"):
#: "a two-layer convolutional neural network", "linear networks", "an MLP"; not "deep neural networks", which
#: most abstracts write of the field.
_ARCHITECTURE = re.compile(
    r"\b(?:(?:one|two|three|four|multi|single|\d+)-(?:layer|hidden-layer)|convolutional|recurrent|graph|"
    r"feed-?forward|fully[- ]connected|shallow|linear)\s+(?:[\w-]+\s+){0,2}?"
    r"(?:neural\s+)?(?:networks?|nets|transformers?|autoencoders?)\b|\b(?:CNN|RNN|GNN|MLP|LSTM)s?\b",
    re.I,
)


def names_a_model(text: str, asked: str = "") -> bool:
    """Whether ``text`` names a model family (GPT, Llama, ViT, ...), gives a parameter count ("7B"), puts a
    coined name right before the kind of model ``asked`` ("an Attention-DeepSets encoder"), or, for an ask
    of a model of no particular kind ("what model"), describes an architecture (:data:`_ARCHITECTURE`: "a
    two-layer convolutional neural network"; tuning aa38 had abstained, "the abstract names no model")."""
    if _FAMILY.search(text):
        return True
    if asked.lower() in ("model", "models") and _ARCHITECTURE.search(text):
        return True
    head = asked.split()[-1].lower().rstrip("s") if asked else ""
    near = rf"\b{_COINED}\s+(?:[\w-]+\s+)?(?i:{re.escape(head)}s?)\b"  # the name's case as written
    return bool(head) and re.search(near, text) is not None


def model_first(picked: list, own: list, asked: str, limit: int) -> list:
    """``picked`` (candidate sentences with ``text`` and ``score``) led by a sentence that names a model
    (:func:`names_a_model`): the first of ``picked`` that does, else the best-scored of ``own`` (the
    paper's); at most ``limit`` sentences. "Which models is BanditSpec evaluated on?" had quoted its
    bandit formulation, not "... experiments with LLaMA3 and Qwen2 ..." (a lab's MCP session)."""
    return lead_with(picked, own, lambda c: names_a_model(c.text, asked), limit)
