"""The box's own network: NetworkManager's commands (nmcli) and the hotspot fallback."""
