"""Generation: the pipeline and its stages, problem sources, stamps, levels and the whole benchmark."""
