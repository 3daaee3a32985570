"""Each reproduction's typed result (``<module>.py``: its ``Record``s, ``RESULT`` the whole), which
its ``compute`` builds and its measurements read by attribute (``reproduce.record``)."""
