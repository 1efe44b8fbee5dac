"""The speed benchmarks of ``paperchat bench``: warm figures in one process (:mod:`.speed`), fresh processes
as a shell starts them (:mod:`.cold`), and an instant loopback LLM server to time answers against
(:mod:`.instant_llm`)."""
