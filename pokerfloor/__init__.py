"""pokerfloor: dealer-assist web application for live poker rooms."""
