"""Start page and health check."""
