"""The FastAPI app (REST + WebSocket) and the static dashboard it serves."""
