"""The Flask app: status page, JSON API, live stream, PIN control and the /device panel."""
