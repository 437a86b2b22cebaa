"""Pillow pictures of game states: one module per game, shared helpers in `render.common`."""
