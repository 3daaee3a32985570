"""Our number for each claim of a paper (``claims/<paper>.toml``), from its reproduction's result:
one module per paper with ``measure(result) -> {claim id: ours}`` and ``NOTES`` (the reading each
measurement takes where the paper can be read more than one way). A claim a module leaves out is
not measured."""
