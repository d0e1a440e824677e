"""The server's refusals in the viewer's language (translate.py: the catalogues and the
matching; language.py: which language a request wants; middleware.py: the error bodies)."""
