"""Reports people would rather look at than read: figures in the papers' forms (:mod:`.plots`) and
one self-contained HTML page (:mod:`.html`) for an experiment (:mod:`.experiment`) or a
reproduction (:mod:`.reproduction`). docs/EXPERIMENTS.md."""
