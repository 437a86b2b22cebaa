"""The Telegram bot «Настолка» (aiogram 3)."""
