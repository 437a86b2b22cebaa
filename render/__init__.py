"""Pillow pictures of game states: one module per game, and the pieces they share:
`colours`, `text`, `shapes` (drawing), `palette`, `png`, `deflate` (encoding)."""
