"""A question not in English that abstains says the abstracts are in English (an MCP session: Spanish, French
and Chinese questions had abstained with no note, though 14 abstracts write "machine unlearning")."""

from __future__ import annotations

import pytest

from paperchat.core.text import not_in_english


@pytest.mark.parametrize(
    "question, foreign",
    [
        ("¿Qué es el desaprendizaje automático (machine unlearning)?", True),
        ("扩散模型如何与人类偏好对齐？", True),
        ("Comment les modèles de diffusion sont-ils alignés avec les préférences humaines ?", True),
        ("What is machine unlearning?", False),
        ("Which papers did Ricardo Baptista de la Cruz write?", False),  # a name's particles
        ("Is the EL algorithm used for LLMs?", False),
    ],
)
def test_a_question_not_in_english(question, foreign):
    assert not_in_english(question) is foreign


def test_words_neither_english_nor_the_papers_tell_german_and_portuguese(bundled_engine):
    # the verifying helper: German and Portuguese questions still abstained without the note
    is_word = bundled_engine._is_word
    assert not_in_english("Was ist maschinelles Verlernen (machine unlearning)?", is_word)
    assert not_in_english("O que é decodificação especulativa?", is_word)
    # slips of English, and accented names, are no other language
    assert not not_in_english("What does the quokka routing algortihm acheive?", is_word)
    assert not not_in_english("What is the Schrödinger bridge in Müller et al.?", is_word)


def test_an_abstention_on_a_question_not_in_english_says_so(bundled_engine):
    from paperchat.engine import NOT_ENGLISH

    answer = bundled_engine.ask("扩散模型如何与人类偏好对齐？", mode="extractive")
    assert answer.abstained and answer.notes[-1] == NOT_ENGLISH
    english = bundled_engine.ask("What is the boiling point of tungsten?", mode="extractive")
    assert english.abstained and NOT_ENGLISH not in english.notes
