"""``t400 serve``: a local page and a JSON API over the ``t400`` commands (extra ``serve``).

The flow stays one way: web -> cli (parsing, checks and the ``--json`` objects) -> analyzer -> kernels.
"""
