"""Answers: the mode decision, the offline extractive answerer, prompts, the LLM client and LLM answers,
and what summaries are about."""
