"""Model training for paperchat (outside the installed package; needs the ``train`` extra): a generic
(text_a, text_b) -> label cross-encoder trainer with ONNX export, and the citation verifier built with it."""
