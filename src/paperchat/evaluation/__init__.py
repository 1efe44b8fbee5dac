"""The grounding eval: question sets, per-question measures, statistics, the runner and reports
(and ``bench``, the speed and memory figures)."""
