"""The club: a table reports to an MQTT broker (`publisher`), `parlour club` keeps one league
over every table (`league_server`); topics and payloads in `topics`."""
