"""The browser client: static HTML, CSS and ES modules served by the server (``static/``)."""
