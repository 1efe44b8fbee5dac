"""From corpus files to what the store keeps: papers, labels, chunks, embeddings, sentence vectors,
the ingest plan (pure decisions) and the run that embeds in batches and resumes."""
