"""A (text_a, text_b) -> label cross-encoder: fine-tuning on CPU, ONNX export, int8 quantization.

Generic on purpose: the citation verifier (``training/verifier.py``) trains
it on (claim, evidence) pairs, and a later answer scorer can train it on
(question, sentence) pairs. Needs the ``train`` extra (torch, transformers,
onnx); the runtime side (:mod:`paperchat.cite.verifier`) needs only
onnxruntime and tokenizers.

The model is a BERT-style encoder with a one-logit head
(``AutoModelForSequenceClassification(num_labels=1)``) trained with binary
cross-entropy; its ONNX file takes ``input_ids``, ``attention_mask``,
``token_type_ids`` (int64, ``(batch, tokens)``) and returns ``logits``
``(batch, 1)``; ``sigmoid(logit)`` is the probability of label 1.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Pair:
    """One training example: two texts and a 0/1 label (``kind`` only for reports)."""

    text_a: str
    text_b: str
    label: int
    kind: str = ""


def encode(tokenizer, pairs: Sequence[tuple[str, str]], max_len: int):
    """Token ids, attention mask and type ids for ``pairs``, padded to the longest (numpy int64 arrays).

    ``tokenizer`` is a :class:`tokenizers.Tokenizer` (the model's tokenizer.json); the second text is
    cut so the pair fits ``max_len`` tokens (both, when the first alone is longer). The runtime
    (:class:`paperchat.cite.verifier.Verifier`) encodes the same way.
    """
    import numpy as np

    tokenizer.no_padding()
    encs = []
    for a, b in pairs:
        try:
            tokenizer.enable_truncation(max_length=max_len, strategy="only_second")
            encs.append(tokenizer.encode(a, b))
        except Exception:  # text_a alone is longer than max_len: cut both
            tokenizer.enable_truncation(max_length=max_len, strategy="longest_first")
            encs.append(tokenizer.encode(a, b))
    width = max(len(e.ids) for e in encs)
    ids = np.zeros((len(encs), width), dtype=np.int64)
    mask = np.zeros_like(ids)
    types = np.zeros_like(ids)
    for i, e in enumerate(encs):
        n = len(e.ids)
        ids[i, :n], mask[i, :n], types[i, :n] = e.ids, e.attention_mask, e.type_ids
    return ids, mask, types


def mean_pool_model(base_dir: Path):
    """The encoder in ``base_dir`` with a one-logit head on the mean of its token states (the pooling a
    sentence-embedding base such as all-MiniLM-L6-v2 was trained with), as a ``torch.nn.Module`` whose
    ``forward(input_ids, attention_mask, token_type_ids)`` returns logits ``(batch, 1)``."""
    import torch
    from transformers import AutoModel

    class MeanPoolClassifier(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.encoder = AutoModel.from_pretrained(str(base_dir))
            self.dropout = torch.nn.Dropout(0.1)
            self.classifier = torch.nn.Linear(self.encoder.config.hidden_size, 1)

        def forward(self, input_ids, attention_mask, token_type_ids):
            states = self.encoder(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            weights = attention_mask.unsqueeze(-1).to(states.dtype)
            pooled = (states * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
            return self.classifier(self.dropout(pooled))

    return MeanPoolClassifier()


def logits_of(out):
    """The ``(batch, 1)`` logits of a model output (a Hugging Face output object or a tensor)."""
    return getattr(out, "logits", out)


def train(
    pairs: Sequence[Pair],
    base_dir: Path,
    max_len: int = 128,
    epochs: float = 1.0,
    batch_size: int = 16,
    lr: float = 5e-5,
    head_lr: float | None = None,
    pooling: str = "cls",
    seed: int = 13,
    threads: int = 1,
    log=print,
):
    """Fine-tune the encoder in ``base_dir`` (a Hugging Face model folder) on ``pairs``; returns the model.

    ``pooling`` is ``"cls"`` (Hugging Face's sequence-classification head on [CLS]) or ``"mean"``
    (:func:`mean_pool_model`); ``head_lr`` (default ``lr``) is the new head's learning rate.
    Deterministic for a given seed, data and thread count (one thread by default: on a 2-core machine
    shared with other work, two torch threads ran a step 2-3x slower than one): shuffling is seeded,
    batches are sorted into length buckets (less padding on CPU), linear warm-up (6%) then linear decay.
    ``epochs`` may be fractional. Prints the running loss every 50 steps through ``log``.
    """
    import numpy as np
    import torch
    from tokenizers import Tokenizer
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    torch.use_deterministic_algorithms(True)
    tokenizer = Tokenizer.from_file(str(base_dir / "tokenizer.json"))
    if pooling == "mean":
        model = mean_pool_model(base_dir)
    else:
        model = AutoModelForSequenceClassification.from_pretrained(str(base_dir), num_labels=1)
    model.train()
    rng = random.Random(seed)
    order = list(range(len(pairs)))
    steps_total = math.ceil(len(pairs) * epochs / batch_size)
    head = [p for n, p in model.named_parameters() if n.startswith("classifier")]
    body = [p for n, p in model.named_parameters() if not n.startswith("classifier")]
    optim = torch.optim.AdamW(
        [{"params": body, "lr": lr}, {"params": head, "lr": head_lr or lr}], weight_decay=0.01
    )
    warm = max(1, int(0.06 * steps_total))
    sched = torch.optim.lr_scheduler.LambdaLR(
        optim,
        lambda s: min((s + 1) / warm, max(0.0, (steps_total - s) / max(1, steps_total - warm))),
    )
    loss_fn = torch.nn.BCEWithLogitsLoss()
    step, t0, running = 0, time.perf_counter(), []
    while step < steps_total:
        rng.shuffle(order)
        # length buckets: sort chunks of 50 batches by length, then shuffle the batches
        chunk = batch_size * 50
        batches = []
        for start in range(0, len(order), chunk):
            part = sorted(
                order[start : start + chunk],
                key=lambda i: len(pairs[i].text_a) + len(pairs[i].text_b),
            )
            batches += [part[j : j + batch_size] for j in range(0, len(part), batch_size)]
        rng.shuffle(batches)
        for batch in batches:
            if step >= steps_total:
                break
            ids, mask, types = encode(
                tokenizer, [(pairs[i].text_a, pairs[i].text_b) for i in batch], max_len
            )
            labels = torch.tensor([float(pairs[i].label) for i in batch])
            out = model(
                input_ids=torch.from_numpy(ids),
                attention_mask=torch.from_numpy(mask),
                token_type_ids=torch.from_numpy(types),
            )
            loss = loss_fn(logits_of(out).squeeze(-1), labels)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optim.step()
            sched.step()
            optim.zero_grad()
            running.append(float(loss.detach()))
            step += 1
            if step % 50 == 0 or step == steps_total:
                log(
                    f"step {step}/{steps_total}  loss {np.mean(running[-50:]):.4f}  "
                    f"{time.perf_counter() - t0:.0f} s"
                )
    model.eval()
    return model


def export_onnx(model, path: Path, quantize: bool = True) -> Path:
    """Write ``model`` as ONNX to ``path`` (opset 17, dynamic batch and length); with ``quantize``, replace it
    by its dynamic int8 quantization (weights int8, activations quantized at run time). Returns ``path``."""
    import torch
    from onnxruntime.quantization import QuantType, quantize_dynamic

    path.parent.mkdir(parents=True, exist_ok=True)
    fp32 = path.with_suffix(".fp32.onnx")
    dummy = torch.ones(1, 16, dtype=torch.long)
    names = ["input_ids", "attention_mask", "token_type_ids"]
    torch.onnx.export(
        model,
        (dummy, dummy, torch.zeros_like(dummy)),
        str(fp32),
        input_names=names,
        output_names=["logits"],
        dynamic_axes={n: {0: "batch", 1: "tokens"} for n in names},
        opset_version=17,
        dynamo=False,
    )
    if quantize:
        quantize_dynamic(str(fp32), str(path), weight_type=QuantType.QInt8)
        fp32.unlink()
    else:
        fp32.replace(path)
    return path


def predict_torch(
    model,
    tokenizer_path: Path,
    pairs: Sequence[tuple[str, str]],
    max_len: int,
    batch_size: int = 32,
) -> list[float]:
    """``sigmoid(logit)`` of each pair with the (fp32) torch model, for comparison with its ONNX export."""
    import torch
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    out: list[float] = []
    with torch.no_grad():
        for start in range(0, len(pairs), batch_size):
            ids, mask, types = encode(tokenizer, pairs[start : start + batch_size], max_len)
            logits = logits_of(
                model(
                    input_ids=torch.from_numpy(ids),
                    attention_mask=torch.from_numpy(mask),
                    token_type_ids=torch.from_numpy(types),
                )
            )[:, 0]
            out += torch.sigmoid(logits).tolist()
    return out


def predict(
    onnx_path: Path,
    tokenizer_path: Path,
    pairs: Sequence[tuple[str, str]],
    max_len: int,
    threads: int = 2,
    batch_size: int = 32,
) -> list[float]:
    """``sigmoid(logit)`` of each pair with the ONNX model (onnxruntime, ``threads`` intra-op threads)."""
    import numpy as np
    import onnxruntime as ort
    from tokenizers import Tokenizer

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    session = ort.InferenceSession(str(onnx_path), opts, providers=["CPUExecutionProvider"])
    tokenizer = Tokenizer.from_file(str(tokenizer_path))
    out: list[float] = []
    for start in range(0, len(pairs), batch_size):
        ids, mask, types = encode(tokenizer, pairs[start : start + batch_size], max_len)
        logits = session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}
        )[0][:, 0]
        out += [float(x) for x in 1 / (1 + np.exp(-logits))]
    return out
