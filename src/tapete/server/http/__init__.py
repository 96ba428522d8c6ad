"""HTTP: the ASGI app, the bet lane, the edge's security, sessions, views, the pages and the stream's fan-out."""
