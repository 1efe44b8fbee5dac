"""Question authoring: ``paperchat eval draft`` drafts a question set from the papers in the store
(:mod:`~paperchat.evaluation.authoring.draft`), from offline templates and, optionally, an LLM."""
