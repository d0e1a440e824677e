"""The API's routes by concern, each module's ``add_*_routes(app, ctx)`` adding its own to the app
(server/app.py adds them in the order /openapi.json lists them); ``ctx`` is server/context.py's Api."""
