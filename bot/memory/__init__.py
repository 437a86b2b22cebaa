"""The group's memory (issue 15): finished games recorded with their replays, ratings
(OpenSkill, Plackett–Luce) per game per chat and overall, seasons, and the commands that
show them (bot/handlers/memory.py)."""
